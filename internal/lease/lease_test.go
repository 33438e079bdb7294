package lease

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pbem/pbem/internal/testlib"
	"github.com/pbem/pbem/store"
)

// leaseStage is what the nodes of a lease test share: which node's work
// runs, and whether two ever ran at once.
type leaseStage struct {
	mu       sync.Mutex
	active   []string // the nodes whose work runs now
	overlaps []string // the moments two ran at once
	starts   map[string]int
}

func (g *leaseStage) begin(node string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.active = append(g.active, node)
	g.starts[node]++
	if len(g.active) > 1 {
		g.overlaps = append(g.overlaps, strings.Join(g.active, " and "))
	}
}

func (g *leaseStage) end(node string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for i, n := range g.active {
		if n == node {
			g.active = append(g.active[:i], g.active[i+1:]...)
			break
		}
	}
}

// working is the node whose work runs, "" for none.
func (g *leaseStage) working() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return strings.Join(g.active, " and ")
}

// lockedBuffer is a log many goroutines write to.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// openStore opens the database at path, closed when the test ends.
func openStore(t *testing.T, path string) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// leaseNode is one node: a Node on its own handle of the shared
// database file, as another process would have, whose work under the
// lease is a part that says when it runs.
type leaseNode struct {
	name string
	st   *store.Store
	node *Node
	logs lockedBuffer
	stop context.CancelFunc
	done chan error
}

func newLeaseNode(t *testing.T, path, name string, ttl time.Duration) *leaseNode {
	t.Helper()
	n := &leaseNode{name: name, st: openStore(t, path)}
	n.node = NewNode(n.st, &Config{Node: name, TTL: ttl}, slog.New(slog.NewTextHandler(&n.logs, nil)), nil)
	return n
}

// run starts the node's lease loop with its work.
func (n *leaseNode) run(g *leaseStage) {
	ctx, cancel := context.WithCancel(context.Background())
	n.stop, n.done = cancel, make(chan error, 1)
	work := NewWork(n.node.log)
	work.Add("reader", func(ctx context.Context) error {
		g.begin(n.name)
		<-ctx.Done()
		g.end(n.name)
		return ctx.Err()
	})
	go func() { n.done <- n.node.Hold(ctx, work) }()
}

// halt stops the node as a SIGTERM does, and waits for it.
func (n *leaseNode) halt(t *testing.T) {
	t.Helper()
	n.stop()
	if err := <-n.done; !errors.Is(err, context.Canceled) {
		t.Errorf("%s stopped with %v", n.name, err)
	}
}

// TestReaderLeaseTakeover: two nodes on one database file. One works at
// a time: the first to take the lease; the other waits, and takes over
// when the holder's database writes fail (it cannot renew: it stops its
// work at once, before the lease expires), when the holder's database
// stops answering (its work stops on time, whatever the database does),
// and at once when the holder stops and releases it. Two never work at
// once.
func TestReaderLeaseTakeover(t *testing.T) {
	const ttl = 600 * time.Millisecond
	path := filepath.Join(t.TempDir(), "pbem.db")
	g := &leaseStage{starts: map[string]int{}}
	a := newLeaseNode(t, path, "node-a", ttl)
	b := newLeaseNode(t, path, "node-b", ttl)
	waitWorking := func(node, what string) time.Duration {
		t.Helper()
		began := time.Now()
		testlib.WaitFor(t, func() bool { return g.working() == node }, what)
		return time.Since(began)
	}

	a.run(g)
	waitWorking("node-a", "node-a to take the free lease and work")
	b.run(g)
	testlib.WaitFor(t, func() bool { return strings.Contains(b.logs.String(), "reader lease held by another node") }, "node-b to find the lease held")
	if w := g.working(); w != "node-a" {
		t.Fatalf("while node-a holds the lease, %q works", w)
	}

	// node-a's writes fail: it cannot renew, and stops.
	a.st.FailWrites(store.ErrUnavailable)
	took := waitWorking("node-b", "node-b to take over from node-a, whose renewals fail")
	t.Logf("node-b took over %s after node-a's writes began to fail (ttl %s)", took.Round(time.Millisecond), ttl)
	a.st.FailWrites(nil)

	// node-b's database stops answering: another process holds its
	// write lock, and a renewal waits for it. node-b's work stops on
	// time all the same, and no node works until the lock is let go.
	third, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer third.Close()
	locked, unlock := make(chan struct{}), make(chan struct{})
	held := make(chan error, 1)
	go func() {
		held <- third.Tx(context.Background(), func(*store.Tx) error {
			close(locked)
			<-unlock
			return nil
		})
	}()
	<-locked
	lockedAt := time.Now()
	waitWorking("", "node-b to stop its work while its database does not answer")
	t.Logf("node-b stopped its work %s after the database stopped answering (ttl %s)", time.Since(lockedAt).Round(time.Millisecond), ttl)
	close(unlock)
	if err := <-held; err != nil {
		t.Fatal(err)
	}
	testlib.WaitFor(t, func() bool { return g.working() != "" }, "a node to work again once the database answers")

	// The holder stops cleanly: it releases the lease, and the other
	// takes it at its next try, within a third of the ttl.
	holder, other := a, b
	if g.working() == "node-b" {
		holder, other = b, a
	}
	holder.halt(t)
	took = waitWorking(other.name, other.name+" to take the lease "+holder.name+" released")
	t.Logf("%s took over %s after %s stopped and released the lease", other.name, took.Round(time.Millisecond), holder.name)
	other.halt(t)
	if _, err := a.st.Lease(context.Background(), ReaderLease); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("after both nodes stopped, the lease is still held: %v", err)
	}

	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.overlaps) > 0 {
		t.Errorf("two nodes worked at once: %v", g.overlaps)
	}
	if g.starts["node-a"] < 1 || g.starts["node-b"] < 1 || g.starts["node-a"]+g.starts["node-b"] < 4 {
		t.Errorf("the work started %v times: the test wants every takeover", g.starts)
	}
	if t.Failed() {
		t.Logf("node-a's log:\n%s\nnode-b's log:\n%s", a.logs.String(), b.logs.String())
	}
}

// TestReaderLeaseRestart: a node started again under the same name takes
// back at once the lease it held when it died, rather than waiting for
// it to expire; another name waits. (The ttl is an hour: the other
// node tries every 20 minutes, and must not have taken it.)
func TestReaderLeaseRestart(t *testing.T) {
	const ttl = time.Hour // a wait for its expiry would never end
	path := filepath.Join(t.TempDir(), "pbem.db")
	g := &leaseStage{starts: map[string]int{}}
	first := newLeaseNode(t, path, "node-a", ttl)
	first.run(g)
	testlib.WaitFor(t, func() bool { return g.working() == "node-a" }, "node-a to work")
	// A death: the work stops, nothing is released.
	first.st.FailWrites(errors.New("dead"))
	first.stop()
	<-first.done
	if l, err := first.st.Lease(context.Background(), ReaderLease); err != nil || l.Holder != "node-a" {
		t.Fatalf("the dead node's lease: %+v, %v", l, err)
	}

	other := newLeaseNode(t, path, "node-b", ttl)
	other.run(g)
	testlib.WaitFor(t, func() bool { return strings.Contains(other.logs.String(), "reader lease held by another node") }, "node-b to find the lease held")
	again := newLeaseNode(t, path, "node-a", ttl)
	again.run(g)
	testlib.WaitFor(t, func() bool { return g.working() == "node-a" }, "node-a, started again, to take its lease back")
	again.halt(t)
	other.halt(t)
	if len(g.overlaps) > 0 {
		t.Errorf("two nodes worked at once: %v", g.overlaps)
	}
}

// TestReaderLeaseWorkFails: work that fails by itself stops Hold, as it
// does on a node alone, and the lease is released.
func TestReaderLeaseWorkFails(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pbem.db")
	boom := fmt.Errorf("the outbox cannot go on")
	for _, n := range []*Node{
		newLeaseNode(t, path, "node-a", time.Minute).node,
		NewNode(openStore(t, path), nil, slog.New(slog.DiscardHandler), nil),
	} {
		work := NewWork(n.log)
		work.Add("outbox", func(context.Context) error { return boom })
		if err := n.Hold(context.Background(), work); !errors.Is(err, boom) {
			t.Fatalf("Hold = %v, want %v", err, boom)
		}
	}
	if _, err := openStore(t, path).Lease(context.Background(), ReaderLease); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("after the work failed, the lease is still held: %v", err)
	}
}

// TestLeaseWaitingNodeSaysWhatItRuns: the log line of a node that waits
// for the lease names LMTP only when the node takes mail by it (an
// IMAP-only node used to say it served LMTP).
func TestLeaseWaitingNodeSaysWhatItRuns(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		lmtp bool
		want bool
	}{{lmtp: false, want: false}, {lmtp: true, want: true}} {
		w := &Work{LMTP: tc.lmtp}
		line := w.meanwhile()
		if got := strings.Contains(line, "LMTP"); got != tc.want {
			t.Errorf("lmtp %t: %q names LMTP: %t, want %t", tc.lmtp, line, got, tc.want)
		}
		if !strings.Contains(line, "outbox") || !strings.Contains(line, "sweeps") {
			t.Errorf("lmtp %t: %q leaves out the outbox or the sweeps, which every node runs", tc.lmtp, line)
		}
	}
}
