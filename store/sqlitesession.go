package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
)

// sqliteSession is the SQLite writer's connection, held by the backend
// from one write transaction to the next, with the statements prepared
// on it.
//
// The transactions run on it as statements of their own (BEGIN
// IMMEDIATE, COMMIT, ROLLBACK) rather than as a database/sql Tx, for
// what a Tx costs on every statement (issue 40): database/sql gives a Tx
// a context of its own, which it watches with a goroutine for every Rows
// the transaction reads (Rows.initContextClose), and a statement of the
// pool runs in a Tx only through a Stmt made for that Tx each time
// (Tx.StmtContext). On a connection held as a *sql.Conn, a query under a
// context never done starts no goroutine, and a statement prepared on
// the connection runs as it is.
//
// The backend keeps the session in a channel of one (sqliteBackend.
// session), so that a transaction waits there for the one before it, in
// Go rather than in SQLite's busy handler, as long as its context allows.
// Only the transaction that took it uses it: it needs no lock.
type sqliteSession struct {
	conn  *sql.Conn
	stmts map[string]*sql.Stmt
	// broken is set when database/sql said the connection is bad, or
	// a transaction could not be ended on it: the backend then closes
	// the session and opens a new one for the next transaction.
	broken bool
}

// stmt returns the statement prepared on the session for query,
// preparing it the first time. Every query text the store runs in a
// transaction is built from constants, so the map stays as small as the
// set of queries in this package.
func (s *sqliteSession) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	if st, ok := s.stmts[query]; ok {
		return st, nil
	}
	st, err := s.conn.PrepareContext(ctx, query)
	if err != nil {
		s.note(err)
		return nil, err
	}
	s.stmts[query] = st
	return st, nil
}

// note marks the session broken if err says its connection is.
func (s *sqliteSession) note(err error) {
	if errors.Is(err, driver.ErrBadConn) || errors.Is(err, sql.ErrConnDone) {
		s.broken = true
	}
}

func (s *sqliteSession) close() error {
	var errs []error
	for _, st := range s.stmts {
		errs = append(errs, st.Close())
	}
	clear(s.stmts)
	if s.broken {
		// Closing a *sql.Conn gives its connection back to the pool,
		// with whatever SQLite left open on it. Saying it is bad
		// makes database/sql close it instead (and the *sql.Conn).
		s.conn.Raw(func(any) error { return driver.ErrBadConn }) //nolint:errcheck // the error is the one returned here
		return errors.Join(errs...)
	}
	errs = append(errs, s.conn.Close())
	return errors.Join(errs...)
}

// sqliteTx is a write transaction on the session: the txConn that the
// SQLite backend's begin returns. Its own statements (BEGIN, COMMIT,
// SAVEPOINT and the like) run through the statements prepared on the
// session as its queries do (inTx): SQLite runs a prepared BEGIN or
// COMMIT again as it runs any other.
type sqliteTx struct {
	sqliteStmts
}

// Commit commits. A session whose COMMIT failed is not used again
// (broken): SQLite may have left its transaction open (a commit that
// could not write keeps it, for one), and closing the connection ends
// it, where a ROLLBACK that failed too would leave every later BEGIN
// failing on it. It is rare, and costs the next transaction a new
// connection and its statements prepared again.
func (t sqliteTx) Commit() error {
	_, err := t.ExecContext(context.Background(), "COMMIT")
	if err != nil {
		t.s.broken = true
	}
	return err
}

// Rollback rolls back; a session whose ROLLBACK failed is not used
// again either, for the same reason.
func (t sqliteTx) Rollback() error {
	_, err := t.ExecContext(context.Background(), "ROLLBACK")
	if err != nil {
		t.s.broken = true
	}
	return err
}

// sqliteStmts runs a transaction's queries through the statements
// prepared on its session.
type sqliteStmts struct {
	s *sqliteSession
}

func (q sqliteStmts) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	st, err := q.s.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	res, err := st.ExecContext(ctx, args...)
	q.s.note(err)
	return res, err
}

func (q sqliteStmts) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	st, err := q.s.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	rows, err := st.QueryContext(ctx, args...)
	q.s.note(err)
	return rows, err
}

func (q sqliteStmts) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	st, err := q.s.stmt(ctx, query)
	if err != nil {
		// Let database/sql report the error through a Row.
		return q.s.conn.QueryRowContext(ctx, query, args...)
	}
	return st.QueryRowContext(ctx, args...)
}
