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
// with its queries, and tells the hook each in the order they ran; and
// on PostgreSQL how many round trips they take once pgx has prepared
// them, the writes that need no answer going with the next statement
// (pipeline.go).
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
		// trips is how many round trips the statements take on
		// PostgreSQL.
		trips int64
	}{
		{"a read", func() error { _, err := s.Game(ctx, id); return err }, []string{"?"}, 1},
		{"a transaction of one write", func() error {
			return s.Tx(ctx, func(tx *Tx) error { return tx.SetGameStatus(ctx, id, StatusActive) })
		}, append(slices.Repeat([]string{"BEGIN"}, begin), "?", "COMMIT"), 2}, // BEGIN, the lock and the write; COMMIT
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
		}, append(slices.Repeat([]string{"BEGIN"}, begin), "?", "ROLLBACK"), 2}, // BEGIN, the lock and the read; ROLLBACK
		{"a savepoint", func() error {
			return s.Tx(ctx, func(tx *Tx) error {
				return tx.Savepoint(ctx, func() error { return tx.SetGameStatus(ctx, id, StatusActive) })
			})
		}, append(slices.Repeat([]string{"BEGIN"}, begin), "SAVEPOINT work", "?", "RELEASE work", "COMMIT"), 3}, // BEGIN, the lock, SAVEPOINT and the write; RELEASE; COMMIT
	}
	for _, c := range cases {
		// The fewest round trips of a few runs: a connection met for
		// the first time prepares each statement, a round trip more.
		trips := int64(-1)
		for range 4 {
			before := s.Counts()
			if err := c.run(); err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			if n := s.Counts().RoundTrips - before.RoundTrips; trips < 0 || n < trips {
				trips = n
			}
		}
		if s.Engine() == PostgreSQL && trips != c.trips {
			t.Errorf("%s: %d round trips, want %d", c.name, trips, c.trips)
		}
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
