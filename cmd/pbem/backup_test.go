package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pbem/pbem/store"
)

func TestBackupCommand(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := filepath.Join(dir, "pbem.db")
	t.Setenv("PBEM_STORE_DATABASE", db)
	pbem := func(args ...string) (int, string) {
		var out, errOut bytes.Buffer
		code := run(ctx, &env{stdout: &out, stderr: &errOut}, append([]string{"backup"}, args...))
		return code, out.String() + errOut.String()
	}

	if code, out := pbem("--help"); code != 0 || !strings.Contains(out, "usage: pbem backup") {
		t.Errorf("backup --help: exit %d, %q; want 0 and the usage", code, out)
	}
	if code, out := pbem(); code != 2 || !strings.Contains(out, "the path of the copy") {
		t.Errorf("backup without a path: exit %d, %q; want 2", code, out)
	}
	dst := filepath.Join(dir, "copy.db")
	if code, out := pbem(dst); code != 1 || !strings.Contains(out, "no database to back up") {
		t.Errorf("backup of a database that does not exist: exit %d, %q; want 1", code, out)
	}
	if _, err := os.Stat(db); err == nil {
		t.Fatal("backup created the database it was to copy")
	}

	st, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Tx(ctx, func(tx *store.Tx) error {
		_, _, err := tx.Enqueue(ctx, store.Outgoing{MessageID: "<m@p>", To: "bob@example.org", Raw: []byte("hello"), Seat: -1})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	// The store stays open, as pbem serve's would.
	defer st.Close()
	if code, out := pbem(dst); code != 0 || !strings.Contains(out, "backed up") {
		t.Fatalf("backup: exit %d, %q; want 0", code, out)
	}
	if code, out := pbem(dst); code != 1 || !strings.Contains(out, "exists") {
		t.Errorf("backup over an existing copy: exit %d, %q; want 1", code, out)
	}
	b, err := store.Open(ctx, dst)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if has, err := b.HasOutgoing(ctx, "<m@p>"); err != nil || !has {
		t.Errorf("the copy lacks the queued mail (%v)", err)
	}
}
