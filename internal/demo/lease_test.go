package demo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pbem/pbem/store/storetest"

	"github.com/pbem/pbem/engine/games"
	"github.com/pbem/pbem/internal/config"
	"github.com/pbem/pbem/internal/daemon"
	"github.com/pbem/pbem/internal/lease"
	"github.com/pbem/pbem/internal/outbox"
	"github.com/pbem/pbem/internal/testlib"
	"github.com/pbem/pbem/internal/wiring"
	"github.com/pbem/pbem/mailer"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// Several nodes on one database (issue 27): the node holding the reader
// lease reads the mailbox; every node sends the mail its commits queued,
// and any other, claiming each batch (store.ClaimOutgoing). When the
// holder dies, another takes over the mailbox within the lease's ttl, the
// dead node's claimed mail goes when it is started again under its name
// (or when the claim lapses), and the game goes on with nothing lost or
// applied twice, and no more mail sent twice than a kill of a single
// node may cause (resendBound: one batch per kill).

// leaseDatabase is the database the nodes of a lease test share: a file
// in dir, or, with PBEM_TEST_POSTGRES set, a schema of its own on that
// PostgreSQL server (storetest.Database), dropped when the test ends.
func leaseDatabase(t *testing.T, dir string) string {
	if storetest.OnPostgres() {
		return storetest.Database(t)
	}
	return filepath.Join(dir, "pbem.db")
}

// lockedLog collects a node's log from its goroutines.
type lockedLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *lockedLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *lockedLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// leaseWatch is told by every node when it takes or loses the reader
// lease, and records whether two ever held it at once.
type leaseWatch struct {
	mu       sync.Mutex
	holders  map[string]bool
	overlaps []string
}

func (w *leaseWatch) set(node string, held bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.holders[node] = held
	var on []string
	for n, h := range w.holders {
		if h {
			on = append(on, n)
		}
	}
	if len(on) > 1 {
		w.overlaps = append(w.overlaps, strings.Join(on, " and "))
	}
}

func (w *leaseWatch) holds(node string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.holders[node]
}

// nodeObserver tells the watch what its node's lease does, and nothing
// else.
type nodeObserver struct {
	node  string
	watch *leaseWatch
}

func (o nodeObserver) ReaderLeaseHeld(held bool)   { o.watch.set(o.node, held) }
func (nodeObserver) Inbound(daemon.Outcome)        {}
func (nodeObserver) SetAside(daemon.AsideWhat)     {}
func (nodeObserver) GameSetAside()                 {}
func (nodeObserver) Sent()                         {}
func (nodeObserver) SendFailed(outbox.SendFailure) {}
func (nodeObserver) Sweep(time.Duration, int)      {}

// inprocNode is a node in this process: a service on its own handle of
// the database, as another process has, with its own IMAP session and
// SMTP sender.
type inprocNode struct {
	name   string
	st     *store.Store
	sender *mailer.Sender
	log    lockedLog
	cancel context.CancelFunc
	done   chan error
}

// startNode starts a node of the world w on the database db.
func startNode(t *testing.T, w *World, db, name string, ttl time.Duration, watch *leaseWatch) *inprocNode {
	t.Helper()
	ctx := context.Background()
	n := &inprocNode{name: name, done: make(chan error, 1)}
	st, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	n.st = st
	r, err := templates.New(games.All())
	if err != nil {
		t.Fatal(err)
	}
	logger := slog.New(slog.NewTextHandler(&n.log, nil)).With("node", name)
	svc, err := daemon.New(harnessConfig(w.Address), st, r, games.Lookup, games.Names(),
		daemon.WithLogger(logger), daemon.WithLease(lease.Config{Node: name, TTL: ttl}),
		daemon.WithObserver(nodeObserver{node: name, watch: watch}))
	if err != nil {
		t.Fatal(err)
	}
	inbox, err := mailer.NewInbox(mailer.InboxConfig{
		Addr: w.Mail.IMAPAddr, Username: w.Address, Password: w.Mail.Password, Security: mailer.SecurityNone,
		PollInterval: 200 * time.Millisecond, IdleRefresh: 2 * time.Second, Logger: logger,
	}, svc)
	if err != nil {
		t.Fatal(err)
	}
	n.sender, err = mailer.NewSender(mailer.SenderConfig{Addr: w.Mail.SMTPAddr, Security: mailer.SecurityNone})
	if err != nil {
		t.Fatal(err)
	}
	runCtx, cancel := context.WithCancel(ctx)
	n.cancel = cancel
	oc := wiring.OutboxFrom(config.Default())
	oc.Poll = 200 * time.Millisecond
	go func() { n.done <- svc.Run(runCtx, []daemon.Inbox{inbox}, n.sender, oc, "@every 1m") }()
	return n
}

// halt stops the node, as a SIGTERM does.
func (n *inprocNode) halt() error {
	n.cancel()
	err := <-n.done
	n.sender.Close()
	return errors.Join(err, n.st.Close())
}

// crash ends the node as a machine's death would, as far as a process
// can play it: its database writes fail from now on (nothing more is
// recorded, the lease is not renewed nor released), and once its lease
// work has stopped, so does the rest.
func (n *inprocNode) crash(t *testing.T, watch *leaseWatch) {
	t.Helper()
	n.st.FailWrites(store.ErrUnavailable)
	testlib.WaitFor(t, func() bool { return !watch.holds(n.name) }, n.name+" to stop its work once its writes fail")
	n.cancel()
	<-n.done
	n.sender.Close()
	n.st.Close()
}

// nodes are the running nodes of a test, as one daemon for
// checkExactlyOnce.
type nodes struct {
	t   *testing.T
	mu  sync.Mutex
	all []*inprocNode // running
	old []*inprocNode // crashed: their logs
}

func (ns *nodes) stop() {
	ns.mu.Lock()
	defer ns.mu.Unlock()
	for _, n := range ns.all {
		if err := n.halt(); err != nil {
			ns.t.Errorf("%s stopped with %v", n.name, err)
		}
	}
	ns.old = append(ns.old, ns.all...)
	ns.all = nil
}

func (ns *nodes) logTail() string {
	ns.mu.Lock()
	defer ns.mu.Unlock()
	var b strings.Builder
	for _, n := range append(append([]*inprocNode{}, ns.old...), ns.all...) {
		lines := strings.Split(n.log.String(), "\n")
		if len(lines) > 30 {
			lines = lines[len(lines)-30:]
		}
		fmt.Fprintf(&b, "--- %s\n%s\n", n.name, strings.Join(lines, "\n"))
	}
	return b.String()
}

// logs is every node's whole log.
func (ns *nodes) logs() string {
	ns.mu.Lock()
	defer ns.mu.Unlock()
	var b strings.Builder
	for _, n := range append(append([]*inprocNode{}, ns.old...), ns.all...) {
		b.WriteString(n.log.String())
	}
	return b.String()
}

// TestLeaseTakeover plays a Felix game with two nodes, each its own
// service on its own handle of one database file (SQLite serialises
// their writes as it does two processes'), both reading the one mailbox
// of the embedded IMAP server. Every eight player mails, the node holding
// the reader lease dies (its writes fail, it can neither record a mail
// nor renew the lease) and is started again. The other takes over once
// the lease expires, and:
//
//   - no two nodes ever held the lease at once (the holder stops its
//     work when it cannot renew, before the lease expires);
//   - the game finishes, every command applied exactly once and nothing
//     lost, no mail re-sent beyond one batch per takeover
//     (checkExactlyOnce, resendBound): both nodes send, each only what
//     it claimed, and a node that died between its claim and its marks
//     sends that batch again when it starts;
//   - a takeover re-reads no mail that was applied: the IMAP cursor is
//     in the database, so no node ever met a mail seen before.
func TestLeaseTakeover(t *testing.T) {
	ctx := context.Background()
	const ttl = 2 * time.Second // renewed every 667ms
	w, err := Start(ctx, Options{Seed: 27, NoService: true})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	db := leaseDatabase(t, t.TempDir())
	watch := &leaseWatch{holders: map[string]bool{}}
	ns := &nodes{t: t}
	ns.all = []*inprocNode{startNode(t, w, db, "node-a", ttl, watch), startNode(t, w, db, "node-b", ttl, watch)}
	defer func() {
		if len(ns.all) > 0 {
			ns.stop()
		}
	}()

	// The killer: whenever the players have sent eight more mails, the
	// holder dies; it is started again once the other has taken over.
	stopKilling := make(chan struct{})
	var kills int
	var takeovers []time.Duration
	var killed []string
	killerDone := make(chan struct{})
	go func() {
		defer close(killerDone)
		for next := 8; ; next += 8 {
			pctx, cancel := context.WithCancel(ctx)
			go func() {
				select {
				case <-stopKilling:
				case <-pctx.Done():
				}
				cancel()
			}()
			err := testlib.Poll(pctx, func() bool {
				if w.SentCount() < next {
					return false
				}
				ns.mu.Lock()
				defer ns.mu.Unlock()
				return watch.holds(ns.all[0].name) || watch.holds(ns.all[1].name)
			})
			cancel()
			if err != nil {
				return
			}
			ns.mu.Lock()
			holder, other := ns.all[0], ns.all[1]
			if !watch.holds(holder.name) {
				holder, other = other, holder
			}
			ns.mu.Unlock()
			diedAt := time.Now()
			holder.crash(t, watch)
			ns.mu.Lock()
			ns.old = append(ns.old, holder)
			ns.all = []*inprocNode{other}
			ns.mu.Unlock()
			kills++
			killed = append(killed, holder.name)
			if testlib.Poll(ctx, func() bool { return watch.holds(other.name) }) != nil {
				return
			}
			takeovers = append(takeovers, time.Since(diedAt))
			again := startNode(t, w, db, holder.name, ttl, watch)
			ns.mu.Lock()
			ns.all = append(ns.all, again)
			ns.mu.Unlock()
		}
	}()

	players := []string{w.Player("alice"), w.Player("bob"), w.Player("carol"), w.Player("dave")}
	g, playErr := w.Play(ctx, "felix", players, 4*time.Minute)
	close(stopKilling)
	<-killerDone
	if playErr != nil {
		t.Fatalf("after %d kills: %v\n%s", kills, playErr, ns.logTail())
	}
	if kills < 3 {
		t.Fatalf("the game was over after %d kills; the test wants at least 3 to mean something", kills)
	}
	rep := checkExactlyOnce(t, ctx, w, ns, db, players, g, false)
	if rep.resent > resendBound(kills) {
		t.Errorf("%d mails arrived twice with %d takeovers: more than one batch re-sent per takeover (%d)", rep.resent, kills, resendBound(kills))
	}
	if n := strings.Count(ns.logs(), "inbound seen before"); n > 0 {
		t.Errorf("a takeover read %d applied mails again", n)
	}
	watch.mu.Lock()
	if len(watch.overlaps) > 0 {
		t.Errorf("two nodes held the lease at once: %v", watch.overlaps)
	}
	watch.mu.Unlock()
	t.Logf("%d takeovers (the dead: %v), each after %v (ttl %s); %d player mails taken once each, %d moves, %d outbox mails, %d re-sent",
		kills, killed, roundAll(takeovers), ttl, rep.taken, rep.moves, rep.outbox, rep.resent)
	if t.Failed() {
		t.Logf("the nodes' logs end:\n%s", ns.logTail())
	}
}

func roundAll(ds []time.Duration) []time.Duration {
	out := make([]time.Duration, len(ds))
	for i, d := range ds {
		out[i] = d.Round(10 * time.Millisecond)
	}
	return out
}

// procs are the daemon processes of a test, as one daemon for
// checkExactlyOnce.
type procs []*daemonProc

func (ps procs) stop() {
	for _, d := range ps {
		d.stop()
	}
}

func (ps procs) logTail() string {
	var b strings.Builder
	for i, d := range ps {
		fmt.Fprintf(&b, "--- node %d\n%s\n", i, d.logTail())
	}
	return b.String()
}

// TestLeaseSIGKILL is the black-box run of several nodes: two `pbem
// serve` processes, the real binary configured only through PBEM_*
// variables, on one database and one IMAP mailbox (the embedded servers
// of this process). While a Felix game is played, the node holding the
// reader lease is SIGKILLed, now one and now the other, and started
// again once the other has taken over. Afterwards, as TestCrashSIGKILL:
// the game is finished, every command was applied exactly once, and no
// more mail arrived twice than one batch per kill; and no node ever read
// an applied mail again.
//
// With PBEM_TEST_POSTGRES set, the nodes share that PostgreSQL database
// instead of a SQLite file.
func TestLeaseSIGKILL(t *testing.T) {
	ctx := context.Background()
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("PBEM_CRASH_SEED"); s != "" {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("PBEM_CRASH_SEED=%q: %v", s, err)
		}
		seed = v
	}
	t.Logf("seed %d (set PBEM_CRASH_SEED to repeat the players' choices and the kill times)", seed)
	const ttl = 2 * time.Second
	bin := buildPbem(t)
	w, err := Start(ctx, Options{Seed: seed, NoService: true})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	db := leaseDatabase(t, t.TempDir())
	vars := func(node string) map[string]string {
		return map[string]string{
			"PBEM_NODE_NAME":              node,
			"PBEM_LEASE_TTL":              ttl.String(),
			"PBEM_SERVICE_ADDRESS":        w.Address,
			"PBEM_STORE_DATABASE":         db,
			"PBEM_IMAP_ADDR":              w.Mail.IMAPAddr,
			"PBEM_IMAP_USERNAME":          w.Address,
			"PBEM_IMAP_PASSWORD":          w.Mail.Password,
			"PBEM_IMAP_SECURITY":          "none",
			"PBEM_IMAP_POLL_INTERVAL":     "200ms",
			"PBEM_SMTP_ADDR":              w.Mail.SMTPAddr,
			"PBEM_SMTP_SECURITY":          "none",
			"PBEM_LOG_LEVEL":              "info",
			"PBEM_OUTBOX_POLL_INTERVAL":   "200ms",
			"PBEM_LIMITS_LOOP_PER_MINUTE": "100000",
			"PBEM_LIMITS_ANSWERS_PER_DAY": "100000",
			"PBEM_LIMITS_LOBBY_PER_HOUR":  "100000",
		}
	}
	names := []string{"node-a", "node-b"}
	ps := procs{newDaemonProc(t, bin, t.TempDir(), vars(names[0])), newDaemonProc(t, bin, t.TempDir(), vars(names[1]))}
	ps.startAll(t)
	holder := leaseHolderOf(ctx, t, db)

	// The killer: 0.3 to 1.2 s after each takeover, SIGKILL the holder,
	// wait for the other to take the lease, and start the dead one again.
	stopKilling := make(chan struct{})
	var kills int
	var killed []string
	var takeovers []time.Duration
	killerDone := make(chan struct{})
	go func() {
		defer close(killerDone)
		rng := rand.New(rand.NewPCG(seed, 27))
		pctx, cancel := context.WithCancel(ctx)
		defer cancel()
		go func() {
			<-stopKilling
			cancel()
		}()
		for {
			select {
			case <-stopKilling:
				return
			case <-time.After(300*time.Millisecond + time.Duration(rng.Int64N(int64(900*time.Millisecond)))):
			}
			var h string
			if testlib.Poll(pctx, func() bool { h = holder(); return h != "" }) != nil {
				return
			}
			i := 0
			if h == names[1] {
				i = 1
			}
			diedAt := time.Now()
			ps[i].kill()
			kills++
			killed = append(killed, h)
			if testlib.Poll(pctx, func() bool { return holder() == names[1-i] }) != nil {
				// The game ended before the takeover. The dead node
				// still comes back, as systemd would bring it: its
				// last batch may have gone out unmarked, and the
				// claim on it lapses only after 2m10s, which is
				// longer than the drain after the game waits. Under
				// its own name, the node frees that claim as it starts.
				ps[i].start()
				return
			}
			takeovers = append(takeovers, time.Since(diedAt))
			ps[i].start()
		}
	}()

	players := []string{w.Player("alice"), w.Player("bob"), w.Player("carol"), w.Player("dave")}
	playCtx, cancelPlay := context.WithCancel(ctx)
	defer cancelPlay()
	go func() {
		select {
		case <-ps[0].dead:
		case <-ps[1].dead:
		case <-playCtx.Done():
		}
		cancelPlay()
	}()
	began := time.Now()
	g, playErr := w.Play(playCtx, "felix", players, 4*time.Minute)
	close(stopKilling)
	<-killerDone
	t.Logf("the game took %s with %d kills", time.Since(began).Round(time.Millisecond), kills)
	if playErr != nil {
		t.Fatalf("after %d kills: %v\n%s", kills, playErr, ps.logTail())
	}
	if !slices.Contains(killed, names[0]) || !slices.Contains(killed, names[1]) || kills < 4 {
		t.Fatalf("the game was over after %d kills (%v); the test wants each node killed, at least 4 kills in all", kills, killed)
	}
	rep := checkExactlyOnce(t, ctx, w, ps, db, players, g, false)
	if rep.resent > resendBound(kills) {
		t.Errorf("%d mails arrived twice with %d kills: more than one batch re-sent per kill (%d)", rep.resent, kills, resendBound(kills))
	}
	var logs string
	for _, d := range ps {
		b, _ := os.ReadFile(d.path)
		logs += string(b)
	}
	if n := strings.Count(logs, "inbound seen before"); n > 0 {
		t.Errorf("a takeover read %d applied mails again", n)
	}
	t.Logf("%d kills (%v), each node taken over from after %v (ttl %s); %d player mails taken once each, %d moves, %d outbox mails, %d re-sent",
		kills, killed, roundAll(takeovers), ttl, rep.taken, rep.moves, rep.outbox, rep.resent)
	if t.Failed() {
		t.Logf("the nodes' logs end:\n%s", ps.logTail())
	}
}

var (
	_ daemon.Observer = nodeObserver{}
	_ lease.Observer  = nodeObserver{}
)

// startAll starts every node, and stops each when the test ends.
func (ps procs) startAll(t *testing.T) {
	t.Cleanup(func() {
		for _, d := range ps {
			d.close()
		}
	})
	for _, d := range ps {
		d.start()
	}
}

// leaseHolderOf opens the nodes' database db, for the test's time, and
// returns what names the node holding the reader lease now: "" when none
// does or the database does not answer (while PostgreSQL restarts).
func leaseHolderOf(ctx context.Context, t *testing.T, db string) func() string {
	t.Helper()
	st, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return func() string {
		l, err := st.Lease(ctx, lease.ReaderLease)
		if err != nil || !l.HeldAt(time.Now()) {
			return ""
		}
		return l.Holder
	}
}
