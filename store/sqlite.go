package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/pressly/goose/v3"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// sqliteBackend keeps the store in one SQLite file.
//
// It holds two connection pools on the file: one for writes, whose
// connection the writer's session holds (sqliteSession), so that the
// process's transactions queue in Go rather than spin in SQLite's busy
// handler, and a few read-only connections, which WAL lets run alongside
// the writer. Both prepare each query once (stmtCache, the session's
// statements).
type sqliteBackend struct {
	w      *sql.DB    // the writer's pool: the session, and maintenance
	r      *sql.DB    // query_only connections
	rstmts *stmtCache // prepared statements of the read pool
	// session holds the writer's session while no transaction runs on
	// it, or nil before the first transaction and after a broken one.
	session chan *sqliteSession
}

func openSQLite(ctx context.Context, path string, o options) (*sqliteBackend, error) {
	// An in-memory database would be a different, empty database on
	// each connection of the pools.
	if path == "" || strings.Contains(path, ":memory:") || strings.Contains(path, "mode=memory") {
		return nil, errors.New("need the path of a database file")
	}
	b := &sqliteBackend{}

	// Apply migrations on a connection of their own, before anything else
	// uses the file, and close it so the pools below start clean.
	mdb, err := o.open(dsn(path, o, true))
	if err != nil {
		return nil, err
	}
	mdb.SetMaxOpenConns(1)
	err = migrateRacing(ctx, b, mdb)
	if cerr := mdb.Close(); err == nil && cerr != nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}

	w, err := o.open(dsn(path, o, true))
	if err != nil {
		return nil, err
	}
	// SQLite allows one writer at a time. The process's transactions
	// wait for the session in Go (begin), honouring their contexts; the
	// busy timeout then waits for other processes, and for the pool's
	// second connection, which the few statements outside transactions
	// use (retention's vacuum and checkpoint, tests' set-up).
	w.SetMaxOpenConns(2)
	w.SetMaxIdleConns(2)
	w.SetConnMaxLifetime(0)
	w.SetConnMaxIdleTime(0)

	r, err := o.open(dsn(path, o, false))
	if err != nil {
		w.Close()
		return nil, err
	}
	r.SetMaxOpenConns(o.readConns)
	r.SetMaxIdleConns(o.readConns)
	b.w, b.r = w, r
	b.rstmts = newStmtCache(r)
	b.session = make(chan *sqliteSession, 1)
	b.session <- nil
	return b, nil
}

func (b *sqliteBackend) engine() Engine        { return SQLite }
func (b *sqliteBackend) pools() (w, r *sql.DB) { return b.w, b.r }
func (b *sqliteBackend) reads() querier        { return cachedDB{b.rstmts} }
func (b *sqliteBackend) inTx(tx txConn) querier {
	return tx.(sqliteTx).sqliteStmts
}

// begin starts an IMMEDIATE transaction on the writer's session, shared
// or not: SQLite has one writer. IMMEDIATE takes the write lock at
// BEGIN, so that two processes on the file never deadlock upgrading
// read locks.
func (b *sqliteBackend) begin(ctx context.Context, _ bool) (txConn, func(), error) {
	var s *sqliteSession
	select {
	case s = <-b.session:
	case <-ctx.Done():
		return nil, nil, ctx.Err()
	}
	// The session's statements run under contexts never done, so that
	// database/sql watches none of them: Store.run and the
	// transaction's querier check ctx (meteredQuerier).
	bg := context.WithoutCancel(ctx)
	if s == nil {
		conn, err := b.w.Conn(bg)
		if err != nil {
			b.session <- nil
			return nil, nil, err
		}
		s = &sqliteSession{conn: conn, stmts: map[string]*sql.Stmt{}}
	}
	release := func() {
		if s.broken {
			s.close()
			s = nil
		}
		b.session <- s
	}
	tx := sqliteTx{sqliteStmts{s}}
	if _, err := tx.ExecContext(bg, sqliteBegin[0]); err != nil {
		release()
		return nil, nil, err
	}
	return tx, release, nil
}

// sqliteBegin is the one statement begin runs.
var sqliteBegin = []string{"BEGIN IMMEDIATE"}

func (b *sqliteBackend) beginStatements(bool) []string { return sqliteBegin }

// idsIn passes the ids as one JSON array, which json_each reads: one
// statement text whatever their number, and so one prepared statement.
func (b *sqliteBackend) idsIn(ids []int64) (string, any) {
	list, err := json.Marshal(ids)
	if err != nil {
		panic(err) // []int64 always marshals
	}
	return `IN (SELECT value FROM json_each(?))`, string(list)
}

func (b *sqliteBackend) dialect() goose.Dialect               { return goose.DialectSQLite3 }
func (b *sqliteBackend) gooseOptions() []goose.ProviderOption { return nil }

func (b *sqliteBackend) close() error {
	var serr error
	select {
	case s := <-b.session:
		if s != nil {
			serr = s.close()
		}
	default: // a transaction still runs: closing the pool ends it
	}
	return errors.Join(b.rstmts.close(), serr, b.w.Close(), b.r.Close())
}

// open opens a pool on the data source name.
func (o options) open(dsn string) (*sql.DB, error) {
	if o.driver == nil {
		return sql.Open("sqlite", dsn)
	}
	return sql.OpenDB(connector{o.driver, dsn}), nil
}

// connector opens connections of a driver given as a value.
type connector struct {
	d   driver.Driver
	dsn string
}

func (c connector) Connect(context.Context) (driver.Conn, error) { return c.d.Open(c.dsn) }
func (c connector) Driver() driver.Driver                        { return c.d }

// dsn builds a modernc.org/sqlite data source name. The writer's
// transactions are IMMEDIATE: they take the write lock at BEGIN, so two
// processes can never deadlock upgrading read locks (the session's
// begin says so itself; _txlock does for a database/sql Tx on the pool,
// as the migrations run). Readers are query_only, so a read path cannot
// write by mistake.
//
// The writer keeps its temporary files in memory (temp_store): above
// all the statement journal, which SQLite writes the first time a
// savepoint changes a page, and every mail of a batch is a savepoint
// (daemon's HandleBatch). As a file it cost two system calls a page,
// a tenth of a batch's CPU (issue 40, BenchmarkCommandBatch). It only
// ever undoes a savepoint within its transaction, so it needs no disk:
// a crash undoes the whole transaction from the write-ahead log.
func dsn(path string, o options, writer bool) string {
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", o.busyTimeout.Milliseconds()))
	q.Add("_pragma", "foreign_keys(1)")
	if writer {
		q.Add("_pragma", "journal_mode(WAL)")
		q.Add("_pragma", "synchronous(FULL)")
		q.Add("_pragma", "temp_store(MEMORY)")
		q.Set("_txlock", "immediate")
	} else {
		q.Add("_pragma", "query_only(1)")
	}
	// SQLite reads the path as a URI: escape what would end it early.
	esc := strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path)
	return "file:" + esc + "?" + q.Encode()
}

// classifySQLite returns ErrDuplicate or ErrBusy for SQLite's errors of
// those kinds, and nil for any other error.
func classifySQLite(err error) error {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return nil
	}
	switch code := se.Code(); {
	case code == sqlite3.SQLITE_CONSTRAINT_UNIQUE || code == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
		return ErrDuplicate
	case code&0xff == sqlite3.SQLITE_BUSY || code&0xff == sqlite3.SQLITE_LOCKED:
		return ErrBusy
	}
	return nil
}

// unavailableSQLite reports SQLite's errors about the file rather than
// the rows (see Unavailable).
func unavailableSQLite(err error) bool {
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() & 0xff {
		case sqlite3.SQLITE_FULL, sqlite3.SQLITE_IOERR, sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED,
			sqlite3.SQLITE_READONLY, sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_NOLFS, sqlite3.SQLITE_PROTOCOL:
			return true
		}
	}
	return false
}

// sqliteOnly returns the SQLite backend, or an error naming what only
// SQLite does.
func (s *Store) sqliteOnly(what string) (*sqliteBackend, error) {
	b, ok := s.be.(*sqliteBackend)
	if !ok {
		return nil, fmt.Errorf("store: %s: only a SQLite database has one (this one is on %s)", what, s.be.engine())
	}
	return b, nil
}
