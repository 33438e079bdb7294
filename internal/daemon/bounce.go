package daemon

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/internal/intake"
	"github.com/pbem/pbem/internal/loaded"
	"github.com/pbem/pbem/mailer"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// Bounces (issue 37). Each mail pbem sends has a bounce address of its
// own as its envelope sender (mailer.BounceAddress, signed with the
// store's bounce key), so a bounce names its mail and recipient, and only
// a bounce to such an address counts: a forged DSN to the bare address
// or a seat's is automatic mail, ignored there. A bounce is recorded
// (store.Tx.RecordBounce: one hard bounce, or soft ones on
// mailer.SoftBounceDays days); a permanent refusal at SMTP time is
// recorded by the outbox. Once an address is unreachable, actOnUnreachable
// acts on it after the commit that made it so: its invitations fail, its
// running seats go on autopilot, their tables and the admins are told,
// and the outbox withholds its mail but for a rare probe
// (outbox.ProbeEvery). Any mail the player sends makes it reachable again;
// a command from his seat then takes it back, as after autopilot.

// unreachableBatch bounds the addresses actOnUnreachable takes at once.
const unreachableBatch = 50

// bounceKey is the store's bounce key, read once and kept: it never
// changes.
type bounceKey struct {
	mu  sync.Mutex
	key []byte
}

// get returns the key, reading it from st the first time.
func (k *bounceKey) get(ctx context.Context, st *store.Store) ([]byte, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.key != nil {
		return k.key, nil
	}
	key, err := st.BounceKey(ctx)
	if err != nil {
		return nil, fmt.Errorf("daemon: bounce key: %w", err)
	}
	k.key = key
	return key, nil
}

// loadBounceKey reads the bounce key before the transaction of a batch
// that holds a bounce: reading it may write it (its first use), which a
// transaction on SQLite's one writer cannot do inside another.
func (s *Service) loadBounceKey(ctx context.Context, read []*readInbound) error {
	for _, r := range read {
		if r.failed == nil && r.Verdict.IsBounce() {
			_, err := s.bounces.get(ctx, s.store)
			return err
		}
	}
	return nil
}

// bounce handles a mail to a bounce address. It counts only when the
// token is one pbem made for a mail it still keeps, to that mail's
// recipient, and the mail reads as a bounce: an auto-reply is none. It
// is never answered.
func (w *work) bounce(m intake.Mail) error {
	w.outcome = OutcomeIgnored
	id, ok := mailer.BounceTokenID(m.Token)
	if !ok {
		w.detail = "bounce address not one pbem makes"
		return nil
	}
	out, err := w.tx.Outgoing(w.ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		w.detail = "bounce of a mail pbem no longer keeps"
		return nil
	}
	if err != nil {
		return err
	}
	key, err := w.bounces.get(w.ctx, w.store)
	if err != nil {
		return err
	}
	if !mailer.ValidBounceToken(key, m.Token, id, out.To) {
		w.detail = "bounce address not valid"
		return nil
	}
	if m.Bounce.Kind == mailer.BounceNone {
		w.detail = "mail to a bounce address that is no bounce"
		return nil
	}
	became, err := w.tx.RecordBounce(w.ctx, out.To, m.Bounce.Kind == mailer.BounceHard, m.Bounce.Status, w.now(), mailer.SoftBounceDays)
	if err != nil {
		return err
	}
	w.detail = fmt.Sprintf("%s bounce %s of mail %d", m.Bounce.Kind, m.Bounce.Status, id)
	if became {
		w.detail += ": the address is unreachable"
		w.unreachableDue.Store(true) // acted on after the commit
	}
	return nil
}

// actOnUnreachableDue is actOnUnreachable after a batch of mail, when
// one may be due (Service.unreachableDue), or unreachableEvery after it
// last looked: nearly every batch makes no address unreachable, and the
// look-up was a statement a command. The look every so often finds what
// another node recorded and did not act on (it stopped first).
func (s *Service) actOnUnreachableDue(ctx context.Context) {
	now := s.now().UnixNano()
	if !s.unreachableDue.Swap(false) && now-s.unreachableLooked.Load() < int64(unreachableEvery) {
		return
	}
	s.unreachableLooked.Store(now)
	s.actOnUnreachable(ctx)
}

// unreachableEvery is how often a node looks for unreachable addresses
// nobody acted on, as it handles mail, when it knows of none.
const unreachableEvery = time.Minute

// actOnUnreachable acts on the addresses made unreachable that nobody
// has acted on yet, each in a transaction of its own: after a commit
// that recorded a bounce, and after the outbox recorded a refusal. An
// error is logged: the address waits for the next time, which is the
// next batch of mail.
func (s *Service) actOnUnreachable(ctx context.Context) {
	list, err := s.store.UnhandledUnreachable(ctx, unreachableBatch)
	if err != nil {
		s.unreachableDue.Store(true)
		s.log.Warn("unreachable addresses", "err", err)
		return
	}
	if len(list) == unreachableBatch {
		s.unreachableDue.Store(true) // there may be more
	}
	for _, u := range list {
		w := &work{Service: s, key: "unreachable:" + u.Address + ":" + strconv.FormatInt(u.Since.Unix(), 10)}
		err := s.transact(ctx, 0, func(tx *store.Tx) error {
			w = w.in(ctx, tx)
			if err := w.unreachable(u.Address); err != nil {
				return err
			}
			return w.enqueue()
		})
		if err != nil {
			s.unreachableDue.Store(true)
			s.log.Warn("act on unreachable address", "err", err)
			continue
		}
		s.log.Info("address unreachable", "addr", u.Address, "why", u.Status)
		w.committed()
	}
}

// unreachable acts on an address that bounced, in every game it has a
// seat in: an invitation fails, a running seat goes on autopilot.
func (w *work) unreachable(addr string) error {
	games, err := w.tx.GamesOf(w.ctx, addr)
	if err != nil {
		return err
	}
	for _, g := range games {
		if g.Aside != "" {
			continue // a broken game cannot be loaded; it is repaired by hand
		}
		switch g.Status {
		case store.StatusInviting:
			err = w.inviteBounced(g.ID, addr)
		case store.StatusActive, store.StatusPaused:
			err = w.seatBounced(g.ID, addr)
		}
		if err != nil {
			return err
		}
	}
	return w.tx.HandledUnreachable(w.ctx, addr)
}

// seatOfAddress is the seat of addr in lg that a player holds (not a
// bot's, not resigned), or nil.
func seatOfAddress(lg *loaded.Game, addr string) *store.Seat {
	for i := range lg.Seats {
		st := &lg.Seats[i]
		if st.Address == addr && st.Bot == "" && st.State != store.SeatResigned {
			return st
		}
	}
	return nil
}

// inviteBounced ends a game that invited addr, as its decline would: the
// game will not start, and every other seat is told why in one sentence
// and how to start again, with another address or a bot. The bounced
// address is not mailed.
func (w *work) inviteBounced(gameID int64, addr string) error {
	lg, seat, err := w.bouncedSeat(gameID, addr)
	if err != nil || seat == nil {
		return err
	}
	reason := w.words.InviteeBounced(seat.Name, lg.Rules.Name())
	n := templates.Notice{Kind: templates.NoticeDeclined, Game: lg.Rules.Name(), Title: lg.Rules.Title(), GameID: gameID, Reason: reason, Players: lg.Names}
	return w.endInvitation(lg, seat.Seat, n, func(st store.Seat) bool { return st.Seat != seat.Seat && st.Bot == "" })
}

// bouncedSeat loads game gameID and finds addr's seat in it (nil when it
// holds none), and makes the game the one this work is about.
func (w *work) bouncedSeat(gameID int64, addr string) (*loaded.Game, *store.Seat, error) {
	lg, err := w.loadGame(gameID)
	if err != nil {
		return nil, nil, err
	}
	seat := seatOfAddress(lg, addr)
	if seat != nil {
		w.gameID = gameID
	}
	return lg, seat, nil
}

// seatBounced puts addr's seat in a running game on autopilot: the
// stand-in moves for it from its next decision on (at once, if the game
// waits on it), the table is told once, and so are the admins.
func (w *work) seatBounced(gameID int64, addr string) error {
	lg, seat, err := w.bouncedSeat(gameID, addr)
	if err != nil || seat == nil {
		return err
	}
	if !seat.Autopilot {
		if err := w.tx.SetSeatAutopilot(w.ctx, gameID, seat.Seat, true); err != nil {
			return err
		}
		seat.Autopilot = true
	}
	ev := []store.Event{storeSaid(engine.Others(seat.Seat), EventAutopilot, templates.Say.PlayerMailBounces(seat.Name, w.standIn().playsFor(seat.Name)),
		templates.Phrases.PlayerMailBounces(seat.Name, w.standIn().playsForP(seat.Name)))}
	if err := w.tx.AppendEvents(w.ctx, gameID, lg.Row.LastSeq, ev); err != nil {
		return err
	}
	if err := w.settle(lg, settleDeadline, -1, nil); err != nil {
		return err
	}
	return w.noticeAdmins(templates.Say.AdminSeatUnreachable(),
		templates.Say.GameSeatBounced(gameID, lg.Rules.Name(), seat.Name, seat.Seat, w.standIn().playsTheSeat()))
}

// reachable forgets the bounces of the sender of a mail pbem acts on: he
// reads his mail again.
func (w *work) reachable() error {
	was, err := w.tx.Reachable(w.ctx, w.from)
	if was {
		w.log.Info("address reachable again", "addr", w.from)
	}
	return err
}
