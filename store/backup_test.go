package store

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
)

// A backup taken while another goroutine keeps writing opens with Open,
// has the schema, and holds whole transactions only: each of the writer's
// transactions records an inbound mail and queues its answer, and the
// copy has every answer's mail and every mail's answer.
func TestBackupWhileWriting(t *testing.T) {
	sqliteOnly(t)
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	g := newGame(t, s, "ann@example.org", "bob@example.org")

	committed := make(chan int, 1000)
	var commits atomic.Int64 // the writer's transactions committed so far
	stop := make(chan struct{})
	writerDone := make(chan error, 1)
	go func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				writerDone <- nil
				return
			default:
			}
			err := s.Tx(ctx, func(tx *Tx) error {
				if _, err := tx.RecordInbound(ctx, Inbound{MessageID: fmt.Sprintf("<in%d@x>", i), Mailbox: "INBOX", UIDValidity: 1,
					UID: uint32(i + 1), From: "bob@example.org", GameID: g, Outcome: "applied", ReceivedAt: t0}); err != nil {
					return err
				}
				_, _, err := tx.Enqueue(ctx, Outgoing{MessageID: fmt.Sprintf("<out%d@x>", i), GameID: g, Seat: 1,
					To: "bob@example.org", Raw: make([]byte, 2000), NotBefore: t0})
				return err
			})
			if err != nil {
				writerDone <- err
				return
			}
			commits.Add(1)
			select {
			case committed <- i:
			default:
			}
		}
	}()
	// The backup starts once the writer is well under way, and the
	// writer goes on after it.
	for i := 0; i < 20; i++ {
		<-committed
	}
	path := filepath.Join(t.TempDir(), "backup.db")
	if err := s.Backup(ctx, path); err != nil {
		t.Fatal(err)
	}
	// Twenty more commits after the backup ended, counted, not taken
	// from the channel: under load its buffer holds signals of commits
	// made while the backup ran, which its copy may hold.
	for after := commits.Load(); commits.Load() < after+20; {
		<-committed
	}
	close(stop)
	if err := <-writerDone; err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path + "-wal"); err == nil {
		t.Error("the backup has a -wal file beside it")
	}

	b, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if v, err := b.SchemaVersion(ctx); err != nil || v != LatestSchemaVersion() {
		t.Fatalf("backup's schema version %d (%v), want %d", v, err, LatestSchemaVersion())
	}
	var ok string
	if err := b.r.QueryRow(`PRAGMA integrity_check`).Scan(&ok); err != nil || ok != "ok" {
		t.Fatalf("integrity check of the backup: %q, %v", ok, err)
	}
	in, out := count(t, b, "inbound"), count(t, b, "outbox")
	live := count(t, s, "inbound")
	if in < 20 || in != out || in >= live {
		t.Fatalf("backup has %d inbound and %d outbox rows, the database %d inbound; want equal counts, at least 20 and fewer than the database's", in, out, live)
	}
	var torn int
	if err := b.r.QueryRow(`SELECT count(*) FROM inbound i WHERE NOT EXISTS
		(SELECT 1 FROM outbox o WHERE o.message_id = '<out' || substr(i.message_id, 4))`).Scan(&torn); err != nil || torn != 0 {
		t.Fatalf("%d inbound rows of the backup lack their answer (%v)", torn, err)
	}
}

// Backup never overwrites a file, and leaves no file behind when it fails.
func TestBackupRefusesExistingFile(t *testing.T) {
	sqliteOnly(t)
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	path := filepath.Join(t.TempDir(), "precious")
	if err := os.WriteFile(path, []byte("keep me"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := s.Backup(ctx, path); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("Backup over an existing file: %v, want fs.ErrExist", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "keep me" {
		t.Fatalf("the existing file now holds %q", b)
	}

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	failed := filepath.Join(t.TempDir(), "failed.db")
	if err := s.Backup(cancelled, failed); err == nil {
		t.Fatal("a backup with a cancelled context succeeded")
	}
	if _, err := os.Stat(failed); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a failed backup left its file: %v", err)
	}
}

// Restore as docs/store.md says: with pbem stopped, the backup replaces
// the database file and the old -wal and -shm files go; pbem then opens
// it and carries on from the backup's state.
func TestRestoreFromBackup(t *testing.T) {
	sqliteOnly(t)
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "pbem.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	g := newGame(t, s, "ann@example.org", "bob@example.org")
	queueMail(t, s, g, "<before@p>", 100, t0)
	backup := filepath.Join(dir, "pbem.backup")
	if err := s.Backup(ctx, backup); err != nil {
		t.Fatal(err)
	}
	// Written after the backup: lost by the restore.
	queueMail(t, s, g, "<after@p>", 100, t0)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	b, err := os.ReadFile(backup)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, suffix := range []string{"-wal", "-shm"} {
		if err := os.Remove(path + suffix); err != nil && !errors.Is(err, fs.ErrNotExist) {
			t.Fatal(err)
		}
	}

	r, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if has, err := r.HasOutgoing(ctx, "<before@p>"); err != nil || !has {
		t.Errorf("the restored database lacks the mail queued before the backup (%v)", err)
	}
	if has, err := r.HasOutgoing(ctx, "<after@p>"); err != nil || has {
		t.Errorf("the restored database has the mail queued after the backup (%v)", err)
	}
	if _, err := r.Game(ctx, g); err != nil {
		t.Errorf("the restored database lacks game %d: %v", g, err)
	}
	// Usable: it takes writes, in WAL mode again.
	queueMail(t, r, g, "<restored@p>", 100, t0)
	var mode string
	if err := r.r.QueryRow(`PRAGMA journal_mode`).Scan(&mode); err != nil || mode != "wal" {
		t.Errorf("the restored database's journal mode is %q (%v), want wal", mode, err)
	}
}
