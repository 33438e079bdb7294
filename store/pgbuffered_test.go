package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"reflect"
	"slices"
	"testing"
)

// TestBufferedReadsAsStdlib checks, on PostgreSQL, that a read that went
// in a batch after writes waiting (pgTx.batchRead) gives its caller the
// values pgx's database/sql driver gives for the same read by itself,
// for every kind of column pbem's schema and statements have and more:
// whole numbers of each size, floats, text, bytea, JSON, booleans,
// dates and times, NULL; and that a query of no rows, and one that
// fails, read as they do by themselves.
func TestBufferedReadsAsStdlib(t *testing.T) {
	postgresOnly(t) // the pipeline is PostgreSQL's; CI's PostgreSQL phase runs it
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	const kinds = `SELECT 1::int2, 2::int4, 3::int8, 1.5::float4, 2.5::float8, true, false, 'x'::text, ''::text,
		'\x0102'::bytea, '{"a": 1}'::json, '{"b": 2}'::jsonb, DATE '2026-11-30',
		TIMESTAMPTZ '2026-11-30 21:00:00+01', TIMESTAMP '2026-11-30 21:00:00', NULL::bigint, NULL::text,
		hashtext('pbem'), EXISTS (SELECT 1 FROM games), (SELECT count(*) FROM games), 12.50::numeric
		FROM generate_series(1, 3)`
	read := func(tx *Tx, batched bool, query string) ([][]any, error) {
		p := tx.tx.(*pgTx)
		var rows *sql.Rows
		var err error
		if batched {
			// A lock waiting (guards nil): every read goes after it, in
			// its batch.
			p.later("a lock", `SELECT pg_advisory_xact_lock(1885496687, 1)`, nil)
			if !p.waitsFor(query) {
				t.Fatal("the read does not wait for the lock")
			}
			rows, err = p.QueryContext(ctx, query)
		} else {
			if err := p.flush(ctx); err != nil {
				return nil, err
			}
			rows, err = p.QueryContext(ctx, query)
		}
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		cols, _ := rows.Columns()
		var out [][]any
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				return nil, err
			}
			out = append(out, vals)
		}
		return out, rows.Err()
	}
	for _, q := range []string{kinds, `SELECT id FROM games WHERE id < 0`, `SELECT 1/0`} {
		var plain, batched [][]any
		var perr, berr error
		s.Tx(ctx, func(tx *Tx) error { plain, perr = read(tx, false, q); return nil })
		s.Tx(ctx, func(tx *Tx) error { batched, berr = read(tx, true, q); return nil })
		if (perr == nil) != (berr == nil) || !reflect.DeepEqual(plain, batched) {
			t.Errorf("%.40s…: by itself %v (%v), in a batch %v (%v)", q, plain, perr, batched, berr)
		}
		if q == kinds && len(batched) != 3 {
			t.Errorf("%d rows read in a batch, want 3", len(batched))
		}
	}
	// One row, as QueryRowContext reads it, and no row.
	var n int64
	var name sql.NullString
	err := s.Tx(ctx, func(tx *Tx) error {
		p := tx.tx.(*pgTx)
		p.later("a lock", `SELECT pg_advisory_xact_lock(1885496687, 1)`, nil)
		if err := p.QueryRowContext(ctx, `SELECT 7::int8, NULL::text`).Scan(&n, &name); err != nil {
			return err
		}
		p.later("a lock", `SELECT pg_advisory_xact_lock(1885496687, 2)`, nil)
		if err := p.QueryRowContext(ctx, `SELECT 1 WHERE false`).Scan(&n); err != sql.ErrNoRows {
			t.Errorf("no row in a batch: %v, want sql.ErrNoRows", err)
		}
		return nil
	})
	if err != nil || n != 7 || name.Valid {
		t.Errorf("one row in a batch: %d, %v (%v)", n, name, err)
	}
}

// TestBufferedSplit: a read of two tables' columns, as
// seatsAndPlayersSQL's, splits into the reads of each; the second leaves
// out the rows a LEFT JOIN found no match for, and a failed read fails
// both.
func TestBufferedSplit(t *testing.T) {
	b := &bufferedRows{cols: []string{"seat", "address", "name"}, rows: [][]driver.Value{
		{int64(0), "ann@x.test", "Ann"},
		{int64(1), nil, nil},
		{int64(2), "cat@x.test", ""},
	}}
	seats, players := b.split(1)
	if want := [][]driver.Value{{int64(0)}, {int64(1)}, {int64(2)}}; !reflect.DeepEqual(seats.rows, want) || !slices.Equal(seats.cols, []string{"seat"}) {
		t.Errorf("the first columns: %v %v, want %v", seats.cols, seats.rows, want)
	}
	if want := [][]driver.Value{{"ann@x.test", "Ann"}, {"cat@x.test", ""}}; !reflect.DeepEqual(players.rows, want) || !slices.Equal(players.cols, []string{"address", "name"}) {
		t.Errorf("the rest: %v %v, want %v", players.cols, players.rows, want)
	}
	failed := &bufferedRows{cols: b.cols, err: errors.New("no")}
	if x, y := failed.split(1); x.err == nil || y.err == nil {
		t.Errorf("a failed read split into %v and %v", x.err, y.err)
	}
}
