package store

import (
	"context"
	"testing"
	"time"
)

// TestRetryDeferred: at start, mail that a failure deferred is due at
// once; mail queued for later on purpose, and mail already due, sent or
// dead, keeps its time.
func TestRetryDeferred(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	ids := map[string]int64{}
	for _, o := range []Outgoing{
		{MessageID: "<deferred@pbem>", NotBefore: t0},
		{MessageID: "<later@pbem>", NotBefore: t0.Add(time.Hour)},
		{MessageID: "<due@pbem>", NotBefore: t0},
		{MessageID: "<dead@pbem>", NotBefore: t0},
	} {
		o.To, o.Raw = "bob@example.org", []byte("x")
		if err := s.Tx(ctx, func(tx *Tx) error {
			id, _, err := tx.Enqueue(ctx, o)
			ids[o.MessageID] = id
			return err
		}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Tx(ctx, func(tx *Tx) error {
		if err := tx.MarkFailed(ctx, ids["<deferred@pbem>"], "421 try later", t0.Add(85*time.Second)); err != nil {
			return err
		}
		if err := tx.MarkFailed(ctx, ids["<due@pbem>"], "421 try later", t0.Add(-time.Second)); err != nil {
			return err
		}
		if err := tx.MarkFailed(ctx, ids["<dead@pbem>"], "421 try later", t0.Add(time.Hour)); err != nil {
			return err
		}
		return tx.MarkDead(ctx, ids["<dead@pbem>"], "550 no")
	}); err != nil {
		t.Fatal(err)
	}
	var n int64
	if err := s.Tx(ctx, func(tx *Tx) (err error) {
		n, err = tx.RetryDeferred(ctx, t0.Add(time.Second))
		return err
	}); err != nil || n != 1 {
		t.Fatalf("RetryDeferred: %d, %v; want 1", n, err)
	}
	for mid, want := range map[string]time.Time{
		"<deferred@pbem>": t0.Add(time.Second),
		"<later@pbem>":    t0.Add(time.Hour),
		"<due@pbem>":      t0.Add(-time.Second),
		"<dead@pbem>":     t0.Add(time.Hour),
	} {
		o, err := s.Outgoing(ctx, ids[mid])
		if err != nil {
			t.Fatal(err)
		}
		if !o.NotBefore.Equal(want) {
			t.Errorf("%s: not before %v, want %v", mid, o.NotBefore, want)
		}
		if mid == "<deferred@pbem>" && o.Attempts != 1 {
			t.Errorf("%s: %d attempts after RetryDeferred, want 1 (the count is kept)", mid, o.Attempts)
		}
	}
}
