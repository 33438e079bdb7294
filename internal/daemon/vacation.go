package daemon

import (
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/internal/loaded"
	"github.com/pbem/pbem/parser"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// A vacation stops a player's clocks in every game of his. The rules,
// which docs/commands.md tells players in words:
//
//   - `vacation N` (days; Nw for weeks) is away from now for N×24 hours;
//     `vacation until DATE` is away until the end of that day in his time
//     zone (00:00 of the next day).
//   - His deadlines in every running game are pushed by the length of the
//     vacation: a deadline with 30 hours left when he leaves has 30 hours
//     left when he is back. A decision that comes while he is away gets
//     its full turn time from his return. Paused games are left alone:
//     their deadlines stand still anyway, and resume gives fresh ones,
//     from his return if he is away.
//   - Reminders and default moves key on the deadline, so none falls due
//     while he is away.
//   - He may take service.vacation_days a calendar year of his time zone.
//     A vacation counts its days (24 hours each, rounded up) in the year
//     it starts; `back` gives the days not used back.
//   - `vacation` while away extends the vacation to the new end (never
//     shortens it: that is what `back` is for).
//   - `back` ends it now: his deadlines move earlier by the part not used,
//     so each again has the time it had when he left (or the full turn
//     time for a decision that came while he was away), never less than
//     none.
//   - Every table of his running or paused games is told when he leaves
//     and until when, and when he is back (at `back`, or at the sweep
//     after the vacation ran out).

// day is what a vacation's days count in.
const day = 24 * time.Hour

// onVacation reports whether the player is away now and until when. It is
// true from `vacation` until `back` or the end of the vacation; the sweep
// after the end (returnFromVacation) tells his tables, but a vacation that has
// run out no longer counts while that sweep is still to come.
func (w *work) onVacation(address string) (bool, time.Time, error) {
	until, err := w.tx.AwayUntil(w.ctx, address)
	if err != nil {
		return false, time.Time{}, err
	}
	return until.After(w.now()), until, nil
}

// turnStart is when the time of a decision that starts now begins for
// the player at address: now, or his return when he is away on vacation,
// so that a vacation never costs him time (reminders.go, startDecision
// and freshDeadline).
func (w *work) turnStart(address string) (time.Time, error) {
	from := w.now()
	if address != "" {
		away, until, err := w.onVacation(address)
		if err != nil {
			return time.Time{}, err
		}
		if away && until.After(from) {
			from = until
		}
	}
	return from, nil
}

// vacationDays is how many days a vacation from start to until counts:
// each begun 24 hours a day.
func vacationDays(start, until time.Time) int {
	d := until.Sub(start)
	if d <= 0 {
		return 0
	}
	return int((d + day - 1) / day)
}

// daysTaken counts the days of the player's vacations that start in the
// calendar year (in loc) of at, leaving out the vacation skip.
func (w *work) daysTaken(address string, loc *time.Location, at time.Time, skip int64) (int, error) {
	y := at.In(loc).Year()
	from := time.Date(y, time.January, 1, 0, 0, 0, 0, loc)
	vs, err := w.tx.Vacations(w.ctx, address, from, from.AddDate(1, 0, 0))
	if err != nil {
		return 0, err
	}
	n := 0
	for _, v := range vs {
		if v.ID != skip {
			n += vacationDays(v.Start, v.Until)
		}
	}
	return n, nil
}

// awayFormat shows the end of a vacation in the words w: in the
// player's own zone, named, since the table may live in others.
func awayFormat(w templates.Words, t time.Time) string { return w.Date(t, w.ClockLayout()) }

// vacation applies `vacation N` and `vacation until DATE` and says what
// it did, or why not.
func (w *work) vacation(c parser.Command) (string, error) {
	p, err := w.tx.Player(w.ctx, w.from)
	if err != nil {
		return "", err
	}
	loc := playerLocation(p)
	now := w.now().Truncate(time.Second)
	var until time.Time
	switch c.Args[0] {
	case "days":
		n, err := strconv.Atoi(c.Args[1])
		if err != nil {
			return "", fmt.Errorf("daemon: vacation days %q: %w", c.Args[1], err)
		}
		until = now.Add(time.Duration(n) * day)
	case "until":
		date, err := time.ParseInLocation(time.DateOnly, c.Args[1], loc)
		if err != nil {
			return "", fmt.Errorf("daemon: vacation date %q: %w", c.Args[1], err)
		}
		until = date.AddDate(0, 0, 1) // the end of that day
		if !until.After(now) {
			return w.words.VacationDateInPast(w.words.Date(date, w.words.DateLayout()), awayFormat(w.words, now.In(loc)), loc), nil
		}
	default:
		return "", fmt.Errorf("daemon: vacation %q", c.Args)
	}
	allowance := w.cfg.VacationDays
	if allowance == 0 {
		return w.words.NoVacationsAllowed(), nil
	}
	cur, err := w.tx.CurrentVacation(w.ctx, w.from)
	away := err == nil
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return "", err
	}
	if away && !cur.Until.After(now) {
		// It ran out and the sweep has not ended it yet: end it now,
		// so that this one is a vacation of its own.
		if _, err := w.endVacation(cur, loc, false); err != nil {
			return "", err
		}
		away, cur = false, store.Vacation{}
	}
	start, pushFrom := now, now
	if away {
		if !until.After(cur.Until) {
			return w.words.VacationCannotShorten(awayFormat(w.words, cur.Until.In(loc))), nil
		}
		start, pushFrom = cur.Start, cur.Until
	}
	taken, err := w.daysTaken(w.from, loc, start, cur.ID)
	if err != nil {
		return "", err
	}
	days := vacationDays(start, until)
	year := start.In(loc).Year()
	if taken+days > allowance {
		if away {
			// The vacation's own days are taken already: say what the
			// extension adds and what is left beside them.
			had := vacationDays(cur.Start, cur.Until)
			return w.words.VacationExtensionOverAllowance(days-had, max(allowance-taken-had, 0), allowance, year), nil
		}
		return w.words.VacationOverAllowance(days, max(allowance-taken, 0), allowance, year), nil
	}
	err = w.keepBanks(w.from, func() error {
		if _, err := w.tx.ShiftDeadlines(w.ctx, w.from, until.Sub(pushFrom), time.Time{}); err != nil {
			return err
		}
		// Moved by the vacation's length, a deadline may land in his night.
		if _, err := w.reopenDeadlines(w.from); err != nil {
			return err
		}
		if away {
			return w.tx.ExtendVacation(w.ctx, cur, until)
		}
		_, err := w.tx.StartVacation(w.ctx, w.from, start, until)
		return err
	})
	if err != nil {
		return "", err
	}
	games, held, err := w.tellTables(func(name string) (string, *engine.Phrase) {
		p := templates.Phrases.PlayerAway(name, until.In(loc))
		return templates.Say.PlayerAway(name, awayFormat(templates.Say, until.In(loc))), &p
	})
	if err != nil {
		return "", err
	}
	return w.words.YouAreAwayUntil(awayFormat(w.words, until.In(loc)), games, days, allowance-taken-days, allowance, year, heldNews(w.words, held, games)), nil
}

// back applies `back`: the vacation ends now, the unused part is given
// back to the player's deadlines and to his allowance.
func (w *work) back() (string, error) {
	cur, err := w.tx.CurrentVacation(w.ctx, w.from)
	if errors.Is(err, store.ErrNotFound) {
		return w.words.NotOnVacation(), nil
	}
	if err != nil {
		return "", err
	}
	p, err := w.tx.Player(w.ctx, w.from)
	if err != nil {
		return "", err
	}
	return w.endVacation(cur, playerLocation(p), true)
}

// endVacation ends the player's vacation now: at `back` (early), or at
// the sweep once it ran out. It pulls his deadlines back by the part not
// used and tells his tables.
func (w *work) endVacation(cur store.Vacation, loc *time.Location, early bool) (string, error) {
	now := w.now().Truncate(time.Second)
	err := w.keepBanks(cur.Address, func() error {
		if unused := cur.Until.Sub(now); unused > 0 {
			if _, err := w.tx.ShiftDeadlines(w.ctx, cur.Address, -unused, now); err != nil {
				return err
			}
			if _, err := w.reopenDeadlines(cur.Address); err != nil {
				return err
			}
		} else {
			now = cur.Until // ran out: it counts until its planned end
		}
		return w.tx.EndVacation(w.ctx, cur, now)
	})
	if err != nil {
		return "", err
	}
	if err := w.digestAfterVacation(cur.Address); err != nil {
		return "", err
	}
	games, held, err := w.tellTables(func(name string) (string, *engine.Phrase) {
		p := templates.Phrases.PlayerBackFromVacation(name)
		return templates.Say.PlayerBackFromVacation(name), &p
	})
	if err != nil {
		return "", err
	}
	if !early {
		return "", nil
	}
	taken, err := w.daysTaken(cur.Address, loc, cur.Start, 0)
	if err != nil {
		return "", err
	}
	return w.words.WelcomeBackFromVacation(vacationDays(cur.Start, now), max(w.cfg.VacationDays-taken, 0), w.cfg.VacationDays, cur.Start.In(loc).Year(), heldNews(w.words, held, games)), nil
}

// tellTables tells every running or paused game of t.from's what says of
// him. The others are mailed as their settings ask (hasResult counts it
// as news every table needs) once the turn's work is done (mailTables),
// at most tableNewsPerDay times a day for his vacations; past that they
// read it with their next mail. It returns how many games were told, and
// how many of them will not be mailed about it. says gives the event's
// English and its phrase (nil for none).
func (w *work) tellTables(says func(name string) (string, *engine.Phrase)) (told, held int, err error) {
	games, err := w.tx.GamesOf(w.ctx, w.from)
	if err != nil {
		return 0, 0, err
	}
	for _, g := range games {
		if (g.Status != store.StatusActive && g.Status != store.StatusPaused) || g.Aside != "" {
			continue // a broken game cannot be loaded; its deadlines are fresh when it is repaired
		}
		lg, err := w.loadGame(g.ID)
		if err != nil {
			return 0, 0, err
		}
		mine := -1
		for _, st := range lg.Seats {
			if st.Address == w.from && st.State != store.SeatResigned {
				mine = st.Seat
			}
		}
		if mine < 0 {
			continue
		}
		// The player himself has his answer: the others are told.
		text, say := says(lg.Seats[mine].Name)
		ev := loaded.StoreEvents([]engine.Event{{To: engine.Others(mine), Kind: string(EventVacation), Text: text, Say: say}})
		if err := w.tx.AppendEvents(w.ctx, g.ID, lg.Row.LastSeq, ev); err != nil {
			return 0, 0, err
		}
		mail, err := w.tableNews(g.ID)
		if err != nil {
			return 0, 0, err
		}
		if !mail {
			held++
		}
		told++
	}
	return told, held, nil
}

// returnFromVacation ends the vacation of addr, found over by the sweep,
// and tells his tables. Another node may have ended it meanwhile, the
// player sent back, or he extended it: it reads his current vacation
// again, and ends it only if he is still away and its end has come.
func (w *work) returnFromVacation(addr string) error {
	w.bounds = mailBounds{}
	cur, err := w.tx.CurrentVacation(w.ctx, addr)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	// Extended since the sweep found it over: he is still away.
	until, err := w.tx.AwayUntil(w.ctx, addr)
	if err != nil {
		return err
	}
	if until.After(w.now()) {
		return nil
	}
	p, err := w.tx.Player(w.ctx, addr)
	if err != nil {
		return err
	}
	if _, err := w.endVacation(cur, playerLocation(p), false); err != nil {
		return err
	}
	if err := w.mailTables(); err != nil {
		return err
	}
	return w.enqueue()
}
