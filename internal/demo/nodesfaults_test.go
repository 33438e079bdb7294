//go:build faults

package demo

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pbem/pbem/internal/testlib"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/store/storetest"
)

// The fault run with several nodes (issue 27, item 4): three `pbem serve`
// processes on one PostgreSQL database, with the real Postfix (and
// Dovecot) between them and the players, while several games are played
// to the end. A random node is SIGKILLed every few seconds and started
// again under its own name, and PostgreSQL itself is restarted once.
// Afterwards nothing may be lost or doubled (checkExactlyOnce, game by
// game). It needs the mail stack and a PostgreSQL cluster it may
// restart, so it is a fault test (-tags faults, docs/faults.md), not
// part of CI:
//
//	scripts/mailstack start && eval "$(scripts/mailstack env)"
//	export PBEM_POSTGRES_DIR=/tmp/pbem-postgres-faults PBEM_POSTGRES_PORT=15433
//	scripts/postgres start && eval "$(scripts/postgres env)"
//	go test -tags faults -run TestNodesFaults -v ./internal/demo
//
// The restart goes to the cluster `scripts/postgres` manages with the
// test's environment, which must be the one PBEM_TEST_POSTGRES names; a
// private one (PBEM_POSTGRES_DIR, PBEM_POSTGRES_PORT) keeps the restart
// from breaking tests that others run on the shared one.

// Sizes of the run: the tables of four players playing at once, the
// games each plays one after the other, the nodes, and the reader
// lease's ttl (short, so that takeovers come within seconds). A Felix
// game through Postfix takes some 15 s without faults: three in a row
// give the killer time for a dozen kills and the restart.
//
// A table goes on to another game until the killer has made its round
// of faults (faultMinKills kills, among them one of the holder, the
// restart of PostgreSQL and the kill of all nodes at once): how long a
// game takes depends on the path (by LMTP, with every node sending, nine
// games took 16 s) and on the machine, and the faults must land during
// play, whatever its pace. faultMaxGamesPerTable bounds a run whose
// faults never all come.
const (
	faultTables           = 3
	faultGamesPerTable    = 3
	faultMaxGamesPerTable = 30
	faultMinKills         = 12
	faultNodes            = 3
	faultTTL              = 2 * time.Second
)

// The groups of LMTP ports scripts/mailstack serves as nodes-BASE.DOMAIN:
// BASE from nodesFirst to nodesLast in steps of nodesStep, faultNodes
// ports each.
const (
	nodesFirst = 12500
	nodesLast  = 12590
	nodesStep  = 10
)

// nodesMailSystem is the mail stack of the environment
// (scripts/mailstack env), or a skip saying what is missing.
func nodesMailSystem(t *testing.T) *MailSystem {
	t.Helper()
	m, ok := mailSystemFromEnv()
	if !ok {
		t.Skip(`the fault run with several nodes needs Postfix and Dovecot: ` +
			`scripts/mailstack start && eval "$(scripts/mailstack env)"`)
	}
	if !storetest.OnPostgres() {
		t.Skip(`the fault run with several nodes needs PostgreSQL (PBEM_TEST_POSTGRES), ` +
			`a cluster it may restart: scripts/postgres start && eval "$(scripts/postgres env)", ` +
			`best with PBEM_POSTGRES_DIR and PBEM_POSTGRES_PORT set to a private one`)
	}
	return m
}

// checkRestartable fails unless `scripts/postgres restart` would restart
// the server PBEM_TEST_POSTGRES names, not some other cluster.
func checkRestartable(t *testing.T) {
	t.Helper()
	out, err := exec.Command("../../scripts/postgres", "env").Output()
	if err != nil {
		t.Fatalf("scripts/postgres env: %v", err)
	}
	want := os.Getenv(storetest.PostgresEnv)
	if !strings.Contains(string(out), "'"+want+"'") {
		t.Fatalf("%s is %q, but scripts/postgres restart would restart %s: set PBEM_POSTGRES_DIR and PBEM_POSTGRES_PORT as for the cluster the test uses",
			storetest.PostgresEnv, store.Redact(want), store.Redact(strings.TrimSpace(string(out))))
	}
}

// restartPostgres restarts the test's PostgreSQL server and says how
// long it was away.
func restartPostgres(t *testing.T) time.Duration {
	t.Helper()
	begin := time.Now()
	out, err := exec.Command("../../scripts/postgres", "restart").CombinedOutput()
	if err != nil {
		t.Errorf("scripts/postgres restart: %v\n%s", err, out)
	}
	return time.Since(begin)
}

// freeGroup is the base of a group of nodes whose ports were all free a
// moment ago, tried in random order.
func freeGroup() (int, error) {
	n := (nodesLast-nodesFirst)/nodesStep + 1
	for _, i := range rand.Perm(n) {
		base := nodesFirst + i*nodesStep
		free := true
		for p := base; p < base+faultNodes && free; p++ {
			ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", p))
			if err != nil {
				free = false
				continue
			}
			ln.Close()
		}
		if free {
			return base, nil
		}
	}
	return 0, fmt.Errorf("no group of %d free ports from %d to %d", faultNodes, nodesFirst, nodesLast+faultNodes-1)
}

// mailstackPostfixLog is scripts/mailstack's Postfix log.
func mailstackPostfixLog() string {
	if dir := os.Getenv("PBEM_MAILSTACK_DIR"); dir != "" {
		return filepath.Join(dir, "postfix.log")
	}
	return "/tmp/pbem-mailstack/postfix.log"
}

// postfixSince is Postfix's log from offset from on.
func postfixSince(t *testing.T, from int64) string {
	t.Helper()
	b, err := os.ReadFile(mailstackPostfixLog())
	if err != nil {
		t.Fatal(err)
	}
	if int64(len(b)) < from {
		return ""
	}
	return string(b[from:])
}

func fileSize(path string) int64 {
	info, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return info.Size()
}

// TestNodesFaults is the fault run with several nodes, in two variants:
//
//   - lmtp: every node serves LMTP on its port of a group, and Postfix
//     delivers pbem's mail (nodes-BASE.DOMAIN) to one of them at random,
//     trying the others when it is down; a mail that finds all down, or
//     a node killed mid-delivery, waits in Postfix's queue for the next
//     try (1-4 s in scripts/mailstack).
//   - imap: every node is configured to read pbem's one Dovecot mailbox;
//     only the holder of the reader lease does.
//
// In both, every node sends the outbox, claiming each batch
// (docs/operations.md, "Several nodes on one database"), through Postfix
// to the players' Dovecot mailboxes; a node started again under its name
// frees the claims it died with. faultTables tables play at once, each
// Felix games of four scripted players in a row, at least
// faultGamesPerTable and more until the killer has made its round of
// faults (faultMinKills kills, the restart and the blackout). Every 2 to 5 s (PBEM_CRASH_SEED repeats the
// choices) one node is SIGKILLed: every third kill, from the first, the
// holder of the lease, which is started again once another node has
// taken the lease over; the others a node picked at random, started
// again after 0.2 to 1 s. After the second kill PostgreSQL is restarted
// (stop -m fast, start), and after the fifth all nodes are killed at
// once and started again 1.5 s later. Afterwards, for every game
// (checkExactlyOnce): it finished; every player mail is in inbound exactly once, none set
// aside as failed; the moves are exactly the applied commands, in order;
// every outbox row is sent and arrived, none pending or dead; re-sends
// are within one outbox batch per kill and per PostgreSQL restart
// (docs/exactly-once.md: a kill re-sends at most the batch in hand; an
// outage none, or that batch if the sender stops during it). With IMAP,
// no node ever read an applied mail again.
func TestNodesFaults(t *testing.T) {
	mail := nodesMailSystem(t)
	checkRestartable(t)
	seed := crashSeed(t)
	t.Logf("seed %d (set PBEM_CRASH_SEED to repeat the players' choices and the kill times)", seed)
	bin := buildPbem(t)
	for _, variant := range []string{"lmtp", "imap"} {
		t.Run(variant, func(t *testing.T) { nodesFaultRun(t, bin, mail, variant, seed) })
	}
}

// nodeVars configures node name of a variant's run, through PBEM_*
// variables only.
func nodeVars(w *World, mail *MailSystem, db, variant, name string, port int) map[string]string {
	vars := map[string]string{
		"PBEM_NODE_NAME":            name,
		"PBEM_LEASE_TTL":            faultTTL.String(),
		"PBEM_SERVICE_ADDRESS":      w.Address,
		"PBEM_STORE_DATABASE":       db,
		"PBEM_SMTP_ADDR":            mail.SMTPAddr,
		"PBEM_SMTP_SECURITY":        "none",
		"PBEM_LOG_LEVEL":            "info",
		"PBEM_OUTBOX_POLL_INTERVAL": "200ms",
		// Scripted players answer at machine speed: the per-address
		// limits meant for people would stop them.
		"PBEM_LIMITS_LOOP_PER_MINUTE": "100000",
		"PBEM_LIMITS_ANSWERS_PER_DAY": "100000",
		"PBEM_LIMITS_LOBBY_PER_HOUR":  "100000",
	}
	if variant == "lmtp" {
		vars["PBEM_LMTP_ADDR"] = fmt.Sprintf("127.0.0.1:%d", port)
	} else {
		vars["PBEM_IMAP_ADDR"] = mail.IMAPAddr
		vars["PBEM_IMAP_USERNAME"] = w.Address
		vars["PBEM_IMAP_PASSWORD"] = mail.Password
		vars["PBEM_IMAP_SECURITY"] = "none"
		vars["PBEM_IMAP_POLL_INTERVAL"] = "200ms"
	}
	return vars
}

// faultTally is what the killer did.
type faultTally struct {
	kills, holderKills int
	killed             []string        // the nodes killed, in order
	takeovers          []time.Duration // from a holder's death to another's lease
	pgRestarts         int
	blackouts          int // all nodes killed at once
	pgAway             time.Duration
}

func nodesFaultRun(t *testing.T, bin string, mail *MailSystem, variant string, seed uint64) {
	ctx := context.Background()
	w, err := Start(ctx, Options{Seed: seed, Mail: mail, NoService: true})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	base := 0
	if variant == "lmtp" {
		if base, err = freeGroup(); err != nil {
			t.Fatal(err)
		}
		w.Address = fmt.Sprintf("pbem%s@nodes-%d.%s", w.Suffix, base, mail.Domain)
	}
	t.Logf("service %s, %d nodes, lease ttl %s", w.Address, faultNodes, faultTTL)
	db := storetest.Database(t)
	logFrom := fileSize(mailstackPostfixLog())

	names := make([]string, faultNodes)
	ps := make(procs, faultNodes)
	for i := range ps {
		names[i] = fmt.Sprintf("node-%c", 'a'+i)
		ps[i] = newDaemonProc(t, bin, t.TempDir(), nodeVars(w, mail, db, variant, names[i], base+i))
	}
	ps.startAll(t)
	holder := leaseHolderOf(ctx, t, db)

	var tally faultTally
	stopKilling := make(chan struct{})
	killerDone := make(chan struct{})
	// enough is closed once the killer has made its round of faults:
	// the tables then end with the game in hand.
	enough := make(chan struct{})
	go func() {
		defer close(killerDone)
		said := false
		defer func() {
			if !said {
				close(enough)
			}
		}()
		pctx, cancel := context.WithCancel(ctx)
		defer cancel()
		go func() {
			<-stopKilling
			cancel()
		}()
		rng := rand.New(rand.NewPCG(seed, 28))
		for k := 0; ; k++ {
			if !said && tally.kills >= faultMinKills && tally.holderKills > 0 && tally.pgRestarts > 0 && tally.blackouts > 0 {
				close(enough)
				said = true
			}
			select {
			case <-stopKilling:
				return
			case <-time.After(2*time.Second + time.Duration(rng.Int64N(int64(3*time.Second)))):
			}
			if k == 2 && tally.pgRestarts == 0 {
				tally.pgAway = restartPostgres(t)
				tally.pgRestarts++
				t.Logf("PostgreSQL restarted (%s) after %d kills", tally.pgAway.Round(time.Millisecond), tally.kills)
			}
			if k == 5 && tally.blackouts == 0 {
				// Every node at once: by LMTP, Postfix finds none and
				// keeps pbem's mail in its queue for its next try.
				for i, d := range ps {
					d.kill()
					tally.kills++
					tally.killed = append(tally.killed, names[i])
				}
				tally.blackouts++
				select {
				case <-stopKilling:
				case <-time.After(1500 * time.Millisecond):
				}
				for _, d := range ps {
					d.start()
				}
				t.Logf("all %d nodes killed at once and started again 1.5 s later, after %d kills", faultNodes, tally.kills)
				continue
			}
			var h string
			if testlib.Poll(pctx, func() bool { h = holder(); return h != "" }) != nil {
				return
			}
			i := rng.IntN(faultNodes)
			if j := slices.Index(names, h); k%3 == 0 && j >= 0 {
				i = j // aimed at the holder
			}
			wasHolder := names[i] == h
			diedAt := time.Now()
			ps[i].kill()
			tally.kills++
			tally.killed = append(tally.killed, names[i])
			if !wasHolder {
				pause := 200*time.Millisecond + time.Duration(rng.Int64N(int64(800*time.Millisecond)))
				select {
				case <-stopKilling:
				case <-time.After(pause):
				}
				ps[i].start()
				continue
			}
			// The holder died: another node takes over once the lease
			// expires; only then does the dead one come back, since
			// under its own name it would take back its lease at once.
			tally.holderKills++
			if testlib.Poll(pctx, func() bool { n := holder(); return n != "" && n != names[i] }) != nil {
				ps[i].start()
				return
			}
			tally.takeovers = append(tally.takeovers, time.Since(diedAt))
			ps[i].start()
		}
	}()

	playCtx, cancelPlay := context.WithCancel(ctx)
	defer cancelPlay()
	// A node exiting by itself ends the play (daemonProc fails the test).
	for _, d := range ps {
		go func() {
			select {
			case <-d.dead:
				cancelPlay()
			case <-playCtx.Done():
			}
		}()
	}
	began := time.Now()
	tableGames := make([][]Game, faultTables)
	errs := make([]error, faultTables)
	var wg sync.WaitGroup
	for tb := range faultTables {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range faultMaxGamesPerTable {
				if j >= faultGamesPerTable && closed(enough) {
					return
				}
				// New players for every game: the checks find a game
				// as its first player's latest (Result).
				players := make([]string, 4)
				for i := range players {
					players[i] = w.Player(fmt.Sprintf("t%dg%dp%d", tb, j, i))
				}
				g, err := w.Play(playCtx, "felix", players, 8*time.Minute)
				if err != nil {
					errs[tb] = fmt.Errorf("game %d: %w", j+1, err)
					return
				}
				g.Players = players
				tableGames[tb] = append(tableGames[tb], g)
			}
		}()
	}
	wg.Wait()
	close(stopKilling)
	<-killerDone
	played := time.Since(began)
	var games []Game
	for _, tg := range tableGames {
		games = append(games, tg...)
	}
	t.Logf("the %d games took %s with %d kills", len(games), played.Round(time.Millisecond), tally.kills)
	for tb, err := range errs {
		if err != nil {
			t.Fatalf("table %d, after %d kills: %v\n%s", tb, tally.kills, err, ps.logTail())
		}
	}
	if tally.holderKills == 0 || tally.pgRestarts == 0 || tally.blackouts == 0 {
		t.Fatalf("the games were over after %d kills (%d of the lease holder), %d PostgreSQL restarts and %d kills of all nodes at once; the run wants at least one of each",
			tally.kills, tally.holderKills, tally.pgRestarts, tally.blackouts)
	}

	// Every game, checked as after a single node's crash; the first call
	// drains the outbox and stops the nodes.
	var resent, taken, moves, outboxRows int
	for i, g := range games {
		rep := checkExactlyOnce(t, ctx, w, ps, db, g.Players, g, false)
		resent += rep.resent
		moves += rep.moves
		taken, outboxRows = rep.taken, rep.outbox // of all games
		if i == 0 && len(rep.failed) > 0 {
			t.Errorf("%d mails set aside as failed (a restart or a kill must never do that): %v", len(rep.failed), rep.failed)
		}
	}
	bound := resendBound(tally.kills + tally.pgRestarts)
	if resent > bound {
		t.Errorf("%d mails arrived twice with %d kills and %d PostgreSQL restarts: more than one batch each (%d)",
			resent, tally.kills, tally.pgRestarts, bound)
	}
	var logs bytes.Buffer
	for _, d := range ps {
		b, _ := os.ReadFile(d.path)
		logs.Write(b)
	}
	seenBefore := strings.Count(logs.String(), "inbound seen before")
	if variant == "imap" && seenBefore > 0 {
		t.Errorf("a takeover read %d applied mails again", seenBefore)
	}

	// What Postfix did with pbem's mail: deliveries deferred (all nodes
	// down, a node killed mid-delivery, the database away), and, with
	// LMTP, connections a dead node refused before Postfix tried the
	// next.
	pf := postfixSince(t, logFrom)
	local, _, _ := strings.Cut(w.Address, "@")
	deferred := len(regexp.MustCompile(`to=<`+regexp.QuoteMeta(local)+`(\+[^@>]*)?@[^>]*>, .*status=deferred`).FindAllStringIndex(pf, -1))
	refused := 0
	if variant == "lmtp" {
		refused = len(regexp.MustCompile(fmt.Sprintf(`connect to 127\.0\.0\.1\[127\.0\.0\.1\]:(%d|%d|%d): Connection refused`, base, base+1, base+2)).FindAllStringIndex(pf, -1))
	}
	t.Logf("nodes %s: %d games, %d kills, %d of the lease holder, %d takeovers after %v (ttl %s), %d PostgreSQL restart (%s), %d blackout (all nodes killed at once), %d player mails taken once each, %d moves, %d outbox mails, %d re-sent (bound %d), %d deliveries of pbem's mail deferred by Postfix, %d refused by a dead node, %d met again; %s",
		variant, len(games), tally.kills, tally.holderKills, len(tally.takeovers), roundAll(tally.takeovers), faultTTL,
		tally.pgRestarts, tally.pgAway.Round(time.Millisecond), tally.blackouts, taken, moves, outboxRows, resent, bound, deferred, refused, seenBefore,
		played.Round(time.Second))
	t.Logf("killed: %v", tally.killed)
	if t.Failed() {
		t.Logf("the nodes' logs end:\n%s", ps.logTail())
	}
}

// closed reports whether c is closed, without waiting.
func closed(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}
