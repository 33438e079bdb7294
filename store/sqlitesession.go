package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"strings"
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
	// deferred are the writes of whole seat rows (Tx.laterSeat) that
	// wait for the next statement that could see them; failed is the
	// error of the last of them that failed, which every statement of
	// the transaction returns until a rollback undoes it (before).
	deferred []deferredSeat
	failed   error
}

// deferredSeat is a write of a seat's row that waits (sqliteSession.
// deferSeat).
type deferredSeat struct {
	key  seatKey
	args []any
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
	if err := q.s.before(ctx, query); err != nil {
		return nil, err
	}
	st, err := q.s.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	res, err := st.ExecContext(ctx, args...)
	q.s.note(err)
	return res, err
}

func (q sqliteStmts) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if err := q.s.before(ctx, query); err != nil {
		return nil, err
	}
	st, err := q.s.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	rows, err := st.QueryContext(ctx, args...)
	q.s.note(err)
	return rows, err
}

func (q sqliteStmts) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	// A Row carries only the error of its own query, so a deferred write
	// that failed is not reported here: the query runs as it would
	// have without the write, and the failure, kept, fails the next
	// statement, or the savepoint's RELEASE, or the COMMIT (before).
	q.s.before(ctx, query) //nolint:errcheck // kept in q.s.failed
	st, err := q.s.stmt(ctx, query)
	if err != nil {
		// Let database/sql report the error through a Row.
		return q.s.conn.QueryRowContext(ctx, query, args...)
	}
	return st.QueryRowContext(ctx, args...)
}

// deferSeat queues a write of the whole row of a seat (seatRowSQL with
// args) to run before the next statement that could see it, and reports
// whether it took the place of a write of the same seat still waiting:
// the row is then written once, with what the last write says. A
// command wrote its next player's seat three times in a row (its new
// decision, the last event mailed, the Message-ID of the mail), 40 µs
// each (issue 40); PostgreSQL's pipeline merges them the same way
// (pgTx.merge).
func (s *sqliteSession) deferSeat(key seatKey, args []any) (merged bool) {
	for i := range s.deferred {
		if s.deferred[i].key == key {
			s.deferred[i].args = args
			return true
		}
	}
	s.deferred = append(s.deferred, deferredSeat{key: key, args: args})
	return false
}

// before runs what must run before query on the session: the seat
// writes waiting, unless query cannot see them (seesSeats). A statement
// that is not a plain read or insert or update (a savepoint's, a
// COMMIT, a DELETE, whose foreign keys may read any table) always
// can. The schema has no views and no triggers, and no cascade reaches
// seats, so a statement reads and writes only the tables it names and
// those its foreign keys name, and a seat's deferred write changes no
// key. A rollback drops the writes waiting instead, with the failure of
// one of them: every write waiting was made inside the innermost
// savepoint, which flushed those before it.
func (s *sqliteSession) before(ctx context.Context, query string) error {
	verb := firstWord(query)
	if verb == "ROLLBACK" || verb == "BEGIN" {
		s.deferred, s.failed = s.deferred[:0], nil
		return nil
	}
	if s.failed != nil {
		return s.failed
	}
	if len(s.deferred) == 0 || !seesSeats(verb, query) {
		return nil
	}
	for _, w := range s.deferred {
		st, err := s.stmt(ctx, seatRowSQL)
		if err == nil {
			_, err = st.ExecContext(ctx, w.args...)
			s.note(err)
		}
		if err != nil {
			s.deferred = s.deferred[:0]
			s.failed = fmt.Errorf("store: update seat %d of game %d: %w", w.key.seat, w.key.game, wrap(err))
			return s.failed
		}
	}
	s.deferred = s.deferred[:0]
	return nil
}

// seesSeats reports whether a statement whose first word is verb could
// see a deferred write of a seat (sqliteSession.before): one that names
// the seats table and, with it, a column the write sets, or every
// column (*). The store writes its table and column names in lower
// case, as the schema does. A read of seats for their addresses alone (the players
// of a game, Tx.SeatedPlayers) reads nothing the write changes, and a
// write of other columns of the row leaves the row as the two writes
// in either order would.
func seesSeats(verb, query string) bool {
	switch verb {
	case "SELECT", "INSERT", "UPDATE", "WITH":
	default:
		return true
	}
	if !strings.Contains(query, "seats") {
		return false
	}
	if strings.Contains(query, "*") {
		return true
	}
	for _, c := range seatRowColumns {
		if strings.Contains(query, c) {
			return true
		}
	}
	return false
}

// firstWord is query's first word, in capitals as the store writes
// its statements.
func firstWord(query string) string {
	q := strings.TrimLeft(query, " \t\r\n")
	if i := strings.IndexAny(q, " \t\r\n("); i >= 0 {
		return q[:i]
	}
	return q
}
