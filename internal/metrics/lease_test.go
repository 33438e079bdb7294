package metrics

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/pbem/pbem/internal/lease"
	"github.com/pbem/pbem/store"
)

// TestReaderLease: with several nodes on one database, the metrics and
// /healthz say which node holds the reader lease, and a node that does
// not hold it (and so reads no mailbox) is not unhealthy for it.
func TestReaderLease(t *testing.T) {
	t.Parallel()
	st := openStore(t)
	clk := &clock{now: t0}
	m := New(st, WithClock(clk.Now), WithNode("node-a"), WithIMAPStaleAfter(15*time.Minute))
	h := m.Handler()
	ctx := context.Background()
	take := func(node string) {
		t.Helper()
		if err := st.Tx(ctx, func(tx *store.Tx) error {
			_, ok, err := tx.AcquireLease(ctx, lease.ReaderLease, node, clk.Now(), time.Hour)
			if err == nil && !ok {
				t.Fatalf("%s could not take the lease", node)
			}
			return err
		}); err != nil {
			t.Fatal(err)
		}
	}
	expect := func(step string, wantCode int, wantBody ...string) {
		t.Helper()
		code, body := get(t, h, "/healthz")
		if code != wantCode {
			t.Fatalf("%s: status %d, want %d\n%s", step, code, wantCode, body)
		}
		for _, w := range wantBody {
			if !strings.Contains(body, w) {
				t.Fatalf("%s: body lacks %q:\n%s", step, w, body)
			}
		}
	}
	gauges := func(step, want string) {
		t.Helper()
		if err := testutil.GatherAndCompare(m.Registry(), strings.NewReader(want),
			"pbem_reader_lease_held", "pbem_reader_lease_holder", "pbem_imap_last_search_age_seconds"); err != nil {
			t.Fatalf("%s: %v", step, err)
		}
	}
	const help = `
# HELP pbem_reader_lease_held 1 while this node holds the reader lease (it reads the IMAP mailbox and runs retention), else 0.
# TYPE pbem_reader_lease_held gauge
`
	const helpHolder = `
# HELP pbem_reader_lease_holder 1 for the node that holds the reader lease, read from the store at scrape time; no series while no node holds it.
# TYPE pbem_reader_lease_holder gauge
`
	const helpAge = `
# HELP pbem_imap_last_search_age_seconds Seconds since the IMAP mailbox was last searched successfully (since start until the first search).
# TYPE pbem_imap_last_search_age_seconds gauge
`

	m.ReaderLeaseHeld(false)
	expect("no node holds it", http.StatusOK, "ok\nreader lease: held by no node (this node is node-a)\n")
	gauges("no node holds it", help+"pbem_reader_lease_held 0\n")

	// Another node reads: this one reads no mailbox, however long.
	take("node-b")
	clk.Advance(30 * time.Minute)
	expect("node-b holds it", http.StatusOK, "ok\nreader lease: held by node-b since 2025-03-01T12:00:00Z (this node is node-a)\n")
	gauges("node-b holds it", help+"pbem_reader_lease_held 0\n"+helpHolder+`pbem_reader_lease_holder{holder="node-b"} 1`+"\n")

	// node-b's lease ran out; this node takes it: the mailbox's age
	// counts from then.
	clk.Advance(30 * time.Minute)
	take("node-a")
	m.ReaderLeaseHeld(true)
	clk.Advance(time.Minute)
	expect("this node holds it", http.StatusOK, "ok\nreader lease: held by node-a (this node) since 2025-03-01T13:00:00Z\n")
	gauges("this node holds it", help+"pbem_reader_lease_held 1\n"+helpHolder+`pbem_reader_lease_holder{holder="node-a"} 1`+"\n"+helpAge+"pbem_imap_last_search_age_seconds 60\n")
	clk.Advance(15 * time.Minute)
	expect("this node holds it and has not searched", http.StatusServiceUnavailable,
		"imap: no successful search in the 16m0s since start", "reader lease: held by node-a (this node)")
	m.Searched(clk.Now())
	expect("searched", http.StatusOK, "ok\n")
}
