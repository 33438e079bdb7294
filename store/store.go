// Package store keeps pbem's state in SQLite: players, games and their
// seats, each game's command log and event log, the inbound messages the
// daemon has processed, the outbox of mail still to send, the IMAP cursor,
// the refusal rate limit and the admin audit log. It is the only package of
// pbem that writes SQL.
//
// The store knows nothing about the rules of any game. It keeps a game's
// kind as text, its set-up and state snapshot as opaque JSON bytes, and
// commands as canonical text.
//
// # Transactions
//
// Every write happens inside [Store.Tx], one SQLite IMMEDIATE transaction.
// The daemon handles one inbound message in one transaction: it records the
// message, appends the commands it applied, appends the events, enqueues
// the replies and advances the IMAP cursor, so that after a crash either all
// of that happened or none of it did. Reads are available on [Store] and,
// seeing the transaction's own writes, on [Tx].
//
// # Time
//
// The store reads no clock: every time is passed in by the caller. Times
// are stored as INTEGER unix seconds (UTC); sub-second precision is
// dropped, and a zero time.Time is stored as NULL where a time is optional.
// Times read back are in UTC.
//
// # Addresses
//
// Every address is stored normalised by [NormalizeAddress]; methods that
// take an address normalise it themselves.
package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/pressly/goose/v3"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Errors that callers can test for with errors.Is.
var (
	// ErrNotFound reports that the row asked for does not exist.
	ErrNotFound = errors.New("store: not found")
	// ErrDuplicate reports that a row with the same unique key exists:
	// the same inbound message, seat token, seat address or move.
	ErrDuplicate = errors.New("store: duplicate")
	// ErrBusy reports that the database stayed locked by another process
	// for longer than the busy timeout. It is transient: nothing was
	// written, and the caller may retry later.
	ErrBusy = errors.New("store: database busy")
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// Store is a pbem database. It is safe for concurrent use.
//
// It holds two connection pools on the same file: a single connection for
// writes, so that the process's transactions queue in Go rather than spin in
// SQLite's busy handler, and a few read-only connections, which WAL lets run
// alongside the writer.
type Store struct {
	reader            // reads through the read pool
	w      *sql.DB    // one connection; every Tx runs here
	r      *sql.DB    // query_only connections
	rstmts *stmtCache // prepared statements of the read pool
	wstmts *stmtCache // prepared statements of the writer
	// failCommits, when set, makes every commit fail with it: a disk
	// that is full, on demand, for fault tests (FailWrites).
	failCommits atomic.Pointer[error]
	// trace, when set by a test (setTrace), is told every statement.
	trace traceFunc
}

// FailWrites makes every transaction fail at its commit with err, which
// is rolled back, until FailWrites(nil): how tests show what pbem does
// while the disk is full, without filling a disk. Pass an error that
// matches Unavailable (ErrUnavailable, say) to play a full disk.
func (s *Store) FailWrites(err error) {
	if err == nil {
		s.failCommits.Store(nil)
		return
	}
	s.failCommits.Store(&err)
}

// Option configures Open.
type Option func(*options)

type options struct {
	busyTimeout time.Duration
	readConns   int
	// driver, when set, opens the connections instead of modernc's
	// SQLite driver: tests wrap it to count the statements SQLite
	// prepares.
	driver driver.Driver
}

// WithBusyTimeout sets how long a connection waits for another process's
// lock on the database before failing with ErrBusy. The default is 10s.
func WithBusyTimeout(d time.Duration) Option {
	return func(o *options) { o.busyTimeout = d }
}

// WithReadConns sets the number of read-only connections. The default is 4.
func WithReadConns(n int) Option {
	return func(o *options) { o.readConns = max(n, 1) }
}

// Open opens the database at path, creating it if needed, and brings its
// schema up to date. It fails if the database has a newer schema than this
// program knows.
func Open(ctx context.Context, path string, opts ...Option) (*Store, error) {
	o := options{busyTimeout: 10 * time.Second, readConns: 4}
	for _, opt := range opts {
		opt(&o)
	}
	// An in-memory database would be a different, empty database on
	// each connection of the pools.
	if path == "" || strings.Contains(path, ":memory:") || strings.Contains(path, "mode=memory") {
		return nil, fmt.Errorf("store: open %q: need the path of a database file", path)
	}

	// Apply migrations on a connection of their own, before anything else
	// uses the file, and close it so the pools below start clean.
	mdb, err := o.open(dsn(path, o, true))
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	mdb.SetMaxOpenConns(1)
	err = migrateRacing(ctx, mdb)
	if cerr := mdb.Close(); err == nil && cerr != nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}

	w, err := o.open(dsn(path, o, true))
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	// SQLite allows one writer at a time. With a single connection the
	// process's transactions wait for it in database/sql, honouring their
	// contexts; the busy timeout then only ever waits for other processes.
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)
	w.SetConnMaxIdleTime(0)

	r, err := o.open(dsn(path, o, false))
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	r.SetMaxOpenConns(o.readConns)
	r.SetMaxIdleConns(o.readConns)

	rstmts := newStmtCache(r)
	s := &Store{reader: reader{cachedDB{rstmts}}, w: w, r: r, rstmts: rstmts, wstmts: newStmtCache(w)}
	if err := s.r.PingContext(ctx); err != nil {
		s.Close()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	return s, nil
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
// processes can never deadlock upgrading read locks. Readers are
// query_only, so a read path cannot write by mistake.
func dsn(path string, o options, writer bool) string {
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", o.busyTimeout.Milliseconds()))
	q.Add("_pragma", "foreign_keys(1)")
	if writer {
		q.Add("_pragma", "journal_mode(WAL)")
		q.Add("_pragma", "synchronous(FULL)")
		q.Set("_txlock", "immediate")
	} else {
		q.Add("_pragma", "query_only(1)")
	}
	// SQLite reads the path as a URI: escape what would end it early.
	esc := strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path)
	return "file:" + esc + "?" + q.Encode()
}

// migrateRacing is migrate for nodes started together on one new
// database: each finds the schema old and applies the same migrations,
// each in a transaction of its own, and the one that comes second to a
// migration fails (its table exists) and rolls it back. The version it
// then reads is the other's, and it goes on from there: it tries a few
// times, as many as there are nodes that might be racing, before an
// error is an error.
func migrateRacing(ctx context.Context, db *sql.DB) error {
	var err error
	for range 5 {
		if err = migrate(ctx, db); err == nil || ctx.Err() != nil {
			return err
		}
	}
	return err
}

// migrate brings the schema up to date with goose.
func migrate(ctx context.Context, db *sql.DB) error {
	p, err := newProvider(db)
	if err != nil {
		return err
	}
	current, target, err := p.GetVersions(ctx)
	if err != nil {
		return fmt.Errorf("schema version: %w", err)
	}
	if current > target {
		return fmt.Errorf("database schema version %d is newer than this program's %d", current, target)
	}
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	return nil
}

func newProvider(db *sql.DB) (*goose.Provider, error) {
	fsys, err := fs.Sub(migrationFiles, "migrations")
	if err != nil {
		return nil, err
	}
	// The global registry holds Go migrations registered by init
	// functions; pbem has none, and global state is best left out.
	return goose.NewProvider(goose.DialectSQLite3, db, fsys, goose.WithDisableGlobalRegistry(true))
}

// SchemaVersion reports the schema version of the database, the number of
// the last migration applied.
func (s *Store) SchemaVersion(ctx context.Context) (int64, error) {
	p, err := newProvider(s.r)
	if err != nil {
		return 0, fmt.Errorf("store: schema version: %w", err)
	}
	v, err := p.GetDBVersion(ctx)
	if err != nil {
		return 0, fmt.Errorf("store: schema version: %w", err)
	}
	return v, nil
}

// LatestSchemaVersion is the schema version this program migrates to.
func LatestSchemaVersion() int64 {
	entries, err := fs.Glob(migrationFiles, "migrations/*.sql")
	if err != nil || len(entries) == 0 {
		return 0
	}
	var v int64
	for _, e := range entries {
		var n int64
		if _, err := fmt.Sscanf(strings.TrimPrefix(e, "migrations/"), "%d_", &n); err == nil {
			v = max(v, n)
		}
	}
	return v
}

// Close closes the database.
func (s *Store) Close() error {
	return errors.Join(s.rstmts.close(), s.wstmts.close(), s.w.Close(), s.r.Close())
}

// Tx is one write transaction. Its methods are valid only inside the
// function given to [Store.Tx]. Its read methods see its own writes.
type Tx struct {
	reader
	tx *sql.Tx
}

// Tx runs fn in one IMMEDIATE transaction and commits it if fn returns nil.
// If fn returns an error or panics, the transaction is rolled back (and the
// panic goes on).
//
// Transactions of one Store run one at a time (the others wait for the
// single write connection, or until their context ends); fn should be
// quick and must not call Tx itself, which would wait forever.
//
// Tx does not retry. Within the process transactions queue for the single
// write connection, so SQLITE_BUSY can only come from another process
// holding the lock past the busy timeout, and then the error matches
// ErrBusy: nothing was written, and since fn may have had effects outside
// the database (it should not, but the store cannot know), only the caller
// can decide to run it again.
func (s *Store) Tx(ctx context.Context, fn func(*Tx) error) error {
	// Prepare the statements that earlier transactions found missing,
	// while no transaction of ours holds the connection (see stmtCache).
	s.wstmts.preparePending(ctx)
	sqlTx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: begin: %w", wrap(err))
	}
	done := false
	defer func() {
		// Runs on error and on panic alike; a panic goes on after it.
		if !done {
			sqlTx.Rollback()
		}
	}()
	if err := fn(&Tx{reader: reader{s.traced(cachedTx{sqlTx, s.wstmts})}, tx: sqlTx}); err != nil {
		return err
	}
	if fail := s.failCommits.Load(); fail != nil {
		return fmt.Errorf("store: commit: %w", *fail)
	}
	done = true
	if err := sqlTx.Commit(); err != nil {
		return fmt.Errorf("store: commit: %w", wrap(err))
	}
	return nil
}

// Savepoint runs fn inside a savepoint of tx: if fn returns an error or
// panics, everything fn wrote is undone and the rest of the transaction
// stays, so that one transaction can carry several independent pieces of
// work (the daemon commits a batch of inbound mails at once, and one that
// fails must take nothing of the others with it). A panic goes on after
// the rollback.
func (tx *Tx) Savepoint(ctx context.Context, fn func() error) (err error) {
	// Savepoints nest by name; one name serves, because each is released
	// or rolled back before the next begins at the same depth.
	if _, err := tx.tx.ExecContext(ctx, "SAVEPOINT work"); err != nil {
		return fmt.Errorf("store: savepoint: %w", wrap(err))
	}
	done := false
	defer func() {
		if done {
			return
		}
		// ROLLBACK TO leaves the savepoint open; RELEASE closes it.
		// The context may be done by now: undoing must not depend on it.
		bg := context.WithoutCancel(ctx)
		_, rerr := tx.tx.ExecContext(bg, "ROLLBACK TO work")
		if rerr == nil {
			_, rerr = tx.tx.ExecContext(bg, "RELEASE work")
		}
		if rerr != nil && err != nil {
			err = fmt.Errorf("%w (and undoing it failed: %w)", err, wrap(rerr))
		}
	}()
	if err := fn(); err != nil {
		return err
	}
	if _, err := tx.tx.ExecContext(ctx, "RELEASE work"); err != nil {
		return fmt.Errorf("store: release savepoint: %w", wrap(err))
	}
	done = true
	return nil
}

// querier is what *sql.DB and *sql.Tx have in common.
type querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// reader holds the read methods shared by Store and Tx.
type reader struct {
	q querier
}

// exec runs a write statement inside tx.
func (tx *Tx) exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	res, err := tx.q.ExecContext(ctx, query, args...)
	return res, wrap(err)
}

// execOne runs a statement that must change exactly one row, and reports
// ErrNotFound if it changed none.
func (tx *Tx) execOne(ctx context.Context, query string, args ...any) error {
	res, err := tx.exec(ctx, query, args...)
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return ErrNotFound
	}
	return nil
}

// wrap makes SQLite's errors recognisable: unique-key violations match
// ErrDuplicate, a lock held too long matches ErrBusy and a missing row
// matches ErrNotFound. The original error stays in the chain.
func wrap(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("%w: %w", ErrNotFound, err)
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch code := se.Code(); {
		case code == sqlite3.SQLITE_CONSTRAINT_UNIQUE || code == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
			return fmt.Errorf("%w: %w", ErrDuplicate, err)
		case code&0xff == sqlite3.SQLITE_BUSY || code&0xff == sqlite3.SQLITE_LOCKED:
			return fmt.Errorf("%w: %w", ErrBusy, err)
		}
	}
	return err
}

// Unavailable reports whether err says that the database could not do
// its work at all — it is full, read-only, locked by another process, or
// failing to read or write its file — rather than anything about the
// rows asked for. Such an error passes when the disk does: the caller
// retries the same work later, and must not take it for a fault of the
// work itself (the daemon never sets a mail aside for it).
func Unavailable(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, ErrBusy) {
		return true
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() & 0xff {
		case sqlite3.SQLITE_FULL, sqlite3.SQLITE_IOERR, sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED,
			sqlite3.SQLITE_READONLY, sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_NOLFS, sqlite3.SQLITE_PROTOCOL:
			return true
		}
	}
	return errors.Is(err, ErrUnavailable)
}

// ErrUnavailable is matched by Unavailable: a failure to reach the
// database that the store sees before SQLite does (tests inject it).
var ErrUnavailable = errors.New("store: database unavailable")

// Times are unix seconds in UTC; see the package documentation.

func unix(t time.Time) int64 { return t.Unix() }

// nullUnix stores the zero time as NULL.
func fromUnix(sec int64) time.Time { return time.Unix(sec, 0).UTC() }

func fromNullUnix(n sql.NullInt64) time.Time {
	if !n.Valid {
		return time.Time{}
	}
	return fromUnix(n.Int64)
}

// nullID stores id 0 as NULL, for optional references.
func nullID(id int64) any {
	if id == 0 {
		return nil
	}
	return id
}

// nullSeconds stores a duration as whole seconds, or NULL for zero.
func nullSeconds(d time.Duration) any {
	if d <= 0 {
		return nil
	}
	return int64(d / time.Second)
}
