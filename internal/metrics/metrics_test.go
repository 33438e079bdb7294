package metrics

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/pbem/pbem/internal/daemon"
	"github.com/pbem/pbem/internal/outbox"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/store/storetest"
)

// t0 is the tests' start; whole seconds, as the store keeps them.
var t0 = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

// clock is a settable clock, safe for the handler's goroutines.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

func openStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), storetest.Database(t))
	if err != nil {
		t.Fatalf("store.Open: %v", err)
	}
	t.Cleanup(func() {
		if err := st.Close(); err != nil {
			t.Errorf("store.Close: %v", err)
		}
	})
	return st
}

// enqueue puts one pending mail in the outbox, due at notBefore.
func enqueue(t *testing.T, st *store.Store, id string, notBefore time.Time) {
	t.Helper()
	err := st.Tx(context.Background(), func(tx *store.Tx) error {
		_, _, err := tx.Enqueue(context.Background(), store.Outgoing{
			MessageID: id, To: "alice@example.test", Raw: []byte("Subject: x\r\n\r\nx\r\n"),
			NotBefore: notBefore, Seat: -1,
		})
		return err
	})
	if err != nil {
		t.Fatalf("enqueue %s: %v", id, err)
	}
}

func createGame(t *testing.T, st *store.Store) int64 {
	t.Helper()
	var id int64
	err := st.Tx(context.Background(), func(tx *store.Tx) error {
		var err error
		id, err = tx.CreateGame(context.Background(), store.NewGame{
			Kind: "felix", Setup: []byte(`{}`), Creator: "alice@example.test", CreatedAt: t0,
		})
		return err
	})
	if err != nil {
		t.Fatalf("create game: %v", err)
	}
	return id
}

func get(t *testing.T, h http.Handler, path string) (int, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
	return rec.Code, rec.Body.String()
}

func TestObserversAndStoreGauges(t *testing.T) {
	t.Parallel()
	st := openStore(t)
	clk := &clock{now: t0}
	m := New(st, WithClock(clk.Now))

	m.Inbound("applied")
	m.Inbound("applied")
	m.Inbound("refused")
	m.SetAside(daemon.AsideDeadline)
	m.GameSetAside()
	m.Sent()
	m.Sent()
	m.Sent()
	m.SendFailed(outbox.SendTemporary)
	m.Sweep(20*time.Millisecond, 4)
	m.Sweep(30*time.Millisecond, 2)
	m.Connected() // the first session is no reconnect
	m.Connected()
	m.Connected()
	m.Searched(t0.Add(-30 * time.Second))

	createGame(t, st)
	broken := createGame(t, st)
	err := st.Tx(context.Background(), func(tx *store.Tx) error {
		_, err := tx.SetGameAside(context.Background(), broken, "state does not load", t0)
		return err
	})
	if err != nil {
		t.Fatalf("set game broken: %v", err)
	}
	enqueue(t, st, "<due@pbem>", t0.Add(-90*time.Second))
	enqueue(t, st, "<later@pbem>", t0.Add(time.Hour))

	want := `
# HELP pbem_inbound_mails_total Inbound mails handled, by outcome (applied, answered, refused, ignored, unusable, failed).
# TYPE pbem_inbound_mails_total counter
pbem_inbound_mails_total{outcome="answered"} 0
pbem_inbound_mails_total{outcome="applied"} 2
pbem_inbound_mails_total{outcome="failed"} 0
pbem_inbound_mails_total{outcome="ignored"} 0
pbem_inbound_mails_total{outcome="refused"} 1
pbem_inbound_mails_total{outcome="unusable"} 0
# HELP pbem_set_aside_total Mails, deadlines and reminders set aside after repeated errors, and digests skipped for the day, by what was set aside.
# TYPE pbem_set_aside_total counter
pbem_set_aside_total{what="deadline"} 1
pbem_set_aside_total{what="digest"} 0
pbem_set_aside_total{what="mail"} 0
pbem_set_aside_total{what="reminder"} 0
# HELP pbem_games_set_aside_total Games marked broken since start.
# TYPE pbem_games_set_aside_total counter
pbem_games_set_aside_total 1
# HELP pbem_mails_sent_total Mails the mail server took.
# TYPE pbem_mails_sent_total counter
pbem_mails_sent_total 3
# HELP pbem_send_failures_total Failed attempts to send a mail, by class (temporary: retried; permanent: given up).
# TYPE pbem_send_failures_total counter
pbem_send_failures_total{class="permanent"} 0
pbem_send_failures_total{class="temporary"} 1
# HELP pbem_sweep_due Due deadlines and reminders found by the last pass of the deadline sweep.
# TYPE pbem_sweep_due gauge
pbem_sweep_due 2
# HELP pbem_imap_reconnects_total IMAP sessions opened after the first one.
# TYPE pbem_imap_reconnects_total counter
pbem_imap_reconnects_total 2
# HELP pbem_imap_last_search_age_seconds Seconds since the IMAP mailbox was last searched successfully (since start until the first search).
# TYPE pbem_imap_last_search_age_seconds gauge
pbem_imap_last_search_age_seconds 30
# HELP pbem_outbox_pending Mails waiting in the outbox to be sent, due or not.
# TYPE pbem_outbox_pending gauge
pbem_outbox_pending 2
# HELP pbem_outbox_due Pending mails due now.
# TYPE pbem_outbox_due gauge
pbem_outbox_due 1
# HELP pbem_outbox_dead Mails given up on after permanent or repeated failures.
# TYPE pbem_outbox_dead gauge
pbem_outbox_dead 0
# HELP pbem_outbox_oldest_due_age_seconds How long the longest-waiting due mail has been due; 0 when none is.
# TYPE pbem_outbox_oldest_due_age_seconds gauge
pbem_outbox_oldest_due_age_seconds 90
# HELP pbem_games Games by status, read from the store at scrape time (broken games count under the status they keep).
# TYPE pbem_games gauge
pbem_games{status="aborted"} 0
pbem_games{status="active"} 0
pbem_games{status="declined"} 0
pbem_games{status="finished"} 0
pbem_games{status="inviting"} 2
pbem_games{status="paused"} 0
# HELP pbem_games_set_aside Games set aside as broken and not yet repaired, read from the store at scrape time: each needs an admin.
# TYPE pbem_games_set_aside gauge
pbem_games_set_aside 1
`
	names := []string{
		"pbem_inbound_mails_total", "pbem_set_aside_total", "pbem_games_set_aside_total",
		"pbem_mails_sent_total", "pbem_send_failures_total", "pbem_sweep_due",
		"pbem_imap_reconnects_total", "pbem_imap_last_search_age_seconds",
		"pbem_outbox_pending", "pbem_outbox_due", "pbem_outbox_dead", "pbem_outbox_oldest_due_age_seconds",
		"pbem_games", "pbem_games_set_aside",
	}
	if err := testutil.GatherAndCompare(m.Registry(), strings.NewReader(want), names...); err != nil {
		t.Fatal(err)
	}

	// The HTTP endpoint serves the same registry, with the histogram.
	code, body := get(t, m.Handler(), "/metrics")
	if code != http.StatusOK {
		t.Fatalf("/metrics: status %d\n%s", code, body)
	}
	for _, line := range []string{
		"pbem_sweep_duration_seconds_count 2",
		"pbem_sweep_duration_seconds_sum 0.05",
		`pbem_sweep_duration_seconds_bucket{le="0.016"} 0`,
		`pbem_sweep_duration_seconds_bucket{le="0.064"} 2`,
		"pbem_mails_sent_total 3",
		"# HELP pbem_games_set_aside ",
	} {
		if !strings.Contains(body, line) {
			t.Errorf("/metrics lacks %q", line)
		}
	}

	// Store gauges follow the store and the clock at each scrape.
	clk.Advance(time.Minute)
	const later = `
# HELP pbem_outbox_oldest_due_age_seconds How long the longest-waiting due mail has been due; 0 when none is.
# TYPE pbem_outbox_oldest_due_age_seconds gauge
pbem_outbox_oldest_due_age_seconds 150
`
	if err := testutil.GatherAndCompare(m.Registry(), strings.NewReader(later), "pbem_outbox_oldest_due_age_seconds"); err != nil {
		t.Errorf("a minute later: %v", err)
	}
}

func TestIMAPAgeCountsFromStart(t *testing.T) {
	t.Parallel()
	st := openStore(t)
	clk := &clock{now: t0}
	m := New(st, WithClock(clk.Now))
	clk.Advance(5 * time.Minute)
	const want = `
# HELP pbem_imap_last_search_age_seconds Seconds since the IMAP mailbox was last searched successfully (since start until the first search).
# TYPE pbem_imap_last_search_age_seconds gauge
pbem_imap_last_search_age_seconds 300
`
	if err := testutil.GatherAndCompare(m.Registry(), strings.NewReader(want), "pbem_imap_last_search_age_seconds"); err != nil {
		t.Fatal(err)
	}
}

func TestHealthz(t *testing.T) {
	t.Parallel()
	st := openStore(t)
	clk := &clock{now: t0}
	m := New(st, WithClock(clk.Now), WithIMAPStaleAfter(15*time.Minute), WithOutboxStuckAfter(30*time.Minute))
	h := m.Handler()

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

	expect("at start", http.StatusOK, "ok")

	// No search at all: counted from start.
	clk.Advance(15 * time.Minute)
	expect("at imap_stale_after exactly", http.StatusOK, "ok")
	clk.Advance(time.Second)
	expect("past imap_stale_after with no search", http.StatusServiceUnavailable, "imap: no successful search")

	m.Searched(clk.Now())
	expect("after a search", http.StatusOK, "ok")
	clk.Advance(16 * time.Minute)
	expect("search gone stale", http.StatusServiceUnavailable, "imap: last successful search 16m0s ago")
	m.Searched(clk.Now())
	expect("searched again", http.StatusOK, "ok")

	// A mail due, but not for long, is fine; due too long, stuck.
	enqueue(t, st, "<stuck@pbem>", clk.Now().Add(-29*time.Minute))
	expect("mail due 29m", http.StatusOK, "ok")
	clk.Advance(2 * time.Minute)
	m.Searched(clk.Now())
	expect("mail due 31m", http.StatusServiceUnavailable, "outbox: 1 due mail(s), the oldest due for 31m0s")

	// Both at once: one line each.
	clk.Advance(20 * time.Minute)
	code, body := get(t, h, "/healthz")
	if code != http.StatusServiceUnavailable || strings.Count(body, "\n") != 2 ||
		!strings.Contains(body, "imap:") || !strings.Contains(body, "outbox:") {
		t.Fatalf("both problems: status %d\n%s", code, body)
	}
}

func TestHealthzOutboxMailNotYetDue(t *testing.T) {
	t.Parallel()
	st := openStore(t)
	clk := &clock{now: t0}
	m := New(st, WithClock(clk.Now))
	m.Searched(t0)
	// Deferred after a failure: pending for long, but not due.
	enqueue(t, st, "<deferred@pbem>", t0.Add(time.Hour))
	if code, body := get(t, m.Handler(), "/healthz"); code != http.StatusOK {
		t.Fatalf("status %d\n%s", code, body)
	}
}

// TestStoreUnreadable: a store that cannot be read fails /healthz and its
// own series, but the counters are still served.
func TestStoreUnreadable(t *testing.T) {
	t.Parallel()
	st, err := store.Open(context.Background(), storetest.Database(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	m := New(st, WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	m.Sent()
	m.Searched(time.Now())

	code, body := get(t, m.Handler(), "/healthz")
	if code != http.StatusServiceUnavailable || !strings.Contains(body, "store: cannot read the outbox") {
		t.Fatalf("/healthz: status %d\n%s", code, body)
	}
	code, body = get(t, m.Handler(), "/metrics")
	if code != http.StatusOK || !strings.Contains(body, "pbem_mails_sent_total 1\n") {
		t.Fatalf("/metrics: status %d\n%s", code, body)
	}
	if strings.Contains(body, "pbem_outbox_pending ") {
		t.Errorf("/metrics shows an outbox it could not read:\n%s", body)
	}
	if !strings.Contains(logs.String(), "metrics: outbox") {
		t.Errorf("scrape error not logged: %q", logs.String())
	}
}

// TestServe: the listener answers until its context ends, then shuts down
// cleanly, logging no warning.
func TestServe(t *testing.T) {
	t.Parallel()
	st := openStore(t)
	var logs bytes.Buffer
	m := New(st, WithLogger(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelWarn}))))
	m.Searched(time.Now())

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- m.Serve(ctx, ln) }()

	resp, err := http.Get("http://" + ln.Addr().String() + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || string(body) != "ok\n" {
		t.Fatalf("/healthz: %d %q", resp.StatusCode, body)
	}
	resp, err = http.Get("http://" + ln.Addr().String() + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "pbem_outbox_pending 0\n") {
		t.Fatalf("/metrics: %d\n%s", resp.StatusCode, body)
	}

	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Serve after cancel: %v", err)
	}
	if _, err := http.Get("http://" + ln.Addr().String() + "/healthz"); err == nil {
		t.Error("the listener still answers after Serve returned")
	}
	if logs.Len() != 0 {
		t.Errorf("logged: %s", logs.String())
	}
}

// TestHealthzWithoutIMAP: with mail by LMTP only there is no mailbox to
// search, and /healthz must not fail for its want.
func TestHealthzWithoutIMAP(t *testing.T) {
	st := openStore(t)
	clk := &clock{now: t0}
	m := New(st, WithClock(clk.Now), WithIMAPStaleAfter(15*time.Minute), WithoutIMAP())
	clk.Advance(time.Hour)
	if code, body := get(t, m.Handler(), "/healthz"); code != http.StatusOK {
		t.Fatalf("LMTP only, an hour after start: status %d, want 200\n%s", code, body)
	}
}

// TestStatementCounter checks that the metrics serve the store's count
// of statements as it grows, and round trips on PostgreSQL alone.
func TestStatementCounter(t *testing.T) {
	t.Parallel()
	st := openStore(t)
	m := New(st, WithClock((&clock{now: t0}).Now))
	value := func(name string) (float64, bool) {
		t.Helper()
		mfs, err := m.Registry().Gather()
		if err != nil {
			t.Fatal(err)
		}
		for _, mf := range mfs {
			if mf.GetName() == name {
				return mf.GetMetric()[0].GetCounter().GetValue(), true
			}
		}
		return 0, false
	}
	before, ok := value("pbem_store_statements_total")
	if !ok {
		t.Fatal("no pbem_store_statements_total")
	}
	createGame(t, st)
	after, _ := value("pbem_store_statements_total")
	// A game's creation is a transaction: BEGIN, its statements, COMMIT;
	// and the gather itself reads the store (the gauges of games and the
	// outbox) before the counter's turn comes, or after.
	if after < before+3 {
		t.Errorf("pbem_store_statements_total went from %v to %v over a transaction", before, after)
	}
	if _, ok := value("pbem_store_round_trips_total"); ok != (st.Engine() == store.PostgreSQL) {
		t.Errorf("pbem_store_round_trips_total served: %v, on %s", ok, st.Engine())
	}
}
