package lease

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/pbem/pbem/store"
)

// One node per name (issue 33). A node's name is who it is on the
// database: the holder of the reader lease, and the owner of the outbox
// claims it frees as it starts (store.ReleaseNodeClaims). Two live nodes
// under one name would both read the mailbox and run retention, each
// renewing the other's lease, and the second would free the first's
// claims, so that a batch could go out twice.
//
// So a running node holds its name as a lease of its own, "node:" and
// the name (NameLease), whose holder is this process alone: its host, its
// process id and a random part (newInstance). It renews it every ttl/3,
// as the reader lease. A node that starts finds the name free, expired or
// held by another instance. Held, it waits for it to expire, as a node
// started again right after a crash must (its predecessor's registration
// lapses within the ttl); if the holder renews it meanwhile, the holder
// is alive, and the node refuses to start (NameInUseError). Only once it
// holds the name does it free the claims made under it.
//
// A running node whose registration another instance took meanwhile (it
// could not renew it for a whole ttl: a paused process, a database it
// could not reach while the other could) is no longer that name: its
// keep loop returns NameTakenError, which stops the node, and it leaves
// the reader lease, which now belongs to the other, alone as it stops.

// nameLeasePrefix starts the name of a node's name lease.
const nameLeasePrefix = "node:"

// NameLease is the lease by which a running node holds its name.
func NameLease(node string) string { return nameLeasePrefix + node }

// newInstance is this process's holder of its name lease: unique to it,
// and saying where it runs, for the message of a node refused. On a
// machine that names itself (machineTag) it ends with that name, so that
// a node started again on the same machine can tell that the holder it
// finds no longer runs (holderDead).
func newInstance(machine string) string {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "localhost"
	}
	var b [6]byte
	rand.Read(b[:]) // never fails; see crypto/rand.Read
	inst := fmt.Sprintf("%s pid %d #%s", host, os.Getpid(), hex.EncodeToString(b[:]))
	if machine != "" {
		inst += " machine " + machine
	}
	return inst
}

// machineTag names the set of processes this one can see: the kernel's
// boot and this process's pid namespace, so that a process id read from
// a registration means the same process here (two containers of one
// host name have their own namespaces, and a reboot reuses ids). "" where
// the system does not say (not Linux): then no holder is known dead, and
// a node waits for the registration to lapse.
func machineTag() string {
	boot, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if err != nil {
		return ""
	}
	ns, err := os.Readlink("/proc/self/ns/pid")
	if err != nil {
		return ""
	}
	sum := sha256.Sum256([]byte(strings.TrimSpace(string(boot)) + " " + ns))
	return hex.EncodeToString(sum[:6])
}

// instanceForm reads a holder newInstance made on a machine with a tag.
var instanceForm = regexp.MustCompile(`^.* pid ([0-9]+) #[0-9a-f]+ machine ([0-9a-f]+)$`)

// holderDead reports whether holder is a process of this machine (same
// tag) that no longer runs: a node killed here, whose registration can
// be voided at once rather than waited out, as a restart after a crash
// needs. A process of this one's id (another node in this process, as in
// tests) and one that runs but is not ours to signal count as alive.
func holderDead(holder, machine string) bool {
	m := instanceForm.FindStringSubmatch(holder)
	if machine == "" || m == nil || m[2] != machine {
		return false
	}
	pid, err := strconv.Atoi(m[1])
	if err != nil || pid <= 0 || pid == os.Getpid() {
		return false
	}
	return !processRuns(pid)
}

// processRuns reports whether process pid exists (signal 0 checks that
// without sending anything).
func processRuns(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	err = p.Signal(syscall.Signal(0))
	return err == nil || errors.Is(err, syscall.EPERM)
}

// NameInUseError is why a node did not start: a live node holds its name.
type NameInUseError struct {
	Node    string        // the name, node.name
	Holder  string        // the instance that holds it: host, pid, random part
	Expires time.Time     // until when the holder's last renewal keeps it
	TTL     time.Duration // this node's lease ttl, which it waited
}

func (e *NameInUseError) Error() string {
	return fmt.Sprintf("lease: node.name %q is in use by another running pbem serve (%s), which renewed it while this node waited for it to lapse (until %s): "+
		"two nodes under one name would both read the mailbox and run retention, and free each other's outbox claims. "+
		"Give each node its own node.name (PBEM_NODE_NAME), or stop the other node first; this node did not start",
		e.Node, e.Holder, e.Expires.Format(time.RFC3339Nano))
}

// NameTakenError is why a running node stopped: another instance took
// its name after this one failed to renew it for a ttl.
type NameTakenError struct {
	Node   string
	Holder string // the instance that holds it now; "" if none
}

func (e *NameTakenError) Error() string {
	by := "another pbem serve"
	if e.Holder != "" {
		by += " (" + e.Holder + ")"
	}
	return fmt.Sprintf("lease: node.name %q was taken over by %s while this node could not renew it: this node stopped, leaving the name, its reader lease and its claims to the other. "+
		"Give each node its own node.name (PBEM_NODE_NAME)", e.Node, by)
}

// nameHold is this process's hold on its node name.
type nameHold struct {
	st       *store.Store
	node     string
	instance string
	ttl      time.Duration
	// acquired is when this instance took the name: a renewal that finds
	// another time finds that someone else held it in between.
	acquired time.Time
	lost     atomic.Bool // another instance took it
	released atomic.Bool // given up (release): once is enough
}

// attempt takes or renews the name lease at now; it never outlasts a
// third of the ttl.
func (h *nameHold) attempt(ctx context.Context, now time.Time) (l store.Lease, ok bool, err error) {
	actx, cancel := context.WithTimeout(ctx, h.ttl/3)
	defer cancel()
	err = h.st.Tx(actx, func(tx *store.Tx) (err error) {
		l, ok, err = tx.AcquireLease(actx, NameLease(h.node), h.instance, now, h.ttl)
		return err
	})
	return l, ok, err
}

// takeName takes the name of lease l for this process, waiting for
// another instance's registration to lapse unless that instance renews
// it meanwhile: then it returns a NameInUseError.
func (n *Node) takeName(ctx context.Context, l Config) (*nameHold, error) {
	machine := machineTag()
	h := &nameHold{st: n.st, node: l.Node, instance: newInstance(machine), ttl: l.TTL}
	var seen store.Lease // the registration found, while waiting
	voided := false      // seen's holder no longer ran, and its registration was removed
	for {
		cur, ok, err := h.attempt(ctx, time.Now())
		switch {
		case err != nil:
			return nil, fmt.Errorf("lease: take node.name %q: %w", l.Node, err)
		case ok:
			h.acquired = cur.Acquired
			if seen.Holder != "" && !voided {
				n.log.Info("node name taken: its last holder let it lapse", "node", l.Node, "previous", seen.Holder)
			}
			return h, nil
		case seen.Holder != "" && (cur.Holder != seen.Holder || !cur.Expires.Equal(seen.Expires)):
			// Renewed, or taken by a third: a live node has the name.
			return nil, &NameInUseError{Node: l.Node, Holder: cur.Holder, Expires: cur.Expires, TTL: l.TTL}
		case seen.Holder == "" && holderDead(cur.Holder, machine):
			// Killed on this machine and started again: the holder's
			// process is gone, so its registration is void now.
			if err := h.void(ctx, cur.Holder); err != nil {
				return nil, fmt.Errorf("lease: take node.name %q from a process that no longer runs: %w", l.Node, err)
			}
			n.log.Info("node name: its holder, a process of this machine, no longer runs: taking it at once", "node", l.Node, "previous", cur.Holder)
			// Voided once: a holder found next is a live one's.
			seen, voided = store.Lease{Holder: cur.Holder}, true
			continue
		case seen.Holder == "":
			n.log.Warn("node name held by another instance: waiting for it to lapse, as a dead node's does; if it is renewed meanwhile, this node will not start",
				"node", l.Node, "holder", cur.Holder, "until", cur.Expires)
		}
		seen = cur
		if err := sleepUntil(ctx, cur.Expires.Add(time.Millisecond)); err != nil {
			return nil, err
		}
	}
}

// void removes holder's registration of the name, if it still holds it.
func (h *nameHold) void(ctx context.Context, holder string) error {
	actx, cancel := context.WithTimeout(ctx, h.ttl/3)
	defer cancel()
	return h.st.Tx(actx, func(tx *store.Tx) error {
		_, err := tx.ReleaseLease(actx, NameLease(h.node), holder)
		return err
	})
}

// sleepUntil waits until t, or returns ctx's error.
func sleepUntil(ctx context.Context, t time.Time) error {
	wait := time.NewTimer(time.Until(t))
	defer wait.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-wait.C:
		return nil
	}
}

// keep renews the name every ttl/3 until ctx is done, and returns a
// NameTakenError as soon as it finds that another instance took it. A
// renewal that fails (the database does not answer) is logged and tried
// again: the name lapses only after a ttl, and which node then has it is
// what the next renewal finds.
func (h *nameHold) keep(ctx context.Context, log *slog.Logger) error {
	every := h.ttl / 3
	var lastErr string
	for began := time.Now(); ; {
		// Every third of the ttl from the start of the last attempt, as
		// the reader lease: a slow attempt does not delay the next.
		began = began.Add(every)
		if err := sleepUntil(ctx, began); err != nil {
			return nil
		}
		if now := time.Now(); now.After(began) {
			began = now
		}
		cur, ok, err := h.attempt(ctx, began)
		switch {
		case ctx.Err() != nil:
			return nil
		case err != nil:
			if msg := err.Error(); msg != lastErr {
				log.Warn("node name: cannot renew it; will try again", "node", h.node, "err", err, "every", every)
				lastErr = msg
			}
		case !ok || !cur.Acquired.Equal(h.acquired):
			// Held by another now, or re-taken after another held it
			// (its acquisition time is not this instance's).
			h.lost.Store(true)
			holder := cur.Holder
			if ok {
				holder = ""
			}
			return &NameTakenError{Node: h.node, Holder: holder}
		default:
			lastErr = ""
		}
	}
}

// release gives the name up at a clean stop, so that the node may be
// started again at once. Only this instance's registration is removed.
func (h *nameHold) release(ctx context.Context, log *slog.Logger) {
	if h.lost.Load() || h.released.Swap(true) {
		return
	}
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), h.ttl/3)
	defer cancel()
	err := h.st.Tx(rctx, func(tx *store.Tx) error {
		_, err := tx.ReleaseLease(rctx, NameLease(h.node), h.instance)
		return err
	})
	if err != nil {
		log.Warn("node name: could not release it; it lapses after the ttl", "node", h.node, "err", err)
	}
}

// TakeName makes this process the node of its name before anything acts
// under that name: it waits up to about a ttl for an earlier holder's
// registration to lapse, and returns a *NameInUseError if a live node
// renews it meanwhile. It does nothing on a node alone, or once the name
// is taken.
func (n *Node) TakeName(ctx context.Context) error {
	if n.cfg == nil || n.name != nil {
		return nil
	}
	if err := n.cfg.check(); err != nil {
		return err
	}
	h, err := n.takeName(ctx, *n.cfg)
	if err != nil {
		return err
	}
	n.name = h
	return nil
}

// KeepName renews the name TakeName took every ttl/3 until ctx is done,
// and returns a *NameTakenError as soon as it finds that another
// instance took it. Without a name taken it returns at once.
func (n *Node) KeepName(ctx context.Context) error {
	if n.name == nil {
		return nil
	}
	return n.name.keep(ctx, n.log)
}

// ReleaseName gives the name up at a clean stop, so that the node may be
// started again at once; it does nothing without a name taken, once it
// was released, or once another instance took it.
func (n *Node) ReleaseName(ctx context.Context) {
	if n.name != nil {
		n.name.release(ctx, n.log)
	}
}

// nameLost reports whether another instance took this node's name: then
// nothing is done under the name any more, not even a release.
func (n *Node) nameLost() bool { return n.name != nil && n.name.lost.Load() }
