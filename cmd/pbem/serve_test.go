package main

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pbem/pbem/internal/lease"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/store/storetest"
)

// TestServeStoppedWhileStarting: a stop that comes while pbem is still
// starting (here, before it begins) is a clean stop, exit status 0: the
// store is opened and migrated whole, nothing more starts, and pbem says
// it stopped. It once failed with "store: open …: context canceled".
func TestServeStoppedWhileStarting(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("PBEM_STORE_DATABASE", filepath.Join(dir, "pbem.db"))
	t.Setenv("PBEM_EMBEDDED_IMAP_ADDR", "127.0.0.1:0")
	t.Setenv("PBEM_EMBEDDED_SMTP_ADDR", "127.0.0.1:0")
	t.Setenv("PBEM_EMBEDDED_WEB_ADDR", "") // no pages: port 8080 may be another's
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stdout, stderr bytes.Buffer
	if code := run(ctx, &env{stdout: &stdout, stderr: &stderr}, []string{"serve"}); code != 0 {
		t.Fatalf("exit status %d\n%s", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "pbem stopped") {
		t.Errorf("pbem did not say it stopped:\n%s", stderr.String())
	}
	for _, line := range strings.Split(stderr.String(), "\n") {
		if strings.Contains(line, "level=WARN") || strings.Contains(line, "level=ERROR") {
			t.Errorf("a stop logged: %s", line)
		}
	}
}

// TestServeRefusesNameInUse (issue 33, finding 6): a second pbem serve
// with the node.name of one that runs, on the same database, stops before
// it serves, with a message that names node.name and says what to do;
// the first goes on, holding its name and the reader lease. Both used to
// serve, each saying on /healthz that it held the lease.
func TestServeRefusesNameInUse(t *testing.T) {
	m := newMailSetup(t)
	db := filepath.Join(t.TempDir(), "pbem.db")
	if storetest.OnPostgres() {
		db = storetest.Database(t)
	}
	m.env(t, map[string]string{"PBEM_STORE_DATABASE": db, "PBEM_NODE_NAME": "web1", "PBEM_LEASE_TTL": "1s"})

	ctx, cancel := context.WithCancel(context.Background())
	serving := make(chan struct{})
	first := &watcher{onServing: func() { close(serving) }}
	firstDone := make(chan int, 1)
	go func() {
		firstDone <- run(ctx, &env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: first}, []string{"serve"})
	}()
	defer func() {
		cancel()
		<-firstDone
	}()
	select {
	case <-serving:
	case code := <-firstDone:
		t.Fatalf("the first node exited %d:\n%s", code, first.String())
	}

	sctx, stop := context.WithCancel(context.Background())
	defer stop()
	second := &watcher{onServing: stop} // were it to serve, stop it
	code := run(sctx, &env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: second}, []string{"serve"})
	out := second.String()
	if code != 1 {
		t.Errorf("the second node exited %d, want 1 before serving:\n%s", code, out)
	}
	for _, want := range []string{`node.name "web1" is in use`, "its own node.name"} {
		if !strings.Contains(out, want) {
			t.Errorf("the second node did not say %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "pbem serving") || strings.Contains(out, "reader lease taken") {
		t.Errorf("the second node served:\n%s", out)
	}

	select {
	case code := <-firstDone:
		t.Fatalf("the first node exited %d:\n%s", code, first.String())
	default:
	}
	st, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if l, err := st.Lease(context.Background(), lease.ReaderLease); err != nil || l.Holder != "web1" || !l.HeldAt(time.Now()) {
		t.Errorf("the reader lease after the refusal: %+v, %v; want web1's", l, err)
	}
}
