package daemon

import (
	"context"
	"errors"

	"github.com/pbem/pbem/internal/grace"
	"github.com/pbem/pbem/store"
)

// The deadline sweep finds work that fell due — default moves, reminders,
// digests, lapsed undos, returns from vacation — and does each item in a
// transaction of its own, so that one item's failure (an error, a panic)
// stops no other: the item is set aside for the rest of the sweep, or
// for good after maxTries (quarantine.go), and the sweep goes on. runDue
// is that loop, written once; a dueWork says what differs between kinds.

// dueWork is one kind of due work, over items of type T.
type dueWork[T any] struct {
	// key names an item: its failures are counted under it (tries), and
	// the Message-IDs of its mails are derived from it.
	key func(item T) string
	// work is the unit of work an item is, under key.
	work func(key string, item T) *work
	// do does an item's work, bound to its transaction, and reports whether the item
	// counts in what runDue returns (a move made, a mail queued). It
	// starts the turn's mails afresh: a transaction may be tried again.
	do func(w *work, item T) (bool, error)
	// failed, if not nil, is told of an item's failure (err as the work
	// returned it), under the work's context: it counts the failure and
	// sets the item aside once it has failed maxTries times (setAside,
	// skipDigest). Nil: the failure is only returned, and the item is
	// tried again at the next sweep.
	failed func(ctx context.Context, key string, item T, err error)
	// wrap, if not nil, gives a failure the context of its item in the
	// error runDue returns.
	wrap func(item T, err error) error
	// stopIfUnavailable ends the pass at a failure of the store itself (a
	// full disk): nothing can be written, and the next sweep tries again.
	stopIfUnavailable bool
	// game, if not nil, names the game an item is about: its work runs
	// in the game's transaction (store.GameTxUnlessBusy), beside other
	// games' work, and an item whose game another transaction holds is
	// left for the next sweep.
	game func(item T) int64
	// skip, if not nil, holds the keys that failed earlier in the same
	// sweep: they are not tried again in it, and runDue adds the keys
	// that fail now.
	skip map[string]bool
}

// runDue does each item of due in a transaction of its own, in order. It
// returns how many items counted (dueWork.do), how many it tried (those
// not skipped), and every failure, joined. A stop (ctx done) lets the
// item in hand finish (grace.Detach).
func runDue[T any](ctx context.Context, s *Service, due []T, dw dueWork[T]) (counted, tried int, err error) {
	var errs []error
	for _, item := range due {
		key := dw.key(item)
		if dw.skip[key] {
			continue
		}
		tried++
		w := dw.work(key, item)
		counts := false
		detached, cancel := grace.Detach(ctx, grace.Shutdown)
		ran := true
		err := safely(func() error {
			do := func(tx *store.Tx) error {
				var err error
				counts, err = dw.do(w.in(detached, tx), item)
				return err
			}
			if dw.game == nil {
				return s.store.Tx(detached, do)
			}
			var err error
			ran, err = s.store.GameTxUnlessBusy(detached, dw.game(item), do)
			return err
		})
		if !ran {
			// Another transaction holds the game (another node's):
			// the next sweep sees the item again.
			cancel()
			tried--
			continue
		}
		if err != nil {
			if dw.skip != nil {
				dw.skip[key] = true
			}
			if dw.wrap != nil {
				errs = append(errs, dw.wrap(item, err))
			} else {
				errs = append(errs, err)
			}
			if dw.failed != nil {
				dw.failed(detached, key, item, err)
			}
			cancel()
			if dw.stopIfUnavailable && store.Unavailable(err) {
				break
			}
			continue
		}
		cancel()
		s.tries.forget(key)
		if counts {
			counted++
		}
		w.committed()
	}
	return counted, tried, errors.Join(errs...)
}
