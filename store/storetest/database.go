package storetest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"github.com/jackc/pgx/v5"
)

// PostgresEnv names the environment variable that makes the tests run on
// PostgreSQL: the URL of a server and database the tests may create
// schemas in (scripts/postgres env prints it).
const PostgresEnv = "PBEM_TEST_POSTGRES"

// Database returns a fresh, empty database for one test, as a value for
// store.Open (store.database): the path of a SQLite file in the test's
// temporary directory or, when PBEM_TEST_POSTGRES is set, the URL of a
// schema of its own on that server, dropped when the test ends. Tests
// about the store's behaviour, on any engine, take their database here;
// tests about SQLite's files make their own path.
//
// Run the store's tests with the store open (store.Open) after calling
// Database, so that the store is closed, by its own cleanup, before the
// schema is dropped.
func Database(t testing.TB) string {
	t.Helper()
	if server := os.Getenv(PostgresEnv); server != "" {
		return postgresSchema(t, server)
	}
	return filepath.Join(t.TempDir(), "pbem.db")
}

// OnPostgres reports whether Database returns PostgreSQL databases.
func OnPostgres() bool { return os.Getenv(PostgresEnv) != "" }

// postgresSchema creates a schema with a random name on the server and
// returns the server's URL with that schema as its search_path, which
// pgx sends to the server when it connects.
func postgresSchema(t testing.TB, server string) string {
	t.Helper()
	ctx := context.Background()
	u, err := url.Parse(server)
	if err != nil {
		t.Fatalf("%s is not a URL", PostgresEnv)
	}
	var b [8]byte
	rand.Read(b[:])
	schema := "test_" + hex.EncodeToString(b[:])
	conn, err := pgx.Connect(ctx, server)
	if err != nil {
		t.Fatalf("storetest: connect to %s: %v", PostgresEnv, err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `CREATE SCHEMA `+schema); err != nil {
		t.Fatalf("storetest: create schema: %v", err)
	}
	t.Cleanup(func() {
		conn, err := pgx.Connect(ctx, server)
		if err != nil {
			t.Errorf("storetest: connect to drop schema %s: %v", schema, err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, `DROP SCHEMA `+schema+` CASCADE`); err != nil {
			t.Errorf("storetest: drop schema %s: %v", schema, err)
		}
	})
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}
