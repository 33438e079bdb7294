package store

import (
	"context"
	"maps"
	"testing"
)

func TestGamesByStatus(t *testing.T) {
	s, _ := newStore(t)
	ctx := context.Background()

	got, err := s.GamesByStatus(ctx)
	if err != nil {
		t.Fatalf("GamesByStatus on an empty store: %v", err)
	}
	if len(got) != 0 {
		t.Fatalf("empty store: got %v, want no statuses", got)
	}

	newGame(t, s, "a@x.test", "b@x.test")
	active := newGame(t, s, "c@x.test", "d@x.test")
	paused := newGame(t, s, "e@x.test", "f@x.test")
	mustTx(t, s, func(tx *Tx) error {
		if err := tx.SetGameStatus(ctx, active, StatusActive); err != nil {
			return err
		}
		return tx.SetGameStatus(ctx, paused, StatusPaused)
	})

	got, err = s.GamesByStatus(ctx)
	if err != nil {
		t.Fatalf("GamesByStatus: %v", err)
	}
	want := map[string]int64{"inviting": 1, "active": 1, "paused": 1}
	if !maps.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}

	// A transaction's reads see its own writes.
	mustTx(t, s, func(tx *Tx) error {
		if err := tx.SetGameStatus(ctx, paused, StatusActive); err != nil {
			return err
		}
		got, err := tx.GamesByStatus(ctx)
		if err != nil {
			return err
		}
		if want := map[string]int64{"inviting": 1, "active": 2}; !maps.Equal(got, want) {
			t.Errorf("inside the transaction: got %v, want %v", got, want)
		}
		return nil
	})
}
