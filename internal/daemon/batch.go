package daemon

import (
	"context"
	"errors"
	"runtime"
	"slices"
	"sync"

	"github.com/pbem/pbem/internal/grace"
	"github.com/pbem/pbem/internal/tries"
	"github.com/pbem/pbem/mailer"
	"github.com/pbem/pbem/store"
)

// HandleBatch handles inbound messages in their order and commits them
// together: the inbox hands over the mail that arrived at once (a
// mailer.BatchHandler), and one transaction, one fsync, carries all of
// it. This is group commit. Reading the mails (MIME, charsets, the
// parser), the part that needs no state, runs on every core before the
// transaction; applying them runs in the one writer transaction, in UID
// order, so mails of one game keep their order and every mail sees the
// effects of those before it.
//
// Each mail's work is a savepoint of the transaction. A mail that fails
// is undone alone and ends the batch: the mails before it commit, and it
// is then handled by itself (HandleMail), which counts the failure,
// retries it later or sets it aside, as for a mail that came alone. The
// mails after it wait for the next batch, so nothing overtakes it.
//
// HandleBatch reports how many of msgs are committed; the inbox marks
// those and moves on. Exactly once holds as for HandleMail: each mail's
// effects and the IMAP cursor past it are in the same commit, so a crash
// anywhere leaves every mail either wholly applied and past the cursor,
// or not applied at all and read again (docs/exactly-once.md).
func (s *Service) HandleBatch(ctx context.Context, msgs []mailer.Message) (int, error) {
	if len(msgs) == 0 {
		return 0, nil
	}
	if len(msgs) == 1 {
		return s.alone(ctx, msgs[0], 0)
	}
	work, cancel := grace.Detach(ctx, grace.Shutdown)
	defer cancel()
	read := s.readAll(msgs)
	failed := len(msgs) // the first mail that failed in the batch
	err := tries.Safely(func() error {
		return s.store.GameTx(work, s.batchGame(work, read), func(tx *store.Tx) error {
			failed = len(msgs)
			for i, r := range read {
				err := tx.Savepoint(work, func() error {
					return tries.Safely(func() error { return r.t.in(work, tx).handleRead(r) })
				})
				if err != nil {
					if store.Unavailable(err) {
						return err // the database, not the mail: nothing commits
					}
					if errors.Is(err, store.ErrWiderLock) {
						return err // the batch runs again under the global lock
					}
					s.log.Debug("a mail of a batch failed; the mails before it commit, and it is handled alone", "uid", r.Received.UID, "err", err)
					failed = i
					return nil
				}
			}
			return nil
		})
	})
	if err != nil {
		// Nothing committed. The first mail alone makes what progress
		// there is to make, and counts a failure that is its own.
		failed = 0
	}
	for _, r := range read[:failed] {
		s.tries.Forget(mailKey(r.Received))
		s.handled(r)
	}
	if failed == len(msgs) {
		return failed, nil
	}
	n, err := s.alone(ctx, msgs[failed], failed)
	if err != nil || n == len(msgs) {
		return n, err
	}
	// The failing mail is committed now, or set aside: the rest goes on.
	rest, err := s.HandleBatch(ctx, msgs[n:])
	return n + rest, err
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

// alone handles m, the mail after the done committed ones of a batch, by
// itself, and reports how many of the batch are committed then.
func (s *Service) alone(ctx context.Context, m mailer.Message, done int) (int, error) {
	if err := s.HandleMail(ctx, m); err != nil {
		return done, err
	}
	return done + 1, nil
}

// readAll reads msgs in parallel (read), one worker per core: reading is
// pure CPU work on each mail's own bytes.
func (s *Service) readAll(msgs []mailer.Message) []*readInbound {
	out := make([]*readInbound, len(msgs))
	workers := min(runtime.GOMAXPROCS(0), len(msgs))
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				out[i] = s.read(msgs[i])
			}
		}()
	}
	for i := range msgs {
		next <- i
	}
	close(next)
	wg.Wait()
	return out
}
