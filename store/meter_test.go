package store

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
)

// TestCounts checks that the store counts every statement it sends, the
// transaction's own (BEGIN, the lock, COMMIT or ROLLBACK, savepoints)
// with its queries, and tells the hook each in the order they ran.
func TestCounts(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	var mu sync.Mutex
	var seen []string
	s, _ := newStore(t, WithStatementHook(func(q string) {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, q)
	}))
	id := newGame(t, s, "a@x.test")
	// BEGIN, and on PostgreSQL the lock: what each transaction starts with.
	begin := len(s.be.beginStatements(false))
	rollback := errors.New("rolled back")
	cases := []struct {
		name string
		run  func() error
		want []string // the statements, "?" for a query
	}{
		{"a read", func() error { _, err := s.Game(ctx, id); return err }, []string{"?"}},
		{"a transaction of one write", func() error {
			return s.Tx(ctx, func(tx *Tx) error { return tx.SetGameStatus(ctx, id, StatusActive) })
		}, append(slices.Repeat([]string{"BEGIN"}, begin), "?", "COMMIT")},
		{"a transaction rolled back", func() error {
			err := s.Tx(ctx, func(tx *Tx) error {
				if _, err := tx.Game(ctx, id); err != nil {
					return err
				}
				return rollback
			})
			if errors.Is(err, rollback) {
				return nil
			}
			return err
		}, append(slices.Repeat([]string{"BEGIN"}, begin), "?", "ROLLBACK")},
		{"a savepoint", func() error {
			return s.Tx(ctx, func(tx *Tx) error {
				return tx.Savepoint(ctx, func() error { return tx.SetGameStatus(ctx, id, StatusActive) })
			})
		}, append(slices.Repeat([]string{"BEGIN"}, begin), "SAVEPOINT work", "?", "RELEASE work", "COMMIT")},
	}
	for _, c := range cases {
		mu.Lock()
		seen = nil
		mu.Unlock()
		before := s.Counts()
		if err := c.run(); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		after := s.Counts()
		if got := after.Statements - before.Statements; got != int64(len(c.want)) {
			t.Errorf("%s: %d statements counted, want %d (%q)", c.name, got, len(c.want), seen)
		}
		mu.Lock()
		got := normalise(seen, s.be.beginStatements(false))
		mu.Unlock()
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: the hook saw %q, want %q", c.name, got, c.want)
		}
		if s.Engine() == SQLite && after.RoundTrips != 0 {
			t.Errorf("%s: %d round trips on SQLite", c.name, after.RoundTrips)
		}
		if s.Engine() == PostgreSQL && after.RoundTrips-before.RoundTrips < int64(len(c.want)) {
			t.Errorf("%s: %d round trips for %d statements", c.name, after.RoundTrips-before.RoundTrips, len(c.want))
		}
	}
}

// normalise writes the statements the hook saw as the cases of
// TestCounts name them: what begin runs as BEGIN, every query as "?".
func normalise(seen, begin []string) []string {
	var out []string
	for _, q := range seen {
		switch {
		case slices.Contains(begin, q):
			out = append(out, "BEGIN")
		case slices.Contains([]string{"COMMIT", "ROLLBACK", "SAVEPOINT work", "RELEASE work", "ROLLBACK TO work"}, q):
			out = append(out, q)
		default:
			out = append(out, "?")
		}
	}
	return out
}
