package store

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

func TestRebind(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, want string }{
		{`SELECT 1`, `SELECT 1`},
		{`a = ? AND b = ?`, `a = $1 AND b = $2`},
		{`a = ?1 OR b = ?1 AND c = ?2`, `a = $1 OR b = $1 AND c = $2`},
		// SQLite numbers a bare ? after the largest so far.
		{`a = ?2 AND b = ?`, `a = $2 AND b = $3`},
		{`x = '?' AND y = ?`, `x = '?' AND y = $1`},
		{`x = 'it''s ?' AND y = ?`, `x = 'it''s ?' AND y = $1`},
		{`"odd?name" = ?`, `"odd?name" = $1`},
		{"a = ? -- who? \n AND b = ?", "a = $1 -- who? \n AND b = $2"},
		{`x = 'unterminated ?`, `x = 'unterminated ?`},
		{`a = ?10`, `a = $10`},
	} {
		if got := rebind(tt.in); got != tt.want {
			t.Errorf("rebind(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestRedact(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, want string }{
		{"/var/lib/pbem/pbem.db", "/var/lib/pbem/pbem.db"},
		{"postgres://pbem:s3cret@db.example:5432/pbem?sslmode=require", "postgres://pbem:xxxxx@db.example:5432/pbem?sslmode=require"},
		{"postgresql://pbem@db/pbem?password=s3cret", "postgresql://pbem@db/pbem?password=xxxxx"},
		{"postgres://pbem:s3cret@db/pbem", "postgres://pbem:xxxxx@db/pbem"},
		{"postgres://pbem:s3c%zz@db/pbem", "postgres://(unparsable URL)"},
	} {
		got := Redact(tt.in)
		if got != tt.want || strings.Contains(got, "s3c") {
			t.Errorf("Redact(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// Open's errors name the database without its password: they reach logs
// and `pbem check`.
func TestOpenErrorHidesPassword(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // no server needed: the error is about the URL either way
	for _, db := range []string{
		"postgres://pbem:s3cret@127.0.0.1:1/pbem?connect_timeout=1",
		"postgres://pbem:s3cret@127.0.0.1:1/pbem?sslmode=nonsense",
		"postgresql://pbem@127.0.0.1:1/pbem?password=s3cret",
	} {
		s, err := Open(ctx, db)
		if err == nil {
			s.Close()
			t.Fatalf("Open(%s) succeeded", Redact(db))
		}
		if strings.Contains(err.Error(), "s3cret") {
			t.Errorf("Open error shows the password: %v", err)
		}
		err = Reachable(context.Background(), db)
		if err == nil {
			t.Fatalf("Reachable(%s) succeeded", Redact(db))
		}
		if strings.Contains(err.Error(), "s3cret") {
			t.Errorf("Reachable error shows the password: %v", err)
		}
	}
}

// A server that refuses the connection is unavailable: the daemon waits
// for it rather than setting mail aside.
func TestRefusedConnectionIsUnavailable(t *testing.T) {
	t.Parallel()
	_, err := Open(context.Background(), "postgres://pbem:x@127.0.0.1:1/pbem?connect_timeout=2")
	if err == nil || !Unavailable(err) {
		t.Errorf("Open of a closed port = %v; want an error Unavailable matches", err)
	}
}

func TestBackupOnPostgres(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t)
	if s.Engine() != PostgreSQL {
		t.Skip("on SQLite Backup makes a copy (backup_test.go)")
	}
	path := filepath.Join(t.TempDir(), "copy.db")
	if err := s.Backup(context.Background(), path); !errors.Is(err, ErrBackupPostgres) || !strings.Contains(err.Error(), "pg_dump") {
		t.Errorf("Backup on PostgreSQL = %v, want ErrBackupPostgres naming pg_dump", err)
	}
}
