package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// A game holds one undo proposal at most; agree sets the seat's bit; the
// proposal lapses at its time and ends once.
func TestUndoProposal(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	id := newGame(t, s, "alice@x.test", "bob@y.test", "carol@z.test")
	other := newGame(t, s, "dave@x.test", "erin@y.test", "frank@z.test")
	if _, err := s.PendingUndo(ctx, id); !errors.Is(err, ErrNotFound) {
		t.Fatalf("pending undo of a new game: %v", err)
	}
	u := UndoProposal{GameID: id, Seat: 1, Seq: 4, ProposedAt: t0, ExpiresAt: t0.Add(24 * time.Hour)}
	mustTx(t, s, func(tx *Tx) error {
		for _, g := range []int64{id, other} {
			if err := tx.SetGameStatus(ctx, g, StatusActive); err != nil {
				return err
			}
		}
		if err := tx.ProposeUndo(ctx, u); err != nil {
			return err
		}
		return tx.ProposeUndo(ctx, UndoProposal{GameID: other, Seat: 0, Seq: 1, ProposedAt: t0, ExpiresAt: t0.Add(48 * time.Hour)})
	})
	err := s.Tx(ctx, func(tx *Tx) error { return tx.ProposeUndo(ctx, u) })
	if err == nil {
		t.Fatal("a second proposal in the same game was stored")
	}
	var got UndoProposal
	mustTx(t, s, func(tx *Tx) error {
		var err error
		if _, err = tx.AgreeUndo(ctx, id, 0); err != nil {
			return err
		}
		got, err = tx.AgreeUndo(ctx, id, 2)
		return err
	})
	if !got.HasAgreed(0) || got.HasAgreed(1) || !got.HasAgreed(2) || got.Seq != 4 || got.Seat != 1 || !got.ExpiresAt.Equal(t0.Add(24*time.Hour)) {
		t.Fatalf("proposal after two agrees: %+v", got)
	}
	for _, tc := range []struct {
		at   time.Time
		want int
	}{{t0.Add(time.Hour), 0}, {t0.Add(24 * time.Hour), 1}, {t0.Add(48 * time.Hour), 2}} {
		due, err := s.ExpiredUndos(ctx, tc.at)
		if err != nil || len(due) != tc.want {
			t.Errorf("lapsed at %v: %+v, %v; want %d", tc.at, due, err, tc.want)
		}
	}
	// A paused game's proposal waits for the game to resume.
	mustTx(t, s, func(tx *Tx) error { return tx.SetGameStatus(ctx, other, StatusPaused) })
	if due, _ := s.ExpiredUndos(ctx, t0.Add(48*time.Hour)); len(due) != 1 || due[0].GameID != id {
		t.Errorf("lapsed with one game paused: %+v", due)
	}
	var ended, again bool
	mustTx(t, s, func(tx *Tx) error {
		var err error
		if ended, err = tx.EndUndo(ctx, id); err != nil {
			return err
		}
		again, err = tx.EndUndo(ctx, id)
		return err
	})
	if !ended || again {
		t.Fatalf("EndUndo: %v then %v", ended, again)
	}
	err = s.Tx(ctx, func(tx *Tx) error { _, err := tx.AgreeUndo(ctx, id, 0); return err })
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("agree without a proposal: %v", err)
	}
}

// The sweep finds lapsed proposals through undos_expiry, not by reading
// every proposal.
func TestExpiredUndosUsesIndex(t *testing.T) {
	sqliteOnly(t)
	t.Parallel()
	s, _ := newStore(t)
	rows, err := s.r.Query(`EXPLAIN QUERY PLAN `+expiredUndosQuery, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan += detail + "\n"
	}
	if want := "SEARCH u USING INDEX undos_expiry (expires_at<?)"; !strings.Contains(plan, want) {
		t.Fatalf("plan:\n%s\nwant %q", plan, want)
	}
}

// TestPendingUndoFromTheGameRow checks that a transaction that has read
// its game's row answers PendingUndo from it when the row says there is
// no proposal, without a statement, and still finds a proposal that is
// there: one open before, and one it wrote itself after the read.
func TestPendingUndoFromTheGameRow(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	id := newGame(t, s, "alice@x.test", "bob@y.test", "carol@z.test")
	statements := func(fn func() error) int64 {
		t.Helper()
		start := s.Counts().Statements
		if err := fn(); err != nil {
			t.Fatal(err)
		}
		return s.Counts().Statements - start
	}
	u := UndoProposal{GameID: id, Seat: 1, Seq: 4, ProposedAt: t0, ExpiresAt: t0.Add(24 * time.Hour)}
	mustTx(t, s, func(tx *Tx) error {
		g, err := tx.Game(ctx, id)
		if err != nil {
			return err
		}
		if g.UndoOpen {
			t.Error("a new game's row says an undo is open")
		}
		if n := statements(func() error {
			if _, err := tx.PendingUndo(ctx, id); !errors.Is(err, ErrNotFound) {
				return fmt.Errorf("pending undo of a game without one: %v", err)
			}
			return nil
		}); n != 0 {
			t.Errorf("PendingUndo after the game's row ran %d statements, want 0", n)
		}
		if err := tx.SetGameStatus(ctx, id, StatusActive); err != nil {
			return err
		}
		if _, err := tx.Game(ctx, id); err != nil {
			return err
		}
		if err := tx.ProposeUndo(ctx, u); err != nil {
			return err
		}
		got, err := tx.PendingUndo(ctx, id)
		if err != nil || got.Seq != u.Seq {
			t.Errorf("after proposing in the same transaction: %+v, %v", got, err)
		}
		return nil
	})
	mustTx(t, s, func(tx *Tx) error {
		g, err := tx.Game(ctx, id)
		if err != nil {
			return err
		}
		if !g.UndoOpen {
			t.Error("the row of a game with a proposal says none is open")
		}
		got, err := tx.PendingUndo(ctx, id)
		if err != nil || got.Seat != u.Seat {
			t.Errorf("a proposal made before: %+v, %v", got, err)
		}
		if _, err := tx.EndUndo(ctx, id); err != nil {
			return err
		}
		if _, err := tx.PendingUndo(ctx, id); !errors.Is(err, ErrNotFound) {
			t.Errorf("after ending the proposal: %v", err)
		}
		return nil
	})
}
