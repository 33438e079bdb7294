package store

import (
	"context"
	"database/sql"
)

// traceFunc is told the text and arguments of a statement the store is
// about to run. Only tests set one (TestEveryStatementPlan records every
// statement the store runs, to check its query plan); it stays nil in
// production, where it costs one comparison a transaction.
type traceFunc func(query string, args []any)

// setTrace makes the store tell fn every statement that its reads and
// transactions run from now on. It is for tests, before the store is
// shared: it is not safe to call while other goroutines use the store.
func (s *Store) setTrace(fn traceFunc) {
	s.trace = fn
	s.reader.q = tracingQuerier{q: s.reader.q, trace: fn}
}

// traced wraps q with the store's trace, if it has one.
func (s *Store) traced(q querier) querier {
	if s.trace == nil {
		return q
	}
	return tracingQuerier{q: q, trace: s.trace}
}

// tracingQuerier tells trace each statement before running it on q.
type tracingQuerier struct {
	q     querier
	trace traceFunc
}

func (t tracingQuerier) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	t.trace(query, args)
	return t.q.ExecContext(ctx, query, args...)
}

func (t tracingQuerier) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	t.trace(query, args)
	return t.q.QueryContext(ctx, query, args...)
}

func (t tracingQuerier) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	t.trace(query, args)
	return t.q.QueryRowContext(ctx, query, args...)
}
