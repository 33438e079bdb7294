package daemon

import (
	"fmt"
	"time"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/internal/loaded"
	"github.com/pbem/pbem/parser"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// Table talk (issue 14, items 6 and 7): `say` relays a player's words to
// the other players of a game, `poke` reminds the players the game waits
// on. Neither is a move: no decision starts, no deadline moves and no
// earlier mail becomes stale. Both are events of the game's log, so that
// history and the next game mail tell them, and both are counted in the
// store's talk table, so that their limits survive a restart.

const (
	// talkWindow is the day of the limits: a seat's says and pokes are
	// counted over the last talkWindow.
	talkWindow = 24 * time.Hour
	// maxSaysPerDay is how many says of one seat a game relays per
	// talkWindow: enough for a conversation across the table, too few
	// for a player to flood the others' mailboxes through pbem.
	maxSaysPerDay = 10
)

// talk handles say and poke in a game's thread. It returns the line to
// tell the sender, and whether the command was done (false: refused, and
// the line says why).
func (w *work) talk(lg *loaded.Game, seat store.Seat, c parser.Command) (string, bool, error) {
	if c.Kind == parser.KindPoke {
		return w.poke(lg, seat)
	}
	return w.say(lg, seat, c.Said)
}

// say records the seat's words as an event every player may see; the
// others are mailed by deliverTalk once the whole mail is read.
func (w *work) say(lg *loaded.Game, seat store.Seat, said string) (string, bool, error) {
	switch {
	case seat.State == store.SeatResigned:
		return w.words.NotSaidYouResigned(), false, nil
	case lg.Row.Status == store.StatusInviting:
		// The others have not accepted the game: pbem mails them
		// nothing but the invitation.
		return w.words.NotSaidNotStarted(), false, nil
	case lg.Row.Status != store.StatusActive && lg.Row.Status != store.StatusPaused && lg.Row.Status != store.StatusFinished:
		return w.words.NotSaid(lowerFirst(notActive(lg, seat.Seat, w.words))), false, nil
	}
	if said == "" {
		// The parser refuses an empty say; this guards the event's text.
		return w.words.NotSaidEmpty(), false, nil
	}
	past, err := w.tx.Talked(w.ctx, lg.Row.ID, seat.Seat, store.TalkSay, w.now(), talkWindow)
	if err != nil {
		return "", false, err
	}
	if len(past) >= maxSaysPerDay {
		free := past[len(past)-maxSaysPerDay].Add(talkWindow)
		w.detail = "say refused: daily limit"
		return w.words.NotSaidLimitReached(maxSaysPerDay, w.timeFor(seat.Address, free)), false, nil
	}
	if err := w.tx.Talk(w.ctx, lg.Row.ID, seat.Seat, store.TalkSay, w.now()); err != nil {
		return "", false, err
	}
	ev := []store.Event{storeSaid(engine.Public, EventSay, templates.Say.Says(seat.Name, said), templates.Phrases.Says(seat.Name, said))}
	if err := w.tx.AppendEvents(w.ctx, lg.Row.ID, lg.Row.LastSeq, ev); err != nil {
		return "", false, err
	}
	// The words are the player's: what is logged is their length.
	w.detail = fmt.Sprintf("said %d characters", len([]rune(said)))
	return w.words.SaidToTable(), true, nil
}

// poke records a reminder for every seat the game waits on but the
// poker's own; deliverTalk mails it.
func (w *work) poke(lg *loaded.Game, seat store.Seat) (string, bool, error) {
	if lg.Row.Status != store.StatusActive {
		return w.words.NobodyPoked(lowerFirst(notActive(lg, seat.Seat, w.words))), false, nil
	}
	var targets []store.Seat
	self := false
	var away []string
	for _, seatNo := range lg.State.Waiting() {
		st := lg.Seats[seatNo]
		switch {
		case seatNo == seat.Seat:
			self = true
			continue
		case st.State == store.SeatResigned:
			continue // pbem moves for it at once: nobody to remind
		}
		on, until, err := w.onVacation(st.Address)
		if err != nil {
			return "", false, err
		}
		if on {
			away = append(away, w.words.VacationUntil(st.Name, w.timeFor(seat.Address, until)))
			continue
		}
		targets = append(targets, st)
	}
	if len(targets) == 0 {
		switch {
		case len(away) > 0:
			return w.words.NobodyPokedAllAway(away), false, nil
		case self:
			return w.words.NobodyPokedWaitsOnYou(), false, nil
		}
		return w.words.NobodyPokedWaitsOnNobody(), false, nil
	}
	past, err := w.tx.Talked(w.ctx, lg.Row.ID, seat.Seat, store.TalkPoke, w.now(), talkWindow)
	if err != nil {
		return "", false, err
	}
	if len(past) > 0 {
		w.detail = "poke refused: daily limit"
		return w.words.NobodyPokedOncePerDay(w.timeFor(seat.Address, past[len(past)-1]), w.timeFor(seat.Address, past[len(past)-1].Add(talkWindow))), false, nil
	}
	if err := w.tx.Talk(w.ctx, lg.Row.ID, seat.Seat, store.TalkPoke, w.now()); err != nil {
		return "", false, err
	}
	var evs []store.Event
	var names []string
	for _, st := range targets {
		evs = append(evs, storeSaid(st.Seat, EventPoke, templates.Say.PokedYou(seat.Name), templates.Phrases.PokedYou(seat.Name)))
		names = append(names, st.Name)
	}
	if err := w.tx.AppendEvents(w.ctx, lg.Row.ID, lg.Row.LastSeq, evs); err != nil {
		return "", false, err
	}
	w.detail = fmt.Sprintf("poked %d players", len(targets))
	said := w.words.PbemReminded(names)
	if len(away) > 0 {
		said += w.words.DidNotPokeAway(away)
	}
	return said, true, nil
}

// deliverTalk mails, after a mail with say, poke or undo was handled,
// every other seat the table talk concerns now: a poked seat, and one
// asked to answer an undo, whatever its notify setting (a poke is the
// deliberate act of another player, like the deadline's reminder), a seat with words said to it when its setting
// is normal or all. The mail is the seat's game mail: what happened since
// its last mail, the talk included, and the table.
func (w *work) deliverTalk(lg *loaded.Game, actor int) error {
	for _, before := range lg.Seats {
		if before.Seat == actor || before.Bot != "" {
			continue // a bot reads no mail
		}
		st, err := w.tx.Seat(w.ctx, lg.Row.ID, before.Seat) // fresh: settle may have mailed it
		if err != nil {
			return err
		}
		if st.State == store.SeatResigned {
			continue // a resigned player hears only the result
		}
		evs, err := w.tx.Events(w.ctx, lg.Row.ID, st.LastMailedEvent)
		if err != nil {
			return err
		}
		happened := visible(evs, st.Seat)
		poked, said := false, false
		for _, e := range happened {
			switch EventKind(e.Kind) {
			case EventPoke, EventUndoAsked:
				// A question to answer is mailed as a poke is.
				poked = true
			case EventSay:
				said = true
			}
		}
		if !poked && !said {
			continue
		}
		if !poked {
			p, err := w.tx.Player(w.ctx, st.Address)
			if err != nil {
				return err
			}
			if !hearsTalk(notifyFor(p, st)) {
				continue
			}
		}
		if err := w.mailSeat(lg, st, templates.MailTurn, nil, evs, happened); err != nil {
			return err
		}
	}
	return nil
}

// hearsTalk reports whether a player with setting n is mailed another
// player's say at once. notify turns and off keep it for the next mail
// (and history), digest for the digest. docs/playing.md's "Which mails you get"
// says the same.
func hearsTalk(n store.Notify) bool {
	switch n {
	case store.NotifyTurns, store.NotifyDigest, store.NotifyOff:
		return false
	}
	return true // normal, all, and any value a newer pbem wrote
}

// timeFor writes at as the player at address reads times: in his time
// zone (UTC if his cannot be read).
func (w *work) timeFor(address string, at time.Time) string {
	loc := time.UTC
	if p, err := w.tx.Player(w.ctx, address); err == nil {
		if l, err := time.LoadLocation(p.TimeZone); err == nil {
			loc = l
		}
	}
	return w.words.Date(at.In(loc), w.words.ClockLayout())
}

// joinAnd writes "a", "a and b", "a, b and c" (templates.Words.JoinAnd).
func joinAnd(xs []string) string { return templates.Say.JoinAnd(xs) }
