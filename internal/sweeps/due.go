package sweeps

import (
	"context"
	"errors"

	"github.com/pbem/pbem/internal/grace"
	"github.com/pbem/pbem/internal/tries"
	"github.com/pbem/pbem/store"
)

// The deadline sweep finds work that fell due — default moves, reminders,
// digests, lapsed undos, returns from vacation — and does each item in a
// transaction of its own, so that one item's failure (an error, a panic)
// stops no other: the item is skipped for the rest of the sweep, or set
// aside for good after tries.Max, and the sweep goes on. runDue is that
// loop, written once; a dueWork says what differs between kinds.

// dueWork is one kind of due work, over items of type T.
type dueWork[T any] struct {
	// key names an item: its failures are counted under it (tries), and
	// the Message-IDs of its mails are derived from it.
	key func(item T) string
	// unit is the work of an item, under key (Acts).
	unit func(key string, item T) Unit
	// failed, if not nil, is told of an item's failure (err as the work
	// returned it), under the work's context: it counts the failure and
	// sets the item aside once it has failed tries.Max times (setAside,
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
// returns how many items counted (Unit.Do), how many it tried (those
// not skipped), and every failure, joined. A stop (ctx done) lets the
// item in hand finish (grace.Detach).
func runDue[T any](ctx context.Context, sw *Sweeper, due []T, dw dueWork[T]) (counted, tried int, err error) {
	var errs []error
	for _, item := range due {
		key := dw.key(item)
		if dw.skip[key] {
			continue
		}
		tried++
		u := dw.unit(key, item)
		detached, cancel := grace.Detach(ctx, grace.Shutdown)
		ran, counts, err := dw.run(detached, sw, item, u)
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
		sw.tries.Forget(key)
		if counts {
			counted++
		}
		u.Committed()
	}
	return counted, tried, errors.Join(errs...)
}

// run does one item's unit u in its own transaction: the game's when
// the sweep has one (GameTxUnlessBusy, which reports ran false when
// another transaction holds the game), else the global one. counts is
// u.Do's. A panic in u is its error (tries.Catch).
func (dw dueWork[T]) run(ctx context.Context, sw *Sweeper, item T, u Unit) (ran, counts bool, err error) {
	ran = true // a panic is a failure of work that ran
	defer tries.Catch(&err)
	do := func(tx *store.Tx) error {
		var err error
		counts, err = u.Do(ctx, tx)
		return err
	}
	if dw.game == nil {
		err = sw.store.Tx(ctx, do)
	} else {
		ran, err = sw.store.GameTxUnlessBusy(ctx, dw.game(item), do)
	}
	return ran, counts, err
}
