package store

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"
)

// TestMarkAllSent: one statement marks a batch sent (issue 40): every
// pending mail of it is sent at the time given and its claim ends; a
// mail no longer pending is left as it is and missing from the ids
// returned, as MarkSent reports it with ErrNotFound.
func TestMarkAllSent(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	var statements int
	counting := false
	s.setTrace(func(string, []any) {
		if counting {
			statements++
		}
	})
	var ids []int64
	for i := range 5 {
		ids = append(ids, queue(t, s, fmt.Sprintf("<m%d@pbem>", i), "ann@example.org", t0))
	}
	if got := claim(t, s, "a", t0, time.Minute, 5); !slices.Equal(got, ids) {
		t.Fatalf("claimed %v, want %v", got, ids)
	}
	mustTx(t, s, func(tx *Tx) error { return tx.MarkDead(ctx, ids[1], "given up") })
	at := t0.Add(3 * time.Second)
	var marked []int64
	mustTx(t, s, func(tx *Tx) (err error) {
		counting = true
		marked, err = tx.MarkAllSent(ctx, ids, at)
		counting = false
		return err
	})
	if statements != 1 {
		t.Errorf("marking %d mails ran %d statements, want 1", len(ids), statements)
	}
	slices.Sort(marked)
	if want := []int64{ids[0], ids[2], ids[3], ids[4]}; !slices.Equal(marked, want) {
		t.Errorf("marked %v, want %v (not the dead one)", marked, want)
	}
	for i, id := range ids {
		o, err := s.Outgoing(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		want := OutSent
		if i == 1 {
			want = OutDead
		}
		if o.State != want || o.ClaimedBy != "" || !o.ClaimedUntil.IsZero() {
			t.Errorf("mail %d: %s, claimed by %q until %v; want %s and no claim", id, o.State, o.ClaimedBy, o.ClaimedUntil, want)
		}
		if want == OutSent && !o.SentAt.Equal(at) {
			t.Errorf("mail %d sent at %v, want %v", id, o.SentAt, at)
		}
	}
	mustTx(t, s, func(tx *Tx) (err error) {
		marked, err = tx.MarkAllSent(ctx, nil, at)
		return err
	})
	if len(marked) != 0 {
		t.Errorf("marking no mail marked %v", marked)
	}
}

// TestUnreachableAmong: one statement reads which addresses of a batch
// are unreachable, by normalized address, with what UnreachableAddress
// says of each; reachable, repeated and differently spelt addresses
// included.
func TestUnreachableAmong(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	mustTx(t, s, func(tx *Tx) error {
		if _, err := tx.RecordBounce(ctx, "ann@x.test", true, "5.1.1", t0, 3); err != nil {
			return err
		}
		if _, err := tx.RecordBounce(ctx, "cy@x.test", true, "5.2.1", t0.Add(time.Hour), 3); err != nil {
			return err
		}
		if _, err := tx.RecordBounce(ctx, "dee@x.test", false, "4.2.2", t0, 3); err != nil {
			return err // one soft bounce: still reachable
		}
		return tx.Probed(ctx, "cy@x.test", t0.Add(2*time.Hour))
	})
	for _, tc := range []struct {
		name string
		in   []string
		want []string
	}{
		{"none", nil, nil},
		{"all reachable", []string{"bob@x.test", "dee@x.test"}, nil},
		{"mixed", []string{"bob@x.test", "ann@x.test", "dee@x.test", "cy@x.test"}, []string{"ann@x.test", "cy@x.test"}},
		{"repeated and spelt otherwise", []string{"Ann@X.test", "ann@x.test", "ann@x.test"}, []string{"ann@x.test"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := s.UnreachableAmong(ctx, tc.in)
			if err != nil {
				t.Fatal(err)
			}
			var keys []string
			for a, u := range got {
				keys = append(keys, a)
				one, err := s.UnreachableAddress(ctx, a)
				if err != nil || u != one {
					t.Errorf("%s: %+v, want %+v (%v)", a, u, one, err)
				}
			}
			slices.Sort(keys)
			if !slices.Equal(keys, tc.want) {
				t.Errorf("unreachable among %v: %v, want %v", tc.in, keys, tc.want)
			}
		})
	}
}
