package store

import (
	"context"
	"maps"
	"testing"
)

func TestGamesByStatus(t *testing.T) {
	t.Parallel()
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

func TestGamesSetAside(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t)
	ctx := context.Background()
	expect := func(step string, want int64) {
		t.Helper()
		n, err := s.GamesSetAside(ctx)
		if err != nil {
			t.Fatalf("%s: GamesSetAside: %v", step, err)
		}
		if n != want {
			t.Fatalf("%s: %d broken games, want %d", step, n, want)
		}
	}
	expect("empty store", 0)
	a := newGame(t, s, "a@x.test", "b@x.test")
	b := newGame(t, s, "c@x.test", "d@x.test")
	expect("healthy games", 0)
	mustTx(t, s, func(tx *Tx) error {
		if _, err := tx.SetGameAside(ctx, a, "state does not load", t0); err != nil {
			return err
		}
		_, err := tx.SetGameAside(ctx, b, "default move illegal", t0)
		return err
	})
	expect("two broken", 2)
	mustTx(t, s, func(tx *Tx) error { return tx.ClearGameAside(ctx, a) })
	expect("one repaired", 1)

	// A broken game keeps its status, and is counted under it.
	got, err := s.GamesByStatus(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]int64{"inviting": 2}; !maps.Equal(got, want) {
		t.Fatalf("GamesByStatus: got %v, want %v", got, want)
	}
}
