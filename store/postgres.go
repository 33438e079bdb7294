package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
)

// lockSQL takes pbem's lock exclusive for a transaction of Store.Tx:
// nothing else of any node writes beside it, exactly as SQLite's single
// writer runs them. lockSharedSQL takes it shared, for a game's
// transaction (Store.GameTx), which then locks its game's row: game
// transactions run beside each other and wait only for Store.Tx
// (gamelock.go). The first key is "pbem" in ASCII, the second a hash of
// the schema the store lives in, so that two installations in two
// schemas of one database do not wait for each other.
const (
	lockSQL       = `SELECT pg_advisory_xact_lock(` + lockKeys + `)`
	lockSharedSQL = `SELECT pg_advisory_xact_lock_shared(` + lockKeys + `)`
)

const lockKeys = `1885496685, hashtext(current_schema())`

// writeConns is how many write transactions of this process may hold a
// connection at once, waiting for a lock or working: those of different
// games run at once. The pool has that many connections beside the
// readers', so that waiting writers never take the reads' connections.
const writeConns = 8

// postgresBackend keeps the store in a PostgreSQL database, through one
// pgx pool shared by reads and writes. pgx prepares and caches each query
// on each connection itself, so the store's statement cache is not used.
//
// Writes are ordered by locks, not by isolation: the store's
// transactions were written for SQLite, where a transaction sees
// everything committed before it began and nothing runs beside it. A
// Store.Tx holds pbem's advisory lock exclusive, so at READ COMMITTED
// each of its statements sees every write committed before the lock was
// taken, and no other write runs until it ends. A Store.GameTx holds the
// lock shared and its game's row FOR UPDATE: each of its statements sees
// every earlier write to its game, and it writes nothing outside the
// game but what commutes (gamelock.go); a wider write makes it run again
// under Store.Tx.
type postgresBackend struct {
	pool *pgxpool.Pool
	db   *sql.DB
	// writer lets writeConns transactions of this process at a time
	// wait for their locks, so that waiting writers hold no more than
	// that many of the pool's connections and reads go on.
	writer chan struct{}
	// exclusive lets one Store.Tx of this process at a time wait for the
	// lock exclusive: the others queue here, in Go, as before game
	// transactions existed, so that handing the lock from one of this
	// process's transactions to the next does not go through the
	// server's lock queue, and the game transactions keep their slots.
	exclusive chan struct{}
	rb        rebinder
	// mem hands the rows of reads that went in a batch to database/sql
	// (pgbuffered.go).
	mem bufferedDB
}

func openPostgres(ctx context.Context, database string, o options, roundTrips *atomic.Int64) (*postgresBackend, error) {
	cfg, err := pgxpool.ParseConfig(database)
	if err != nil {
		// pgx's parse errors show the URL with its password masked,
		// but the store's own Redact is the one relied on.
		return nil, errors.New("cannot parse the PostgreSQL URL")
	}
	cfg.MaxConns = int32(o.readConns + writeConns)
	// A write waits for the write lock (and anything for a row lock) no
	// longer than the busy timeout, as a SQLite writer waits for another
	// process's lock; then it fails with ErrBusy.
	cfg.ConnConfig.RuntimeParams["lock_timeout"] = strconv.FormatInt(o.busyTimeout.Milliseconds(), 10)
	countRoundTrips(&cfg.ConnConfig.Config, roundTrips)
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, wrap(err)
	}
	b := &postgresBackend{pool: pool, db: stdlib.OpenDBFromPool(pool), writer: make(chan struct{}, writeConns),
		exclusive: make(chan struct{}, 1), mem: newBufferedDB()}
	if err := b.migrate(ctx); err != nil {
		b.close()
		return nil, err
	}
	return b, nil
}

// migrate brings the schema up to date while holding the write lock for
// the session: nodes that start together migrate one after the other, and
// no node writes into a schema half migrated.
func (b *postgresBackend) migrate(ctx context.Context) error {
	conn, err := b.db.Conn(ctx)
	if err != nil {
		return wrap(err)
	}
	defer conn.Close()
	// Another node's migration may take longer than the busy timeout:
	// wait for it as long as ctx allows.
	if _, err := conn.ExecContext(ctx, `SET lock_timeout = 0`); err != nil {
		return wrap(err)
	}
	if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock(`+lockKeys+`)`); err != nil {
		return fmt.Errorf("take the migration lock: %w", wrap(err))
	}
	defer func() {
		// The connection goes back to the pool: unlock, and give it
		// back its lock_timeout (RESET restores the connection's own).
		bg := context.WithoutCancel(ctx)
		conn.ExecContext(bg, `SELECT pg_advisory_unlock(`+lockKeys+`)`)
		conn.ExecContext(bg, `RESET lock_timeout`)
	}()
	return migrate(ctx, b, b.db)
}

func (b *postgresBackend) engine() Engine        { return PostgreSQL }
func (b *postgresBackend) pools() (w, r *sql.DB) { return b.db, b.db }
func (b *postgresBackend) reads() querier        { return rebound{b.db, &b.rb} }
func (b *postgresBackend) inTx(tx txConn) querier {
	return rebound{tx, &b.rb}
}

func (b *postgresBackend) begin(ctx context.Context, shared bool) (txConn, func(), error) {
	if !shared {
		select {
		case b.exclusive <- struct{}{}:
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		}
	}
	select {
	case b.writer <- struct{}{}:
	case <-ctx.Done():
		if !shared {
			<-b.exclusive
		}
		return nil, nil, ctx.Err()
	}
	unslot := func() {
		<-b.writer
		if !shared {
			<-b.exclusive
		}
	}
	// Taken under a context never done, so that neither database/sql
	// nor pgx watches a context for it: Store.run and the transaction's
	// querier check ctx (meteredQuerier). The lock waits no longer than
	// lock_timeout.
	conn, err := b.db.Conn(context.WithoutCancel(ctx))
	if err != nil {
		unslot()
		return nil, nil, err
	}
	tx := &pgTx{conn: conn, rb: &b.rb, mem: b.mem}
	// BEGIN and the lock go to the server with the transaction's first
	// statement (pipeline.go): a lock that times out fails that one.
	lock := lockSQL
	if shared {
		lock = lockSharedSQL
	}
	tx.later("begin", "BEGIN", nil)
	tx.later("take pbem's lock", lock, nil)
	release := func() {
		tx.close()
		unslot()
	}
	return tx, release, nil
}

// The statements begin gives the transaction: BEGIN, then the lock.
var (
	postgresBegin       = []string{"BEGIN", lockSQL}
	postgresBeginShared = []string{"BEGIN", lockSharedSQL}
)

func (b *postgresBackend) beginStatements(shared bool) []string {
	if shared {
		return postgresBeginShared
	}
	return postgresBegin
}

func (b *postgresBackend) idsIn(ids []int64) (string, any) {
	return `= ANY (?)`, ids
}

func (b *postgresBackend) dialect() goose.Dialect               { return goose.DialectPostgres }
func (b *postgresBackend) gooseOptions() []goose.ProviderOption { return nil }

func (b *postgresBackend) close() error {
	b.mem.db.Close()
	err := b.db.Close()
	b.pool.Close()
	return err
}

// rebound runs queries written with SQLite's placeholders on PostgreSQL.
type rebound struct {
	q  querier
	rb *rebinder
}

func (r rebound) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return r.q.ExecContext(ctx, r.rb.rebind(query), flags(args)...)
}

func (r rebound) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return r.q.QueryContext(ctx, r.rb.rebind(query), flags(args)...)
}

func (r rebound) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	return r.q.QueryRowContext(ctx, r.rb.rebind(query), flags(args)...)
}

// flags passes Go's bools as the integers 0 and 1 that the schema keeps
// flags in, as SQLite's driver does.
func flags(args []any) []any {
	var out []any // a copy, made at the first bool: the caller's args stay
	for i, a := range args {
		b, ok := a.(bool)
		if !ok {
			continue
		}
		if out == nil {
			out = append([]any(nil), args...)
		}
		out[i] = int64(0)
		if b {
			out[i] = int64(1)
		}
	}
	if out == nil {
		return args
	}
	return out
}

// rebinder rewrites each query text once and keeps the result: the store
// runs a few dozen query texts, all built from constants.
type rebinder struct {
	m sync.Map // query → rebound query
}

func (rb *rebinder) rebind(query string) string {
	if q, ok := rb.m.Load(query); ok {
		return q.(string)
	}
	q := rebind(query)
	rb.m.Store(query, q)
	return q
}

// rebind turns SQLite's placeholders into PostgreSQL's: ?N becomes $N,
// and ? the number after the largest so far, as SQLite numbers it.
// Quoted strings and identifiers and -- comments are copied as they are.
func rebind(query string) string {
	var b strings.Builder
	b.Grow(len(query) + 8)
	last := 0
	for i := 0; i < len(query); i++ {
		switch c := query[i]; {
		case c == '\'' || c == '"':
			// A doubled quote inside ends one string and starts the
			// next, which copies the same.
			end := strings.IndexByte(query[i+1:], c)
			if end < 0 {
				b.WriteString(query[i:])
				return b.String()
			}
			b.WriteString(query[i : i+end+2])
			i += end + 1
		case c == '-' && strings.HasPrefix(query[i:], "--"):
			end := strings.IndexByte(query[i:], '\n')
			if end < 0 {
				b.WriteString(query[i:])
				return b.String()
			}
			b.WriteString(query[i : i+end])
			i += end - 1
		case c == '?':
			j := i + 1
			for j < len(query) && query[j] >= '0' && query[j] <= '9' {
				j++
			}
			n := last + 1
			if j > i+1 {
				n, _ = strconv.Atoi(query[i+1 : j])
			}
			last = max(last, n)
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			i = j - 1
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// classifyPostgres returns ErrDuplicate or ErrBusy for PostgreSQL's
// errors of those kinds, and nil for any other error.
func classifyPostgres(err error) error {
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		return nil
	}
	switch pe.Code {
	case "23505": // unique_violation
		return ErrDuplicate
	case "40001", "40P01", "55P03": // serialization_failure, deadlock_detected, lock_not_available
		return ErrBusy
	}
	return nil
}

// unavailablePostgres reports errors that say the server cannot be
// reached or cannot work now (see Unavailable): a lost or refused
// connection, a server shutting down or starting, a full disk, no memory
// or connections left, a read-only standby.
func unavailablePostgres(err error) bool {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch {
		case strings.HasPrefix(pe.Code, "08"), // connection_exception
			strings.HasPrefix(pe.Code, "53"),                           // insufficient_resources: disk_full, out_of_memory, too_many_connections
			strings.HasPrefix(pe.Code, "58"),                           // system_error: io_error
			pe.Code == "57P01", pe.Code == "57P02", pe.Code == "57P03", // admin_shutdown, crash_shutdown, cannot_connect_now
			pe.Code == "25006": // read_only_sql_transaction
			return true
		}
		return false
	}
	var ce *pgconn.ConnectError
	var ne net.Error
	return errors.As(err, &ce) || errors.As(err, &ne) || errors.Is(err, driver.ErrBadConn) ||
		errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) || pgconn.SafeToRetry(err)
}

// Reachable connects to the PostgreSQL database at the URL and asks it
// one question, changing nothing: what `pbem check` checks. Its error
// never shows the URL's password.
func Reachable(ctx context.Context, database string) error {
	cfg, err := pgx.ParseConfig(database)
	if err != nil {
		return fmt.Errorf("%s: cannot parse the PostgreSQL URL", Redact(database))
	}
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return fmt.Errorf("connect to %s: %w", Redact(database), err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	var one int
	if err := conn.QueryRow(ctx, `SELECT 1`).Scan(&one); err != nil {
		return fmt.Errorf("query %s: %w", Redact(database), err)
	}
	return nil
}
