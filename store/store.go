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
	// meter counts the statements the store runs (Counts), and tells
	// the tests' trace and hook about them.
	meter *meter
	// queued keeps the messages of the mails queued lately, for the
	// outbox's claim (queued.go).
	queued *queuedMessages
	// packer packs the messages of mails queued (messagecodec.go).
	packer *messagePacker
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
	// hook is told every statement the store counts (WithStatementHook).
	hook StatementHook
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
	m := &meter{hook: o.hook}
	var be backend
	if kind == DatabaseURL {
		be, err = openPostgres(ctx, database, o, &m.roundTrips)
	} else {
		be, err = openSQLite(ctx, database, o)
	}
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", Redact(database), err)
	}
	w, r := be.pools()
	s := &Store{reader: reader{q: meteredQuerier{q: be.reads(), m: m}, be: be}, be: be, w: w, r: r, meter: m}
	s.queued = newQueuedMessages()
	s.packer = new(messagePacker)
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

// Times are unix seconds in UTC; see the package documentation.

func unix(t time.Time) int64 { return t.Unix() }

// nullUnix stores the zero time as NULL, as fromNullUnix reads it.
func nullUnix(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return unix(t)
}

func fromUnix(sec int64) time.Time { return time.Unix(sec, 0).UTC() }

// collect scans every row of rows, which a query returned with err, by
// scan, and closes them.
func collect[T any](rows *sql.Rows, err error, scan func(interface{ Scan(...any) error }) (T, error)) ([]T, error) {
	if err != nil {
		return nil, wrap(err)
	}
	defer rows.Close()
	var all []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		all = append(all, v)
	}
	return all, rows.Err()
}

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
// seconds is d in whole seconds, as the columns of durations hold them.
func seconds(d time.Duration) int64 { return int64(d / time.Second) }

func nullSeconds(d time.Duration) any {
	if d <= 0 {
		return nil
	}
	return int64(d / time.Second)
}
