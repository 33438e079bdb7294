package daemon

import (
	"time"

	"github.com/pbem/pbem/internal/playclock"
	"github.com/pbem/pbem/internal/timebank"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// Quiet hours and weekends off (issue 38): every deadline pbem sets for a
// person's seat is counted on his clock (playclock), and which clock wins
// is docs/commands.md's rule: a vacation first (his time starts when it
// ends, turnStart), then the game's time counted without the days off,
// then an end inside his quiet hours moves to their end. A bot's seat, a
// resigned seat and one on autopilot are played by pbem at once: nobody
// is waited on, so they have no night.

// reminderMargin is how long before a player's quiet hours start a
// reminder step that would fall inside them is sent instead: early enough
// that the sweep and the mail system deliver it before his night.
const reminderMargin = 15 * time.Minute

// playerClock is the clock of the player p in a game with or without
// weekends off (timebank.PlayerClock: the pages read banks on it too).
func playerClock(p store.Player, weekendsOff bool) playclock.Clock {
	return timebank.PlayerClock(p, weekendsOff)
}

// seatClock is the clock of the seat's player in game g. A seat nobody
// answers for (a bot's, a resigned one, one on autopilot) has none that
// stops: pbem plays it at once.
func (w *work) seatClock(g store.Game, st store.Seat) (playclock.Clock, error) {
	if st.Address == "" || st.Bot != "" || st.State == store.SeatResigned || st.Autopilot {
		return playclock.Clock{Zone: time.UTC}, nil
	}
	p, err := w.tx.Player(w.ctx, st.Address)
	if err != nil {
		return playclock.Clock{}, err
	}
	return playerClock(p, g.WeekendsOff), nil
}

// reminderAt is when the reminder step lead before deadline is sent on
// clock: at the step, or when the step falls inside the player's quiet
// hours (or less than reminderMargin before they start), reminderMargin
// before they start. Before rather than after: a deadline never ends
// inside quiet hours, so their start is always before it, and the player
// still has the evening to answer; after them could be the deadline
// itself (a deadline moved to their end). Later steps never come before
// earlier ones; steps that meet are sent once, as the later.
func reminderAt(c playclock.Clock, deadline time.Time, lead time.Duration) time.Time {
	return c.BeforeQuiet(deadline.Add(-lead), reminderMargin)
}

// openSecond is the first whole second at or after t at which the clock
// lets a deadline end (playclock.Clock.Open): deadlines are stored to the
// second.
func openSecond(c playclock.Clock, t time.Time) time.Time {
	t = c.Open(t)
	if s := t.Truncate(time.Second); !s.Equal(t) {
		t = c.Open(s.Add(time.Second))
	}
	return t
}

// reopenDeadlines moves each deadline of the player's seats in active
// games that now lies inside his quiet hours or on a day off to their
// end, with its reminder steps: after he changes his quiet hours or zone,
// and after a vacation moved his deadlines by its length. It returns how
// many it moved.
func (w *work) reopenDeadlines(address string) (int, error) {
	games, err := w.tx.GamesOf(w.ctx, address)
	if err != nil {
		return 0, err
	}
	moved := 0
	for _, g := range games {
		if g.Status != store.StatusActive {
			continue
		}
		seats, err := w.tx.Seats(w.ctx, g.ID)
		if err != nil {
			return moved, err
		}
		for _, st := range seats {
			if st.Address != address || st.Deadline.IsZero() {
				continue
			}
			clock, err := w.seatClock(g, st)
			if err != nil {
				return moved, err
			}
			open := openSecond(clock, st.Deadline)
			if open.Equal(st.Deadline) {
				continue
			}
			if err := w.tx.SetDeadline(w.ctx, g.ID, st.Seat, open); err != nil {
				return moved, err
			}
			if err := w.nextReminder(g.ID, st.Seat, clock, open, w.decisionSpan(g, st), w.now()); err != nil {
				return moved, err
			}
			moved++
		}
	}
	return moved, nil
}

// quietSentence is what a player's first mail of a game says of his
// quiet hours, and how he changes them.
func quietSentence(p store.Player) string {
	loc, say := playerLocation(p), templates.For(p.Language)
	if p.QuietStart == p.QuietEnd {
		return say.YourQuietHoursOff()
	}
	return say.YourQuietHours(p.QuietStart, p.QuietEnd, loc)
}

// deadlineNote says, in a game mail, why the seat's deadline falls when
// his quiet hours or the game's weekend end, when it does: such a
// deadline was, or could have been, moved there. "" otherwise.
func (w *work) deadlineNote(g store.Game, st store.Seat, say templates.Words) (string, error) {
	if st.Deadline.IsZero() {
		return "", nil
	}
	clock, err := w.seatClock(g, st)
	if err != nil {
		return "", err
	}
	before := st.Deadline.Add(-time.Second)
	if !clock.Closed(before) || clock.Closed(st.Deadline) {
		return "", nil
	}
	at := say.Date(st.Deadline.In(clock.Zone), say.TimeOfDayLayout())
	if clock.IsWeekend(before) {
		return say.DeadlineAfterWeekend(at), nil
	}
	return say.DeadlineAfterQuiet(at), nil
}

// noteZoneGuess records the zone the Date of the mail in hand suggests
// for its sender p, while his deadlines are shown in UTC and he was not
// asked yet: his first game mail suggests it (askZone). It writes only
// when the guess changes.
func (w *work) noteZoneGuess(p store.Player) error {
	if w.msg.Date.IsZero() || p.TimeZone != time.UTC.String() || p.ZoneAsked {
		return nil
	}
	guess := playclock.GuessZone(w.msg.Date)
	if guess == "" || guess == p.ZoneGuess {
		return nil
	}
	return w.tx.SetPlayerZoneGuess(w.ctx, p.Address, guess)
}

// askZone is, once, in the first game mail of a player whose deadlines
// are shown in UTC, the question whether he lives elsewhere, with the
// zone his mail's Date suggests; "" after that, and for a player who set
// his zone.
func (w *work) askZone(p store.Player) (string, error) {
	if p.TimeZone != time.UTC.String() || p.ZoneAsked {
		return "", nil
	}
	if err := w.tx.SetPlayerZoneAsked(w.ctx, p.Address); err != nil {
		return "", err
	}
	return templates.For(p.Language).AskTimeZone(p.ZoneGuess), nil
}
