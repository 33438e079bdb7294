package store

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

// rawLastMailed reads seat 0's last_mailed_event with a statement of
// its own, not through the transaction's memo: what SQLite holds.
func rawLastMailed(ctx context.Context, tx *Tx, game int64) (int64, error) {
	var n int64
	err := tx.tx.(sqliteTx).QueryRowContext(ctx, `SELECT last_mailed_event FROM seats WHERE game_id = ? AND seat = 0`, game).Scan(&n)
	return n, err
}

// TestDeferredSeatWrites: on SQLite the writes of a kept seat wait on
// the session (deferSeat) and are one statement, but every statement
// that could see the seat sees them, a savepoint rolled back drops
// them, and one that fails fails what follows it until a rollback: the
// transaction never commits without it.
func TestDeferredSeatWrites(t *testing.T) {
	sqliteOnly(t)
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	game := newGame(t, s, "ann@example.org", "bob@example.org")
	keep := func(tx *Tx) {
		t.Helper()
		if _, err := tx.Seats(ctx, game); err != nil {
			t.Fatal(err)
		}
	}

	t.Run("seen by a read of seats", func(t *testing.T) {
		mustTx(t, s, func(tx *Tx) error {
			keep(tx)
			if err := tx.SetSeatLastMailedEvent(ctx, game, 0, 7); err != nil {
				return err
			}
			if n := len(tx.tx.(sqliteTx).s.deferred); n != 1 {
				t.Errorf("%d writes waiting, want 1", n)
			}
			// A read of another table does not need it.
			if _, err := tx.reader.Player(ctx, "ann@example.org"); err != nil {
				return err
			}
			if n := len(tx.tx.(sqliteTx).s.deferred); n != 1 {
				t.Errorf("after a read of players %d writes waiting, want 1", n)
			}
			got, err := rawLastMailed(ctx, tx, game)
			if err != nil || got != 7 {
				t.Errorf("a read of seats saw last_mailed_event %d, %v; want 7", got, err)
			}
			if n := len(tx.tx.(sqliteTx).s.deferred); n != 0 {
				t.Errorf("after a read of seats %d writes waiting, want 0", n)
			}
			return tx.SetSeatLastMailedEvent(ctx, game, 0, 8) // waits for the COMMIT
		})
		if st, err := s.Seat(ctx, game, 0); err != nil || st.LastMailedEvent != 8 {
			t.Errorf("committed last_mailed_event %d, %v; want 8", st.LastMailedEvent, err)
		}
	})

	t.Run("dropped with a savepoint rolled back", func(t *testing.T) {
		undone := errors.New("undone")
		mustTx(t, s, func(tx *Tx) error {
			keep(tx)
			if err := tx.SetSeatLastMailedEvent(ctx, game, 0, 20); err != nil {
				return err
			}
			err := tx.Savepoint(ctx, func() error {
				keep(tx)
				if err := tx.SetSeatLastMailedEvent(ctx, game, 0, 21); err != nil {
					return err
				}
				return undone
			})
			if !errors.Is(err, undone) {
				t.Errorf("savepoint: %v", err)
			}
			got, err := rawLastMailed(ctx, tx, game)
			if err != nil || got != 20 {
				t.Errorf("after the rollback last_mailed_event %d, %v; want 20 (written before the savepoint)", got, err)
			}
			return nil
		})
		if st, err := s.Seat(ctx, game, 0); err != nil || st.LastMailedEvent != 20 {
			t.Errorf("committed last_mailed_event %d, %v; want 20", st.LastMailedEvent, err)
		}
	})

	// decision < 0 breaks the table's CHECK: a write no command makes,
	// standing for any write that fails.
	failing := func(tx *Tx) error {
		st, err := tx.Seat(ctx, game, 0)
		if err != nil {
			return err
		}
		st.Decision = -1
		return tx.laterSeat(ctx, st)
	}

	t.Run("a failed write fails its savepoint", func(t *testing.T) {
		mustTx(t, s, func(tx *Tx) error {
			err := tx.Savepoint(ctx, func() error {
				if err := failing(tx); err != nil {
					return err
				}
				// The failure is kept: a read of another table still
				// runs, one of seats fails, and so does the RELEASE.
				_, err := tx.reader.Player(ctx, "ann@example.org")
				return err
			})
			if err == nil {
				t.Error("the savepoint with a failed write was released")
			}
			// The rollback undid it: the transaction goes on.
			_, err = tx.Seats(ctx, game)
			return err
		})
	})

	t.Run("a failed write fails the commit", func(t *testing.T) {
		err := s.Tx(ctx, func(tx *Tx) error {
			if err := tx.SetSeatLastMailedEvent(ctx, game, 1, 99); err != nil {
				return err
			}
			if err := failing(tx); err != nil {
				return err
			}
			// A QueryRow cannot report it: the next statement can.
			var n int64
			if err := tx.tx.(sqliteTx).QueryRowContext(ctx, `SELECT count(*) FROM seats`).Scan(&n); err != nil && !errors.Is(err, sql.ErrNoRows) {
				t.Logf("the read after it: %v", err)
			}
			return nil
		})
		if err == nil {
			t.Fatal("a transaction with a failed seat write committed")
		}
		if st, err := s.Seat(ctx, game, 1); err != nil || st.LastMailedEvent == 99 {
			t.Errorf("seat 1 committed with last_mailed_event %d, %v", st.LastMailedEvent, err)
		}
		// The next transaction starts clean.
		mustTx(t, s, func(tx *Tx) error { return tx.SetDeadline(ctx, game, 0, time.Unix(1_800_000_000, 0)) })
	})
}

// TestSeatRowColumns: seatRowColumns are the columns seatRowSQL sets,
// which a statement must name to see a deferred write (seesSeats).
func TestSeatRowColumns(t *testing.T) {
	set, _, _ := strings.Cut(strings.TrimPrefix(seatRowSQL, "UPDATE seats SET "), " WHERE ")
	var cols []string
	for _, a := range strings.Split(set, ",") {
		col, _, _ := strings.Cut(strings.TrimSpace(a), " =")
		cols = append(cols, col)
	}
	if !slices.Equal(cols, seatRowColumns) {
		t.Errorf("seatRowSQL sets %v, seatRowColumns are %v", cols, seatRowColumns)
	}
	for _, c := range []struct {
		query string
		sees  bool
	}{
		{`SELECT address FROM players WHERE address IN (SELECT address FROM seats WHERE game_id = ?)`, false},
		{`SELECT deadline FROM seats WHERE game_id = ?`, true},
		{`SELECT count(*) FROM seats`, true},
		{`UPDATE seats SET state = ? WHERE game_id = ? AND seat = ?`, false},
		{`UPDATE seats SET decision = decision + 1 WHERE game_id = ?`, true},
		{`INSERT INTO moves (game_id, seq) VALUES (?, ?)`, false},
		{`DELETE FROM games WHERE id = ?`, true},
		{`SAVEPOINT work`, true},
		{`RELEASE work`, true},
		{`COMMIT`, true},
	} {
		if got := seesSeats(firstWord(c.query), c.query); got != c.sees {
			t.Errorf("seesSeats(%q) = %v, want %v", c.query, got, c.sees)
		}
	}
}
