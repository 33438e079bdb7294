package storetest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
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
	u, err := url.Parse(server)
	if err != nil {
		t.Fatalf("%s is not a URL", PostgresEnv)
	}
	schema := randomName()
	if err := forTheTest(t, server, `CREATE SCHEMA `+schema, `DROP SCHEMA `+schema+` CASCADE`); err != nil {
		t.Fatalf("storetest: create schema: %v", err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// OwnDatabase returns the URL of a fresh database of its own on the
// PBEM_TEST_POSTGRES server, dropped when the test ends, for a test of
// PostgreSQL's plans and pages: which dead rows an index scan may skip,
// and vacuum remove, depends on the oldest transaction of any session in
// the same database, which the other tests' schemas share. The server's
// role must be allowed to create databases (scripts/postgres allows
// it); a server whose role is not skips the test, saying so.
func OwnDatabase(t testing.TB) string {
	t.Helper()
	server := os.Getenv(PostgresEnv)
	if server == "" {
		t.Fatalf("storetest: OwnDatabase needs %s", PostgresEnv)
	}
	u, err := url.Parse(server)
	if err != nil {
		t.Fatalf("%s is not a URL", PostgresEnv)
	}
	name := randomName()
	if err := forTheTest(t, server, `CREATE DATABASE `+name, `DROP DATABASE `+name+` WITH (FORCE)`); err != nil {
		var pgErr *pgconn.PgError
		if errors.As(err, &pgErr) && pgErr.Code == "42501" { // insufficient_privilege
			t.Skipf("storetest: this test needs a database of its own, and the role of %s may not create one (ALTER ROLE ... CREATEDB): %v", PostgresEnv, err)
		}
		t.Fatalf("storetest: create database: %v", err)
	}
	u.Path = "/" + name
	return u.String()
}

// randomName is a name for a test's schema or database.
func randomName() string {
	var b [8]byte
	rand.Read(b[:])
	return "test_" + hex.EncodeToString(b[:])
}

// forTheTest runs create on the server, and drop when the test ends.
func forTheTest(t testing.TB, server, create, drop string) error {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, server)
	if err != nil {
		t.Fatalf("storetest: connect to %s: %v", PostgresEnv, err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, create); err != nil {
		return err
	}
	t.Cleanup(func() {
		conn, err := pgx.Connect(ctx, server)
		if err != nil {
			t.Errorf("storetest: connect to %s: %v", drop, err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, drop); err != nil {
			t.Errorf("storetest: %s: %v", drop, err)
		}
	})
	return nil
}
