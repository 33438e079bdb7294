package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
)

// This file turns the rows of a read that went to PostgreSQL in a pgx
// batch (pipeline.go) into database/sql's *sql.Rows, so that the read's
// caller scans them exactly as it scans any other read: the values are
// converted as pgx's database/sql driver converts them (stdlib's
// Rows.Next), held in memory, and handed to database/sql by a driver of
// their own (bufferedDB), whose conversions to the caller's destinations
// are database/sql's. A read in a batch saves the round trip it would
// take by itself after the writes before it (issue 40).

// bufferedRows are a read's rows, as driver values.
type bufferedRows struct {
	cols []string
	rows [][]driver.Value
	err  error // the read's failure, which the query reports
}

// readBuffered reads rows whole, with their values converted as
// stdlib's Rows.Next converts them, and closes them.
func readBuffered(rows pgx.Rows, m *pgtype.Map) (*bufferedRows, error) {
	defer rows.Close()
	fields := rows.FieldDescriptions()
	b := &bufferedRows{cols: make([]string, len(fields))}
	conv := make([]func([]byte) (driver.Value, error), len(fields))
	for i, fd := range fields {
		b.cols[i] = fd.Name
		conv[i] = driverValue(m, fd.DataTypeOID, fd.Format)
	}
	for rows.Next() {
		raw := rows.RawValues()
		vals := make([]driver.Value, len(raw))
		for i, src := range raw {
			if src == nil {
				continue
			}
			v, err := conv[i](src)
			if err != nil {
				return nil, fmt.Errorf("store: column %s: %w", b.cols[i], err)
			}
			vals[i] = v
		}
		b.rows = append(b.rows, vals)
	}
	return b, rows.Err()
}

// driverValue converts a column of type oid, in format, to the driver
// value stdlib's Rows.Next gives for it: whole numbers as int64, floats
// as float64, bytea and JSON as []byte, dates and times as time.Time,
// anything else as its text.
func driverValue(m *pgtype.Map, oid uint32, format int16) func([]byte) (driver.Value, error) {
	switch oid {
	case pgtype.BoolOID:
		return scanAs[bool](m, oid, format, func(d bool) (driver.Value, error) { return d, nil })
	case pgtype.ByteaOID, pgtype.JSONOID, pgtype.JSONBOID:
		return scanAs[[]byte](m, oid, format, func(d []byte) (driver.Value, error) { return d, nil })
	case pgtype.Int2OID:
		return scanAs[int16](m, oid, format, func(d int16) (driver.Value, error) { return int64(d), nil })
	case pgtype.Int4OID:
		return scanAs[int32](m, oid, format, func(d int32) (driver.Value, error) { return int64(d), nil })
	case pgtype.Int8OID:
		return scanAs[int64](m, oid, format, func(d int64) (driver.Value, error) { return d, nil })
	case pgtype.Float4OID:
		return scanAs[float32](m, oid, format, func(d float32) (driver.Value, error) { return float64(d), nil })
	case pgtype.Float8OID:
		return scanAs[float64](m, oid, format, func(d float64) (driver.Value, error) { return d, nil })
	case pgtype.DateOID:
		return scanAs[pgtype.Date](m, oid, format, func(d pgtype.Date) (driver.Value, error) { return d.Value() })
	case pgtype.TimestampOID:
		return scanAs[pgtype.Timestamp](m, oid, format, func(d pgtype.Timestamp) (driver.Value, error) { return d.Value() })
	case pgtype.TimestamptzOID:
		return scanAs[pgtype.Timestamptz](m, oid, format, func(d pgtype.Timestamptz) (driver.Value, error) { return d.Value() })
	}
	return scanAs[string](m, oid, format, func(d string) (driver.Value, error) { return d, nil })
}

// scanAs scans a column into a T with pgx's plan for it, and gives
// value's driver value of it.
func scanAs[T any](m *pgtype.Map, oid uint32, format int16, value func(T) (driver.Value, error)) func([]byte) (driver.Value, error) {
	var d T
	plan := m.PlanScan(oid, format, &d)
	return func(src []byte) (driver.Value, error) {
		var zero T
		d = zero // a []byte is not scanned into the last row's
		if err := plan.Scan(src, &d); err != nil {
			return nil, err
		}
		return value(d)
	}
}

// bufferedDB hands buffered rows to database/sql: a query through it
// returns the rows in its context (withBuffered), or their error.
type bufferedDB struct{ db *sql.DB }

func newBufferedDB() bufferedDB { return bufferedDB{sql.OpenDB(bufferedConnector{})} }

// bufferedKey is the context key of the rows a query through bufferedDB
// returns.
type bufferedKey struct{}

// query is b as *sql.Rows.
func (d bufferedDB) query(b *bufferedRows) (*sql.Rows, error) {
	// The rows are in memory: no context of the caller's is watched
	// (database/sql would start a goroutine for each).
	return d.db.QueryContext(context.WithValue(context.Background(), bufferedKey{}, b), "")
}

// split is b's rows as two reads, of its columns before n and of those
// from n on; the second leaves out the rows whose column n is NULL (a
// LEFT JOIN's rows without a match). A failed read fails both.
func (b *bufferedRows) split(n int) (before, after *bufferedRows) {
	before = &bufferedRows{cols: b.cols[:n], err: b.err}
	after = &bufferedRows{cols: b.cols[n:], err: b.err}
	for _, r := range b.rows {
		before.rows = append(before.rows, r[:n])
		if r[n] != nil {
			after.rows = append(after.rows, r[n:])
		}
	}
	return before, after
}

// queryRow is b as *sql.Row.
func (d bufferedDB) queryRow(b *bufferedRows) *sql.Row {
	return d.db.QueryRowContext(context.WithValue(context.Background(), bufferedKey{}, b), "")
}

type bufferedConnector struct{}

func (bufferedConnector) Connect(context.Context) (driver.Conn, error) { return bufferedConn{}, nil }
func (bufferedConnector) Driver() driver.Driver                        { return bufferedDriver{} }

type bufferedDriver struct{}

func (bufferedDriver) Open(string) (driver.Conn, error) { return bufferedConn{}, nil }

// errNotBuffered is a query through bufferedDB without rows to give.
var errNotBuffered = errors.New("store: no buffered rows to read")

type bufferedConn struct{}

func (bufferedConn) Prepare(string) (driver.Stmt, error) { return nil, errNotBuffered }
func (bufferedConn) Close() error                        { return nil }
func (bufferedConn) Begin() (driver.Tx, error)           { return nil, errNotBuffered }

func (bufferedConn) QueryContext(ctx context.Context, _ string, _ []driver.NamedValue) (driver.Rows, error) {
	b, ok := ctx.Value(bufferedKey{}).(*bufferedRows)
	if !ok {
		return nil, errNotBuffered
	}
	if b.err != nil {
		return nil, b.err
	}
	return &bufferedCursor{b: b}, nil
}

// bufferedCursor reads buffered rows once.
type bufferedCursor struct {
	b *bufferedRows
	i int
}

func (c *bufferedCursor) Columns() []string { return c.b.cols }
func (c *bufferedCursor) Close() error      { return nil }

func (c *bufferedCursor) Next(dest []driver.Value) error {
	if c.i >= len(c.b.rows) {
		return io.EOF
	}
	copy(dest, c.b.rows[c.i])
	c.i++
	return nil
}
