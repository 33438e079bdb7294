package daemon

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"slices"

	"github.com/pbem/pbem/internal/tries"
	"github.com/pbem/pbem/mailer"
	"github.com/pbem/pbem/store"
)

// This file commits read mails: a batch in one transaction, each mail in
// a savepoint of its own; a mail that fails, by itself, its failures
// counted until it is set aside; and what follows a commit.

// commit applies read mails in their order and reports how many of them,
// from the first, are committed or set aside; the error says why the next
// one is not. A batch is one transaction (applyAll): a mail that fails in
// it is undone alone and ends the batch, and the mails before it commit.
// It is then applied by itself, in a transaction of its own, where a
// failure is its own: counted, and after tries.Max set aside (failed).
// The mails after it go on once it is committed or set aside, so nothing
// overtakes it.
func (s *Service) commit(ctx context.Context, read []*readInbound) (int, error) {
	if len(read) == 0 {
		return 0, nil
	}
	ok, err := s.applyAll(ctx, read)
	for _, r := range read[:ok] {
		s.handled(r)
	}
	switch {
	case ok == len(read):
		return ok, nil
	case len(read) == 1:
		return s.failed(ctx, read[0], err)
	}
	s.log.Debug("a mail of a batch failed; the mails before it commit, and it is handled alone", "uid", read[ok].Received.UID, "err", err)
	n, err := s.commit(ctx, read[ok:ok+1])
	if n == 0 {
		return ok, err
	}
	rest, err := s.commit(ctx, read[ok+1:])
	return ok + 1 + rest, err
}

// applyAll applies read mails in one transaction: the transaction of
// their game (batchGame) when they have one, beside other games' mail.
// Of several mails each is applied in a savepoint of its own, so that
// one that fails is undone alone. applyAll reports how many of read,
// from the first, committed, and why the next did not: its own error, or
// the transaction's, when none committed.
func (s *Service) applyAll(ctx context.Context, read []*readInbound) (int, error) {
	game := s.batchGame(ctx, read)
	if len(read) > 1 {
		// First without savepoints: they are two statements a mail, and
		// on PostgreSQL a round trip (the RELEASE, which is where a
		// failed write is charged to its own mail). Nearly every batch
		// commits whole; one that does not is rolled back and applied
		// again below, each mail in its savepoint, which finds the mail
		// that failed. The work of each mail is fit to run again (as for
		// GameTx, which may run it again under Store.Tx).
		err := s.transact(ctx, game, func(tx *store.Tx) error {
			for _, r := range read {
				if err := r.t.in(ctx, tx).apply(r); err != nil {
					return err
				}
			}
			return nil
		})
		switch {
		case err == nil:
			return len(read), nil
		case store.Unavailable(err):
			return 0, err // the database, not a mail: nothing committed
		}
		s.log.Debug("a batch failed whole; it is applied again, each mail in a savepoint", "mails", len(read), "err", err)
	}
	ok := 0
	var failure error // why read[ok] failed
	err := s.transact(ctx, game, func(tx *store.Tx) error {
		ok, failure = 0, nil
		if len(read) == 1 {
			r := read[0]
			return r.t.in(ctx, tx).apply(r)
		}
		for _, r := range read {
			err := tx.Savepoint(ctx, func() error { return r.t.in(ctx, tx).apply(r) })
			switch {
			case err == nil:
				ok++
				continue
			case store.Unavailable(err):
				return err // the database, not the mail: nothing commits
			case errors.Is(err, store.ErrWiderLock):
				return err // the batch runs again under the global lock
			}
			failure = err
			return nil
		}
		return nil
	})
	switch {
	case err != nil:
		return 0, err
	case len(read) == 1:
		return 1, nil
	}
	return ok, failure
}

// transact runs fn in the transaction of game (store.GameTx); a panic is
// its error (tries.Catch).
func (s *Service) transact(ctx context.Context, game int64, fn func(*store.Tx) error) (err error) {
	defer tries.Catch(&err)
	return s.store.GameTx(ctx, game, fn)
}

// batchGame is the game of a batch whose mails all come from one seat's
// player to its address (gameOf), whose transaction it then runs in; 0
// for any other batch, which runs under Store.Tx. Mails of several seats
// are not looked up at all: a batch of one game's several players is
// rare, and a look-up per mail before the transaction would cost every
// batch of several games.
func (s *Service) batchGame(ctx context.Context, read []*readInbound) int64 {
	for _, r := range read[1:] {
		if r.From != read[0].From || r.Message.DeliveredTo != read[0].Message.DeliveredTo ||
			!slices.Equal(r.Message.To, read[0].Message.To) || !slices.Equal(r.Message.Cc, read[0].Message.Cc) {
			return 0
		}
	}
	return s.gameOf(ctx, read[0])
}

// gameOf is the game a read mail is about, found before its transaction
// and without writing, the way route finds it: the game of the seat
// whose address it came to, from that seat's player. 0 for any other
// mail (the lobby, an admin's, a stranger's, one not acted on, one to a
// seat whose player has not joined), which runs under Store.Tx. Under the lock route finds the game again; if it
// is another by then (the seat's address changed meanwhile), the mail
// runs again under Store.Tx (store.ErrWiderLock).
//
// On SQLite, where the one writer orders everything, GameTx is Tx, and
// the look-up is not made.
func (s *Service) gameOf(ctx context.Context, r *readInbound) int64 {
	if s.store.Engine() != store.PostgreSQL || !r.Verdict.Act() {
		return 0
	}
	token := r.Token
	if token == "" || (s.cfg.AdminToken != "" && subtle.ConstantTimeCompare([]byte(token), []byte(s.cfg.AdminToken)) == 1) {
		return 0
	}
	c, ok := s.seats.get(token)
	if !ok {
		seat, err := s.store.SeatByToken(ctx, token)
		if err != nil {
			return 0 // the transaction finds the same, and refuses it
		}
		c = seatOfSeat(seat)
		s.seats.put(token, c)
	}
	if c.address != r.t.from || c.invited {
		return 0 // another's mail, or a join (seatOf.invited)
	}
	return c.game
}

// failed counts the failure of r, applied alone (tries), and sets r
// aside at the last of tries.Max (setMailAside), which commits it as
// failed. It reports 1 when r is set aside, and 0 with err while r is to
// be offered again.
func (s *Service) failed(ctx context.Context, r *readInbound, err error) (int, error) {
	if ctx.Err() != nil {
		return 0, err // stopped while working: offered again at the next start
	}
	key := mailKey(r.Received)
	if !s.tries.Failed(key, "handling a mail", err, "uid", r.Received.UID) {
		return 0, err
	}
	if err := s.setMailAside(ctx, r, err); err != nil {
		return 0, err
	}
	s.tries.Forget(key)
	return 1, nil
}

// mailKey names an inbound mail among the failures counted (tries). It
// is made from m alone, so that a mail that could not be read is counted
// too.
func mailKey(m mailer.Message) string {
	if m.UID == 0 && m.ID != "" {
		return "mail:" + m.Mailbox + ":" + m.ID
	}
	return fmt.Sprintf("mail:%s:%d:%d", m.Mailbox, m.UIDValidity, m.UID)
}

// handled logs a committed mail's outcome, forgets its failed tries and
// wakes the outbox for its answers. Logged once committed: a transaction that fails must not log
// an outcome that never happened.
func (s *Service) handled(in *readInbound) {
	s.tries.Forget(mailKey(in.Received))
	t := in.t
	if t.inboundID != 0 {
		s.log.Info("inbound", "from", t.from, "game", t.gameID, "outcome", string(t.outcome), "detail", t.detail, "uid", in.Received.UID)
		s.obs.Inbound(t.outcome)
	}
	t.committed()
}
