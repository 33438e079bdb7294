package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pbem/pbem/engine/games"
	"github.com/pbem/pbem/internal/demo"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/store/storetest"
)

// runsPbem, set in a child's environment, makes this test binary behave
// as the pbem binary: pbem loadtest starts the service as a child of
// os.Executable(), which in a test is the test binary.
const runsPbem = "LOADTEST_TEST_RUNS_PBEM"

func TestMain(m *testing.M) {
	if os.Getenv(runsPbem) == "1" {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		code := run(ctx, &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr}, os.Args[1:])
		stop()
		os.Exit(code)
	}
	os.Exit(m.Run())
}

// loadtest runs pbem loadtest with args and returns what it printed.
func loadtest(t *testing.T, args ...string) string {
	t.Helper()
	t.Setenv(runsPbem, "1")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute) // a failure guard only
	defer cancel()
	var out, errs bytes.Buffer
	if code := run(ctx, &env{stdout: &out, stderr: &errs}, append([]string{"loadtest"}, args...)); code != 0 {
		t.Fatalf("pbem loadtest %s: exit %d\n%s%s", strings.Join(args, " "), code, out.String(), errs.String())
	}
	return out.String()
}

// pbem serve as a separate process, against the embedded servers standing
// in for an external mail system: the games finish and the child's memory
// and CPU are reported.
func TestLoadtestChild(t *testing.T) {
	if testing.Short() {
		t.Skip("plays whole games by mail")
	}
	out := loadtest(t, "--child", "--games", "2")
	reportSays(t, out, "pbem serve as a separate process", "2 games finished", "command latency       p50", "pbem serve            peak RSS", "load average before")
}

// The echo baseline: every turn answered to the four players.
func TestLoadtestEcho(t *testing.T) {
	if testing.Short() {
		t.Skip("plays whole games by mail")
	}
	out := loadtest(t, "--echo", "--games", "2", "--turns", "5")
	reportSays(t, out, "echo as a separate process", "commands              10 ", "mails landed          40 ", "echo                  peak RSS")
}

// The echo baseline with the turns of a Felix game (the default): the
// players the game would wait on at once mail at once, and each command
// is answered to the four players.
func TestLoadtestEchoGameTurns(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a whole game by mail")
	}
	out := loadtest(t, "--echo", "--games", "1", "--seed", "3")
	rules, _ := games.Lookup("felix")
	schedule, err := demo.GameTurns(rules, 4, 3)
	if err != nil {
		t.Fatal(err)
	}
	commands := 0
	for _, step := range schedule {
		commands += len(step)
	}
	reportSays(t, out, "1 echo games with the turns of felix with 4 players", fmt.Sprintf("commands              %d ", commands), fmt.Sprintf("mails landed          %d ", 4*commands))
}

func TestLoadtestFlags(t *testing.T) {
	var out, errs bytes.Buffer
	if code := run(context.Background(), &env{stdout: &out, stderr: &errs}, []string{"loadtest", "--imap", "127.0.0.1:1"}); code != 2 {
		t.Errorf("--imap alone: exit %d, want 2 (%s)", code, errs.String())
	}
	if !strings.Contains(errs.String(), "--smtp, --domain and --password") {
		t.Errorf("--imap alone: %s", errs.String())
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--game", "chess"}, `unknown game "chess"`},
		{[]string{"--players", "9"}, "felix takes 3 to 5 players, and --games is 1 to 500"},
		{[]string{"--games", "0"}, "--games is 1 to 500"},
		{[]string{"--turns", "-1"}, "--turns must be at least 1"},
		{[]string{"--lmtp", "--echo"}, "--lmtp is pbem serve's, not the echo's"},
		{[]string{"--imap", "127.0.0.1:1", "--smtp", "127.0.0.1:2", "--domain", "x.test", "--password", "p", "--lmtp", "--echo"}, "not the echo's"},
		{[]string{"--nodes", "0"}, "--nodes is 1 to 8"},
		{[]string{"--nodes", "9"}, "--nodes is 1 to 8"},
		{[]string{"--nodes", "2", "--echo"}, "--nodes is pbem serve's, not the echo's"},
		{[]string{"--imap", "127.0.0.1:1", "--smtp", "127.0.0.1:2", "--domain", "x.test", "--password", "p", "--lmtp", "--nodes", "2"}, "needs the embedded servers"},
		{[]string{"--outbox-poll", "1s"}, "--outbox-poll is pbem serve's"},
		{[]string{"--child", "--outbox-poll", "-1s"}, "--outbox-poll is pbem serve's"},
	} {
		var out, errs bytes.Buffer
		args := append([]string{"loadtest"}, c.args...)
		if code := run(context.Background(), &env{stdout: &out, stderr: &errs}, args); code != 2 || !strings.Contains(errs.String(), c.want) {
			t.Errorf("%q: exit %d, %s; want exit 2 and %q", c.args, code, errs.String(), c.want)
		}
	}
}

// The progress bar draws only on a terminal.
func TestProgress(t *testing.T) {
	var buf bytes.Buffer
	p := newProgress(&buf, 4)
	if p.w != nil {
		t.Fatal("a buffer is no terminal")
	}
	got := p.line(1, 30, 10*time.Second)
	if !strings.HasPrefix(got, "[#######-----------------------] 1/4 games  30 commands (3.0/s)  10s") {
		t.Errorf("line: %q", got)
	}
}

// --database gives pbem serve the store it is told: here a SQLite file
// outside the run's own directory, which the run leaves in place with
// the games in it; with PBEM_TEST_POSTGRES set, a schema of its own.
func TestLoadtestDatabase(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a whole game by mail")
	}
	db := storetest.Database(t)
	out := loadtest(t, "--child", "--games", "1", "--database", db)
	reportSays(t, out, "pbem's store: "+store.Redact(db), "1 games finished")
	st, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	games, err := st.AllGames(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 1 {
		t.Errorf("%d games in the database given, want 1", len(games))
	}
}

// --database belongs to pbem serve as a separate process.
func TestLoadtestDatabaseNeedsChild(t *testing.T) {
	var out, errs bytes.Buffer
	code := run(context.Background(), &env{stdout: &out, stderr: &errs}, []string{"loadtest", "--database", "x.db"})
	if code == 0 || !strings.Contains(errs.String(), "--database is pbem serve's") {
		t.Errorf("exit %d, stderr %q", code, errs.String())
	}
}

// Two nodes on one store, pbem's mail handed to them in turn by LMTP: the
// game finishes, both nodes took mail and sent mail (each node's outbox
// answers the mail it took), one holds the lease, and the report says
// so. On SQLite always, and on
// PostgreSQL too when PBEM_TEST_POSTGRES is set.
func TestLoadtestNodesLMTP(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a whole game by mail")
	}
	engines := map[string]func(*testing.T) string{
		"sqlite": func(t *testing.T) string { return filepath.Join(t.TempDir(), "pbem.db") },
	}
	if storetest.OnPostgres() {
		engines["postgres"] = func(t *testing.T) string { return storetest.Database(t) }
	}
	for engine, database := range engines {
		t.Run(engine, func(t *testing.T) {
			db := database(t)
			out := loadtest(t, "--lmtp", "--nodes", "2", "--games", "1", "--outbox-poll", "50ms", "--database", db)
			reportSays(t, out, "pbem's mail by LMTP to 2 node(s) in turn, 2 pbem serve nodes as separate processes",
				"1 games finished", "pbem serve, all nodes peak RSS", "CPU per command")
			nodes := reportedNodes(t, out, 2)
			commands := reportedCommands(t, out)
			took, sent, holders := 0, 0, 0
			for _, n := range nodes {
				if n.took == 0 {
					t.Errorf("%s took no mail:\n%s", n.name, out)
				}
				if n.sent == 0 {
					t.Errorf("%s sent no mail, though every node's outbox answers the mail it took:\n%s", n.name, out)
				}
				took += n.took
				sent += n.sent
				if n.leader {
					holders++
				}
			}
			if holders != 1 {
				t.Errorf("%d nodes hold the lease, want 1:\n%s", holders, out)
			}
			// Together the nodes sent at least what landed.
			if landed := reportedLanded(t, out); sent < landed {
				t.Errorf("the nodes sent %d mails, but %d landed:\n%s", sent, landed, out)
			}
			// Every command, and one probe for each node.
			if took != commands+2 {
				t.Errorf("the nodes took %d mails, want %d commands and 2 probes:\n%s", took, commands, out)
			}
			assertGameFinished(t, db)
		})
	}
}

// Two nodes sharing pbem's mailbox (no --lmtp): the lease holder reads it
// all, the other node takes nothing, and the game finishes.
func TestLoadtestNodesIMAP(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a whole game by mail")
	}
	db := filepath.Join(t.TempDir(), "pbem.db")
	out := loadtest(t, "--nodes", "2", "--games", "1", "--database", db)
	reportSays(t, out, "2 pbem serve nodes as separate processes", "The nodes share pbem's mailbox", "1 games finished")
	nodes := reportedNodes(t, out, 2)
	commands := reportedCommands(t, out)
	for _, n := range nodes {
		want := 0
		if n.leader {
			want = commands + 1 // and the probe
		}
		if n.took != want {
			t.Errorf("%s (lease %v) took %d mails, want %d:\n%s", n.name, n.leader, n.took, want, out)
		}
	}
	assertGameFinished(t, db)
}

// reportedNode is one node's line of loadtest's report.
type reportedNode struct {
	name       string
	took, sent int
	leader     bool
}

var nodeLine = regexp.MustCompile(`(?m)^  (node\d+) +took (\d+) mails, sent (\d+);.*?(; holds the reader lease)?$`)

// reportedNodes reads the report's line for each node; the test stops
// unless there are want of them.
func reportedNodes(t *testing.T, out string, want int) []reportedNode {
	t.Helper()
	var nodes []reportedNode
	for _, m := range nodeLine.FindAllStringSubmatch(out, -1) {
		took, _ := strconv.Atoi(m[2])
		sent, _ := strconv.Atoi(m[3])
		nodes = append(nodes, reportedNode{name: m[1], took: took, sent: sent, leader: m[4] != ""})
	}
	if len(nodes) != want {
		t.Fatalf("%d node lines, want %d:\n%s", len(nodes), want, out)
	}
	return nodes
}

var landedLine = regexp.MustCompile(`(?m)^  mails landed +(\d+) `)

func reportedLanded(t *testing.T, out string) int {
	t.Helper()
	m := landedLine.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no mails landed line in:\n%s", out)
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

var commandsLine = regexp.MustCompile(`(?m)^  commands +(\d+) `)

func reportedCommands(t *testing.T, out string) int {
	t.Helper()
	m := commandsLine.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no commands line in:\n%s", out)
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// assertGameFinished checks that the store at db holds one game, over by
// the rules.
func assertGameFinished(t *testing.T, db string) {
	t.Helper()
	st, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	all, err := st.AllGames(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 1 || all[0].Status != store.StatusFinished {
		t.Errorf("games in the store: %+v, want one finished", all)
	}
}

// The relay knows pbem's mail as the embedded servers file it: by the
// mailbox, case and +detail aside.
func TestRelayForService(t *testing.T) {
	r := &nodeRelay{}
	if r.forService("pbem-x@pbem.test") {
		t.Error("mail for pbem before its address is known")
	}
	r.setService("pbem-x@pbem.test")
	for rcpt, want := range map[string]bool{
		"pbem-x@pbem.test":      true,
		"PBEM-X@Pbem.Test":      true,
		"pbem-x+g12@pbem.test":  true,
		" pbem-x@pbem.test ":    true,
		"pbem-y@pbem.test":      false,
		"pbem-x@other.test":     false,
		"g0p1-x@pbem.test":      false,
		"pbem-x+@pbem.test.org": false,
	} {
		if got := r.forService(rcpt); got != want {
			t.Errorf("forService(%q) = %v, want %v", rcpt, got, want)
		}
	}
}

// sumMetric adds every sample of one metric, whatever its labels, and
// no other metric whose name it begins.
func TestSumMetric(t *testing.T) {
	text := []byte(`# HELP pbem_inbound_mails_total Inbound mails handled.
# TYPE pbem_inbound_mails_total counter
pbem_inbound_mails_total{outcome="applied"} 1400
pbem_inbound_mails_total{outcome="answered"} 2
pbem_inbound_mails_totally_other 99
pbem_mails_sent_total 5600
pbem_reader_lease_held{node="node1"} 1
`)
	for name, want := range map[string]float64{
		"pbem_inbound_mails_total": 1402,
		"pbem_mails_sent_total":    5600,
		"pbem_reader_lease_held":   1,
		"pbem_absent":              0,
	} {
		if got := sumMetric(text, name); got != want {
			t.Errorf("sumMetric(%s) = %v, want %v", name, got, want)
		}
	}
}

// reportSays fails the test for each of wants that the loadtest's report
// out does not contain.
func reportSays(t *testing.T, out string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
}
