package daemon

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/pbem/pbem/engine/games"
	"github.com/pbem/pbem/internal/lease"
	"github.com/pbem/pbem/internal/outbox"
	"github.com/pbem/pbem/internal/testlib"
	"github.com/pbem/pbem/store"
)

// nameNode is a `pbem serve` in this process for the node name tests:
// a service with the reader lease on its own handle of the database,
// taking no mail, whose outbox polls once an hour (it claims only what
// it finds as it starts).
type nameNode struct {
	name string
	st   *store.Store
	svc  *Service
	logs lockedBuffer
	held chan string // the reader lease taken
	stop context.CancelFunc
	done chan error
}

func startNameNode(t *testing.T, path, name string, ttl time.Duration) *nameNode {
	t.Helper()
	n := newNameNode(t, path, name, ttl)
	n.run(t)
	return n
}

// newNameNode makes the node without starting it: opening its store and
// templates takes long under the race detector.
func newNameNode(t *testing.T, path, name string, ttl time.Duration) *nameNode {
	t.Helper()
	n := &nameNode{name: name, held: make(chan string, 8), done: make(chan error, 1)}
	st, tmpl := openWithTemplates(t, path)
	n.st = st
	cfg := testConfig()
	cfg.Limits = unlimited
	var err error
	n.svc, err = New(cfg, st, tmpl, games.Lookup, games.Names(),
		WithLease(lease.Config{Node: name, TTL: ttl}),
		WithObserver(leaseTold{name: name, held: n.held}),
		WithLogger(slog.New(slog.NewTextHandler(&n.logs, nil))))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// run starts the node's Run, stopped when the test ends.
func (n *nameNode) run(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	n.stop = cancel
	oc := testOutbox()
	oc.Poll = time.Hour
	courier := outbox.CourierFunc(func(context.Context, string, []string, []byte) error { return nil })
	go func() { n.done <- n.svc.Run(ctx, nil, courier, oc, "@every 1h") }()
	t.Cleanup(func() {
		cancel()
		<-n.done
	})
}

// ended reports whether the node's Run has returned, and with what.
func (n *nameNode) ended() (error, bool) {
	select {
	case err := <-n.done:
		n.done <- err
		return err, true
	default:
		return nil, false
	}
}

// claimAs queues a mail and claims it for node for an hour, as node's
// outbox does with a batch it is sending; it returns the mail's id.
func claimAs(t *testing.T, st *store.Store, node, msgID string) int64 {
	t.Helper()
	ctx := context.Background()
	now := time.Now()
	var id int64
	err := st.Tx(ctx, func(tx *store.Tx) error {
		var err error
		id, _, err = tx.Enqueue(ctx, store.Outgoing{MessageID: msgID, Seat: -1, To: "ann@example.test",
			Raw: []byte("Subject: x\r\n\r\nx\r\n"), NotBefore: now.Add(-time.Second)})
		if err != nil {
			return err
		}
		got, err := tx.ClaimOutgoing(ctx, node, now, now.Add(time.Hour), 10)
		if err == nil && (len(got) != 1 || got[0].ID != id) {
			err = errors.New("the mail was not claimed")
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// queueDue queues a mail due now, claimed by nobody, and returns its id.
func queueDue(t *testing.T, st *store.Store, msgID string) int64 {
	t.Helper()
	ctx := context.Background()
	var id int64
	err := st.Tx(ctx, func(tx *store.Tx) error {
		var err error
		id, _, err = tx.Enqueue(ctx, store.Outgoing{MessageID: msgID, Seat: -1, To: "bea@example.test",
			Raw: []byte("Subject: x\r\n\r\nx\r\n"), NotBefore: time.Now().Add(-time.Second)})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// stateOf is the state of the outbox's mail id.
func stateOf(t *testing.T, st *store.Store, id int64) store.OutState {
	t.Helper()
	o, err := st.Outgoing(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return o.State
}

func claimedBy(t *testing.T, st *store.Store, id int64) string {
	t.Helper()
	o, err := st.Outgoing(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return o.ClaimedBy
}

// TestNodeNameRefusedWhileLive (issue 33, finding 6): a second node
// started under the name of a live node, on one database, refuses to
// start and says why, naming node.name; the first keeps its reader lease,
// its claims and its name. The second used to take the reader lease
// beside the first (the lease's holder is the name) and free the
// first's outbox claims as it started, so that a batch could go out
// twice.
func TestNodeNameRefusedWhileLive(t *testing.T) {
	t.Parallel()
	// Long enough for the first node's renewals to come in time on a
	// loaded machine: the second waits up to one ttl before it refuses.
	const ttl = 2 * time.Second
	path := worldDatabase(t)
	if !store.IsURL(path) {
		copyMigrated(t, path)
	}
	first := newNameNode(t, path, "web1", ttl)
	// The first node's outbox frees the claims made under its name as
	// it starts, after it took the reader lease, and then sends what is
	// due: a mail queued before it starts is sent once that is done, so
	// that the claim below is the first's own batch, not one it frees.
	warm := queueDue(t, first.st, "<warm@pbem>")
	first.run(t)
	testlib.Receive(t, first.held, "the first node to take the reader lease")
	testlib.WaitFor(t, func() bool { return stateOf(t, first.st, warm) == store.OutSent }, "the first node's outbox to send what was due as it started")
	// A batch the first node is sending.
	id := claimAs(t, first.st, "web1", "<batch@pbem>")
	ctx := context.Background()
	firstName, err := first.st.Lease(ctx, lease.NameLease("web1"))
	if err != nil {
		t.Fatal(err)
	}

	second := startNameNode(t, path, "web1", ttl)
	testlib.WaitFor(t, func() bool {
		_, ended := second.ended()
		return ended || claimedBy(t, first.st, id) != "web1"
	}, "the second node to stop, or to free the first's claim")
	err, ended := second.ended()
	var inUse *lease.NameInUseError
	switch {
	case !ended:
		t.Errorf("the second node runs under the first's name")
	case !errors.As(err, &inUse):
		t.Errorf("the second node stopped with %v, want a NameInUseError", err)
	default:
		msg := err.Error()
		for _, want := range []string{`node.name "web1"`, "in use", "its own node.name", firstName.Holder} {
			if !strings.Contains(msg, want) {
				t.Errorf("the refusal does not say %q: %s", want, msg)
			}
		}
	}
	if by := claimedBy(t, first.st, id); by != "web1" {
		t.Errorf("the first node's claim was freed (claimed by %q)", by)
	}
	if strings.Contains(second.logs.String(), "reader lease taken") {
		t.Errorf("the second node took the reader lease:\n%s", second.logs.String())
	}
	// The first goes on: it renews its name and its lease as before.
	testlib.WaitFor(t, func() bool {
		l, err := first.st.Lease(ctx, lease.NameLease("web1"))
		return err == nil && l.Holder == firstName.Holder && l.Expires.After(firstName.Expires.Add(ttl/3))
	}, "the first node to renew its name")
	if err, ended := first.ended(); ended {
		t.Errorf("the first node stopped: %v", err)
	}
	if l, err := first.st.Lease(ctx, lease.ReaderLease); err != nil || !l.HeldAt(time.Now()) || l.Holder != "web1" {
		t.Errorf("the reader lease after the refusal: %+v, %v; want web1's", l, err)
	}
	if t.Failed() {
		t.Logf("first:\n%s\nsecond:\n%s", first.logs.String(), second.logs.String())
	}
}

// TestNodeNameRestartAfterDeath: a node started again under the name of
// a node that has just died (killed right after it renewed its name:
// nothing released, the registration live for a whole ttl) waits for
// that registration to lapse, about a ttl, then starts, takes the reader
// lease and frees the claims its predecessor died with.
func TestNodeNameRestartAfterDeath(t *testing.T) {
	t.Parallel()
	const ttl = time.Second
	path := worldDatabase(t)
	if !store.IsURL(path) {
		copyMigrated(t, path)
	}
	ctx := context.Background()
	st, _ := openWithTemplates(t, path)
	again := newNameNode(t, path, "web1", ttl)
	// What the dead node left: a claimed batch, the reader lease and its
	// name, both renewed the moment before it died.
	id := claimAs(t, st, "web1", "<dying@pbem>")
	diedAt := time.Now()
	err := st.Tx(ctx, func(tx *store.Tx) error {
		if _, ok, err := tx.AcquireLease(ctx, lease.ReaderLease, "web1", diedAt, ttl); err != nil || !ok {
			return errors.Join(err, errors.New("could not take the reader lease"))
		}
		if _, ok, err := tx.AcquireLease(ctx, lease.NameLease("web1"), "host pid 2 #dead", diedAt, ttl); err != nil || !ok {
			return errors.Join(err, errors.New("could not take the name"))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}

	again.run(t)
	testlib.Receive(t, again.held, "the node started again to take the reader lease")
	took := time.Since(diedAt)
	testlib.WaitFor(t, func() bool { return claimedBy(t, again.st, id) == "" }, "the claim the dead node held to be freed")
	t.Logf("started again %s after the death (ttl %s)", took.Round(time.Millisecond), ttl)
	if took < ttl || took > 2*ttl {
		t.Errorf("the node started again %s after the death; want after its registration lapsed (%s), within about a ttl", took, ttl)
	}
	if !strings.Contains(again.logs.String(), "node name held by another instance") {
		t.Errorf("the node started again did not say it waited for its predecessor's name:\n%s", again.logs.String())
	}
}

// TestNodeNameTakenOverStops: a node whose name another instance took
// (it could not renew it for a ttl) stops, says so, and leaves the reader
// lease, now the other's, alone.
func TestNodeNameTakenOverStops(t *testing.T) {
	t.Parallel()
	const ttl = 600 * time.Millisecond
	path := worldDatabase(t)
	if !store.IsURL(path) {
		copyMigrated(t, path)
	}
	n := startNameNode(t, path, "web1", ttl)
	testlib.Receive(t, n.held, "the node to take the reader lease")
	ctx := context.Background()
	// Another instance takes the name, as one would after this node's
	// registration lapsed, and holds the reader lease under it.
	other, _ := openWithTemplates(t, path)
	mine, err := other.Lease(ctx, lease.NameLease("web1"))
	if err != nil {
		t.Fatal(err)
	}
	err = other.Tx(ctx, func(tx *store.Tx) error {
		now := time.Now()
		if _, err := tx.ReleaseLease(ctx, lease.NameLease("web1"), mine.Holder); err != nil {
			return err
		}
		if _, ok, err := tx.AcquireLease(ctx, lease.NameLease("web1"), "elsewhere pid 1 #other", now, time.Hour); err != nil || !ok {
			return errors.Join(err, errors.New("could not take the name"))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	testlib.WaitFor(t, func() bool { _, ended := n.ended(); return ended }, "the node to stop")
	err, _ = n.ended()
	var taken *lease.NameTakenError
	if !errors.As(err, &taken) || !strings.Contains(err.Error(), `node.name "web1"`) || !strings.Contains(err.Error(), "elsewhere pid 1") {
		t.Errorf("the node stopped with %v, want a NameTakenError naming the other", err)
	}
	if l, err := other.Lease(ctx, lease.ReaderLease); err != nil || l.Holder != "web1" {
		t.Errorf("the reader lease after the stop: %+v, %v; want it left to the name's new holder", l, err)
	}
	if l, err := other.Lease(ctx, lease.NameLease("web1")); err != nil || l.Holder != "elsewhere pid 1 #other" {
		t.Errorf("the name after the stop: %+v, %v; want the other's", l, err)
	}
}
