package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// Backup writes a consistent copy of the database to a new file at path,
// while the store stays in use. It fails, touching nothing, if path
// exists.
//
// The copy is made with `VACUUM INTO`: SQLite reads the database in one
// read transaction, so the copy is the state of one moment, with every
// transaction committed by then and none after; WAL lets the daemon go on
// writing meanwhile. The copy is compact (no free pages) and a single
// file, with no -wal beside it; Open brings it into WAL mode when it is
// used. Copying the file with cp instead could tear a transaction that
// the WAL holds only in part.
//
// The copy runs on a connection of its own: the readers are query_only,
// which SQLite takes to forbid VACUUM INTO, and the writer must stay free
// for the daemon's transactions.
//
// On PostgreSQL Backup fails with ErrBackupPostgres, touching nothing:
// pg_dump makes the consistent copy there (docs/operations.md).
func (s *Store) Backup(ctx context.Context, path string) (err error) {
	if s.be.engine() != SQLite {
		return ErrBackupPostgres
	}
	// Create the file exclusively, so that an existing file is never
	// overwritten, even one that appears meanwhile; VACUUM INTO accepts
	// an empty file.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("store: backup: %w", err)
	}
	if err := f.Close(); err != nil {
		os.Remove(path)
		return fmt.Errorf("store: backup: %w", err)
	}
	defer func() {
		if err != nil {
			// A half-written copy must not pass for a backup.
			os.Remove(path)
		}
	}()

	src, err := s.path(ctx)
	if err != nil {
		return fmt.Errorf("store: backup: %w", err)
	}
	// The writer's DSN, not a reader's: query_only cannot be undone in
	// a DSN (the driver applies pragmas sorted). Its settings are
	// harmless here: the file is in WAL mode already, and the IMMEDIATE
	// lock is taken only by BEGIN, which VACUUM INTO does not run.
	db, err := sql.Open("sqlite", dsn(src, options{busyTimeout: 10 * time.Second}, true))
	if err != nil {
		return fmt.Errorf("store: backup: %w", err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if _, err := db.ExecContext(ctx, `VACUUM INTO ?`, path); err != nil {
		return fmt.Errorf("store: backup to %s: %w", path, wrap(err))
	}
	// VACUUM INTO does not sync what it wrote: a backup that a power cut
	// can lose is none.
	if err := syncFile(path); err != nil {
		return fmt.Errorf("store: backup: %w", err)
	}
	if err := syncFile(filepath.Dir(path)); err != nil {
		return fmt.Errorf("store: backup: %w", err)
	}
	return nil
}

// ErrBackupPostgres is Backup's answer on PostgreSQL.
var ErrBackupPostgres = errors.New("store: backup: the database is on PostgreSQL: back it up with pg_dump (docs/operations.md, \"PostgreSQL\")")

// syncFile fsyncs a file or directory.
func syncFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	err = f.Sync()
	if errors.Is(err, os.ErrInvalid) {
		// Some file systems cannot sync a directory; the file itself
		// was synced.
		err = nil
	}
	return errors.Join(err, f.Close())
}
