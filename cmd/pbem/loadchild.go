package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/pbem/pbem/engine/games"
	"github.com/pbem/pbem/internal/demo"
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
	lmtp                  bool             // pbem takes its mail by LMTP from mail
	database              string           // pbem's store.database; "": a SQLite file of the run's own
}

// childReport is what one run measured.
type childReport struct {
	elapsed          time.Duration
	commands, mails  int
	latencies        []time.Duration
	maxRSSKB         int64
	user, sys        time.Duration
	loadBefore, load string
}

func runLoadtestChild(ctx context.Context, e *env, r childRun) (err error) {
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	w, err := demo.Start(ctx, demo.Options{Seed: r.seed, Settings: r.settings, Mail: r.mail, NoService: true, LMTP: r.lmtp})
	if err != nil {
		return err
	}
	defer w.Close()
	dir, err := os.MkdirTemp("", "pbem-loadtest-")
	if err != nil {
		return err
	}
	defer func() {
		// A failed run keeps the service's database and log.
		if err == nil {
			os.RemoveAll(dir)
		}
	}()
	name, service := "pbem serve", w.Address
	if r.echo {
		name, service = "echo", w.Player("echo")
	}
	where := "the embedded servers in this process"
	if r.mail != nil {
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
	fmt.Fprintf(e.stdout, "Playing %s at once through %s, %s as a separate process...\n", what, where, name)

	database := r.database
	if database == "" {
		database = filepath.Join(dir, "pbem.db")
	}
	if !r.echo {
		fmt.Fprintf(e.stdout, "pbem's store: %s\n", store.Redact(database))
	}
	child, err := startService(w, dir, database, service, r.echo)
	if err != nil {
		return err
	}
	// However the run ends, the child is stopped and waited for.
	stopped := false
	defer func() {
		if !stopped {
			child.stop()
		}
	}()
	if err := w.Probe(ctx, service); err != nil {
		return fmt.Errorf("%s did not start answering (its log: %s): %w", name, child.logPath, err)
	}

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
			addrs := make([]string, r.players)
			for i := range addrs {
				addrs[i] = w.Player(fmt.Sprintf("g%dp%d", g, i))
			}
			if r.echo {
				schedule := demo.SequentialTurns(r.turns, r.players)
				if r.turns == 0 {
					// Each game its own random game's turns, as pbem's
					// players each play their own game.
					rules, _ := games.Lookup(r.kind)
					schedule, errs[g] = demo.GameTurns(rules, r.players, r.seed+uint64(g))
				}
				if errs[g] == nil {
					results[g], errs[g] = w.PlayEcho(ctx, service, addrs, schedule, r.timeout)
				}
			} else {
				results[g], errs[g] = w.Play(ctx, r.kind, addrs, r.timeout)
			}
			prog.gameDone()
		})
	}
	wg.Wait()
	rep.elapsed = time.Since(start)
	stopProg()
	<-progDone
	rep.load = loadavg()
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("%w (the service's log: %s)", err, child.logPath)
	}
	for _, g := range results {
		rep.commands += g.Commands
		for _, p := range g.Players {
			rep.mails += len(g.Mails[p])
		}
		rep.latencies = append(rep.latencies, g.CommandLatencies...)
	}
	stopped = true
	ru, err := child.stop()
	if err != nil {
		return fmt.Errorf("%s: %w (its log: %s)", name, err, child.logPath)
	}
	rep.maxRSSKB = ru.Maxrss
	rep.user, rep.sys = time.Duration(ru.Utime.Nano()), time.Duration(ru.Stime.Nano())
	rep.print(e.stdout, name, r.games)
	return nil
}

func (rep childReport) print(w io.Writer, name string, games int) {
	s := rep.elapsed.Seconds()
	fmt.Fprintf(w, "\n%d games finished in %s.\n", games, rep.elapsed.Round(time.Millisecond))
	fmt.Fprintf(w, "  commands              %d (%.1f a second, %.1f a game; the creations, joins and moves, or the echo's turns)\n",
		rep.commands, float64(rep.commands)/s, float64(rep.commands)/float64(games))
	fmt.Fprintf(w, "  mails landed          %d (%.1f a second, in the players' mailboxes)\n", rep.mails, float64(rep.mails)/s)
	fmt.Fprintf(w, "  command latency       p50 %s  p90 %s  p99 %s  max %s  (%d commands; SMTP submission to the last resulting mail found by the players)\n",
		pct(rep.latencies, 50), pct(rep.latencies, 90), pct(rep.latencies, 99), pct(rep.latencies, 100), len(rep.latencies))
	fmt.Fprintf(w, "  %-21s peak RSS %.1f MB, CPU %.2f s (user %.2f s, system %.2f s)\n", name,
		float64(rep.maxRSSKB)/1024, (rep.user + rep.sys).Seconds(), rep.user.Seconds(), rep.sys.Seconds())
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
	exited  chan struct{} // closed when the child has exited
	err     error         // how it exited
}

// startService starts pbem serve, or the echo, as a child of this very
// binary, against the world's mail system, with its database and log in
// dir (its database at database). pbem gets the players' limits of the demo (they answer at machine
// speed) and otherwise its defaults, as an operator would run it.
func startService(w *demo.World, dir, database, service string, echo bool) (*serviceProc, error) {
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
	} else {
		lim := demo.HarnessLimits()
		env = append(env,
			"PBEM_SERVICE_ADDRESS="+service,
			"PBEM_STORE_DATABASE="+database,
			"PBEM_SMTP_ADDR="+w.Mail.SMTPAddr,
			"PBEM_SMTP_SECURITY=none",
			fmt.Sprintf("PBEM_LIMITS_LOOP_PER_MINUTE=%d", lim.LoopPerMinute),
			fmt.Sprintf("PBEM_LIMITS_ANSWERS_PER_DAY=%d", lim.AnswersPerDay),
			fmt.Sprintf("PBEM_LIMITS_LOBBY_PER_HOUR=%d", lim.LobbyPerHour),
		)
		if w.LMTPAddr != "" {
			env = append(env, "PBEM_LMTP_ADDR="+w.LMTPAddr)
		} else {
			env = append(env,
				"PBEM_IMAP_ADDR="+w.Mail.IMAPAddr,
				"PBEM_IMAP_USERNAME="+service,
				"PBEM_IMAP_PASSWORD="+w.Mail.Password,
				"PBEM_IMAP_SECURITY=none")
		}
	}
	logPath := filepath.Join(dir, "service.log")
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
