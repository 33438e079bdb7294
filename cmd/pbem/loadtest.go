package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"syscall"
	"time"

	"github.com/pbem/pbem/engine/games"
	"github.com/pbem/pbem/internal/config"
	"github.com/pbem/pbem/internal/demo"
)

// runLoadtest plays many games at once through the real mail loop and
// reports how fast pbem answers and how much memory it takes. By default
// everything runs in this process on loopback: the embedded IMAP and SMTP
// servers, pbem, and the scripted players, who read their mail over IMAP
// and answer over SMTP. With --imap and --smtp it plays through an
// external mail system, with --child or --echo the service runs as a
// separate process (loadchild.go), with --nodes as several
// (loadnodes.go). It stops by itself when every game is
// over or the timeout passes.
func runLoadtest(ctx context.Context, e *env, args []string) error {
	fs := flag.NewFlagSet("loadtest", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	n := fs.Int("games", 8, "games played at the same time")
	kind := fs.String("game", "felix", "the game: "+joinNames(games.Names()))
	players := fs.Int("players", 4, "players in each game")
	seed := fs.Uint64("seed", 1, "decides the scripted players' choices")
	timeout := fs.Duration("timeout", 20*time.Minute, "give up after this long")
	notify := fs.String("notify", "", "the players' notify setting: normal (the default), all, turns or off")
	confirm := fs.String("confirm", "", "the players' confirm setting: on (the default) or off")
	imapAddr := fs.String("imap", "", "HOST:PORT of an external IMAP server (with --smtp, --domain and --password); pbem serve runs as a separate process")
	smtpAddr := fs.String("smtp", "", "HOST:PORT of the external SMTP server that delivers --domain to --imap")
	domain := fs.String("domain", "", "the external mail system's domain, every address of which it delivers")
	password := fs.String("password", "", "the external IMAP server's password, the same for every user")
	lmtp := fs.Bool("lmtp", false, "pbem serve takes its mail by LMTP (lmtp.addr) and reads no mailbox: with --imap and --smtp at lmtp-PORT.DOMAIN, which the mail system delivers to 127.0.0.1:PORT (scripts/mailstack does, for ports 12400-12499); on the embedded servers from a relay in front of them, which hands pbem's mail to the nodes in turn")
	nodes := fs.Int("nodes", 1, fmt.Sprintf("run N pbem serve processes (nodes, 1 to %d) on the one store, each with its own node.name: with --lmtp on the embedded servers pbem's mail goes to them in turn; else they share pbem's mailbox, which the reader lease's holder reads", maxNodes))
	database := fs.String("database", "", "with --child, --imap, --lmtp or --nodes: pbem serve's store.database, a SQLite file or a postgres:// URL of an empty database (the default: a new SQLite file, removed after a run that succeeds)")
	outboxPoll := fs.Duration("outbox-poll", 0, "pbem serve's outbox.poll_interval (the default: pbem's own, 5s): how often a node looks for mail to send that it did not queue itself, such as the answers to mail another node took")
	child := fs.Bool("child", false, "run pbem serve as a separate process, even on the embedded servers (implied by --imap and --echo)")
	echo := fs.Bool("echo", false, "the echo baseline instead of pbem: a service that answers every mail with one plain reply to each player")
	turns := fs.Int("turns", 0, "with --echo, play T turns one player at a time instead of the turns of a game of --game (the default: the players a game waits on at once mail at once, as with pbem)")
	serveEcho := fs.Bool("serve-echo", false, "run the echo service itself (what --echo starts as its child) at --address")
	address := fs.String("address", "", "with --serve-echo, the echo's address and IMAP login")
	serverPID := fs.Int("server-pid", 0, "the database server's process (PostgreSQL's postmaster: the first line of its postmaster.pid); the report adds the CPU it and its children spent over the run")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the service (pbem serve or the echo, a separate process) to FILE")
	setUsage(fs, "usage: pbem loadtest [--games N] [--game G] [--players P] [--seed N] [--timeout D] [--notify SETTING] [--confirm on|off]\n"+
		"                     [--imap HOST:PORT --smtp HOST:PORT --domain D --password P] [--lmtp] [--child] [--nodes N] [--outbox-poll D] [--database DB] [--echo [--turns T]] [--cpuprofile FILE] [--server-pid PID]\n\n"+
		"Plays N games at once by mail and reports speed and memory. By default the\n"+
		"embedded servers, pbem and the scripted players share this process. --imap\n"+
		"and --smtp play through an external mail system (such as scripts/mailstack's\n"+
		"Postfix + Dovecot), with pbem serve as a separate process; --echo plays the\n"+
		"echo baseline the same way, to compare pbem with. --lmtp has the mail\n"+
		"system (or, on the embedded servers, a relay in front of them) deliver\n"+
		"pbem's mail to it by LMTP instead. --database gives pbem serve its store\n"+
		"(a postgres:// URL, say) in place of a new SQLite file. --nodes runs\n"+
		"several pbem serve processes on that store.")
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 0 {
		fs.Usage()
		return usageError("loadtest takes no arguments, only options")
	}
	if *serveEcho {
		if *imapAddr == "" || *smtpAddr == "" || *address == "" {
			return usageError("--serve-echo needs --imap, --smtp and --address")
		}
		stopProfile, err := startCPUProfile(*cpuProfile)
		if err != nil {
			return err
		}
		defer stopProfile()
		return demo.RunEcho(ctx, demo.EchoConfig{IMAPAddr: *imapAddr, SMTPAddr: *smtpAddr, Address: *address, Password: *password,
			Log: newLogger(e.stderr, config.Default().Log)})
	}
	if err := checkLoadtestGames(*kind, *players, *n, *turns); err != nil {
		return err
	}
	mail, err := loadtestMail(*imapAddr, *smtpAddr, *domain, *password, *lmtp, *echo)
	if err != nil {
		return err
	}
	if err := checkNodes(*nodes, mail != nil, *lmtp, *echo); err != nil {
		return err
	}
	settings, err := playerSettings(*notify, *confirm)
	if err != nil {
		return err
	}
	separate := mail != nil || *child || *echo || *lmtp || *nodes > 1
	if *serverPID < 0 || (*serverPID > 0 && !separate) {
		return usageError("--server-pid measures a database server beside pbem serve as a separate process: with --child, --imap, --lmtp or --nodes")
	}
	if *cpuProfile != "" && !separate && !*serveEcho {
		return usageError("--cpuprofile profiles the service's own process, which runs only with --child, --imap, --echo, --lmtp or --nodes")
	}
	if err := checkServeFlags(*database, *outboxPoll, *echo, separate); err != nil {
		return err
	}
	run := childRun{games: *n, players: *players, turns: *turns, kind: *kind,
		settings: settings, seed: *seed, timeout: *timeout, echo: *echo, mail: mail, lmtp: *lmtp, database: *database, nodes: *nodes, outboxPoll: *outboxPoll, cpuProfile: *cpuProfile, serverPID: *serverPID}
	if separate {
		return runLoadtestChild(ctx, e, run)
	}
	return runLoadtestInProcess(ctx, e, run)
}

// checkServeFlags checks the flags that set pbem serve's own settings:
// they need pbem serve as a separate process, and not the echo.
func checkServeFlags(database string, outboxPoll time.Duration, echo, separate bool) error {
	if database != "" && (echo || !separate) {
		return usageError("--database is pbem serve's, which runs only with --child, --imap, --lmtp or --nodes (not --echo)")
	}
	if outboxPoll < 0 || (outboxPoll > 0 && (echo || !separate)) {
		return usageError("--outbox-poll is pbem serve's, which runs only with --child, --imap, --lmtp or --nodes (not --echo)")
	}
	return nil
}

// runLoadtestInProcess plays run's games with the embedded servers, pbem
// and the scripted players all in this process, and reports.
func runLoadtestInProcess(ctx context.Context, e *env, run childRun) error {
	ctx, cancel := context.WithTimeout(ctx, run.timeout)
	defer cancel()
	w, err := demo.Start(ctx, demo.Options{Seed: run.seed, Settings: run.settings})
	if err != nil {
		return err
	}
	defer w.Close()
	fmt.Fprintf(e.stdout, "Playing %d games of %s with %d players each at once, by mail over loopback...\n", run.games, run.kind, run.players)

	start := time.Now()
	results := make([]demo.Game, run.games)
	durations := make([]time.Duration, run.games)
	errs := make([]error, run.games)
	var wg sync.WaitGroup
	for g := range run.games {
		wg.Add(1)
		go func() {
			defer wg.Done()
			addrs := make([]string, run.players)
			for i := range addrs {
				addrs[i] = w.Player(fmt.Sprintf("g%dp%d", g, i))
			}
			t0 := time.Now()
			results[g], errs[g] = w.Play(ctx, run.kind, addrs, run.timeout)
			durations[g] = time.Since(t0)
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	if err := errors.Join(errs...); err != nil {
		return err
	}
	return reportInProcess(ctx, e, w, results, durations, elapsed)
}

// reportInProcess prints what an in-process loadtest measured: moves and
// mails per second, mails per player and per decision, answer latency
// and memory.
func reportInProcess(ctx context.Context, e *env, w *demo.World, results []demo.Game, durations []time.Duration, elapsed time.Duration) error {
	var latencies []time.Duration
	commands := 0
	var perPlayer, perDecision []float64
	for _, g := range results {
		latencies = append(latencies, g.ReplyLatencies...)
		perPlayer = append(perPlayer, g.MailsPerPlayer())
		perDecision = append(perDecision, g.MailsPerDecision())
		moves, err := w.Store.Moves(ctx, g.ID, 0)
		if err != nil {
			return err
		}
		commands += len(moves)
	}
	stats, err := w.Store.OutboxStats(ctx, time.Now())
	if err != nil {
		return err
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)

	fmt.Fprintf(e.stdout, "\n%d games finished in %s.\n", len(results), elapsed.Round(time.Millisecond))
	fmt.Fprintf(e.stdout, "  moves applied         %d (%.1f a second)\n", commands, float64(commands)/elapsed.Seconds())
	fmt.Fprintf(e.stdout, "  mails sent            %d (%.1f a second; %d failed for good)\n", stats.Sent, float64(stats.Sent)/elapsed.Seconds(), stats.Dead)
	fmt.Fprintf(e.stdout, "  mails per player      %.1f per game (min %.1f, max %.1f)\n", mean(perPlayer), slices.Min(perPlayer), slices.Max(perPlayer))
	fmt.Fprintf(e.stdout, "  mails per decision    %.2f (min %.2f, max %.2f; a decision is a move, the creation or a join)\n", mean(perDecision), slices.Min(perDecision), slices.Max(perDecision))
	fmt.Fprintf(e.stdout, "  answer to a player    p50 %s  p95 %s  p99 %s  max %s  (%d answers, IMAP polling included)\n",
		pct(latencies, 50), pct(latencies, 95), pct(latencies, 99), pct(latencies, 100), len(latencies))
	fmt.Fprintf(e.stdout, "  one game              p50 %s  max %s\n", pct(durations, 50), pct(durations, 100))
	fmt.Fprintf(e.stdout, "  memory                peak RSS %d MB, Go heap in use %d MB (servers, pbem and players together)\n",
		ru.Maxrss/1024, ms.HeapInuse>>20)
	return nil
}

// checkLoadtestGames checks the flags that say what games loadtest plays.
func checkLoadtestGames(kind string, players, n, turns int) error {
	rules, ok := games.Lookup(kind)
	if !ok {
		return usageError("unknown game %q", kind)
	}
	if players < rules.MinPlayers() || players > rules.MaxPlayers() || n < 1 || n > 500 {
		return usageError("%s takes %d to %d players, and --games is 1 to 500", kind, rules.MinPlayers(), rules.MaxPlayers())
	}
	if turns < 0 {
		return usageError("--turns must be at least 1 (or 0, the default: the game's turns)")
	}
	return nil
}

// checkNodes checks --nodes against the other flags: several nodes are
// pbem serve's (not the echo's), and Postfix's LMTP transport for
// --imap --lmtp names one node's port.
func checkNodes(nodes int, external, lmtp, echo bool) error {
	if nodes < 1 || nodes > maxNodes {
		return usageError("--nodes is 1 to %d", maxNodes)
	}
	if nodes > 1 && echo {
		return usageError("--nodes is pbem serve's, not the echo's")
	}
	if nodes > 1 && external && lmtp {
		return usageError("--nodes above 1 with --lmtp needs the embedded servers: the mail system delivers lmtp-PORT.DOMAIN to one port")
	}
	return nil
}

// loadtestMail is the external mail system the flags name, or nil for
// the embedded servers, and checks that --lmtp goes without --echo.
func loadtestMail(imapAddr, smtpAddr, domain, password string, lmtp, echo bool) (*demo.MailSystem, error) {
	var mail *demo.MailSystem
	if imapAddr != "" || smtpAddr != "" {
		if imapAddr == "" || smtpAddr == "" || domain == "" || password == "" {
			return nil, usageError("an external mail system needs --imap, --smtp, --domain and --password")
		}
		mail = &demo.MailSystem{IMAPAddr: imapAddr, SMTPAddr: smtpAddr, Domain: domain, Password: password}
	}
	if lmtp && echo {
		return nil, usageError("--lmtp is pbem serve's, not the echo's")
	}
	return mail, nil
}

// mean is the average of xs.
func mean(xs []float64) float64 {
	sum := 0.0
	for _, x := range xs {
		sum += x
	}
	return sum / float64(max(1, len(xs)))
}

// pct is the p-th percentile of ds (p 100 is the maximum).
func pct(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := (len(s)*p + 99) / 100
	return s[max(0, min(len(s)-1, i-1))].Round(time.Millisecond)
}
