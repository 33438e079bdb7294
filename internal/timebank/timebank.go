// Package timebank says what a player's time bank holds (issue 38, `new
// ... clock 2d+12h max 5d`): the one rule the turn loop, which moves
// the banks, and the seat pages, which show them, share, so that a mail
// and a page never disagree.
//
// A seat's bank is stored as what it held when its pending decision
// began (store.Seat.Bank), and the decision's deadline is when that
// bank runs out on the player's clock (playclock.Clock.BankEnd: his
// quiet hours and the game's days off do not count). What is left at
// any moment is therefore the counting time from then to the deadline;
// a vacation stops it, since the time before his return does not count
// either. Nothing here writes: the turn loop stores what Left and After
// say.
package timebank

import (
	"context"
	"time"
	_ "time/tzdata" // time zones work even where the system has no tzdata

	"github.com/pbem/pbem/internal/playclock"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// Reader is what a bank's reading needs from the store: the players'
// clocks and vacations. *store.Store and *store.Tx are Readers.
type Reader interface {
	Player(ctx context.Context, address string) (store.Player, error)
	AwayUntil(ctx context.Context, address string) (time.Time, error)
}

// Location is the player's time zone, UTC when he set none (or one this
// machine does not know).
func Location(p store.Player) *time.Location {
	loc, err := time.LoadLocation(p.TimeZone)
	if err != nil {
		return time.UTC
	}
	return loc
}

// PlayerClock is the clock of the player p in a game with or without
// weekends off: his zone and his quiet hours.
func PlayerClock(p store.Player, weekendsOff bool) playclock.Clock {
	return playclock.Clock{
		Zone:        Location(p),
		Quiet:       playclock.Quiet{On: p.QuietStart != p.QuietEnd, Start: p.QuietStart, End: p.QuietEnd},
		WeekendsOff: weekendsOff,
	}
}

// Left is what the seat's bank holds at now, on its player's clock:
// the stored bank when the game waits for nothing from the seat; none
// for a seat on autopilot (its bank ran out); else the counting time
// from now, or from the end of his vacation (awayUntil) when that is
// later, to the deadline. Whole seconds, as deadlines are stored.
func Left(st store.Seat, clock playclock.Clock, awayUntil, now time.Time) time.Duration {
	if st.Autopilot {
		return 0
	}
	if st.Deadline.IsZero() {
		return st.Bank
	}
	from := now.Truncate(time.Second)
	if awayUntil.After(from) {
		from = awayUntil
	}
	if !st.Deadline.After(from) {
		return 0
	}
	return clock.Counted(from, st.Deadline).Truncate(time.Second)
}

// After is the bank after a decision ended by the player's own move with
// left on his clock: left plus the game's increment, never more than its
// cap. A bank that ran out (left 0) gets nothing: pbem moved for him.
func After(b store.Bank, left time.Duration) time.Duration {
	if left <= 0 {
		return 0
	}
	left += b.Increment
	if b.Max > 0 && left > b.Max {
		left = b.Max
	}
	return left
}

// Restart is the bank of a player who takes back his seat after his bank
// ran out: one increment, or the game's start when its clock adds none.
func Restart(b store.Bank) time.Duration {
	if b.Increment > 0 {
		return b.Increment
	}
	return b.Start
}

// SeatLeft is Left for a seat of game g, reading its player's clock and
// vacation from r.
func SeatLeft(ctx context.Context, r Reader, g store.Game, st store.Seat, now time.Time) (time.Duration, error) {
	left, _, err := seatLeft(ctx, r, g, st, now)
	return left, err
}

// seatLeft is SeatLeft, and whether the bank runs down at now: the game
// waits on the seat, and its player is not away on vacation.
func seatLeft(ctx context.Context, r Reader, g store.Game, st store.Seat, now time.Time) (time.Duration, bool, error) {
	if st.Deadline.IsZero() || st.Autopilot || st.Address == "" {
		return Left(st, playclock.Clock{}, time.Time{}, now), false, nil
	}
	p, err := r.Player(ctx, st.Address)
	if err != nil {
		return 0, false, err
	}
	away, err := r.AwayUntil(ctx, st.Address)
	if err != nil {
		return 0, false, err
	}
	return Left(st, PlayerClock(p, g.WeekendsOff), away, now), !away.After(now), nil
}

// Clocks are the banks of the game's seats as its mails and pages show
// them, in seat order: none in a game without a bank or one that is not
// going on. A bot's seat and a resigned one have no clock worth showing:
// nobody is waited on there.
func Clocks(ctx context.Context, r Reader, g store.Game, seats []store.Seat, now time.Time) ([]templates.SeatClock, error) {
	if !g.Bank.On() || (g.Status != store.StatusActive && g.Status != store.StatusPaused) {
		return nil, nil
	}
	out := []templates.SeatClock{}
	for _, st := range seats {
		if st.Bot != "" || st.State == store.SeatResigned {
			continue
		}
		if g.Status == store.StatusPaused {
			// Its deadlines stand still, and resume starts each
			// decision again with the bank it began with.
			st.Deadline = time.Time{}
		}
		c, err := SeatClock(ctx, r, g, st, now)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// SeatClock is the seat's bank as its mails show it, at now.
func SeatClock(ctx context.Context, r Reader, g store.Game, st store.Seat, now time.Time) (templates.SeatClock, error) {
	left, running, err := seatLeft(ctx, r, g, st, now)
	if err != nil {
		return templates.SeatClock{}, err
	}
	return templates.SeatClock{Name: st.Name, Left: left, Running: running, Autopilot: st.Autopilot}, nil
}
