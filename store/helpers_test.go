package store

import (
	"context"
	"testing"
	"time"

	"github.com/pbem/pbem/store/storetest"
)

// t0 is the tests' "now": the store reads no clock.
var t0 = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

// newStore opens a fresh store on the engine the tests run on
// (storetest.Database), and returns it with its database.
func newStore(t testing.TB, opts ...Option) (*Store, string) {
	t.Helper()
	path := storetest.Database(t)
	s, err := Open(context.Background(), path, opts...)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return s, path
}

// mustTx runs fn in a transaction and fails the test on error.
func mustTx(t testing.TB, s *Store, fn func(*Tx) error) {
	t.Helper()
	if err := s.Tx(context.Background(), fn); err != nil {
		t.Fatalf("Tx: %v", err)
	}
}

// newGame creates a game with one seat per address, seat 0 the creator,
// and returns its id.
func newGame(t testing.TB, s *Store, addrs ...string) int64 {
	t.Helper()
	var id int64
	mustTx(t, s, func(tx *Tx) error {
		var err error
		id, err = tx.CreateGame(context.Background(), NewGame{
			Kind: "felix", Setup: []byte(`{"players":[]}`), Creator: addrs[0], CreatedAt: t0,
		})
		if err != nil {
			return err
		}
		for i, a := range addrs {
			if err := tx.AddSeat(context.Background(), id, i, a, "p"+string(rune('a'+i)), NewToken()); err != nil {
				return err
			}
		}
		return nil
	})
	return id
}

// count returns the number of rows of a table.
func count(t testing.TB, s *Store, table string) int {
	t.Helper()
	var n int
	if err := s.q.QueryRowContext(context.Background(), `SELECT count(*) FROM `+table).Scan(&n); err != nil {
		t.Fatalf("count %s: %v", table, err)
	}
	return n
}

// sqliteOnly skips a test about SQLite's own files and statements when
// the tests run on PostgreSQL.
func sqliteOnly(t testing.TB) {
	t.Helper()
	if storetest.OnPostgres() {
		t.Skip("about SQLite's files or statements")
	}
}
