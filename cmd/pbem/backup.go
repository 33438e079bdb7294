package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/pbem/pbem/store"
)

const backupUsage = `usage: pbem backup [--config FILE] COPY

Writes a consistent copy of the database named by the configuration to the
new file COPY, while pbem serve may go on running. COPY must not exist.

To restore: stop pbem, replace the database file with the copy, delete the
database's -wal and -shm files if they are there, and start pbem
(docs/store.md, "Backup and restore").

On PostgreSQL (store.database a postgres:// URL) backup refuses: use
pg_dump (docs/operations.md, "PostgreSQL").`

func runBackup(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("backup", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	setUsage(fs, backupUsage)
	cfg, err := loadConfig(fs, args)
	if err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return usageError("backup takes the path of the copy to write")
	}
	out := fs.Arg(0)
	if store.IsURL(cfg.Store.Database) {
		// pbem's own copy is SQLite's; a server has its own tools.
		return store.ErrBackupPostgres
	}
	// store.Open would create an empty database where none is: a backup
	// of a wrong path must fail, not succeed with nothing in it.
	if _, err := os.Stat(cfg.Store.Database); err != nil {
		return fmt.Errorf("no database to back up: %w", err)
	}
	st, err := store.Open(ctx, cfg.Store.Database)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := st.Backup(ctx, out); err != nil {
		return err
	}
	fi, err := os.Stat(out)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "backed up %s to %s (%d bytes)\n", cfg.Store.Database, out, fi.Size())
	return nil
}
