package daemon

import (
	"fmt"
	"slices"

	"github.com/pbem/pbem/internal/outgoing"

	"github.com/pbem/pbem/parser"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// A player with `notify digest` gets no game mail from settle (wants).
// Once a day, at his hour in his zone, the deadline sweep mails him one
// digest of all his games instead: per game what happened since his last
// mail about it, whether it waits on him (with his deadline and options)
// or on whom, and the seat's address to write to. The last reminder
// before a deadline and the answers to his own mails still come at once.
// While he is on vacation no digest comes: the first after his return
// tells what happened while he was away.
//
// A digest is one transaction per player, like a reminder: it marks the
// events it tells as mailed (so that his next game mail does not repeat
// them) and moves digest_due to the next day in the same commit. Its
// Message-ID comes from the player and the due time, and a digest already
// queued under it is not written again, so that work redone after a
// crash sends no second digest.

// digest writes one player's digest inside tx, and moves his next one
// to tomorrow's hour.
func (w *work) digest(d store.DueDigest) error {
	w.out.Reset()
	p, err := w.tx.Player(w.ctx, d.Address)
	if err != nil {
		return err
	}
	if p.Notify != store.NotifyDigest || p.DigestDue.Unix() != d.Due.Unix() {
		return nil // he changed his setting since the query
	}
	loc := playerLocation(p)
	if err := w.tx.SetPlayerDigest(w.ctx, p.Address, p.DigestHour, nextDigest(w.now(), loc, p.DigestHour)); err != nil {
		return err
	}
	if has, err := w.tx.HasOutgoing(w.ctx, w.post.MessageID(w.key, 0)); err != nil || has {
		return err
	}
	if away, until, err := w.onVacation(p.Address); err != nil || away {
		// Away: no digest until his first hour after the vacation,
		// which then tells all that happened meanwhile (back brings
		// it forward: digestAfterVacation).
		if err != nil {
			return err
		}
		return w.tx.SetPlayerDigest(w.ctx, p.Address, p.DigestHour, nextDigest(until, loc, p.DigestHour))
	}
	games, err := w.tx.GamesOf(w.ctx, p.Address)
	if err != nil {
		return err
	}
	var items []templates.DigestGame
	var tokens []string
	worth := false
	for _, g := range games {
		item, token, ok, err := w.digestGame(g, p.Address)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		items = append(items, item)
		tokens = append(tokens, token)
		worth = worth || len(item.Happened) > 0 || (item.State == templates.DigestRunning && item.YourTurn)
	}
	if !worth {
		return nil // nothing happened and nothing waits on him: no mail today
	}
	m, err := w.render.Notice(templates.Notice{
		Service: w.cfg.Name, Marker: parser.ReplyMarker, Kind: templates.NoticeDigest, To: p.Address,
		Digest: items, Location: loc,
	})
	if err != nil {
		return fmt.Errorf("daemon: render digest: %w", err)
	}
	om := outgoing.Mail{To: p.Address, Seat: -1, Mail: m, Digest: true}
	if len(tokens) == 1 {
		// One game: a reply to the digest goes to it, as the digest says.
		// With several, a reply goes to the bare address, and each game
		// gives its own.
		om.Token = tokens[0]
	}
	w.out.Add(om)
	return w.enqueue()
}

// digestGame is one game of addr's digest, and the seat's token; ok is
// false for a game the digest leaves out: one not started or that never
// will, one that ended before his last mail about it, one he resigned
// from that goes on, or one with its own notify setting (notify ... here). The events it tells are marked mailed to the seat.
func (w *work) digestGame(g store.Game, addr string) (item templates.DigestGame, token string, ok bool, err error) {
	var state templates.DigestState
	switch g.Status {
	case store.StatusActive:
		state = templates.DigestRunning
	case store.StatusPaused:
		state = templates.DigestPaused
	case store.StatusFinished:
		state = templates.DigestOver
	case store.StatusAborted:
		state = templates.DigestAborted
	default:
		return item, "", false, nil // invitations and their answers are mailed at once
	}
	seats, err := w.tx.Seats(w.ctx, g.ID)
	if err != nil {
		return item, "", false, err
	}
	i := slices.IndexFunc(seats, func(st store.Seat) bool { return st.Address == addr })
	if i < 0 {
		return item, "", false, nil // his seat went to another address
	}
	st := seats[i]
	if st.Notify != "" {
		return item, "", false, nil // the game has its own setting, by which it is mailed (notifyFor)
	}
	over := state == templates.DigestOver || state == templates.DigestAborted
	if st.State == store.SeatResigned && !over {
		return item, "", false, nil // a resigned player hears only the result
	}
	item = templates.DigestGame{GameID: g.ID, Game: g.Kind, Reader: st.Name, Address: w.post.SeatAddress(st.Token), State: state}
	if rules, known := w.games(g.Kind); known {
		item.Title = rules.Title()
	}
	if g.Aside != "" {
		if over {
			return item, "", false, nil
		}
		// It does not load: the digest says it waits for its repair, and
		// keeps its events for the mail after it.
		item.State = templates.DigestRepair
		return item, st.Token, true, nil
	}
	evs, err := w.tx.Events(w.ctx, g.ID, st.LastMailedEvent)
	if err != nil {
		return item, "", false, err
	}
	item.Happened = visible(evs, st.Seat)
	if over && len(item.Happened) == 0 {
		return item, "", false, nil // he knew of its end already
	}
	lg, err := w.loadGame(g.ID)
	if err != nil {
		return item, "", false, err
	}
	if len(evs) > 0 {
		if err := w.tx.SetSeatLastMailedEvent(w.ctx, g.ID, st.Seat, evs[len(evs)-1].ID); err != nil {
			return item, "", false, err
		}
	}
	lg.Standing().Digest(&item, st, state)
	return item, st.Token, true, nil
}

// digestAfterVacation brings a digest player's next digest to his first
// hour from now, when his vacation ends: while he was away it was put
// after the vacation's planned end (digest).
func (w *work) digestAfterVacation(address string) error {
	p, err := w.tx.Player(w.ctx, address)
	if err != nil || p.Notify != store.NotifyDigest {
		return err
	}
	next := nextDigest(w.now(), playerLocation(p), p.DigestHour)
	if !p.DigestDue.IsZero() && !p.DigestDue.After(next) {
		return nil
	}
	return w.tx.SetPlayerDigest(w.ctx, p.Address, p.DigestHour, next)
}
