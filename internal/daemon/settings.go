package daemon

import (
	"fmt"
	"strconv"
	"time"
	_ "time/tzdata" // time zones work even where the system has no tzdata

	"github.com/pbem/pbem/engine/bot"
	"github.com/pbem/pbem/internal/timebank"
	"github.com/pbem/pbem/parser"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// setting applies a player's setting (notify, timezone, quiet) and says what it
// did, or why not. seat is the seat of the game's thread the command came
// in, nil at pbem's own address: `notify SETTING here` needs one.
func (w *work) setting(c parser.Command, seat *store.Seat) (string, error) {
	switch c.Kind {
	case parser.KindNotify:
		if c.ThisGame {
			if seat == nil {
				w.detail = "setting not done: here needs a game's thread"
				return w.words.NotifyHereNeedsGameThread(c.Text), nil
			}
			return w.setGameNotify(seat, store.Notify(c.Args[0]))
		}
		return w.setNotify(c.Args)
	case parser.KindConfirm:
		on := c.Args[0] == "on"
		if err := w.tx.SetPlayerConfirm(w.ctx, w.from, on); err != nil {
			return "", err
		}
		if on {
			return w.words.ConfirmIsOn(), nil
		}
		return w.words.ConfirmIsOff(), nil
	case parser.KindTimezone:
		loc, err := time.LoadLocation(c.Args[0])
		if err != nil || c.Args[0] == "" || c.Args[0] == "Local" {
			return w.words.UnknownTimeZone(c.Args[0]), nil
		}
		var moved int
		err = w.keepBanks(w.from, func() error {
			if err := w.tx.SetPlayerTimeZone(w.ctx, w.from, loc.String()); err != nil {
				return err
			}
			var err error
			moved, err = w.reopenDeadlines(w.from)
			return err
		})
		if err != nil {
			return "", err
		}
		// A digest goes out at its hour in the player's zone: the new
		// zone moves it.
		if p, err := w.tx.Player(w.ctx, w.from); err != nil {
			return "", err
		} else if p.Notify == store.NotifyDigest {
			if err := w.tx.SetPlayerDigest(w.ctx, w.from, p.DigestHour, nextDigest(w.now(), loc, p.DigestHour)); err != nil {
				return "", err
			}
		}
		return w.words.TimeZoneSet(loc, w.words.Date(w.now().In(loc), w.words.ClockLayout())) + w.words.DeadlinesMovedOutOfQuiet(moved), nil
	case parser.KindQuiet:
		return w.setQuiet(c.Args)
	case parser.KindLanguage:
		return w.setLanguage(c)
	}
	return "", fmt.Errorf("daemon: %q is not a setting", c.Name)
}

// setQuiet applies `quiet FROM-TO` and `quiet off`, moves the deadlines
// the new quiet hours hold to their end, and says what they do.
func (w *work) setQuiet(args []string) (string, error) {
	start, end := 0, 0 // off: the same hour twice (store.Player)
	if args[0] != parser.QuietOff {
		var err1, err2 error
		start, err1 = strconv.Atoi(args[0])
		end, err2 = strconv.Atoi(args[1])
		if err1 != nil || err2 != nil {
			return "", fmt.Errorf("daemon: quiet hours %q", args)
		}
	}
	var moved int
	err := w.keepBanks(w.from, func() error {
		if err := w.tx.SetPlayerQuiet(w.ctx, w.from, start, end); err != nil {
			return err
		}
		var err error
		moved, err = w.reopenDeadlines(w.from)
		return err
	})
	if err != nil {
		return "", err
	}
	p, err := w.tx.Player(w.ctx, w.from)
	if err != nil {
		return "", err
	}
	if start == end {
		return w.words.QuietOff(), nil
	}
	return w.words.QuietSet(start, end, playerLocation(p), w.standIn().in(w.words).movesForYou()) + w.words.DeadlinesMovedOutOfQuiet(moved), nil
}

// setNotify applies `notify VALUE [HOUR]` and says what the player will
// get from now on, in the words of docs/playing.md's table.
func (w *work) setNotify(args []string) (string, error) {
	n := store.Notify(args[0])
	if err := w.tx.SetPlayerNotify(w.ctx, w.from, n); err != nil {
		return "", err
	}
	switch n {
	case store.NotifyNormal:
		return w.words.NotifyNormalSet(), nil
	case store.NotifyAll:
		return w.words.NotifyAllSet(), nil
	case store.NotifyTurns:
		return w.words.NotifyTurnsSet(), nil
	case store.NotifyDigest:
		p, err := w.tx.Player(w.ctx, w.from)
		if err != nil {
			return "", err
		}
		hour := p.DigestHour
		if len(args) > 1 {
			if hour, err = strconv.Atoi(args[1]); err != nil {
				return "", fmt.Errorf("daemon: digest hour %q: %w", args[1], err)
			}
		}
		loc := playerLocation(p)
		due := nextDigest(w.now(), loc, hour)
		if err := w.tx.SetPlayerDigest(w.ctx, w.from, hour, due); err != nil {
			return "", err
		}
		return w.words.NotifyDigestSet(hour, loc, w.words.Date(due.In(loc), w.words.DayLayout())), nil
	}
	return w.words.NotifyOffSet(), nil
}

// setGameNotify applies `notify SETTING here`: n becomes the game's own
// setting for seat, which wins over the player's for this game (notifyFor),
// and the answer says what he gets about it from now on, and that his
// other games keep his own setting. A one-click unsubscribe does the same
// with off (unsubscribe.go).
func (w *work) setGameNotify(seat *store.Seat, n store.Notify) (string, error) {
	if err := w.tx.SetSeatNotify(w.ctx, seat.GameID, seat.Seat, n); err != nil {
		return "", err
	}
	seat.Notify = n
	p, err := w.tx.Player(w.ctx, seat.Address)
	if err != nil {
		return "", err
	}
	g, err := w.tx.Game(w.ctx, seat.GameID)
	if err != nil {
		return "", err
	}
	return w.words.GameNotifySet(string(n), g.Status == store.StatusInviting, string(p.Notify)), nil
}

// notifyFor is the setting pbem mails the player p by about the game of
// his seat st: the game's own (notify SETTING here, a one-click
// unsubscribe) if it has one, else his. A game's own setting is never
// digest: the digest covers all his games at once (digest.go leaves out
// the games that have their own).
func notifyFor(p store.Player, st store.Seat) store.Notify {
	if st.Notify != "" {
		return st.Notify
	}
	return p.Notify
}

// playerLocation is the player's time zone, UTC if it no longer loads.
func playerLocation(p store.Player) *time.Location { return timebank.Location(p) }

// nextDigest is the first hour:00 in loc strictly after now. Across a
// daylight-saving change the wall clock hour may not exist (or exist
// twice); time.Date normalises it, so a digest is never skipped.
func nextDigest(now time.Time, loc *time.Location, hour int) time.Time {
	l := now.In(loc)
	d := time.Date(l.Year(), l.Month(), l.Day(), hour, 0, 0, 0, loc)
	for !d.After(now) {
		l = l.AddDate(0, 0, 1)
		d = time.Date(l.Year(), l.Month(), l.Day(), hour, 0, 0, 0, loc)
	}
	return d
}

// rematch starts a new game of the same kind with the same players (bots
// at the same levels) and the same time for each decision, the sender
// inviting the others.
func (sw *seatWork) rematch(parser.Command) error {
	w, lg, seat := sw.work, sw.lg, sw.seat
	if lg.Row.Status != store.StatusFinished {
		return w.gameMail(lg, seat, templates.MailStatus, []string{sw.words.RematchOnlyWhenOver()}, true)
	}
	var others []string
	var bots []bot.Level
	r := &rematchOf{id: lg.Row.ID, by: seat.Name}
	for _, st := range lg.Seats {
		if st.Seat != seat.Seat {
			r.others = append(r.others, st.Name)
		}
		switch {
		case st.Bot != "":
			bots = append(bots, bot.Level(st.Bot)) // the same bots again
		case st.Address != w.from:
			others = append(others, st.Address)
		}
	}
	// The rematch keeps the game's own time for each decision, if it
	// chose one the parser would take, and its weekends off.
	var turn time.Duration
	if d := lg.Row.TurnTime; d != w.cfg.TurnTime && d >= parser.MinDeadline && d <= parser.MaxDeadline {
		turn = d
	}
	if lg.Row.Bank.On() {
		turn = 0 // a rematch keeps the clock instead
	}
	// Each player starts at most one rematch of a game: its invitations
	// spend the others' answer budgets (bounds.go).
	bucket := bucketRematchPfx + strconv.FormatInt(lg.Row.ID, 10)
	if n, err := w.tx.Spent(w.ctx, w.post.MailboxOf(w.from), bucket, w.now(), rematchMemory); err != nil {
		return err
	} else if n > 0 {
		w.detail = "rematch refused: one per game"
		return w.gameMail(lg, seat, templates.MailStatus, []string{sw.words.RematchAlreadyStarted()}, true)
	}
	if err := w.startGame(parser.Command{Lobby: true, Kind: parser.KindNew, Name: parser.KindNew.String(), Game: lg.Rules.Name(), Addresses: others, Bots: bots, Deadline: turn, WeekendsOff: lg.Row.WeekendsOff, Clock: clockOf(lg.Row.Bank)}, r); err != nil {
		return err
	}
	if w.gameID == lg.Row.ID {
		return nil // refused, and newGame said why
	}
	_, err := w.tx.Spend(w.ctx, w.post.MailboxOf(w.from), bucket, w.now(), rematchMemory, 1)
	return err
}
