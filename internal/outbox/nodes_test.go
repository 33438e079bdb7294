package outbox

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pbem/pbem/internal/testlib"
	"github.com/pbem/pbem/mailer"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/store/storetest"
)

// Several nodes on one database (issue 27) each run an outbox, each on
// its own handle of the database as separate processes have; these
// tests count what reaches the mail server by Message-ID.

// mailServer records every delivery, in order, by Message-ID.
type mailServer struct {
	mu    sync.Mutex
	got   map[string]int
	order map[string][]string // recipient → Message-IDs as delivered
	by    map[string]string   // Message-ID → the node whose courier sent it last
}

func newMailServer() *mailServer {
	return &mailServer{got: map[string]int{}, order: map[string][]string{}, by: map[string]string{}}
}

// courier is a node's way to the server; after, if set, runs after each
// delivery.
func (m *mailServer) courier(node string, after func()) Courier {
	return CourierFunc(func(_ context.Context, _ string, to []string, raw []byte) error {
		mid := messageID(raw)
		m.mu.Lock()
		m.got[mid]++
		m.order[to[0]] = append(m.order[to[0]], mid)
		m.by[mid] = node
		m.mu.Unlock()
		if after != nil {
			after()
		}
		return nil
	})
}

func (m *mailServer) count() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for _, c := range m.got {
		n += c
	}
	return n
}

func messageID(raw []byte) string {
	for _, line := range strings.Split(string(raw), "\r\n") {
		if v, ok := strings.CutPrefix(line, "Message-Id: "); ok {
			return v
		}
		if v, ok := strings.CutPrefix(line, "Message-ID: "); ok {
			return v
		}
	}
	return ""
}

// cluster is one database with the mails a test queued, in order.
type cluster struct {
	db    string
	q     *queue // the first handle, for queueing and reading
	clock atomic.Int64
	mids  map[string][]string // recipient → Message-IDs as queued
}

func newCluster(t *testing.T) *cluster {
	t.Helper()
	db := storetest.Database(t)
	st, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	c := &cluster{db: db, q: &queue{st: st, clock: time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)}, mids: map[string][]string{}}
	c.clock.Store(c.q.clock.UnixNano())
	return c
}

func (c *cluster) now() time.Time { return time.Unix(0, c.clock.Load()).UTC() }

// add queues n mails to each recipient, round-robin.
func (c *cluster) add(t *testing.T, n int, rcpts ...string) {
	t.Helper()
	for range n {
		for _, r := range rcpts {
			c.q.add(t, "status", r)
			c.mids[r] = append(c.mids[r], fmt.Sprintf("<test%d@example.test>", c.q.n))
		}
	}
}

// node is an outbox on a handle of its own.
func (c *cluster) node(t *testing.T, name string, courier Courier, cfg Config) (*Outbox, *store.Store) {
	t.Helper()
	st, err := store.Open(context.Background(), c.db)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	o, err := New(st, "pbem@example.test", courier, cfg, WithNode(name), WithClock(c.now),
		WithLogger(slog.New(slog.NewTextHandler(&c.q.logs, nil)).With("node", name)))
	if err != nil {
		t.Fatal(err)
	}
	return o, st
}

// TestOutboxNodesSendOnce: two nodes' outboxes run at once on one
// outbox. Every mail reaches the server exactly once, and each
// recipient's mail in the order it was queued, whichever node sent it.
func TestOutboxNodesSendOnce(t *testing.T) {
	t.Parallel()
	c := newCluster(t)
	rcpts := []string{"ann@x.test", "bob@x.test", "cy@x.test", "dee@x.test", "eve@x.test"}
	c.add(t, 20, rcpts...)
	srv := newMailServer()
	cfg := testConfig()
	cfg.Batch = 3
	cfg.Poll = 5 * time.Millisecond
	ctx, cancel := context.WithCancel(context.Background())
	// Each node, once it has sent its first mail, waits for the other to
	// send one: each must claim while the other holds a batch.
	aSent, bSent := make(chan struct{}), make(chan struct{})
	var aOnce, bOnce sync.Once
	after := map[string]func(){
		"node-a": func() { aOnce.Do(func() { close(aSent); <-bSent }) },
		"node-b": func() { bOnce.Do(func() { close(bSent); <-aSent }) },
	}
	var wg sync.WaitGroup
	for _, name := range []string{"node-a", "node-b"} {
		o, _ := c.node(t, name, srv.courier(name, after[name]), cfg)
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := o.Run(ctx); !errors.Is(err, context.Canceled) {
				t.Errorf("%s: %v", name, err)
			}
		}()
	}
	testlib.WaitFor(t, func() bool {
		s, err := c.q.st.OutboxStats(context.Background(), c.now())
		return err == nil && s.Pending == 0
	}, "the outbox to be empty")
	cancel()
	wg.Wait()

	senders := map[string]int{}
	for _, r := range rcpts {
		for _, mid := range c.mids[r] {
			if n := srv.got[mid]; n != 1 {
				t.Errorf("%s reached the server %d times", mid, n)
			}
			senders[srv.by[mid]]++
		}
		if !slices.Equal(srv.order[r], c.mids[r]) {
			t.Errorf("%s got his mail in the order %v, queued %v", r, srv.order[r], c.mids[r])
		}
	}
	if senders["node-a"] == 0 || senders["node-b"] == 0 {
		t.Errorf("sent by node: %v; want both to have sent", senders)
	}
	t.Logf("sent by node: %v", senders)
}

// TestOutboxNodeDiesMidBatch: node a claims a batch, and its store can
// no longer write from its first mail on (the machine dies): it sends
// the batch and cannot mark it. Node b sends the other mails, but none a
// claimed while a's claim is live; once it lapses, b sends a's batch
// again: one batch re-sent at most, per death.
func TestOutboxNodeDiesMidBatch(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := newCluster(t)
	c.add(t, 1, "ann@x.test", "bob@x.test", "cy@x.test", "dee@x.test")
	srv := newMailServer()
	cfg := testConfig()
	cfg.Batch = 2
	cfg.SendTimeout = time.Second

	var aStore *store.Store
	died := false
	a, aStore := c.node(t, "node-a", srv.courier("node-a", func() {
		if !died {
			died = true
			aStore.FailWrites(store.ErrUnavailable) // the machine dies
		}
	}), cfg)
	b, _ := c.node(t, "node-b", srv.courier("node-b", nil), cfg)

	if _, err := a.SendDue(ctx); !store.Unavailable(err) {
		t.Fatalf("a's batch: %v, want its marks to fail", err)
	}
	if srv.count() != 2 {
		t.Fatalf("a sent %d mails before it died, want its batch of 2", srv.count())
	}
	// b, meanwhile: the mails a did not claim.
	for {
		n, err := b.SendDue(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			break
		}
	}
	if srv.count() != 4 {
		t.Fatalf("%d deliveries while a's claim is live, want 4: a's 2 and b's 2", srv.count())
	}
	for mid, n := range srv.got {
		if n != 1 {
			t.Fatalf("%s was sent %d times while a's claim was live", mid, n)
		}
	}
	// A millisecond before the claim lapses, b still leaves a's batch.
	c.clock.Add(int64(cfg.Claim() - time.Millisecond))
	if n, err := b.SendDue(ctx); n != 0 || err != nil {
		t.Fatalf("b took %d mails (%v) before a's claim lapsed", n, err)
	}
	c.clock.Add(int64(time.Millisecond))
	if n, err := b.SendDue(ctx); n != 2 || err != nil {
		t.Fatalf("b took %d mails (%v) once a's claim lapsed, want a's 2", n, err)
	}
	twice := 0
	for _, n := range srv.got {
		if n > 1 {
			twice += n - 1
		}
	}
	if twice != cfg.Batch || len(srv.got) != 4 {
		t.Fatalf("%d mails reached the server, %d of them twice; want all 4, a's batch of %d twice", len(srv.got), twice, cfg.Batch)
	}
	if s, err := c.q.st.OutboxStats(ctx, c.now()); err != nil || s.Pending != 0 {
		t.Fatalf("the outbox after the takeover: %+v %v", s, err)
	}
}

// TestOutboxReleasesUnsent: a batch that stops early (a stop, the mail
// server unreachable, a claim running out) releases the claims of the
// mail it did not send: another node sends it at once, not when the
// claim lapses.
func TestOutboxReleasesUnsent(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, tt := range []struct {
		name string
		// courier of node a, given the clock to move and a stop.
		courier func(c *cluster, stop context.CancelFunc) Courier
	}{
		{"stopped", func(_ *cluster, stop context.CancelFunc) Courier {
			return CourierFunc(func(context.Context, string, []string, []byte) error { stop(); return nil })
		}},
		{"unreachable", func(*cluster, context.CancelFunc) Courier {
			return CourierFunc(func(context.Context, string, []string, []byte) error {
				return &mailer.SendError{Op: "connect", Err: errors.New("connection refused")}
			})
		}},
		{"claim running out", func(c *cluster, _ context.CancelFunc) Courier {
			// A slow server: the first mail took most of the claim.
			return CourierFunc(func(context.Context, string, []string, []byte) error {
				c.clock.Add(int64(time.Second + time.Millisecond))
				return nil
			})
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := newCluster(t)
			c.add(t, 1, "ann@x.test", "bob@x.test", "cy@x.test")
			cfg := testConfig()
			cfg.SendTimeout = time.Second
			actx, stop := context.WithCancel(ctx)
			defer stop()
			a, _ := c.node(t, "node-a", tt.courier(c, stop), cfg)
			a.SendDue(actx)
			srv := newMailServer()
			b, _ := c.node(t, "node-b", srv.courier("node-b", nil), cfg)
			if _, err := b.SendDue(ctx); err != nil {
				t.Fatal(err)
			}
			if got := srv.count(); got < 2 {
				t.Fatalf("b sent %d mails at once, want the 2 or 3 a did not", got)
			}
		})
	}
}

// TestOutboxNoClaimWhileFull: a store that cannot write takes no claim,
// so nothing goes out that could not be marked.
func TestOutboxNoClaimWhileFull(t *testing.T) {
	t.Parallel()
	c := newCluster(t)
	c.add(t, 1, "ann@x.test")
	srv := newMailServer()
	o, st := c.node(t, "node-a", srv.courier("node-a", nil), testConfig())
	st.FailWrites(store.ErrUnavailable)
	if _, err := o.SendDue(context.Background()); !store.Unavailable(err) {
		t.Fatalf("SendDue on a full disk: %v", err)
	}
	if srv.count() != 0 {
		t.Fatalf("%d mails went out that could not be claimed", srv.count())
	}
}

// TestOutboxRestartTakesBackClaims: a node dies holding a claimed batch
// and is started again under its name. As it starts, its outbox releases
// its old claims, and sends the batch at once, without waiting for the
// claim to lapse (the clock here stands still).
func TestOutboxRestartTakesBackClaims(t *testing.T) {
	t.Parallel()
	c := newCluster(t)
	c.add(t, 1, "ann@x.test", "bob@x.test")
	srv := newMailServer()
	var first *store.Store
	a, first := c.node(t, "node-a", srv.courier("node-a", func() { first.FailWrites(store.ErrUnavailable) }), testConfig())
	if _, err := a.SendDue(context.Background()); !store.Unavailable(err) {
		t.Fatalf("the batch before the death: %v", err)
	}
	other, _ := c.node(t, "node-b", srv.courier("node-b", nil), testConfig())
	if n, err := other.SendDue(context.Background()); n != 0 || err != nil {
		t.Fatalf("another node took %d mails (%v) of the live claim", n, err)
	}

	again, _ := c.node(t, "node-a", srv.courier("node-a", nil), testConfig())
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- again.Run(ctx) }()
	testlib.WaitFor(t, func() bool {
		s, err := c.q.st.OutboxStats(context.Background(), c.now())
		return err == nil && s.Pending == 0
	}, "node-a, started again, to send the batch it died with")
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatal(err)
	}
	if !strings.Contains(c.q.logs.String(), "mail this node claimed before it stopped is free again") {
		t.Errorf("the start did not say it freed the old claims:\n%s", c.q.logs.String())
	}
}
