package store

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pbem/pbem/store/storetest"
)

func TestOpenMigratesEmptyDatabase(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	v, err := s.SchemaVersion(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if v != LatestSchemaVersion() || v < 1 {
		t.Errorf("SchemaVersion = %d, want LatestSchemaVersion %d (>= 1)", v, LatestSchemaVersion())
	}
	want := []string{"address_aliases", "address_changes", "audit", "bounce_days", "bounce_key", "budget", "calendar_feeds", "ended_games", "events", "games", "imap_cursor", "inbound", "leases", "mailboxes", "moves", "outbox", "outbox_messages", "players", "rated_games", "rated_seats", "ratings", "refusals", "seats", "talk", "undos", "unreachable", "vacations", "web_links"}
	query := `SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'goose_db_version' ORDER BY name`
	if s.Engine() == PostgreSQL {
		query = `SELECT table_name FROM information_schema.tables
			WHERE table_schema = current_schema() AND table_name <> 'goose_db_version' ORDER BY table_name`
	}
	rows, err := s.r.Query(query)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		got = append(got, n)
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("tables = %v, want %v", got, want)
	}
}

func TestReopenIsIdempotent(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := storetest.Database(t)
	for i := range 3 {
		s, err := Open(ctx, path)
		if err != nil {
			t.Fatalf("open %d: %v", i, err)
		}
		if i == 0 {
			mustTx(t, s, func(tx *Tx) error {
				_, err := tx.UpsertPlayer(ctx, "ann@example.org", "Ann")
				return err
			})
		}
		v, err := s.SchemaVersion(ctx)
		if err != nil || v != LatestSchemaVersion() {
			t.Errorf("open %d: SchemaVersion = %d, %v; want %d", i, v, err, LatestSchemaVersion())
		}
		var applied int
		if err := s.q.QueryRowContext(ctx, `SELECT count(*) FROM goose_db_version WHERE version_id > 0`).Scan(&applied); err != nil {
			t.Fatal(err)
		}
		// Versions need not be consecutive: count the files.
		files, _ := fs.Glob(migrationFiles, "migrations/"+string(s.Engine())+"/*.sql")
		if applied != len(files) {
			t.Errorf("open %d: %d migrations recorded, want %d", i, applied, len(files))
		}
		if p, err := s.Player(ctx, "ann@example.org"); err != nil || p.Name != "Ann" {
			t.Errorf("open %d: Player = %+v, %v", i, p, err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

func TestOpenRefusesNewerSchema(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, path := newStore(t)
	mustTx(t, s, func(tx *Tx) error {
		_, err := tx.exec(ctx, `INSERT INTO goose_db_version (version_id, is_applied) VALUES (?, '1')`, LatestSchemaVersion()+1)
		return err
	})
	s2, err := Open(ctx, path)
	if err == nil {
		s2.Close()
		t.Fatal("Open of a database with a newer schema succeeded")
	}
	if !strings.Contains(err.Error(), "newer") {
		t.Errorf("Open error = %v, want one about a newer schema", err)
	}
}

func TestOpenRefusesMemoryAndEmptyPath(t *testing.T) {
	sqliteOnly(t)
	t.Parallel()
	for _, path := range []string{"", ":memory:", "file::memory:?cache=shared", "file:x?mode=memory"} {
		s, err := Open(context.Background(), path)
		if err == nil {
			s.Close()
			t.Errorf("Open(%q) succeeded", path)
		}
	}
}

func TestOpenPathWithURICharacters(t *testing.T) {
	sqliteOnly(t)
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "odd #name?%.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var file string
	if err := s.r.QueryRow(`SELECT file FROM pragma_database_list WHERE name = 'main'`).Scan(&file); err != nil {
		t.Fatal(err)
	}
	if file != path {
		t.Errorf("database file = %q, want %q", file, path)
	}
}

func TestPragmas(t *testing.T) {
	sqliteOnly(t)
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	var mode string
	var fk, busy, sync, temp int
	mustTx(t, s, func(tx *Tx) error {
		return tx.tx.QueryRowContext(ctx, `SELECT journal_mode, foreign_keys, timeout, synchronous, temp_store
			FROM pragma_journal_mode, pragma_foreign_keys, pragma_busy_timeout, pragma_synchronous, pragma_temp_store`).Scan(&mode, &fk, &busy, &sync, &temp)
	})
	// synchronous 2 is FULL (a commit is on disk when it returns);
	// temp_store 2 is MEMORY (a savepoint's journal is never a file).
	if mode != "wal" || fk != 1 || busy != 10000 || sync != 2 || temp != 2 {
		t.Errorf("writer: journal_mode %q, foreign_keys %d, busy_timeout %d, synchronous %d, temp_store %d; want wal, 1, 10000, 2, 2", mode, fk, busy, sync, temp)
	}
	if _, err := s.r.ExecContext(ctx, `INSERT INTO players (address) VALUES ('x@example.org')`); err == nil {
		t.Error("a write through the read pool succeeded")
	}
}

func TestTxRollsBackEverythingOnError(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	game := newGame(t, s, "ann@example.org", "bob@example.org")
	boom := errors.New("boom")
	err := s.Tx(ctx, func(tx *Tx) error {
		in, err := tx.RecordInbound(ctx, Inbound{MessageID: "<m1@x>", Mailbox: "INBOX", UIDValidity: 1, UID: 1,
			From: "ann@example.org", GameID: game, Outcome: "applied", ReceivedAt: t0})
		if err != nil {
			return err
		}
		if _, err := tx.AppendMove(ctx, game, Move{Seat: 0, Command: "bid 5", Source: SourceMail, InboundID: in, At: t0}); err != nil {
			return err
		}
		if _, _, err := tx.Enqueue(ctx, Outgoing{MessageID: "<o1@x>", GameID: game, To: "bob@example.org", Raw: []byte("x"), NotBefore: t0}); err != nil {
			return err
		}
		if err := tx.SetCursor(ctx, "INBOX", 1, 1); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Tx = %v, want boom", err)
	}
	for _, table := range []string{"inbound", "moves", "outbox", "imap_cursor"} {
		if n := count(t, s, table); n != 0 {
			t.Errorf("%s has %d rows after rollback", table, n)
		}
	}
}

func TestTxRollsBackOnPanic(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	func() {
		defer func() {
			if r := recover(); r != "boom" {
				t.Errorf("recovered %v, want the panic to go on", r)
			}
		}()
		s.Tx(ctx, func(tx *Tx) error {
			if _, err := tx.UpsertPlayer(ctx, "ann@example.org", ""); err != nil {
				t.Error(err)
			}
			panic("boom")
		})
	}()
	if n := count(t, s, "players"); n != 0 {
		t.Errorf("players has %d rows after a panic", n)
	}
	// The write connection went back to the pool.
	mustTx(t, s, func(tx *Tx) error {
		_, err := tx.UpsertPlayer(ctx, "ann@example.org", "")
		return err
	})
}

// TestSavepoint: work in a savepoint that fails or panics is undone, and
// the transaction's other work, before and after it, commits.
func TestSavepoint(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	boom := errors.New("boom")
	upsert := func(tx *Tx, addr string) error {
		_, err := tx.UpsertPlayer(ctx, addr, "")
		return err
	}
	mustTx(t, s, func(tx *Tx) error {
		if err := tx.Savepoint(ctx, func() error { return upsert(tx, "ann@example.org") }); err != nil {
			return err
		}
		err := tx.Savepoint(ctx, func() error {
			if err := upsert(tx, "bob@example.org"); err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Errorf("a failing savepoint gave %v, want boom", err)
		}
		func() {
			defer func() {
				if r := recover(); r != "bang" {
					t.Errorf("recovered %v, want the panic to go on", r)
				}
			}()
			tx.Savepoint(ctx, func() error {
				if err := upsert(tx, "cat@example.org"); err != nil {
					t.Error(err)
				}
				panic("bang")
			})
		}()
		return tx.Savepoint(ctx, func() error { return upsert(tx, "dan@example.org") })
	})
	var got []string
	for _, a := range []string{"ann@example.org", "bob@example.org", "cat@example.org", "dan@example.org"} {
		if _, err := s.Player(ctx, a); err == nil {
			got = append(got, a)
		} else if !errors.Is(err, ErrNotFound) {
			t.Fatal(err)
		}
	}
	if want := []string{"ann@example.org", "dan@example.org"}; !slices.Equal(got, want) {
		t.Errorf("players after the transaction: %v, want %v", got, want)
	}
}

func TestConcurrentAppendMove(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	game := newGame(t, s, "ann@example.org", "bob@example.org")
	const workers, each = 4, 25
	var wg sync.WaitGroup
	errs := make(chan error, workers*each)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				err := s.Tx(ctx, func(tx *Tx) error {
					_, err := tx.AppendMove(ctx, game, Move{Seat: w % 2, Command: fmt.Sprintf("bid %d-%d", w, i), Source: SourceMail, At: t0})
					return err
				})
				if err != nil {
					errs <- err
				}
				// Reads run alongside the writer.
				if _, err := s.Moves(ctx, game, 0); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	moves, err := s.Moves(ctx, game, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(moves) != workers*each {
		t.Fatalf("%d moves, want %d", len(moves), workers*each)
	}
	seen := map[string]bool{}
	for i, m := range moves {
		if m.Seq != int64(i+1) {
			t.Errorf("move %d has seq %d", i, m.Seq)
		}
		if seen[m.Command] {
			t.Errorf("command %q twice", m.Command)
		}
		seen[m.Command] = true
	}
}

// Two Stores on one file behave like two processes: the second waits for
// the first's lock for its busy timeout, then fails with ErrBusy.
func TestBusyFromAnotherProcess(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s1, path := newStore(t)
	s2, err := Open(ctx, path, WithBusyTimeout(50*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()

	locked, release := make(chan struct{}), make(chan struct{})
	done := make(chan error)
	go func() {
		done <- s1.Tx(ctx, func(tx *Tx) error {
			// On PostgreSQL the lock is taken with the transaction's
			// first statement (pipeline.go).
			if _, err := tx.Player(ctx, "ann@example.org"); err != nil && !errors.Is(err, ErrNotFound) {
				return err
			}
			close(locked)
			<-release
			_, err := tx.UpsertPlayer(ctx, "ann@example.org", "")
			return err
		})
	}()
	<-locked
	err = s2.Tx(ctx, func(tx *Tx) error {
		_, err := tx.UpsertPlayer(ctx, "bob@example.org", "")
		return err
	})
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if !errors.Is(err, ErrBusy) {
		t.Fatalf("second writer: %v, want ErrBusy", err)
	}
	// Once the lock is free, the second store writes.
	mustTx(t, s2, func(tx *Tx) error {
		_, err := tx.UpsertPlayer(ctx, "bob@example.org", "")
		return err
	})
}

func TestTxHonoursContext(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := s.Tx(ctx, func(tx *Tx) error { return nil })
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Tx with a cancelled context = %v, want context.Canceled", err)
	}
}
