// Package lease is how the nodes (pbem serve processes) on one database
// share it: each holds its node name (name.go), and one at a time holds
// the reader lease and does the holder's work, which it is handed as
// functions (Work). It knows nothing of the turn loop: the daemon says
// what its parts are, and the lease says when they run.
package lease

// Several nodes may share one database. Mail handed to a node by LMTP is
// taken by whichever node the mail server chose, and the web pages are
// served by all. The outbox and the sweeps (deadlines, reminders,
// digests, bot moves, undo lapses, returns from vacation) run on every
// node too: each node's outbox claims the mail it sends
// (store.ClaimOutgoing), so no two send the same mail, and wakes on its
// own node's commits, so an answer goes out from the node that took the
// mail; each sweep item's transaction checks again that the item is
// still due, so two nodes sweeping at once do it once.
//
// What runs on one node at a time is the IMAP reader and retention: the
// node that holds the reader lease, a row of the store with a holder and
// an expiry (store.AcquireLease), as River's leader election does. One
// reader keeps the mailbox's cursor simple (two would fetch the same
// mail, to be applied once but read twice); one deleter suffices.
//
// The holder renews the lease every ttl/3. A node that does not hold it
// tries to take it at the same pace, and takes it once its holder has
// released it (a clean stop) or let it expire (a crash). A holder that
// cannot renew stops its work at once, and at the latest 2/3 of a ttl
// after the start of its last successful renewal, whatever the database
// does meanwhile: a third of the ttl before another node may take the
// lease, for its work to wind down and for the nodes' clocks to differ.
//
// The lease is not what applies each mail once: the IMAP cursor and each
// mail's Message-ID are in the database, and the transaction that applies
// a mail checks them, so even two readers at once would apply every mail
// once, and a new holder starts after the last mail applied. Nor is it
// what sends each mail once: the claims are. A node killed mid-batch
// leaves the mail it had claimed to the others once the claim lapses
// (outbox.Config.Claim, 2m10s by default), and sends again at most the
// one batch it had sent and not yet marked (docs/operations.md, "Several
// nodes on one database").

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/pbem/pbem/store"
)

// ReaderLease is the name of the lease whose holder reads the mailbox and
// runs retention.
const ReaderLease = "reader"

// Config is how a node takes part in the reader lease.
type Config struct {
	// Node names this node; it must be unique among the nodes running
	// on one database. A node started again under the same name takes
	// back at once the lease it held when it stopped.
	Node string
	// TTL is how long the lease lasts once taken or renewed; the holder
	// renews it every TTL/3.
	TTL time.Duration
}

// DefaultNodeName is the node name of a process given none: its host's
// name and its process id, unique among the processes of a host.
func DefaultNodeName() string {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "localhost"
	}
	return fmt.Sprintf("%s:%d", host, os.Getpid())
}

func (c Config) check() error {
	if c.Node == "" {
		return errors.New("lease: the reader lease needs a node name")
	}
	if c.TTL < 3*time.Millisecond {
		return fmt.Errorf("lease: the reader lease's ttl %s is too short", c.TTL)
	}
	return nil
}

// Observer is told when this node takes or loses the reader lease. Its
// method must not block.
type Observer interface {
	ReaderLeaseHeld(held bool)
}

// Node is one process's place among the nodes on its database: its
// name, its hold on that name, and its part in the reader lease. A Node
// made without a Config is alone on its database: it holds no name and
// does the holder's work at once.
type Node struct {
	st   *store.Store
	cfg  *Config // nil: alone
	log  *slog.Logger
	obs  Observer // nil: none
	node string   // the name: cfg.Node, or DefaultNodeName
	name *nameHold
}

// NewNode makes this process's node on st: with cfg, it takes part in
// the reader lease under cfg.Node; with nil, it is alone on st, under
// DefaultNodeName. obs may be nil.
func NewNode(st *store.Store, cfg *Config, log *slog.Logger, obs Observer) *Node {
	n := &Node{st: st, log: log, obs: obs, node: DefaultNodeName()}
	if cfg != nil {
		c := *cfg
		n.cfg, n.node = &c, c.Node
	}
	return n
}

// Name is the name this node goes by among the nodes on its database.
func (n *Node) Name() string { return n.node }

// Work is the work only the lease's holder does (the IMAP reader and
// retention): parts that run together until the context ends or one of
// them fails.
type Work struct {
	// LMTP says whether this node also takes mail by LMTP, for the log
	// line that says what a node without the lease does meanwhile.
	LMTP  bool
	log   *slog.Logger
	names []string
	parts []func(ctx context.Context) error
}

// NewWork is holder's work with no parts yet, logging a part that stops
// to log.
func NewWork(log *slog.Logger) *Work { return &Work{log: log} }

// meanwhile says what a node that does not hold the lease does: only
// what it really runs, so that an IMAP-only node does not claim to take
// mail by LMTP.
func (w *Work) meanwhile() string {
	if w.LMTP {
		return "this node takes mail by LMTP, sends its outbox and runs the sweeps, and waits to take over the mailbox and retention"
	}
	return "this node sends its outbox and runs the sweeps, and waits to take over the mailbox and retention"
}

// Add adds a part, named in the log line if it stops.
func (w *Work) Add(name string, part func(ctx context.Context) error) {
	w.names = append(w.names, name)
	w.parts = append(w.parts, part)
}

// run runs the parts until ctx is done, or one fails: then it stops the
// others and returns that part's error once all have returned.
func (w *Work) run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	errs := make(chan error, len(w.parts))
	for i, part := range w.parts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := part(ctx); err != nil && !errors.Is(err, context.Canceled) {
				w.log.Error("stopped", "part", w.names[i], "err", err)
				errs <- err
				cancel()
			}
		}()
	}
	wg.Wait()
	select {
	case err := <-errs:
		return err
	default:
		return ctx.Err()
	}
}

// Hold runs w: at once on a node alone, else whenever this node holds
// the reader lease, until ctx is done or the work fails.
func (n *Node) Hold(ctx context.Context, w *Work) error {
	if n.cfg == nil {
		return w.run(ctx)
	}
	if err := n.cfg.check(); err != nil {
		return err
	}
	every := n.cfg.TTL / 3
	h := &holding{n: n, w: w, l: *n.cfg, every: every, hold: n.cfg.TTL - every}
	h.tell(false)
	failed := h.loop(ctx)
	if err := h.release(ctx); failed == nil {
		failed = err
	}
	if failed != nil {
		return failed
	}
	return ctx.Err()
}

// holding is the state of one node's lease loop: whether it holds the
// lease, and its work while it does.
type holding struct {
	n     *Node
	w     *Work
	l     Config
	every time.Duration // between attempts: ttl/3
	hold  time.Duration // how long the work goes on after a renewal began

	held    bool
	wctx    context.Context // the work's, while held
	stop    context.CancelFunc
	stopper *time.Timer // stops the work when no renewal came in time
	done    chan error  // the work's end
	other   string      // the holder last seen, when not this node
	lastErr string      // the last failure logged
}

func (h *holding) tell(held bool) {
	if h.n.obs != nil {
		h.n.obs.ReaderLeaseHeld(held)
	}
}

// loop takes and renews the lease until ctx is done or the work fails
// by itself, and returns that failure.
func (h *holding) loop(ctx context.Context) error {
	for {
		began := time.Now()
		lease, ok, err := h.attempt(ctx, began)
		if ctx.Err() != nil {
			return nil
		}
		next, failed := h.after(ctx, began, lease, ok, err)
		if failed != nil {
			return failed
		}
		wait := time.NewTimer(time.Until(next))
		select {
		case <-ctx.Done():
		case <-wait.C:
		case err := <-h.done:
			h.done <- err // for end, or the release
			if failed := h.workEnded(ctx, err); failed != nil {
				return failed
			}
		}
		wait.Stop()
		if ctx.Err() != nil {
			return nil
		}
	}
}

// attempt takes or renews the lease. It never outlasts a third of the
// ttl: a database that does not answer must not keep the work going.
func (h *holding) attempt(ctx context.Context, now time.Time) (lease store.Lease, ok bool, err error) {
	actx, cancel := context.WithTimeout(ctx, h.every)
	defer cancel()
	err = h.n.st.Tx(actx, func(tx *store.Tx) (err error) {
		lease, ok, err = tx.AcquireLease(actx, ReaderLease, h.l.Node, now, h.l.TTL)
		return err
	})
	return lease, ok, err
}

// after acts on an attempt begun at began, and says when to make the
// next one; or returns the work's own failure.
func (h *holding) after(ctx context.Context, began time.Time, lease store.Lease, ok bool, err error) (time.Time, error) {
	log := h.n.log
	next := began.Add(h.every)
	switch {
	case err != nil:
		if msg := err.Error(); msg != h.lastErr {
			log.Warn("reader lease: cannot reach the database; will try again", "node", h.l.Node, "err", err, "every", h.every)
			h.lastErr = msg
		}
		if h.held {
			return next, h.end("the renewal failed")
		}
	case !ok:
		h.lastErr = ""
		if h.held {
			if err := h.end("another node holds it: " + lease.Holder); err != nil {
				return next, err
			}
		}
		if lease.Holder != h.other {
			h.other = lease.Holder
			log.Info("reader lease held by another node: "+h.w.meanwhile(),
				"node", h.l.Node, "holder", lease.Holder, "until", lease.Expires)
		}
		// Try again as soon as it expires, rather than up to a third
		// of a ttl later.
		if at := lease.Expires.Add(time.Millisecond); at.Before(next) {
			next = at
		}
	case h.held && h.wctx.Err() != nil:
		// The renewal came, but too late: the work was stopped
		// meanwhile. Let it end, then start it again.
		if err := h.end("the renewal came too late"); err != nil {
			return next, err
		}
		h.start(ctx, began.Add(h.hold))
	case !h.held:
		h.lastErr, h.other = "", ""
		h.start(ctx, began.Add(h.hold))
	default:
		h.lastErr = ""
		h.stopper.Reset(time.Until(began.Add(h.hold)))
	}
	return next, nil
}

// start starts the work under ctx, to be stopped at until unless
// renewed.
func (h *holding) start(ctx context.Context, until time.Time) {
	h.held = true
	h.wctx, h.stop = context.WithCancel(ctx)
	h.stopper = time.AfterFunc(time.Until(until), h.stop)
	h.done = make(chan error, 1)
	go func(ctx context.Context) { h.done <- h.w.run(ctx) }(h.wctx)
	h.tell(true)
	h.n.log.Info("reader lease taken: this node reads the mailbox and runs retention", "node", h.l.Node, "ttl", h.l.TTL)
}

// end stops the work, waits for it, and returns the error Hold must
// stop for: one the work made by itself.
func (h *holding) end(why string) error {
	h.stopper.Stop()
	h.stop()
	err := <-h.done
	h.held = false
	h.tell(false)
	if err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	h.n.log.Warn("reader lease lost: the mailbox reader and retention stopped", "node", h.l.Node, "why", why)
	return nil
}

// workEnded acts on the work's end, err, seen before any stop of the
// loop's: pbem stops, the work failed (returned), or the stopper ended
// it because no renewal came in time.
func (h *holding) workEnded(ctx context.Context, err error) error {
	switch {
	case ctx.Err() != nil:
		return nil // the release stops the rest
	case h.wctx.Err() == nil:
		if err == nil {
			err = errors.New("lease: the work under the reader lease stopped by itself")
		}
		return err
	default:
		return h.end(fmt.Sprintf("not renewed within %s", h.hold))
	}
}

// release stops the work if it runs and hands the lease over at once,
// rather than at its expiry; it returns the work's own failure, if any.
func (h *holding) release(ctx context.Context) error {
	if !h.held {
		return nil
	}
	h.stopper.Stop()
	h.stop()
	var failed error
	if err := <-h.done; err != nil && !errors.Is(err, context.Canceled) {
		failed = err
	}
	h.held = false
	h.tell(false)
	if h.n.nameLost() {
		// Another instance has this node's name, and with it the
		// lease: releasing it would take it from that node.
		return failed
	}
	// A stop must not cut the release short.
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), h.every)
	defer cancel()
	err := h.n.st.Tx(rctx, func(tx *store.Tx) error {
		_, err := tx.ReleaseLease(rctx, ReaderLease, h.l.Node)
		return err
	})
	if err != nil {
		h.n.log.Warn("reader lease: could not release it; another node takes it when it expires", "node", h.l.Node, "err", err)
	} else {
		h.n.log.Info("reader lease released", "node", h.l.Node)
	}
	return failed
}
