package sweeps

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/store/storetest"
)

// newSweeper is a sweeper of a fresh store, logging to the test's log
// only what fails, with acts (nil for runDue's tests, which give each
// kind's units themselves).
func newSweeper(t testing.TB, acts Acts, now time.Time, obs Observer) (*Sweeper, *store.Store) {
	t.Helper()
	st, err := store.Open(context.Background(), storetest.Database(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return New(st, acts, Config{Now: func() time.Time { return now }, Log: slog.New(slog.DiscardHandler), Observer: obs}), st
}

// unit is a Unit made of funcs; a nil do does nothing and counts not.
type unit struct {
	do        func(tx *store.Tx) (bool, error)
	committed func()
}

func (u unit) Do(_ context.Context, tx *store.Tx) (bool, error) {
	if u.do == nil {
		return false, nil
	}
	return u.do(tx)
}

func (u unit) Committed() {
	if u.committed != nil {
		u.committed()
	}
}

// dueItem is an item of due work in TestRunDue: what its work does.
type dueItem struct {
	name  string
	fail  error // returned by the work
	panic bool  // the work panics
	count bool  // the work counts, when it succeeds
}

// TestRunDue: runDue does every item in a transaction of its own; one
// item's error or panic stops no other, a failure is counted and the item
// set aside after tries.Max, a failure of the store itself is tried again
// at the next pass and never set aside (and ends the pass when the work
// says so), and an item that failed earlier in a sweep is skipped.
func TestRunDue(t *testing.T) {
	t.Parallel()
	broken := errors.New("broken")
	full := fmt.Errorf("disk full: %w", store.ErrUnavailable)
	type pass struct {
		counted, tried int
		failures       []string // the items whose failure the pass returns
	}
	tests := []struct {
		name   string
		items  []dueItem
		stop   bool // stopIfUnavailable
		skip   bool // one skip map for all passes, as a sweep has
		passes []pass
		aside  []string // set aside, in order, after all passes
	}{
		{
			name:   "every item done",
			items:  []dueItem{{name: "a", count: true}, {name: "b"}, {name: "c", count: true}},
			passes: []pass{{counted: 2, tried: 3}},
		},
		{
			name:  "an error stops no other, and is set aside after tries.Max",
			items: []dueItem{{name: "a", count: true}, {name: "bad", fail: broken, count: true}, {name: "c", count: true}},
			passes: []pass{
				{counted: 2, tried: 3, failures: []string{"bad"}},
				{counted: 2, tried: 3, failures: []string{"bad"}},
				{counted: 2, tried: 3, failures: []string{"bad"}},
			},
			aside: []string{"bad"},
		},
		{
			name:   "a panic stops no other",
			items:  []dueItem{{name: "boom", panic: true}, {name: "b", count: true}},
			passes: []pass{{counted: 1, tried: 2, failures: []string{"boom"}}},
		},
		{
			name:  "the store failing is never set aside, and the others go on",
			items: []dueItem{{name: "full", fail: full}, {name: "b", count: true}},
			passes: []pass{
				{counted: 1, tried: 2, failures: []string{"full"}},
				{counted: 1, tried: 2, failures: []string{"full"}},
				{counted: 1, tried: 2, failures: []string{"full"}},
				{counted: 1, tried: 2, failures: []string{"full"}},
			},
		},
		{
			name:  "the store failing ends the pass when the work says so",
			items: []dueItem{{name: "a", count: true}, {name: "full", fail: full}, {name: "c", count: true}},
			stop:  true,
			passes: []pass{
				{counted: 1, tried: 2, failures: []string{"full"}},
				{counted: 1, tried: 2, failures: []string{"full"}},
				{counted: 1, tried: 2, failures: []string{"full"}},
			},
		},
		{
			name:  "an error does not end the pass when the work stops for the store",
			items: []dueItem{{name: "bad", fail: broken}, {name: "b", count: true}},
			stop:  true,
			passes: []pass{
				{counted: 1, tried: 2, failures: []string{"bad"}},
			},
		},
		{
			name:  "an item that failed is skipped for the rest of the sweep",
			items: []dueItem{{name: "bad", fail: broken}, {name: "b", count: true}},
			skip:  true,
			passes: []pass{
				{counted: 1, tried: 2, failures: []string{"bad"}},
				{counted: 1, tried: 1},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			sw, _ := newSweeper(t, nil, time.Now(), nil)
			ctx := context.Background()
			var aside []string
			var skip map[string]bool
			if tt.skip {
				skip = map[string]bool{}
			}
			work := dueWork[dueItem]{
				key: func(it dueItem) string { return "test:" + it.name },
				unit: func(_ string, it dueItem) Unit {
					return unit{do: func(tx *store.Tx) (bool, error) {
						if tx == nil {
							t.Errorf("%s: the work ran outside a transaction", it.name)
						}
						if it.panic {
							panic("the work of " + it.name)
						}
						return it.count, it.fail
					}}
				},
				failed: func(_ context.Context, key string, it dueItem, err error) {
					// As setAside and skipDigest count a failure.
					if sw.tries.Failed(key, "test work", err) {
						aside = append(aside, it.name)
						sw.tries.Forget(key)
					}
				},
				wrap:              func(it dueItem, err error) error { return fmt.Errorf("item %s: %w", it.name, err) },
				stopIfUnavailable: tt.stop,
				skip:              skip,
			}
			for i, want := range tt.passes {
				counted, tried, err := runDue(ctx, sw, tt.items, work)
				var failures []string
				for _, it := range tt.items {
					if err != nil && strings.Contains(err.Error(), "item "+it.name+":") {
						failures = append(failures, it.name)
					}
				}
				if counted != want.counted || tried != want.tried || !slices.Equal(failures, want.failures) {
					t.Errorf("pass %d: counted %d, tried %d, failed %v; want %d, %d, %v (err %v)",
						i+1, counted, tried, failures, want.counted, want.tried, want.failures, err)
				}
				if err != nil && errors.Is(err, store.ErrUnavailable) != slices.ContainsFunc(tt.items, func(it dueItem) bool { return it.fail == full }) {
					t.Errorf("pass %d: the store's failure is not kept in the error's chain: %v", i+1, err)
				}
			}
			if !slices.Equal(aside, tt.aside) {
				t.Errorf("set aside %v; want %v", aside, tt.aside)
			}
		})
	}
}

// TestRunDueCounts: an item counts, and its unit hears that it
// committed, only once its transaction committed.
func TestRunDueCounts(t *testing.T) {
	t.Parallel()
	sw, st := newSweeper(t, nil, time.Now(), nil)
	ctx := context.Background()
	st.FailWrites(store.ErrUnavailable)
	committed := 0
	work := dueWork[string]{
		key: func(s string) string { return s },
		unit: func(string, string) Unit {
			return unit{
				do:        func(*store.Tx) (bool, error) { return true, nil },
				committed: func() { committed++ },
			}
		},
	}
	counted, tried, err := runDue(ctx, sw, []string{"a", "b"}, work)
	if counted != 0 || tried != 2 || !store.Unavailable(err) {
		t.Fatalf("while nothing commits: counted %d, tried %d, %v; want 0, 2, the store unavailable", counted, tried, err)
	}
	if committed != 0 {
		t.Fatalf("%d units told they committed while nothing commits", committed)
	}
	st.FailWrites(nil)
	if counted, tried, err := runDue(ctx, sw, []string{"a", "b"}, work); counted != 2 || tried != 2 || err != nil {
		t.Fatalf("once it commits: counted %d, tried %d, %v; want 2, 2, nil", counted, tried, err)
	}
	if committed != 2 {
		t.Fatalf("%d units told they committed, want 2", committed)
	}
}
