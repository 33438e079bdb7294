package daemon

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pbem/pbem/engine/games"
	"github.com/pbem/pbem/internal/config"
	"github.com/pbem/pbem/internal/lease"
	"github.com/pbem/pbem/internal/outbox"
	"github.com/pbem/pbem/internal/testlib"
	"github.com/pbem/pbem/mailer"
	"github.com/pbem/pbem/store"
)

// Several nodes on one database (issue 27) all sweep: each sweep item's
// transaction checks again that the item is still due, so that a node
// working from a list another node has already worked does nothing. The
// tests below give two services on one database the same list of due
// items, as two nodes that read it before either committed, and count
// what each did.

// twoNodes is two worlds, each its own service on its own handle of one
// database, with one clock.
func twoNodes(t *testing.T) (a, b *world) {
	t.Helper()
	path := worldDatabase(t)
	limits := func(c *Config) { c.Limits = unlimited }
	return newWorldAt(t, path, limits), newWorldAt(t, path, limits)
}

// outboxRows counts the outbox's rows.
func outboxRows(t *testing.T, w *world) int {
	t.Helper()
	out, err := w.st.AllOutgoing(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return len(out)
}

// TestSweepNodesMoveOnce: two nodes find the same deadlines passed; the
// first makes the default moves, the second, working from the same list,
// makes none and queues no mail.
func TestSweepNodesMoveOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	a, b := twoNodes(t)
	_, id := newZonedGame(t, a, a.clock, "")
	a.clock = a.clock.Add(a.svc.cfg.TurnTime + time.Minute)
	b.clock = a.clock
	dueA, errA := a.st.DueDeadlines(ctx, a.clock)
	dueB, errB := b.st.DueDeadlines(ctx, b.clock)
	if errA != nil || errB != nil || len(dueA) == 0 || len(dueA) != len(dueB) {
		t.Fatalf("due deadlines: %v %v and %v %v; want the same, some", dueA, errA, dueB, errB)
	}
	moves := a.moves(id)
	made, _, err := a.svc.Sweeper().MoveDue(ctx, dueA, map[string]bool{})
	if err != nil || made == 0 {
		t.Fatalf("node a made %d moves: %v", made, err)
	}
	if got := a.moves(id) - moves; got != made {
		t.Fatalf("node a made %d moves, the log grew by %d", made, got)
	}
	moves, rows := a.moves(id), outboxRows(t, a)
	again, _, err := b.svc.Sweeper().MoveDue(ctx, dueB, map[string]bool{})
	if err != nil || again != 0 {
		t.Fatalf("node b, from the same list, made %d moves (%v), want none", again, err)
	}
	if a.moves(id) != moves || outboxRows(t, a) != rows {
		t.Fatalf("node b's sweep changed the game: %d moves, %d mails; was %d, %d", a.moves(id), outboxRows(t, a), moves, rows)
	}
}

// TestSweepNodesRemindOnce: two nodes find the same reminder steps due;
// the reminders are written once.
func TestSweepNodesRemindOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	a, b := twoNodes(t)
	newZonedGame(t, a, a.clock, "")
	// The last step, 12 hours before the deadline, is due for everyone.
	a.clock = a.clock.Add(a.svc.cfg.TurnTime - 11*time.Hour)
	b.clock = a.clock
	dueA, errA := a.st.DueReminders(ctx, a.clock)
	dueB, errB := b.st.DueReminders(ctx, b.clock)
	if errA != nil || errB != nil || len(dueA) == 0 || len(dueA) != len(dueB) {
		t.Fatalf("due reminders: %v %v and %v %v; want the same, some", dueA, errA, dueB, errB)
	}
	rows := outboxRows(t, a)
	sent, err := a.svc.Sweeper().RemindDue(ctx, dueA)
	if err != nil || sent == 0 {
		t.Fatalf("node a sent %d reminders: %v", sent, err)
	}
	if got := outboxRows(t, a) - rows; got != sent {
		t.Fatalf("node a sent %d reminders, queued %d mails", sent, got)
	}
	rows = outboxRows(t, a)
	if again, err := b.svc.Sweeper().RemindDue(ctx, dueB); err != nil || again != 0 {
		t.Fatalf("node b, from the same list, sent %d reminders (%v), want none", again, err)
	}
	if outboxRows(t, a) != rows {
		t.Fatalf("node b's sweep queued %d mails", outboxRows(t, a)-rows)
	}
}

// TestSweepNodesDigestOnce: two nodes find the same digest due; it is
// written once.
func TestSweepNodesDigestOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	a, b := twoNodes(t)
	newZonedGame(t, a, a.clock, "")
	a.clock = a.clock.Add(24 * time.Hour)
	b.clock = a.clock
	dueA, errA := a.st.DueDigests(ctx, a.clock)
	dueB, errB := b.st.DueDigests(ctx, b.clock)
	if errA != nil || errB != nil || len(dueA) != 1 || len(dueB) != 1 {
		t.Fatalf("due digests: %v %v and %v %v; want bob's, in both", dueA, errA, dueB, errB)
	}
	rows := outboxRows(t, a)
	if sent, err := a.svc.Sweeper().DigestDue(ctx, dueA); err != nil || sent != 1 || outboxRows(t, a) != rows+1 {
		t.Fatalf("node a wrote %d digests (%v), %d mails; want 1", sent, err, outboxRows(t, a)-rows)
	}
	if again, err := b.svc.Sweeper().DigestDue(ctx, dueB); err != nil || again != 0 || outboxRows(t, a) != rows+1 {
		t.Fatalf("node b, from the same list, wrote %d digests (%v), want none", again, err)
	}
}

// TestSweepNodesAtOnce: two nodes sweep the same passed deadlines at the
// same time, the whole sweep each, and then until nothing is due; the
// game's log is that of one sweep: no default move is made twice.
func TestSweepNodesAtOnce(t *testing.T) {
	t.Parallel()
	a, b := twoNodes(t)
	_, id := newZonedGame(t, a, a.clock, "")
	a.clock = a.clock.Add(a.svc.cfg.TurnTime + time.Minute)
	b.clock = a.clock
	moves := a.moves(id)
	var wg sync.WaitGroup
	made := make([]int, 2)
	for i, w := range []*world{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n, err := w.svc.Sweeper().SweepDeadlines(context.Background())
			if err != nil {
				t.Errorf("node %d: %v", i, err)
			}
			made[i] = n
		}()
	}
	wg.Wait()
	if made[0]+made[1] == 0 || a.moves(id)-moves != made[0]+made[1] {
		t.Fatalf("the nodes made %v moves, the log grew by %d", made, a.moves(id)-moves)
	}
	// A node leaves a game the other holds to its next sweep (it is
	// busy, not lost): sweeping on until nothing is due, the two make
	// what one makes, and never a move twice.
	for round := 0; ; round++ {
		if round > 10 {
			t.Fatal("the nodes still find deadlines due after 10 more sweeps")
		}
		more := 0
		for i, w := range []*world{a, b} {
			n, err := w.svc.Sweeper().SweepDeadlines(context.Background())
			if err != nil {
				t.Fatalf("node %d: %v", i, err)
			}
			made[i] += n
			more += n
		}
		if more == 0 {
			break
		}
	}
	if a.moves(id)-moves != made[0]+made[1] {
		t.Fatalf("the nodes made %v moves, the log grew by %d", made, a.moves(id)-moves)
	}
	// One sweep alone, on a copy of the start, makes as many.
	c := newWorldConfig(t, func(c *Config) { c.Limits = unlimited })
	_, cid := newZonedGame(t, c, c.clock, "")
	c.clock = a.clock
	cmoves := c.moves(cid)
	alone, err := c.svc.Sweeper().SweepDeadlines(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if alone != made[0]+made[1] || c.moves(cid)-cmoves != alone {
		t.Fatalf("two nodes at once made %v moves, one node alone %d", made, alone)
	}
}

// TestLMTPNonHolderSends: two nodes with the reader lease, both taking
// mail by LMTP. A mail delivered to the node that does not hold the
// lease is answered by that node's own outbox, at once: the outboxes
// poll once an hour here, so only the node's own commit wakes one, and
// the holder never sees it.
func TestLMTPNonHolderSends(t *testing.T) {
	t.Parallel()
	path := worldDatabase(t)
	if !store.IsURL(path) {
		copyMigrated(t, path)
	}
	type node struct {
		name string
		svc  *Service
		addr string
		logs lockedBuffer
	}
	var mu sync.Mutex
	got := map[string][]string{} // node → the recipients of what it sent
	held := make(chan string, 4)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	defer func() {
		cancel()
		wg.Wait()
	}()
	start := func(name string) *node {
		n := &node{name: name}
		st, r := openWithTemplates(t, path)
		var err error
		cfg := testConfig()
		cfg.Limits = unlimited
		n.svc, err = New(cfg, st, r, games.Lookup, games.Names(),
			WithLease(lease.Config{Node: name, TTL: time.Hour}),
			WithObserver(leaseTold{name: name, held: held}),
			WithLogger(slog.New(slog.NewTextHandler(&n.logs, nil))))
		if err != nil {
			t.Fatal(err)
		}
		c := config.Default()
		c.Service.Address = "pbem@example.test"
		c.LMTP.Addr = "127.0.0.1:0"
		srv, err := mailer.NewLMTPServer(lmtpFrom(c, n.svc))
		if err != nil {
			t.Fatal(err)
		}
		n.addr = srv.Addr()
		courier := outbox.CourierFunc(func(_ context.Context, _ string, to []string, _ []byte) error {
			mu.Lock()
			defer mu.Unlock()
			got[name] = append(got[name], to[0])
			return nil
		})
		oc := testOutbox()
		oc.Poll = time.Hour
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := n.svc.Run(ctx, []Inbox{srv}, courier, oc, "@every 1h"); err != nil && ctx.Err() == nil {
				t.Errorf("%s: %v", name, err)
			}
		}()
		return n
	}
	holder := start("node-a")
	if h := testlib.Receive(t, held, "node-a to take the lease"); h != "node-a" {
		t.Fatalf("%s took the lease first", h)
	}
	other := start("node-b")
	testlib.WaitFor(t, func() bool {
		return strings.Contains(other.logs.String(), "reader lease held by another node")
	}, "node-b to find the lease held")

	lw := &lmtpWorld{world: &world{t: t}, addr: other.addr}
	for i, p := range []string{"ann@x.test", "bob@x.test"} {
		raw := rawMail(p, "pbem@example.test", fmt.Sprintf("<nonholder%d@x.test>", i), "help")
		if res := lw.deliver(p, []string{"pbem@example.test"}, raw); code(res["pbem@example.test"]) != 250 {
			t.Fatalf("LMTP to node-b: %v", res)
		}
		testlib.WaitFor(t, func() bool {
			mu.Lock()
			defer mu.Unlock()
			return len(got["node-b"]) == i+1
		}, fmt.Sprintf("node-b to send the answer to %s", p))
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got["node-a"]) != 0 || strings.Join(got["node-b"], " ") != "ann@x.test bob@x.test" {
		t.Errorf("sent: %v; want node-b's answers to ann and bob, from node-b", got)
	}
	_ = holder
}

// leaseTold reports the node that took the reader lease.
type leaseTold struct {
	nopObserver
	name string
	held chan<- string
}

func (o leaseTold) ReaderLeaseHeld(held bool) {
	if held {
		o.held <- o.name
	}
}
