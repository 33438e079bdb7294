// Package store keeps pbem's state in SQLite or PostgreSQL: players, games and their
// seats, each game's command log and event log, the inbound messages the
// daemon has processed, the outbox of mail still to send, the IMAP cursor,
// the refusal rate limit and the admin audit log. It is the only package of
// pbem that writes SQL.
//
// The store knows nothing about the rules of any game. It keeps a game's
// kind as text, its set-up and state snapshot as opaque JSON bytes, and
// commands as canonical text.
//
// # Engines
//
// [Open] takes a SQLite file's path or a PostgreSQL URL. What differs
// between the engines is behind one unexported interface, backend, with
// one implementation per engine (sqlite.go, postgres.go): the pools, the
// write transaction, error classification, the one statement whose text
// differs, and the migrations (migrations/sqlite, migrations/postgres,
// whose numbers mean the same schema). Every query is written once with
// SQLite's placeholders, which the PostgreSQL backend rebinds. On
// PostgreSQL [Store.Tx] takes pbem's advisory lock exclusive, so that it
// runs alone as on SQLite, and [Store.GameTx] takes it shared and locks
// its game's row, so that different games' transactions run at once
// (gamelock.go; docs/store.md, "Locking").
//
// # Transactions
//
// Every write happens inside one transaction, [Store.Tx] or
// [Store.GameTx]: on SQLite an IMMEDIATE one, on PostgreSQL one that
// holds pbem's lock, exclusive or (a game's) shared with its game's row.
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
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"sync/atomic"
	"time"

	"github.com/pressly/goose/v3"
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

// Store is a pbem database. It is safe for concurrent use.
//
// What differs between the engines (see backend) is behind s.be; the
// rest of the store, every query included, is shared.
type Store struct {
	reader         // reads outside transactions
	be     backend // the engine's own part
	// w runs the writes and r the reads: on SQLite two pools on one file
	// (see sqliteBackend), on PostgreSQL the same pool.
	w, r *sql.DB
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
// On PostgreSQL it bounds how long a write waits for the write lock.
func WithBusyTimeout(d time.Duration) Option {
	return func(o *options) { o.busyTimeout = d }
}

// WithReadConns sets the number of read-only connections. The default is
// 4. On PostgreSQL the pool has that many connections and writeConns
// more for the write transactions.
func WithReadConns(n int) Option {
	return func(o *options) { o.readConns = max(n, 1) }
}

// Open opens the database and brings its schema up to date, creating it
// if needed. database is a PostgreSQL URL (postgres://… or
// postgresql://…) or else the path of a SQLite file (ClassifyDatabase
// refuses anything else). Open fails if the
// database has a newer schema than this program knows. Its errors never
// show a URL's password.
func Open(ctx context.Context, database string, opts ...Option) (*Store, error) {
	o := options{busyTimeout: 10 * time.Second, readConns: 4}
	for _, opt := range opts {
		opt(&o)
	}
	kind, err := ClassifyDatabase(database)
	if kind == DatabaseRefused {
		return nil, fmt.Errorf("store: open: %w", err)
	}
	var be backend
	if kind == DatabaseURL {
		be, err = openPostgres(ctx, database, o)
	} else {
		be, err = openSQLite(ctx, database, o)
	}
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", Redact(database), err)
	}
	w, r := be.pools()
	s := &Store{reader: reader{q: be.reads(), be: be}, be: be, w: w, r: r}
	if err := s.r.PingContext(ctx); err != nil {
		s.Close()
		return nil, fmt.Errorf("store: open %s: %w", Redact(database), wrap(err))
	}
	return s, nil
}

// Engine is the database engine a Store runs on.
func (s *Store) Engine() Engine { return s.be.engine() }

// migrateRacing is migrate for nodes started together on one new SQLite
// database: each finds the schema old and applies the same migrations,
// each in a transaction of its own, and the one that comes second to a
// migration fails (its table exists) and rolls it back. The version it
// then reads is the other's, and it goes on from there: it tries a few
// times, as many as there are nodes that might be racing, before an
// error is an error. (On PostgreSQL the nodes migrate one at a time,
// under pbem's lock.)
func migrateRacing(ctx context.Context, be backend, db *sql.DB) error {
	var err error
	for range 5 {
		if err = migrate(ctx, be, db); err == nil || ctx.Err() != nil {
			return err
		}
	}
	return err
}

// migrate brings the schema up to date with goose.
func migrate(ctx context.Context, be backend, db *sql.DB) error {
	p, err := newProvider(be, db)
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

func newProvider(be backend, db *sql.DB) (*goose.Provider, error) {
	dir := "migrations/" + string(be.engine())
	fsys, err := fs.Sub(migrationFiles, dir)
	if err != nil {
		return nil, err
	}
	// The global registry holds Go migrations registered by init
	// functions; pbem has none, and global state is best left out.
	popts := append([]goose.ProviderOption{goose.WithDisableGlobalRegistry(true)}, be.gooseOptions()...)
	return goose.NewProvider(be.dialect(), db, fsys, popts...)
}

// SchemaVersion reports the schema version of the database, the number of
// the last migration applied.
func (s *Store) SchemaVersion(ctx context.Context) (int64, error) {
	p, err := newProvider(s.be, s.r)
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
	// Both engines' migrations carry the same numbers (see
	// migrations/postgres); SQLite's go back to the first.
	entries, err := fs.Glob(migrationFiles, "migrations/sqlite/*.sql")
	if err != nil || len(entries) == 0 {
		return 0
	}
	var v int64
	for _, e := range entries {
		var n int64
		if _, err := fmt.Sscanf(strings.TrimPrefix(e, "migrations/sqlite/"), "%d_", &n); err == nil {
			v = max(v, n)
		}
	}
	return v
}

// Close closes the database.
func (s *Store) Close() error {
	return s.be.close()
}

// Tx is one write transaction. Its methods are valid only inside the
// function given to [Store.Tx]. Its read methods see its own writes.
type Tx struct {
	reader
	tx *sql.Tx
	// game is the game of a Store.GameTx, whose writes are checked
	// against it (gamelock.go); 0 in a Store.Tx, which may write
	// anything.
	game int64
	// addresses holds the addresses whose lock the transaction holds
	// (lockAddress).
	addresses map[string]bool
}

// Tx runs fn in one write transaction and commits it if fn returns nil.
// If fn returns an error or panics, the transaction is rolled back (and the
// panic goes on).
//
// Transactions run one at a time, those of every process on the database
// (the others wait, or until their context ends): on SQLite an IMMEDIATE
// transaction on the single write connection, on PostgreSQL a transaction
// that first takes pbem's advisory write lock exclusive (see backend), so
// that no game's transaction (GameTx) runs beside it either. fn should be
// quick and must not call Tx itself, which would wait forever.
//
// Tx does not retry. Within the process transactions queue for the single
// write connection, so SQLITE_BUSY can only come from another process
// holding the lock past the busy timeout, and then the error matches
// ErrBusy: nothing was written, and since fn may have had effects outside
// the database (it should not, but the store cannot know), only the caller
// can decide to run it again. PostgreSQL's serialization failures and
// deadlocks match ErrBusy too.
func (s *Store) Tx(ctx context.Context, fn func(*Tx) error) error {
	return s.run(ctx, 0, fn)
}

// run runs fn in one write transaction: under pbem's lock exclusive if
// game is 0 (Store.Tx), else shared and scoped to the game (Store.GameTx,
// which locks the game's row itself).
func (s *Store) run(ctx context.Context, game int64, fn func(*Tx) error) error {
	sqlTx, release, err := s.be.begin(ctx, game != 0)
	if err != nil {
		return fmt.Errorf("store: begin: %w", wrap(err))
	}
	defer release()
	done := false
	defer func() {
		// Runs on error and on panic alike; a panic goes on after it.
		if !done {
			sqlTx.Rollback()
		}
	}()
	if err := fn(&Tx{reader: reader{q: s.traced(s.be.inTx(sqlTx)), be: s.be}, tx: sqlTx, game: game}); err != nil {
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

// mayDuplicate runs fn, a write whose ErrDuplicate the caller may take
// as an answer and go on with the transaction. SQLite undoes just the
// failed statement; PostgreSQL would abort the whole transaction, so
// there fn runs in a savepoint of its own, rolled back if fn fails.
func (tx *Tx) mayDuplicate(ctx context.Context, fn func() error) error {
	if tx.be.engine() == SQLite {
		return fn()
	}
	if _, err := tx.tx.ExecContext(ctx, "SAVEPOINT duplicate"); err != nil {
		return wrap(err)
	}
	err := fn()
	if err != nil {
		bg := context.WithoutCancel(ctx)
		if _, rerr := tx.tx.ExecContext(bg, "ROLLBACK TO duplicate"); rerr != nil {
			return fmt.Errorf("%w (and undoing it failed: %w)", err, wrap(rerr))
		}
	}
	if _, rerr := tx.tx.ExecContext(context.WithoutCancel(ctx), "RELEASE duplicate"); rerr != nil && err == nil {
		return wrap(rerr)
	}
	return err
}

// querier is what *sql.DB and *sql.Tx have in common.
type querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// reader holds the read methods shared by Store and Tx.
type reader struct {
	q  querier
	be backend // for the few statements whose text differs by engine
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

// wrap makes the engine's errors recognisable: unique-key violations
// match ErrDuplicate, a lock held too long (or, on PostgreSQL, a
// serialization failure or deadlock) matches ErrBusy and a missing row
// matches ErrNotFound. The original error stays in the chain.
func wrap(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("%w: %w", ErrNotFound, err)
	}
	if kind := classifySQLite(err); kind != nil {
		return fmt.Errorf("%w: %w", kind, err)
	}
	if kind := classifyPostgres(err); kind != nil {
		return fmt.Errorf("%w: %w", kind, err)
	}
	return err
}

// Unavailable reports whether err says that the database could not do
// its work at all — it is full, read-only, locked by another process,
// failing to read or write its file, or (PostgreSQL) unreachable or
// shutting down — rather than anything about the rows asked for. Such an
// error passes when the disk or the server does: the caller retries the
// same work later, and must not take it for a fault of the work itself
// (the daemon never sets a mail aside for it).
func Unavailable(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, ErrBusy) || errors.Is(err, ErrUnavailable) {
		return true
	}
	return unavailableSQLite(err) || unavailablePostgres(err)
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
