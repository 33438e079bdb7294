package store

import (
	"context"
	"database/sql"
	"sync/atomic"
)

// Counts are how many statements a store has run since it was opened,
// and on PostgreSQL how many round trips to the server they took: what a
// command costs the database, which issue 40 counts per command
// (BenchmarkCommandMail's statements/op, the metrics'
// pbem_store_statements_total) and pins (the daemon's
// TestStatementsPerCommand).
type Counts struct {
	// Statements counts every statement the store sent to the engine
	// for its reads and transactions: each query, each BEGIN, COMMIT and
	// ROLLBACK, each savepoint's, and PostgreSQL's lock at a
	// transaction's start. The maintenance PRAGMAs of SQLite's files
	// (retention's vacuum and checkpoint, FileBytes, Backup) and the
	// migrations are not counted: they belong to no command.
	Statements int64
	// RoundTrips counts, on PostgreSQL, the writes to the server's
	// connections, each a round trip the store waited for: a statement,
	// and also what pgx adds (preparing a statement the first time on a
	// connection, the ping of a connection idle for a second). 0 on
	// SQLite, which has no server.
	RoundTrips int64
}

// Counts returns how many statements the store has run, and round
// trips it has made, since it was opened.
func (s *Store) Counts() Counts {
	return Counts{Statements: s.meter.statements.Load(), RoundTrips: s.meter.roundTrips.Load()}
}

// StatementHook is told the text of every statement the store counts,
// as it runs it ("BEGIN", "COMMIT", "ROLLBACK" and the savepoints by
// those words): for tests and measurements that break the count of a
// command down by store method (WithStatementHook).
type StatementHook func(query string)

// WithStatementHook makes the store tell hook every statement it counts
// (see Counts), on the goroutine that runs it. It is for tests and
// measurements: the hook runs inside every statement's call, and must be
// quick and safe for concurrent use.
func WithStatementHook(hook StatementHook) Option {
	return func(o *options) { o.hook = hook }
}

// meter counts the store's statements, and tells the tests' trace and
// hook about them. It lives on the Store: an atomic add a statement,
// nothing global.
type meter struct {
	statements atomic.Int64
	// roundTrips is counted by the PostgreSQL backend's connections
	// (countingConn).
	roundTrips atomic.Int64
	// trace is told each query run through a querier (setTrace, for the
	// store's tests); hook every counted statement (WithStatementHook).
	// Both are set before the store is shared, and nil in production.
	trace traceFunc
	hook  StatementHook
}

// control counts a statement that runs beside the queriers: BEGIN,
// COMMIT, ROLLBACK, savepoints, PostgreSQL's lock.
func (m *meter) control(query string) {
	m.statements.Add(1)
	if m.hook != nil {
		m.hook(query)
	}
}

// query counts a statement run through a querier.
func (m *meter) query(query string, args []any) {
	m.statements.Add(1)
	if m.trace != nil {
		m.trace(query, args)
	}
	if m.hook != nil {
		m.hook(query)
	}
}

// meteredQuerier counts each statement before running it on q.
//
// In a transaction (detached) it also checks the context itself, before
// each statement, and runs the statement under a context that is never
// done: the drivers and database/sql start a goroutine for every
// statement, and every Rows, whose context can be done, only to watch
// it (modernc.org/sqlite's interruptOnDone, pgx's context watcher,
// database/sql's Rows.awaitDone), which issue 40's profile of a command
// found at 3% of its CPU with the scheduling they cause. A transaction's
// statements are short, and each waits for a lock no longer than the
// busy timeout, so a cancelled transaction still stops at its next
// statement, or at its commit (Store.run), and is rolled back.
type meteredQuerier struct {
	q        querier
	m        *meter
	detached bool
}

// detach returns the context to run a statement under: ctx itself when
// the querier is not detached or ctx is done (the statement then fails
// at once with ctx's error, as database/sql checks it first), else ctx
// without its cancellation.
func (t meteredQuerier) detach(ctx context.Context) context.Context {
	if !t.detached || ctx.Err() != nil {
		return ctx
	}
	return context.WithoutCancel(ctx)
}

func (t meteredQuerier) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	t.m.query(query, args)
	return t.q.ExecContext(t.detach(ctx), query, args...)
}

func (t meteredQuerier) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	t.m.query(query, args)
	return t.q.QueryContext(t.detach(ctx), query, args...)
}

func (t meteredQuerier) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	t.m.query(query, args)
	return t.q.QueryRowContext(t.detach(ctx), query, args...)
}
