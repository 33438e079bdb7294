package daemon

import (
	"context"
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

// SendDigests mails every player whose digest is due, each in a
// transaction of his own, and reports how many digests it queued. One
// player's failure stops no other: it is logged, and the player's digest
// is tried again at the next sweep; after maxTries that day's digest is
// skipped (skipDigest). The error returned joins what failed.
func (s *Service) SendDigests(ctx context.Context) (int, error) {
	due, err := s.store.DueDigests(ctx, s.now())
	if err != nil {
		return 0, err
	}
	return s.digestDue(ctx, due)
}

// digestDue writes the digests due, as read before. Another node may have
// written one meanwhile: digest reads the player's due time again inside
// its transaction, and writes only if it is still the one read (and the
// digest's Message-ID was never queued).
func (s *Service) digestDue(ctx context.Context, due []store.DueDigest) (int, error) {
	sent, _, err := runDue(ctx, s, due, dueWork[store.DueDigest]{
		key:  func(d store.DueDigest) string { return fmt.Sprintf("digest:%s:%d", d.Address, d.Due.Unix()) },
		work: func(key string, _ store.DueDigest) *work { return &work{Service: s, key: key} },
		do: func(w *work, d store.DueDigest) (bool, error) {
			err := w.digest(d)
			return w.out.Len() > 0, err
		},
		failed: s.skipDigest,
		wrap: func(d store.DueDigest, err error) error {
			return fmt.Errorf("daemon: digest of %s: %w", d.Address, err)
		},
		stopIfUnavailable: true,
	})
	return sent, err
}

// skipDigest counts a failure of a player's digest and, once it has
// failed maxTries times, gives up that day's digest: his next one is due
// a day later, so that a digest that cannot be written is not tried every
// minute all day. His games are untouched: their events stay unmailed and
// are told in his next mail.
func (s *Service) skipDigest(ctx context.Context, key string, d store.DueDigest, err error) {
	if !s.failure(key, "digest", err, "player", d.Address) {
		return
	}
	serr := s.store.Tx(ctx, func(tx *store.Tx) error {
		p, err := tx.Player(ctx, d.Address)
		if err != nil || p.Notify != store.NotifyDigest || p.DigestDue.Unix() != d.Due.Unix() {
			return err
		}
		return tx.SetPlayerDigest(ctx, p.Address, p.DigestHour, nextDigest(s.now(), playerLocation(p), p.DigestHour))
	})
	if serr != nil {
		s.log.Error("skipping a digest failed; it is tried again", "player", d.Address, "err", serr)
		return
	}
	s.log.Error("digest skipped for today after repeated errors", "player", d.Address)
	s.tries.forget(key)
	s.obs.Quarantined(QuarantineDigest)
}

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
// will, one that ended before his last mail about it, or one he resigned
// from that goes on. The events it tells are marked mailed to the seat.
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
	over := state == templates.DigestOver || state == templates.DigestAborted
	if st.State == store.SeatResigned && !over {
		return item, "", false, nil // a resigned player hears only the result
	}
	item = templates.DigestGame{GameID: g.ID, Game: g.Kind, Reader: st.Name, Address: w.post.SeatAddress(st.Token), State: state}
	if rules, known := w.games(g.Kind); known {
		item.Title = rules.Title()
	}
	if g.Broken != "" {
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
