package store

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// TestAcquireLease: the lease goes to whoever asks when it is free or
// expired, is renewed by its holder, and is refused to another while it
// runs.
func TestAcquireLease(t *testing.T) {
	ttl := 15 * time.Second
	tests := []struct {
		name    string
		before  []func(tx *Tx) error // run in order, each must succeed
		holder  string
		now     time.Time
		wantOK  bool
		wantHas string    // the holder afterwards
		wantExp time.Time // the expiry afterwards
		wantAcq time.Time // when the holder afterwards took it
	}{
		{name: "free", holder: "a", now: t0, wantOK: true, wantHas: "a", wantExp: t0.Add(ttl), wantAcq: t0},
		{
			name:   "held by another",
			before: []func(*Tx) error{acquire("b", t0)},
			holder: "a", now: t0.Add(14 * time.Second),
			wantOK: false, wantHas: "b", wantExp: t0.Add(ttl), wantAcq: t0,
		},
		{
			name:   "held by another, a millisecond before its expiry",
			before: []func(*Tx) error{acquire("b", t0)},
			holder: "a", now: t0.Add(ttl - time.Millisecond),
			wantOK: false, wantHas: "b", wantExp: t0.Add(ttl), wantAcq: t0,
		},
		{
			name:   "expired exactly",
			before: []func(*Tx) error{acquire("b", t0)},
			holder: "a", now: t0.Add(ttl),
			wantOK: true, wantHas: "a", wantExp: t0.Add(2 * ttl), wantAcq: t0.Add(ttl),
		},
		{
			name:   "expired long ago",
			before: []func(*Tx) error{acquire("b", t0)},
			holder: "a", now: t0.Add(time.Hour),
			wantOK: true, wantHas: "a", wantExp: t0.Add(time.Hour + ttl), wantAcq: t0.Add(time.Hour),
		},
		{
			name:   "mine: renewed, keeping when it was taken",
			before: []func(*Tx) error{acquire("a", t0)},
			holder: "a", now: t0.Add(5 * time.Second),
			wantOK: true, wantHas: "a", wantExp: t0.Add(5*time.Second + ttl), wantAcq: t0,
		},
		{
			name:   "mine and expired, no one took it: renewed",
			before: []func(*Tx) error{acquire("a", t0)},
			holder: "a", now: t0.Add(time.Minute),
			wantOK: true, wantHas: "a", wantExp: t0.Add(time.Minute + ttl), wantAcq: t0,
		},
		{
			name:   "released by another: free at once",
			before: []func(*Tx) error{acquire("b", t0), release("b", true)},
			holder: "a", now: t0.Add(time.Second),
			wantOK: true, wantHas: "a", wantExp: t0.Add(time.Second + ttl), wantAcq: t0.Add(time.Second),
		},
		{
			name:   "a release by one who does not hold it changes nothing",
			before: []func(*Tx) error{acquire("b", t0), release("a", false)},
			holder: "a", now: t0.Add(time.Second),
			wantOK: false, wantHas: "b", wantExp: t0.Add(ttl), wantAcq: t0,
		},
		{
			name: "other leases are other rows",
			before: []func(*Tx) error{func(tx *Tx) error {
				_, _, err := tx.AcquireLease(context.Background(), "other", "b", t0, ttl)
				return err
			}},
			holder: "a", now: t0,
			wantOK: true, wantHas: "a", wantExp: t0.Add(ttl), wantAcq: t0,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, _ := newStore(t)
			ctx := context.Background()
			for _, f := range tc.before {
				mustTx(t, s, f)
			}
			var got Lease
			var ok bool
			mustTx(t, s, func(tx *Tx) (err error) {
				got, ok, err = tx.AcquireLease(ctx, "reader", tc.holder, tc.now, ttl)
				return err
			})
			if ok != tc.wantOK || got.Name != "reader" || got.Holder != tc.wantHas || !got.Expires.Equal(tc.wantExp) || !got.Acquired.Equal(tc.wantAcq) {
				t.Errorf("AcquireLease(%s at %s) = %+v, %t; want holder %s acquired %s until %s, %t",
					tc.holder, tc.now.Format(time.TimeOnly), got, ok, tc.wantHas, tc.wantAcq.Format(time.TimeOnly), tc.wantExp.Format(time.TimeOnly), tc.wantOK)
			}
			read, err := s.Lease(ctx, "reader")
			if err != nil || read != got {
				t.Errorf("Lease afterwards = %+v, %v; want %+v", read, err, got)
			}
			if got.HeldAt(tc.now) != true {
				t.Errorf("the lease afterwards is not held at %s: %+v", tc.now, got)
			}
		})
	}
}

func acquire(holder string, now time.Time) func(*Tx) error {
	return func(tx *Tx) error {
		_, ok, err := tx.AcquireLease(context.Background(), "reader", holder, now, 15*time.Second)
		if err == nil && !ok {
			err = fmt.Errorf("%s could not take the lease at %s", holder, now)
		}
		return err
	}
}

func release(holder string, want bool) func(*Tx) error {
	return func(tx *Tx) error {
		had, err := tx.ReleaseLease(context.Background(), "reader", holder)
		if err == nil && had != want {
			err = fmt.Errorf("ReleaseLease(%s) = %t, want %t", holder, had, want)
		}
		return err
	}
}

func TestLeaseNone(t *testing.T) {
	s, _ := newStore(t)
	ctx := context.Background()
	if l, err := s.Lease(ctx, "reader"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Lease of a lease never taken = %+v, %v; want ErrNotFound", l, err)
	}
	mustTx(t, s, acquire("a", t0))
	mustTx(t, s, release("a", true))
	if l, err := s.Lease(ctx, "reader"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Lease of a released lease = %+v, %v; want ErrNotFound", l, err)
	}
	mustTx(t, s, func(tx *Tx) error {
		if _, _, err := tx.AcquireLease(ctx, "reader", "", t0, time.Second); err == nil {
			t.Error("AcquireLease with no holder succeeded")
		}
		if _, _, err := tx.AcquireLease(ctx, "reader", "a", t0, 0); err == nil {
			t.Error("AcquireLease with no ttl succeeded")
		}
		return nil
	})
	if (Lease{Holder: "a", Expires: t0}).HeldAt(t0) {
		t.Error("a lease is held at its expiry")
	}
}

// TestLeaseContenders: contenders on two handles of one database file,
// as two processes would be, race for the lease at the same moments, in
// rounds. Whatever the interleaving of their transactions, at most one
// wins a round, a lease that runs is never taken from its holder, and
// when the holder stops renewing (or releases it) exactly one other
// takes it once it is free.
func TestLeaseContenders(t *testing.T) {
	s1, path := newStore(t)
	s2, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	ctx := context.Background()
	const (
		contenders = 6
		rounds     = 120
		ttl        = 3 * time.Second // three rounds
		step       = time.Second
	)
	holder := "" // who won the last round won
	since := 0   // the round holder last renewed in
	quiet := -1  // a round from which the holder stops renewing, until it expires
	gaveUp := -1 // the round in which the holder released the lease
	takeovers := 0
	for r := range rounds {
		now := t0.Add(time.Duration(r) * step)
		// Every few rounds the holder falls silent (a crash), or releases
		// the lease (a stop), by a fixed pattern.
		switch {
		case holder != "" && r%17 == 0:
			quiet = r
		case holder != "" && r%11 == 0 && quiet < 0:
			mustTx(t, s1, release(holder, true))
			gaveUp = r
		}
		var mu sync.Mutex
		var winners []string
		var wg sync.WaitGroup
		for c := range contenders {
			name := fmt.Sprintf("node%d", c)
			if name == holder && quiet >= 0 {
				continue
			}
			st := []*Store{s1, s2}[c%2]
			wg.Add(1)
			go func() {
				defer wg.Done()
				var ok bool
				err := st.Tx(ctx, func(tx *Tx) (err error) {
					_, ok, err = tx.AcquireLease(ctx, "reader", name, now, ttl)
					return err
				})
				if err != nil {
					t.Errorf("round %d: %s: %v", r, name, err)
				}
				if ok {
					mu.Lock()
					winners = append(winners, name)
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		free := holder == "" || gaveUp == r || (quiet >= 0 && now.Sub(t0.Add(time.Duration(since)*step)) >= ttl)
		switch {
		case len(winners) > 1:
			t.Fatalf("round %d: %d contenders hold the lease at once: %v", r, len(winners), winners)
		case free && len(winners) != 1:
			t.Fatalf("round %d: the lease is free but %d took it: %v", r, len(winners), winners)
		case !free && quiet >= 0 && len(winners) != 0:
			t.Fatalf("round %d: the lease of %s, renewed in round %d and not yet expired, went to %v", r, holder, since, winners)
		case !free && quiet < 0 && (len(winners) != 1 || winners[0] != holder):
			t.Fatalf("round %d: %s could not renew its lease, or another took it: %v", r, holder, winners)
		}
		if len(winners) == 0 {
			continue // the silent holder's lease runs on
		}
		if winners[0] != holder {
			takeovers++
			quiet, gaveUp = -1, -1
		}
		holder, since = winners[0], r
	}
	if takeovers < 10 {
		t.Errorf("only %d takeovers in %d rounds: the test wants more to mean something", takeovers, rounds)
	}
}

// TestOpenTogether: nodes started together on a new database all open
// it: they race to migrate it, and each goes on from where the others
// got (the second to a migration fails and rolls it back).
func TestOpenTogether(t *testing.T) {
	const nodes, rounds = 4, 8 // one round alone is not always a race
	for r := range rounds {
		path := filepath.Join(t.TempDir(), fmt.Sprintf("pbem%d.db", r))
		var wg sync.WaitGroup
		errs := make([]error, nodes)
		start := make(chan struct{})
		for i := range nodes {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				s, err := Open(context.Background(), path)
				if err == nil {
					err = s.Close()
				}
				errs[i] = err
			}()
		}
		close(start)
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Errorf("round %d, node %d: %v", r, i, err)
			}
		}
	}
}
