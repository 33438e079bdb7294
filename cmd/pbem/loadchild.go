package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/pbem/pbem/engine/games"
	"github.com/pbem/pbem/internal/config"
	"github.com/pbem/pbem/internal/demo"
	"github.com/pbem/pbem/mailer/embedded"
	"github.com/pbem/pbem/store"
)

// The loadtest with the service in a process of its own (issue 15): pbem
// serve, or the echo baseline, runs as a child of pbem loadtest against a
// mail system (an external one named by --imap and --smtp, such as
// Postfix + Dovecot, or the embedded servers started in this process),
// while the scripted players play from here. Measuring the child alone
// gives the service's own memory and CPU, apart from the players'.

// childRun is what a loadtest with a separate service process needs.
type childRun struct {
	games, players, turns int
	kind, settings        string
	seed                  uint64
	timeout               time.Duration
	echo                  bool
	mail                  *demo.MailSystem // nil: embedded servers in this process
	lmtp                  bool             // pbem takes its mail by LMTP: from mail, or from the relay in front of the embedded servers
	database              string           // pbem's store.database; "": a SQLite file of the run's own
	nodes                 int              // pbem serve processes on the one store (0 or 1: one)
	outboxPoll            time.Duration    // pbem serve's outbox.poll_interval; 0: its default
	cpuProfile            string           // the first child's CPU profile goes to this file; "": none
	serverPID             int              // the database server's process, whose CPU the report adds; 0: none
}

// childReport is what one run measured.
type childReport struct {
	elapsed          time.Duration
	commands, mails  int
	latencies        []time.Duration
	maxRSSKB         int64
	user, sys        time.Duration
	loadBefore, load string
	nodes            []nodeReport // each pbem serve's share; the sums are above
	// server is the CPU the database server (--server-pid) and its
	// children spent over the run, nodes' start and stop included;
	// serverPID 0: not measured.
	server    time.Duration
	serverPID int
}

// nodeReport is one pbem serve process's part of a run.
type nodeReport struct {
	name string
	nodeMetrics
	scraped   bool // nodeMetrics were read (not for the echo)
	maxRSSKB  int64
	user, sys time.Duration
}

func runLoadtestChild(ctx context.Context, e *env, r childRun) (err error) {
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	dir, err := os.MkdirTemp("", "pbem-loadtest-")
	if err != nil {
		return err
	}
	defer func() {
		// A failed run keeps the service's database and logs.
		if err == nil {
			os.RemoveAll(dir)
		}
	}()
	nodes := max(1, r.nodes)
	path, err := startMailPath(ctx, e, r, dir, nodes)
	if err != nil {
		return err
	}
	defer path.close()
	w, err := demo.Start(ctx, path.opts)
	if err != nil {
		return err
	}
	defer w.Close()
	path.attach(w)
	name, service := describeRun(e, r, w, path, dir, nodes)

	f := &fleet{}
	// However the run ends, the children are stopped and waited for.
	defer f.stopLeft()
	var serverBefore time.Duration
	if r.serverPID > 0 {
		if serverBefore, err = treeCPU(r.serverPID); err != nil {
			return fmt.Errorf("--server-pid: %w", err)
		}
	}
	if err := f.start(ctx, w, r, path, dir, service, nodes); err != nil {
		return err
	}
	if err := f.ready(ctx, w, path, service, name, dir); err != nil {
		return err
	}
	rep, err := playAll(ctx, e, w, r, service, dir)
	if err != nil {
		return err
	}
	if err := f.finish(ctx, &rep); err != nil {
		return err
	}
	if r.serverPID > 0 {
		after, err := treeCPU(r.serverPID)
		if err != nil {
			return fmt.Errorf("--server-pid: %w", err)
		}
		rep.server, rep.serverPID = after-serverBefore, r.serverPID
	}
	rep.print(e.stdout, name, r.games)
	return nil
}

// mailPath is how the players' mail reaches pbem in a run: the mail
// system given (--imap), or the embedded servers, with --lmtp behind a
// relay that hands pbem's mail to the nodes' LMTP sockets in turn
// (loadnodes.go).
type mailPath struct {
	opts     demo.Options
	lmtp     []string   // the nodes' lmtp.addr, in order; none: pbem reads a mailbox
	relay    *nodeRelay // nil: no relay
	pbemSMTP string     // where pbem sends; "": the world's SMTP server
	closers  []func()
}

func startMailPath(ctx context.Context, e *env, r childRun, dir string, nodes int) (*mailPath, error) {
	p := &mailPath{opts: demo.Options{Seed: r.seed, Settings: r.settings, Mail: r.mail, NoService: true, LMTP: r.lmtp && r.mail != nil}}
	if !r.lmtp || r.mail != nil {
		return p, nil
	}
	quiet := slog.New(slog.DiscardHandler)
	srv, err := embedded.Start(ctx, embedded.Config{IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0", Domain: "pbem.test", Logger: quiet})
	if err != nil {
		return nil, err
	}
	p.closers = append(p.closers, func() { srv.Close() })
	for i := range nodes {
		p.lmtp = append(p.lmtp, "unix:"+filepath.Join(dir, fmt.Sprintf("node%d.lmtp", i+1)))
	}
	if p.relay, err = startNodeRelay(srv, p.lmtp, newLogger(e.stderr, config.Default().Log)); err != nil {
		p.close()
		return nil, err
	}
	p.closers = append(p.closers, func() { p.relay.Close() })
	p.opts.Mail = &demo.MailSystem{IMAPAddr: srv.IMAPAddr(), SMTPAddr: p.relay.Addr(), Domain: srv.Domain(), Password: srv.Password()}
	p.pbemSMTP = srv.SMTPAddr()
	return p, nil
}

// attach completes the path with what the started world w knows.
func (p *mailPath) attach(w *demo.World) {
	if p.pbemSMTP == "" {
		p.pbemSMTP = w.Mail.SMTPAddr
	}
	if p.relay != nil {
		p.relay.setService(w.Address)
	}
	if w.LMTPAddr != "" {
		p.lmtp = []string{w.LMTPAddr}
	}
}

// close stops what startMailPath started, the last first.
func (p *mailPath) close() {
	for i := len(p.closers) - 1; i >= 0; i-- {
		p.closers[i]()
	}
}

// describeRun says what the run plays, through what and against whom,
// and returns the service's name for the report and its address.
func describeRun(e *env, r childRun, w *demo.World, p *mailPath, dir string, nodes int) (name, service string) {
	name, service = "pbem serve", w.Address
	if r.echo {
		name, service = "echo", w.Player("echo")
	}
	where := "the embedded servers in this process"
	switch {
	case p.relay != nil:
		where += fmt.Sprintf(", pbem's mail by LMTP to %d node(s) in turn", nodes)
	case r.mail != nil:
		where = "IMAP " + w.Mail.IMAPAddr + ", SMTP " + w.Mail.SMTPAddr
		if w.LMTPAddr != "" {
			where += ", pbem's mail by LMTP to " + w.LMTPAddr
		}
	}
	what := fmt.Sprintf("%d games of %s with %d players", r.games, r.kind, r.players)
	if r.echo {
		what = fmt.Sprintf("%d echo games with the turns of %s with %d players (those it waits on at once mail at once)", r.games, r.kind, r.players)
		if r.turns > 0 {
			what = fmt.Sprintf("%d echo games of %d turns, one player at a time, with %d players", r.games, r.turns, r.players)
		}
	}
	as := "as a separate process"
	if nodes > 1 {
		name, as = fmt.Sprintf("%d pbem serve nodes", nodes), "as separate processes"
	}
	fmt.Fprintf(e.stdout, "Playing %s at once through %s, %s %s...\n", what, where, name, as)
	if r.outboxPoll > 0 {
		fmt.Fprintf(e.stdout, "pbem's outbox.poll_interval: %s\n", r.outboxPoll)
	}
	if nodes > 1 && len(p.lmtp) == 0 {
		fmt.Fprintf(e.stdout, "The nodes share pbem's mailbox: the one that holds the reader lease reads it.\n")
	}
	if !r.echo {
		fmt.Fprintf(e.stdout, "pbem's store: %s\n", store.Redact(runDatabase(r, dir)))
	}
	return name, service
}

// runDatabase is the store of a run's nodes: --database, or a SQLite file
// in dir.
func runDatabase(r childRun, dir string) string {
	if r.database != "" {
		return r.database
	}
	return filepath.Join(dir, "pbem.db")
}

// fleet is a run's service processes: the pbem serve nodes, or the echo.
type fleet struct {
	children []*serviceProc
	stopped  bool
}

// start starts the nodes, each with its name, log, LMTP socket and
// metrics port.
func (f *fleet) start(ctx context.Context, w *demo.World, r childRun, p *mailPath, dir, service string, nodes int) error {
	var metricsAddrs []string
	if !r.echo {
		var err error
		if metricsAddrs, err = freeLoopbackPorts(nodes); err != nil {
			return err
		}
	}
	database := runDatabase(r, dir)
	for i := range nodes {
		n := nodeSpec{smtp: p.pbemSMTP, log: filepath.Join(dir, "service.log"), outboxPoll: r.outboxPoll, cpuProfile: r.cpuProfile}
		if nodes > 1 {
			n.name, n.log = fmt.Sprintf("node%d", i+1), filepath.Join(dir, fmt.Sprintf("node%d.log", i+1))
		}
		if i > 0 {
			n.cpuProfile = "" // the first node's profile stands for them all
		}
		if len(p.lmtp) > 0 {
			n.lmtp = p.lmtp[i]
		}
		if metricsAddrs != nil {
			n.metrics = metricsAddrs[i]
		}
		child, err := startService(w, n, database, service, r.echo)
		if err != nil {
			return err
		}
		f.children = append(f.children, child)
	}
	return nil
}

// ready waits until every node answers: its LMTP socket is up, and a
// probe mail handed to it is answered (the relay hands one to each node
// in turn).
func (f *fleet) ready(ctx context.Context, w *demo.World, p *mailPath, service, name, dir string) error {
	for i, c := range f.children {
		if c.lmtp != "" && p.relay != nil {
			if err := waitLMTP(ctx, c, c.lmtp); err != nil {
				return fmt.Errorf("node %d: %w (its log: %s)", i+1, err, c.logPath)
			}
		}
	}
	probes := 1
	if p.relay != nil {
		probes = len(f.children)
	}
	for range probes {
		if err := w.Probe(ctx, service); err != nil {
			return fmt.Errorf("%s did not start answering (logs in %s): %w", name, dir, err)
		}
	}
	return nil
}

// playAll plays the run's games at once and measures them.
func playAll(ctx context.Context, e *env, w *demo.World, r childRun, service, dir string) (childReport, error) {
	rep := childReport{loadBefore: loadavg()}
	prog := newProgress(e.stderr, r.games)
	progCtx, stopProg := context.WithCancel(ctx)
	progDone := make(chan struct{})
	go func() {
		defer close(progDone)
		prog.run(progCtx, w.SentCount)
	}()
	start := time.Now()
	results := make([]demo.Game, r.games)
	errs := make([]error, r.games)
	var wg sync.WaitGroup
	for g := range r.games {
		wg.Go(func() {
			results[g], errs[g] = playOne(ctx, w, r, service, g)
			prog.gameDone()
		})
	}
	wg.Wait()
	rep.elapsed = time.Since(start)
	stopProg()
	<-progDone
	rep.load = loadavg()
	if err := errors.Join(errs...); err != nil {
		return rep, fmt.Errorf("%w (the service's logs are in %s)", err, dir)
	}
	for _, g := range results {
		rep.commands += g.Commands
		for _, p := range g.Players {
			rep.mails += len(g.Mails[p])
		}
		rep.latencies = append(rep.latencies, g.CommandLatencies...)
	}
	return rep, nil
}

// playOne plays game g of the run: a game of pbem, or the echo's turns.
func playOne(ctx context.Context, w *demo.World, r childRun, service string, g int) (demo.Game, error) {
	addrs := make([]string, r.players)
	for i := range addrs {
		addrs[i] = w.Player(fmt.Sprintf("g%dp%d", g, i))
	}
	if !r.echo {
		return w.Play(ctx, r.kind, addrs, r.timeout)
	}
	schedule := demo.SequentialTurns(r.turns, r.players)
	if r.turns == 0 {
		// Each game its own random game's turns, as pbem's players each
		// play their own game.
		rules, _ := games.Lookup(r.kind)
		var err error
		if schedule, err = demo.GameTurns(rules, r.players, r.seed+uint64(g)); err != nil {
			return demo.Game{}, err
		}
	}
	return w.PlayEcho(ctx, service, addrs, schedule, r.timeout)
}

// finish reads each node's metrics, stops the nodes and adds their
// share (mails, memory, CPU) to rep.
func (f *fleet) finish(ctx context.Context, rep *childReport) error {
	for i, c := range f.children {
		nr := nodeReport{name: fmt.Sprintf("node%d", i+1)}
		if c.metrics != "" {
			m, err := scrapeNode(ctx, c.metrics)
			if err != nil {
				return fmt.Errorf("node %d: %w (its log: %s)", i+1, err, c.logPath)
			}
			nr.nodeMetrics, nr.scraped = m, true
		}
		rep.nodes = append(rep.nodes, nr)
	}
	f.stopped = true
	usages := make([]*syscall.Rusage, len(f.children))
	stopErrs := make([]error, len(f.children))
	var stopping sync.WaitGroup
	for i, c := range f.children {
		stopping.Go(func() {
			if usages[i], stopErrs[i] = c.stop(); stopErrs[i] != nil {
				stopErrs[i] = fmt.Errorf("%s: %w (its log: %s)", rep.nodes[i].name, stopErrs[i], c.logPath)
			}
		})
	}
	stopping.Wait()
	if err := errors.Join(stopErrs...); err != nil {
		return err
	}
	for i, ru := range usages {
		n := &rep.nodes[i]
		n.maxRSSKB, n.user, n.sys = ru.Maxrss, time.Duration(ru.Utime.Nano()), time.Duration(ru.Stime.Nano())
		rep.maxRSSKB += n.maxRSSKB
		rep.user += n.user
		rep.sys += n.sys
	}
	return nil
}

// stopLeft stops the nodes a run that failed left running.
func (f *fleet) stopLeft() {
	if f.stopped {
		return
	}
	for _, c := range f.children {
		c.stop()
	}
}

func (rep childReport) print(w io.Writer, name string, games int) {
	s := rep.elapsed.Seconds()
	fmt.Fprintf(w, "\n%d games finished in %s.\n", games, rep.elapsed.Round(time.Millisecond))
	fmt.Fprintf(w, "  commands              %d (%.1f a second, %.1f a game; the creations, joins and moves, or the echo's turns)\n",
		rep.commands, float64(rep.commands)/s, float64(rep.commands)/float64(games))
	fmt.Fprintf(w, "  mails landed          %d (%.1f a second, in the players' mailboxes)\n", rep.mails, float64(rep.mails)/s)
	fmt.Fprintf(w, "  command latency       p50 %s  p90 %s  p99 %s  max %s  (%d commands; SMTP submission to the last resulting mail found by the players)\n",
		pct(rep.latencies, 50), pct(rep.latencies, 90), pct(rep.latencies, 99), pct(rep.latencies, 100), len(rep.latencies))
	label := name
	if len(rep.nodes) > 1 {
		label = "pbem serve, all nodes"
	}
	fmt.Fprintf(w, "  %-21s peak RSS %.1f MB, CPU %.2f s (user %.2f s, system %.2f s)\n", label,
		float64(rep.maxRSSKB)/1024, (rep.user + rep.sys).Seconds(), rep.user.Seconds(), rep.sys.Seconds())
	if rep.commands > 0 {
		fmt.Fprintf(w, "  CPU per command       %.2f ms (%s, over all its commands)\n",
			float64((rep.user+rep.sys).Microseconds())/1000/float64(rep.commands), label)
	}
	if rep.serverPID > 0 && rep.commands > 0 {
		fmt.Fprintf(w, "  database server       CPU %.2f s (%.2f ms a command; process %d and its children)\n",
			rep.server.Seconds(), float64(rep.server.Microseconds())/1000/float64(rep.commands), rep.serverPID)
		fmt.Fprintf(w, "  with the server       %.2f ms of CPU a command\n",
			float64((rep.user+rep.sys+rep.server).Microseconds())/1000/float64(rep.commands))
	}
	var statements, trips int64
	for _, n := range rep.nodes {
		statements += n.statements
		trips += n.roundTrips
	}
	if statements > 0 && rep.commands > 0 {
		fmt.Fprintf(w, "  store statements      %d (%.1f a command; sweeps and outbox included)", statements, float64(statements)/float64(rep.commands))
		if trips > 0 {
			fmt.Fprintf(w, ", %d round trips (%.1f a command)", trips, float64(trips)/float64(rep.commands))
		}
		fmt.Fprintln(w)
	}
	for _, n := range rep.nodes {
		if !n.scraped {
			continue
		}
		lease := ""
		if n.leader {
			lease = "; holds the reader lease"
		}
		fmt.Fprintf(w, "  %-21s took %d mails, sent %d; peak RSS %.1f MB, CPU %.2f s%s\n", n.name,
			n.took, n.sent, float64(n.maxRSSKB)/1024, (n.user + n.sys).Seconds(), lease)
	}
	fmt.Fprintf(w, "  machine               %d CPUs; load average before %s, after %s\n", runtime.NumCPU(), rep.loadBefore, rep.load)
}

// loadavg is the first three fields of /proc/loadavg, or "unknown".
func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

// serviceProc is the service under test, a child process.
type serviceProc struct {
	cmd     *exec.Cmd
	logPath string
	lmtp    string        // its lmtp.addr, if it takes mail by LMTP
	metrics string        // its metrics.addr, if any
	exited  chan struct{} // closed when the child has exited
	err     error         // how it exited
}

// nodeSpec is what sets one pbem serve apart from the others of a run.
type nodeSpec struct {
	name    string // node.name; empty: pbem's default
	smtp    string // where it sends its mail
	lmtp    string // lmtp.addr; empty: it reads pbem's IMAP mailbox
	metrics string // metrics.addr; empty: none
	log     string // the file its output goes to
	// outboxPoll is its outbox.poll_interval; 0: the default.
	outboxPoll time.Duration
	// cpuProfile is where it writes a CPU profile of its run; "": none.
	cpuProfile string
}

// startService starts pbem serve, or the echo, as a child of this very
// binary, against the world's mail system, with its database at database
// and its output in n.log. pbem gets the players' limits of the demo
// (they answer at machine speed) and otherwise its defaults, as an
// operator would run it.
func startService(w *demo.World, n nodeSpec, database, service string, echo bool) (*serviceProc, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("find this program to run the service: %w", err)
	}
	var env []string
	for _, kv := range os.Environ() {
		// pbem serve refuses PBEM_ variables it does not know, such as
		// the integration tests' PBEM_TEST_SMTP.
		if !strings.HasPrefix(kv, "PBEM_") {
			env = append(env, kv)
		}
	}
	args := []string{"serve"}
	if echo {
		args = []string{"loadtest", "--serve-echo", "--imap", w.Mail.IMAPAddr, "--smtp", w.Mail.SMTPAddr,
			"--address", service, "--password", w.Mail.Password}
	}
	if n.cpuProfile != "" {
		args = append(args, "--cpuprofile", n.cpuProfile)
	}
	if !echo {
		lim := demo.HarnessLimits()
		env = append(env,
			"PBEM_SERVICE_ADDRESS="+service,
			"PBEM_STORE_DATABASE="+database,
			"PBEM_SMTP_ADDR="+n.smtp,
			"PBEM_SMTP_SECURITY=none",
			fmt.Sprintf("PBEM_LIMITS_LOOP_PER_MINUTE=%d", lim.LoopPerMinute),
			fmt.Sprintf("PBEM_LIMITS_ANSWERS_PER_DAY=%d", lim.AnswersPerDay),
			fmt.Sprintf("PBEM_LIMITS_LOBBY_PER_HOUR=%d", lim.LobbyPerHour),
		)
		inv := demo.HarnessInviteLimits()
		env = append(env,
			fmt.Sprintf("PBEM_LIMITS_INVITATIONS_PER_WEEK=%d", inv.PerWeek),
			fmt.Sprintf("PBEM_LIMITS_NEW_INVITATIONS_PER_INVITER=%d", inv.PerInviter),
			fmt.Sprintf("PBEM_LIMITS_NEW_INVITATIONS_PER_DAY=%d", inv.PerDay),
		)
		if n.name != "" {
			env = append(env, "PBEM_NODE_NAME="+n.name)
		}
		if n.metrics != "" {
			env = append(env, "PBEM_METRICS_ADDR="+n.metrics)
		}
		if n.outboxPoll > 0 {
			env = append(env, "PBEM_OUTBOX_POLL_INTERVAL="+n.outboxPoll.String())
		}
		if n.lmtp != "" {
			env = append(env, "PBEM_LMTP_ADDR="+n.lmtp)
		} else {
			env = append(env,
				"PBEM_IMAP_ADDR="+w.Mail.IMAPAddr,
				"PBEM_IMAP_USERNAME="+service,
				"PBEM_IMAP_PASSWORD="+w.Mail.Password,
				"PBEM_IMAP_SECURITY=none")
		}
	}
	logPath := n.log
	log, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	// Not CommandContext: the child is stopped with SIGTERM, politely,
	// by stop, and its usage read after.
	cmd := exec.Command(exe, args...)
	cmd.Env, cmd.Stdout, cmd.Stderr = env, log, log
	if err := cmd.Start(); err != nil {
		log.Close()
		return nil, fmt.Errorf("start %s: %w", exe, err)
	}
	p := &serviceProc{cmd: cmd, logPath: logPath, exited: make(chan struct{})}
	if !echo {
		p.lmtp, p.metrics = n.lmtp, n.metrics
	}
	go func() {
		p.err = cmd.Wait()
		log.Close()
		close(p.exited)
	}()
	return p, nil
}

// stop asks the child to stop (SIGTERM), waits for it, and returns its
// resource usage; a child that already exited is an error.
func (p *serviceProc) stop() (*syscall.Rusage, error) {
	select {
	case <-p.exited:
		return nil, fmt.Errorf("exited by itself: %v", p.err)
	default:
	}
	p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.exited:
	case <-time.After(30 * time.Second):
		p.cmd.Process.Kill()
		<-p.exited
		return nil, errors.New("did not stop within 30 s of SIGTERM; killed")
	}
	ru, ok := p.cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		return nil, errors.New("no resource usage on this system")
	}
	if p.err != nil {
		return ru, fmt.Errorf("stopped with %v", p.err)
	}
	return ru, nil
}
