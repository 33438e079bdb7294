package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/store/storetest"
)

// pbem store copy moves an installation to another database and back
// (SQLite → PostgreSQL → SQLite when PBEM_TEST_POSTGRES is set, SQLite →
// SQLite → SQLite without), and checks each copy by the tables' digests
// and the games' exports; it refuses a source that does not exist and a
// destination that is not empty.
func TestStoreCopyCommand(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	from := filepath.Join(dir, "from.db")
	st, err := store.Open(ctx, from)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Tx(ctx, func(tx *store.Tx) error {
		id, err := tx.CreateGame(ctx, store.NewGame{Kind: "felix", Creator: "alice@x.test", CreatedAt: time.Unix(1_700_000_000, 0),
			Setup: []byte(`{"Players":["alice","bob","carol","dave"],"Seed":7}`)})
		if err != nil {
			return err
		}
		for i, p := range []string{"alice", "bob", "carol", "dave"} {
			if err := tx.AddSeat(ctx, id, i, p+"@x.test", p, "t"+p); err != nil {
				return err
			}
		}
		return tx.SetGameStatus(ctx, id, store.StatusActive)
	}); err != nil {
		t.Fatal(err)
	}
	st.Close()

	pbem := func(args ...string) (int, string) {
		var out, errOut bytes.Buffer
		code := run(ctx, &env{stdout: &out, stderr: &errOut}, append([]string{"store"}, args...))
		return code, out.String() + errOut.String()
	}
	middle := storetest.Database(t)
	back := filepath.Join(dir, "back.db")
	for _, hop := range [][2]string{{from, middle}, {middle, back}} {
		code, out := pbem("copy", hop[0], hop[1])
		if code != 0 || !strings.Contains(out, "every table's digest and every game's export match") {
			t.Fatalf("store copy %s %s: exit %d, %q", store.Redact(hop[0]), store.Redact(hop[1]), code, out)
		}
		if strings.Contains(out, "pbem-test-password") {
			t.Errorf("store copy printed the database's password: %q", out)
		}
	}
	if code, out := pbem("copy", from, back); code != 1 || !strings.Contains(out, "not empty") {
		t.Errorf("store copy into a full database: exit %d, %q; want 1", code, out)
	}
	if code, out := pbem("copy", filepath.Join(dir, "none.db"), filepath.Join(dir, "new.db")); code != 1 || !strings.Contains(out, "no database to copy") {
		t.Errorf("store copy from nothing: exit %d, %q; want 1", code, out)
	}
	if code, _ := pbem("move", from, back); code != 2 {
		t.Errorf("store move: exit %d, want 2", code)
	}
}
