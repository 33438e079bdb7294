package demo

import (
	"bytes"
	"context"
	"fmt"
	"maps"
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

// The crash tests (TestCrashSIGKILL, TestCrashSweeps, TestDiskFull) run
// the real pbem binary as a child process against this process's
// embedded mail servers, and kill it. This is what they share: the seed
// of their random choices, the binary, the child's configuration, and
// the child itself.

// crashSeed is the seed of a crash test's random choices: PBEM_CRASH_SEED,
// to repeat a run, or else the time.
func crashSeed(t *testing.T) uint64 {
	t.Helper()
	s := os.Getenv("PBEM_CRASH_SEED")
	if s == "" {
		return uint64(time.Now().UnixNano())
	}
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		t.Fatalf("PBEM_CRASH_SEED=%q: %v", s, err)
	}
	return v
}

// childVars configures the child pbem serve, through PBEM_* variables
// only, to serve w's address from the database db, and adds extra (which
// may override any of them).
func childVars(w *World, db string, extra map[string]string) map[string]string {
	vars := map[string]string{
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
	}
	maps.Copy(vars, extra)
	return vars
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

// logTail is the end of the daemons' combined log.
func (d *daemonProc) logTail() string {
	b, _ := os.ReadFile(d.path)
	lines := bytes.Split(b, []byte("\n"))
	if len(lines) > 60 {
		lines = lines[len(lines)-60:]
	}
	return string(bytes.Join(lines, []byte("\n")))
}
