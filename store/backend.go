package store

import (
	"context"
	"database/sql"
	"embed"
	"net/url"
	"strings"

	"github.com/pressly/goose/v3"

	"github.com/pbem/pbem/store/dbsetting"
)

// Engine names a database engine the store runs on.
type Engine string

// The engines.
const (
	SQLite     Engine = "sqlite"
	PostgreSQL Engine = "postgres"
)

// Each engine has its own migrations, in migrations/ENGINE; a migration's
// number means the same schema on both (see migrations/postgres).
//
//go:embed migrations/sqlite/*.sql migrations/postgres/*.sql
var migrationFiles embed.FS

// backend is what differs between the engines; everything else in the
// store, every query included, is shared. Queries are written once, with
// SQLite's placeholders (? and ?N); the PostgreSQL backend rebinds them.
// The few statements that cannot be shared ask the backend (idsIn), and
// the SQLite-only maintenance (backup, vacuum, checkpoint) asks for the
// SQLite backend by type.
type backend interface {
	engine() Engine
	// pools returns the pool for writes and the pool for reads.
	pools() (w, r *sql.DB)
	// reads runs the reads made outside transactions.
	reads() querier
	// begin starts a write transaction, serialized with every other
	// write transaction on the database, of this process or another;
	// release is called once the transaction has ended. A shared one
	// (a game's, Store.GameTx) runs beside other shared ones, where the
	// engine allows it (PostgreSQL), and locks its game's row itself.
	begin(ctx context.Context, shared bool) (tx txConn, release func(), err error)
	// beginStatements are the statements begin runs, for the count of
	// statements (Counts).
	beginStatements(shared bool) []string
	// inTx runs the statements of a transaction begin started.
	inTx(tx txConn) querier
	// idsIn is a condition "IN (…)" or "= ANY (…)", to follow a column,
	// that matches the ids, and the argument it takes.
	idsIn(ids []int64) (cond string, arg any)
	// dialect and gooseOptions set up goose for the engine's migrations.
	dialect() goose.Dialect
	gooseOptions() []goose.ProviderOption
	close() error
}

// txConn is a write transaction as its backend began it: SQLite's
// *sql.Tx, or PostgreSQL's pgTx (pipeline.go). Its querier methods run a
// statement as it is, outside the statement cache and the meter.
type txConn interface {
	querier
	Commit() error
	Rollback() error
}

// IsURL reports whether database (store.database) names a PostgreSQL
// database by URL, rather than a SQLite file by path (dbsetting.IsURL).
func IsURL(database string) bool { return dbsetting.IsURL(database) }

// DatabaseKind is what a store.database value names (dbsetting.Kind).
type DatabaseKind = dbsetting.Kind

// The kinds of store.database values.
const (
	DatabaseRefused = dbsetting.Refused
	DatabaseFile    = dbsetting.File
	DatabaseURL     = dbsetting.URL
)

// ClassifyDatabase says what database, a store.database value, names,
// and refuses what is neither a path nor a PostgreSQL URL with an error
// that never repeats it (dbsetting.Classify).
func ClassifyDatabase(database string) (DatabaseKind, error) { return dbsetting.Classify(database) }

// refusedDatabase stands for a refused store.database in what pbem shows.
const refusedDatabase = "(a store.database that is neither a path nor a postgres:// URL)"

// Redact returns database with a URL's password replaced by xxxxx, fit
// for logs, errors and status pages. A path is returned as it is; a value
// ClassifyDatabase refuses, which may hold a password anywhere, not at
// all.
func Redact(database string) string {
	switch kind, _ := ClassifyDatabase(database); kind {
	case DatabaseFile:
		return database
	case DatabaseRefused:
		return refusedDatabase
	}
	u, err := url.Parse(database)
	if err != nil {
		// Unparsable: show the scheme alone rather than risk the password.
		scheme, _, _ := strings.Cut(database, "://")
		return scheme + "://(unparsable URL)"
	}
	q := u.Query()
	if q.Has("password") {
		q.Set("password", "xxxxx")
		u.RawQuery = q.Encode()
	}
	return u.Redacted()
}
