//go:build integration

// Integration tests against a real Postfix + Dovecot on loopback, started by
// scripts/mailstack (scripts/test does it):
//
//	scripts/mailstack start && eval "$(scripts/mailstack env)"
//	go test -race -tags integration ./mailer/...
package mailer

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/pbem/pbem/internal/testlib"
)

type stack struct {
	smtp, imap, domain, password string
	script                       string
}

func mailStack(t *testing.T) stack {
	t.Helper()
	s := stack{
		smtp:     os.Getenv("PBEM_TEST_SMTP"),
		imap:     os.Getenv("PBEM_TEST_IMAP"),
		domain:   os.Getenv("PBEM_TEST_DOMAIN"),
		password: os.Getenv("PBEM_TEST_PASSWORD"),
		script:   os.Getenv("PBEM_MAILSTACK"),
	}
	if s.smtp == "" || s.imap == "" || s.domain == "" || s.password == "" {
		t.Fatal(`PBEM_TEST_SMTP, PBEM_TEST_IMAP, PBEM_TEST_DOMAIN and PBEM_TEST_PASSWORD must be set: ` +
			`run scripts/mailstack start && eval "$(scripts/mailstack env)" first, or use scripts/test`)
	}
	if s.script == "" {
		s.script = filepath.Join("..", "scripts", "mailstack")
	}
	return s
}

// control runs scripts/mailstack with a command such as restart-imap.
func (s stack) control(t *testing.T, cmd string) {
	t.Helper()
	c := exec.Command(s.script, cmd)
	// Daemons the script starts must not hold our pipes open.
	c.WaitDelay = 10 * time.Second
	out, err := c.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", s.script, cmd, err, out)
	}
}

// user returns a fresh local part, so that runs against the same Dovecot
// state do not see each other's mail.
func freshUser(prefix string) string {
	return fmt.Sprintf("%s%d", prefix, time.Now().UnixNano())
}

func (s stack) inboxConfig(user string) InboxConfig {
	return InboxConfig{
		Addr:         s.imap,
		Username:     user + "@" + s.domain,
		Password:     s.password,
		PollInterval: time.Minute,
		IdleRefresh:  time.Minute,
		RetryDelay:   200 * time.Millisecond,
		ReconnectMin: 200 * time.Millisecond,
		ReconnectMax: 2 * time.Second,
		Logger:       testLogger(),
	}
}

func (s stack) sender(t *testing.T) *Sender {
	t.Helper()
	snd, err := NewSender(SenderConfig{Addr: s.smtp, HELO: "pbem.test", Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return snd
}

func (s stack) send(t *testing.T, to, subj string) []byte {
	t.Helper()
	raw := testMessage("alice@"+s.domain, to, subj)
	if err := s.sender(t).Send(context.Background(), "alice@"+s.domain, []string{to}, raw); err != nil {
		t.Fatalf("send %q: %v", subj, err)
	}
	return raw
}

func TestRealPlusAddressingAndKeyword(t *testing.T) {
	t.Parallel()
	s := mailStack(t)
	user := freshUser("game")
	to := user + "+tok123@" + s.domain
	s.send(t, to, "real one")

	cfg := s.inboxConfig(user)
	cursor := newMemCursor()
	rec := newRecorder(cursor)
	stop := runInbox(t, newTestInbox(t, cfg, cursor), rec.handle)
	m := rec.next(t, 30*time.Second)
	// Postfix delivers queued mail in no particular order, so the second
	// message goes out once the first has arrived.
	s.send(t, user+"@"+s.domain, "real two")
	if got := header(t, m.Raw, "Delivered-To"); got != to {
		t.Errorf("Delivered-To %q, want %q", got, to)
	}
	if got := header(t, m.Raw, "Message-ID"); got != "<real-one@pbem.test>" {
		t.Errorf("Message-ID %q: the Sender must not rewrite it", got)
	}
	if subject(t, m.Raw) != "real one" {
		t.Errorf("first message %q", subject(t, m.Raw))
	}
	m2 := rec.next(t, 30*time.Second)
	if subject(t, m2.Raw) != "real two" || m2.UID <= m.UID || m2.UIDValidity != m.UIDValidity {
		t.Errorf("second message %q uid %d/%d", subject(t, m2.Raw), m2.UIDValidity, m2.UID)
	}
	// IDLE (Dovecot offers it) delivers new mail without waiting for the
	// minute-long poll.
	time.Sleep(time.Second)
	s.send(t, to, "real three")
	if m3 := rec.next(t, 30*time.Second); subject(t, m3.Raw) != "real three" {
		t.Errorf("third message %q", subject(t, m3.Raw))
	}
	rec.none(t, 500*time.Millisecond)
	waitMarked(t, cfg, 3)
	stop()

	msgs, err := ReadAll(context.Background(), cfg, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 3 {
		t.Fatalf("INBOX has %d messages, want 3", len(msgs))
	}
	for _, msg := range msgs {
		if !msg.HasFlag(DefaultProcessed) {
			t.Errorf("uid %d lacks %s: %v", msg.UID, DefaultProcessed, msg.Flags)
		}
	}
}

func TestRealMoveToProcessedFolder(t *testing.T) {
	t.Parallel()
	s := mailStack(t)
	user := freshUser("mover")
	for i := 1; i <= 3; i++ {
		s.send(t, fmt.Sprintf("%s+m%d@%s", user, i, s.domain), fmt.Sprintf("mv%d", i))
	}
	cfg := s.inboxConfig(user)
	cfg.Processed = "Processed"
	rec := newRecorder(newMemCursor())
	stop := runInbox(t, newTestInbox(t, cfg, rec.cursor), rec.handle)
	// Postfix delivers in no particular order: compare sets, and check that
	// the Inbox went in UID order.
	seen := map[string]bool{}
	var lastUID uint32
	for range 3 {
		m := rec.next(t, 30*time.Second)
		if m.UID <= lastUID {
			t.Errorf("uid %d after %d", m.UID, lastUID)
		}
		lastUID = m.UID
		seen[subject(t, m.Raw)] = true
	}
	for i := 1; i <= 3; i++ {
		if !seen[fmt.Sprintf("mv%d", i)] {
			t.Errorf("mv%d not handled; got %v", i, seen)
		}
	}
	rec.none(t, 500*time.Millisecond)
	waitEmpty(t, cfg)
	stop()
	cfg.Mailbox = "Processed"
	moved, err := ReadAll(context.Background(), cfg, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(moved) != 3 {
		t.Errorf("Processed has %d messages, want 3", len(moved))
	}
}

func TestRealDovecotRestart(t *testing.T) {
	// Not parallel: it stops and starts a server the other tests
	// use; Go runs it before releasing the parallel ones.
	s := mailStack(t)
	user := freshUser("restart")
	addr := user + "@" + s.domain
	rec := newRecorder(newMemCursor())
	runInbox(t, newTestInbox(t, s.inboxConfig(user), rec.cursor), rec.handle)
	s.send(t, addr, "before restart")
	rec.next(t, 30*time.Second)

	// A plain restart: the Inbox reconnects and reads on.
	s.control(t, "restart-imap")
	s.send(t, addr, "after restart")
	if m := rec.next(t, 60*time.Second); subject(t, m.Raw) != "after restart" {
		t.Fatalf("got %q", subject(t, m.Raw))
	}

	// Mail sent while Dovecot is down waits in Postfix's queue and is
	// neither lost nor duplicated.
	s.control(t, "stop-imap")
	s.send(t, addr, "while down")
	s.control(t, "start-imap")
	if m := rec.next(t, 60*time.Second); subject(t, m.Raw) != "while down" {
		t.Fatalf("got %q", subject(t, m.Raw))
	}
	rec.none(t, time.Second)
}

func TestRealPostfixRestart(t *testing.T) {
	// Not parallel: it stops and starts a server the other tests
	// use; Go runs it before releasing the parallel ones.
	s := mailStack(t)
	user := freshUser("outage")
	addr := user + "@" + s.domain
	snd := s.sender(t)
	ctx := context.Background()
	raw := testMessage("alice@"+s.domain, addr, "after outage")

	s.control(t, "stop-smtp")
	// Start Postfix again even if the test fails half-way: later tests need it.
	restarted := false
	defer func() {
		if !restarted {
			s.control(t, "start-smtp")
		}
	}()
	err := snd.Send(ctx, "alice@"+s.domain, []string{addr}, raw)
	if err == nil {
		t.Fatal("send with Postfix stopped succeeded")
	}
	if IsPermanent(err) {
		t.Fatalf("send with Postfix stopped: %v classified permanent, want temporary", err)
	}
	s.control(t, "start-smtp")
	restarted = true
	if err := snd.Send(ctx, "alice@"+s.domain, []string{addr}, raw); err != nil {
		t.Fatalf("send after restart: %v", err)
	}
	// A 5xx refusal from the real thing is permanent: no relaying elsewhere.
	err = snd.Send(ctx, "alice@"+s.domain, []string{"someone@elsewhere.invalid"}, raw)
	if err == nil || !IsPermanent(err) {
		t.Errorf("relay attempt: got %v, want a permanent error", err)
	}

	rec := newRecorder(newMemCursor())
	runInbox(t, newTestInbox(t, s.inboxConfig(user), rec.cursor), rec.handle)
	if m := rec.next(t, 30*time.Second); subject(t, m.Raw) != "after outage" {
		t.Fatalf("got %q", subject(t, m.Raw))
	}
	rec.none(t, 500*time.Millisecond)
}

func TestRealCrashBetweenCommitAndMark(t *testing.T) {
	t.Parallel()
	s := mailStack(t)
	user := freshUser("crash")
	n := 0
	testCrashBetweenCommitAndMark(t, s.inboxConfig(user), func(subj string) {
		s.send(t, user+"@"+s.domain, subj)
		// Postfix may reorder queued mail; wait for each delivery so UIDs
		// follow the sending order.
		n++
		testlib.WaitWithin(t, 30*time.Second, subj+" delivered", func() bool {
			msgs, err := ReadAll(context.Background(), s.inboxConfig(user), "")
			return err == nil && len(msgs) == n
		})
	})
}
