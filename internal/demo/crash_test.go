package demo

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/pbem/pbem/internal/testlib"
)

// TestCrashSIGKILL plays a whole Felix game while the daemon, the real
// pbem binary running as a child process against embedded mail servers
// in this process, is killed with SIGKILL at random moments and started
// again. The players keep mailing all the while. Afterwards
// (checkExactlyOnce, shared with the fault tests):
//
//   - the game is finished and its export replays to the stored state and
//     event log (checkReplay);
//   - every mail a player sent is recorded in the inbound table exactly
//     once, and there is no other inbound record;
//   - the moves, in order, are exactly the commands of the mails recorded
//     as applied, in the order they were recorded, each by its sender's
//     seat: every player mail carries one command, so each applied mail
//     made exactly one move: none lost, none applied twice;
//   - every mail in a player's inbox is an outbox row addressed to him,
//     every row marked sent is there, and the only repeated Message-IDs
//     are re-sends of mails whose SMTP delivery a kill interrupted, at
//     most one batch per kill (resendBound).
//
// The child is the binary `go build` makes of ./cmd/pbem, configured only
// through PBEM_* variables, so the test exercises what an operator runs:
// configuration, store, inbox, sender and daemon, with nothing shared in
// memory with the test. It is built without -race even when the test
// runs with it: the race detector slows the daemon's start and work so
// much that most lives would end before the first mail; the daemon's own
// tests run with -race.
func TestCrashSIGKILL(t *testing.T) {
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
	begin := time.Now()
	bin := buildPbem(t)
	t.Logf("built the pbem binary in %s", time.Since(begin).Round(time.Millisecond))

	w, err := Start(ctx, Options{Seed: seed, NoService: true})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	dir := t.TempDir()
	db := filepath.Join(dir, "pbem.db")
	d := newDaemonProc(t, bin, dir, map[string]string{
		"PBEM_SERVICE_ADDRESS":    w.Address,
		"PBEM_STORE_DATABASE":     db,
		"PBEM_IMAP_ADDR":          w.Mail.IMAPAddr,
		"PBEM_IMAP_USERNAME":      w.Address,
		"PBEM_IMAP_PASSWORD":      w.Mail.Password,
		"PBEM_IMAP_SECURITY":      "none",
		"PBEM_IMAP_POLL_INTERVAL": "200ms",
		"PBEM_SMTP_ADDR":          w.Mail.SMTPAddr,
		"PBEM_SMTP_SECURITY":      "none",
		"PBEM_LOG_LEVEL":          "info",
		// Scripted players answer at machine speed: the per-address
		// limits meant for people would stop them.
		"PBEM_LIMITS_LOOP_PER_MINUTE": "100000",
		"PBEM_LIMITS_ANSWERS_PER_DAY": "100000",
		"PBEM_LIMITS_LOBBY_PER_HOUR":  "100000",
	})
	defer d.close()
	d.start()

	// The killer: SIGKILL every 0.2 to 0.9 s, then start again at once or
	// after a short pause, until the game is over. A game takes about 10 s
	// with its restarts: about 18 kills, so that the check for at least 8
	// below does not fail by chance (0.3 to 1.2 s gave 8 in 5 of 62 runs).
	stopKilling := make(chan struct{})
	var kills int
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		rng := rand.New(rand.NewPCG(seed, 5))
		for {
			select {
			case <-stopKilling:
				return
			case <-time.After(200*time.Millisecond + time.Duration(rng.Int64N(int64(700*time.Millisecond)))):
			}
			d.kill()
			kills++
			time.Sleep(time.Duration(rng.Int64N(int64(200 * time.Millisecond))))
			d.start()
		}
	}()
	players := []string{w.Player("alice"), w.Player("bob"), w.Player("carol"), w.Player("dave")}
	playStart := time.Now()
	playCtx, cancelPlay := context.WithCancel(ctx)
	defer cancelPlay()
	go func() {
		select {
		case <-d.dead:
			cancelPlay()
		case <-playCtx.Done():
		}
	}()
	g, playErr := w.Play(playCtx, "felix", players, 4*time.Minute)
	close(stopKilling)
	wg.Wait()
	t.Logf("the game took %s with %d kills", time.Since(playStart).Round(time.Millisecond), kills)
	if playErr != nil {
		t.Fatalf("after %d kills: %v\nthe daemon's log ends:\n%s", kills, playErr, d.logTail())
	}
	if kills < 8 {
		t.Fatalf("the game was over after only %d kills; the test wants at least 8 to mean something", kills)
	}

	// Let the last daemon send what is left, stop it gracefully, and
	// check that every command was taken once and every mail delivered.
	rep := checkExactlyOnce(t, ctx, w, d, db, players, g, false)
	if rep.resent > resendBound(kills) {
		t.Errorf("%d mails arrived twice with %d kills: more than one batch re-sent per kill (%d)", rep.resent, kills, resendBound(kills))
	}
	t.Logf("%d kills, %d starts, %d player mails taken once each, %d moves, %d outbox mails, %d re-sent after a kill; %s in all",
		kills, d.starts, rep.taken, rep.moves, rep.outbox, rep.resent, time.Since(begin).Round(time.Millisecond))
	if t.Failed() {
		t.Logf("the daemon's log ends:\n%s", d.logTail())
	}
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return strings.TrimSpace(l)
}

// buildPbem builds ./cmd/pbem into a temporary folder.
func buildPbem(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "pbem")
	args := []string{"build", "-o", bin}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", append(args, "./cmd/pbem")...)
	cmd.Dir = "../.."
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return bin
}

// daemonProc is pbem serve as a child process. If the process exits
// without being told to, the test fails and dead is closed.
type daemonProc struct {
	t      *testing.T
	bin    string
	env    []string
	log    *os.File
	path   string
	mu     sync.Mutex
	cmd    *exec.Cmd
	exited chan struct{} // closed when cmd has exited
	err    error         // how cmd exited
	starts int
	from   int64 // where the log of the running process begins
	dead   chan struct{}
	once   sync.Once
}

func newDaemonProc(t *testing.T, bin, dir string, vars map[string]string) *daemonProc {
	var env []string
	for _, kv := range os.Environ() {
		// pbem refuses PBEM_ variables it does not know, such as the
		// integration tests' PBEM_TEST_SMTP.
		if !strings.HasPrefix(kv, "PBEM_") {
			env = append(env, kv)
		}
	}
	// One node started again and again, as systemd restarts pbem: under
	// one name, it takes back at once the reader lease it held when it
	// was killed. (Each start would otherwise be a new node, host:pid,
	// that waits for the dead one's lease to expire.)
	if _, ok := vars["PBEM_NODE_NAME"]; !ok {
		env = append(env, "PBEM_NODE_NAME=crash-test")
	}
	for k, v := range vars {
		env = append(env, k+"="+v)
	}
	path := filepath.Join(dir, "pbem.log")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	return &daemonProc{t: t, bin: bin, env: env, log: f, path: path, dead: make(chan struct{})}
}

func (d *daemonProc) start() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.starts++
	fmt.Fprintf(d.log, "=== start %d at %s\n", d.starts, time.Now().Format("15:04:05.000"))
	if info, err := d.log.Stat(); err == nil {
		d.from = info.Size()
	}
	cmd := exec.Command(d.bin, "serve")
	cmd.Env = d.env
	cmd.Stdout, cmd.Stderr = d.log, d.log
	if err := cmd.Start(); err != nil {
		d.t.Errorf("start pbem serve: %v", err)
		d.once.Do(func() { close(d.dead) })
		return
	}
	exited := make(chan struct{})
	d.cmd, d.exited = cmd, exited
	go func() {
		err := cmd.Wait()
		d.mu.Lock()
		expected := d.cmd != cmd // kill or stop took it
		d.err = err
		d.mu.Unlock()
		close(exited)
		if !expected {
			d.t.Errorf("pbem serve exited by itself: %v", err)
			d.once.Do(func() { close(d.dead) })
		}
	}()
}

// take forgets the running process and returns it.
func (d *daemonProc) take() (*exec.Cmd, chan struct{}) {
	d.mu.Lock()
	defer d.mu.Unlock()
	cmd, exited := d.cmd, d.exited
	d.cmd, d.exited = nil, nil
	return cmd, exited
}

// kill sends SIGKILL and waits for the process to end.
func (d *daemonProc) kill() {
	cmd, exited := d.take()
	if cmd == nil {
		return
	}
	cmd.Process.Signal(syscall.SIGKILL)
	<-exited
	fmt.Fprintf(d.log, "=== killed at %s\n", time.Now().Format("15:04:05.000"))
}

// stop asks the daemon to stop (SIGTERM) and fails the test unless it
// exits cleanly within a minute.
func (d *daemonProc) stop() {
	d.mu.Lock()
	from := d.from
	d.mu.Unlock()
	// A process the killer has just started may not have set up its
	// signal handling yet, and SIGTERM would then kill it outright:
	// wait until it says it is serving (or has ended by itself).
	d.waitLog(from, "pbem serving")
	cmd, exited := d.take()
	if cmd == nil {
		return
	}
	cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-exited:
		d.mu.Lock()
		err := d.err
		d.mu.Unlock()
		if err != nil {
			d.t.Errorf("pbem serve stopped with %v after SIGTERM", err)
		}
	case <-time.After(time.Minute):
		cmd.Process.Signal(syscall.SIGKILL)
		<-exited
		d.t.Errorf("pbem serve did not stop within a minute of SIGTERM\n%s", d.logTail())
	}
}

func (d *daemonProc) close() {
	d.kill()
	d.log.Close()
}

// logTail is the end of the daemons' combined log.
// waitLog waits, for a minute at most, until the log from offset from
// holds text, or the process has ended. It does not fail: a daemon that
// never says text is caught by the checks that follow.
func (d *daemonProc) waitLog(from int64, text string) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_ = testlib.Poll(ctx, func() bool {
		d.mu.Lock()
		exited := d.exited
		d.mu.Unlock()
		if exited == nil {
			return true
		}
		select {
		case <-exited:
			return true
		default:
		}
		b, _ := os.ReadFile(d.path)
		return int64(len(b)) > from && bytes.Contains(b[from:], []byte(text))
	})
}

// logLines is the daemon's log lines that contain one of needles, with
// the lines that mark its starts and kills between them.
func (d *daemonProc) logLines(needles ...string) string {
	b, _ := os.ReadFile(d.path)
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "=== ") || slices.ContainsFunc(needles, func(n string) bool { return strings.Contains(l, n) }) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

func (d *daemonProc) logTail() string {
	b, _ := os.ReadFile(d.path)
	lines := bytes.Split(b, []byte("\n"))
	if len(lines) > 60 {
		lines = lines[len(lines)-60:]
	}
	return string(bytes.Join(lines, []byte("\n")))
}
