package main

import (
	"bytes"
	"context"
	"fmt"
	"net/mail"
	"net/smtp"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pbem/pbem/internal/demo"
	"github.com/pbem/pbem/internal/testlib"
	"github.com/pbem/pbem/mailer"
)

// The embedded mail servers keep their mail in the mail dir next to the
// database, so `pbem serve` can stop and start again with nothing lost and
// nothing answered twice: issue 11, finding 3. Before, the mail lived in
// memory; after a restart the IMAP server began again at UIDVALIDITY 1
// with an empty INBOX, and pbem's cursor from before (same UIDVALIDITY,
// a higher lastUID) silently skipped the next mails.
func TestServeKeepsEmbeddedMailAcrossRestarts(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the pbem binary")
	}
	deadline := time.Now().Add(2 * time.Minute) // a failure guard only
	bin := filepath.Join(t.TempDir(), "pbem")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	dir := t.TempDir()
	p := &serveProc{t: t, bin: bin, log: filepath.Join(dir, "pbem.log"), imap: testlib.FreeAddr(t), smtp: testlib.FreeAddr(t)}
	for _, kv := range os.Environ() {
		// pbem refuses PBEM_ variables it does not know.
		if !strings.HasPrefix(kv, "PBEM_") {
			p.env = append(p.env, kv)
		}
	}
	p.env = append(p.env,
		"PBEM_STORE_DATABASE="+filepath.Join(dir, "pbem.db"),
		"PBEM_EMBEDDED_IMAP_ADDR="+p.imap,
		"PBEM_EMBEDDED_SMTP_ADDR="+p.smtp,
		"PBEM_EMBEDDED_PASSWORD=pw",
		"PBEM_EMBEDDED_WEB_ADDR=", // no pages: port 8080 may be another's
	)
	t.Cleanup(p.kill)
	sent := 0
	mailFrom := func(from, to, text, inReplyTo string) string {
		sent++
		id := fmt.Sprintf("m%d.%d@%s", sent, time.Now().UnixNano(), strings.TrimPrefix(from, "x"))
		var b strings.Builder
		fmt.Fprintf(&b, "From: %s\r\nTo: %s\r\nSubject: %s\r\nMessage-ID: <%s>\r\nDate: %s\r\n", from, to, text, id, time.Now().Format(time.RFC1123Z))
		if inReplyTo != "" {
			fmt.Fprintf(&b, "In-Reply-To: <%s>\r\n", inReplyTo)
		}
		fmt.Fprintf(&b, "\r\n%s\r\n", text)
		return b.String()
	}
	send := func(from, to, text, inReplyTo string) string {
		t.Helper()
		raw := mailFrom(from, to, text, inReplyTo)
		if err := smtp.SendMail(p.smtp, nil, from, []string{to}, []byte(raw)); err != nil {
			t.Fatalf("send %q: %v", text, err)
		}
		return messageID(raw)
	}
	const pbem, alice, bob, carol = "pbem@pbem.test", "alice@pbem.test", "bob@pbem.test", "carol@pbem.test"
	// waitFor polls a player's INBOX until cond holds.
	waitFor := func(user, what string, cond func([]received) bool) []received {
		t.Helper()
		ctx, cancel := context.WithDeadline(context.Background(), deadline)
		defer cancel()
		var got []received
		if testlib.Poll(ctx, func() bool { got = p.inbox(user); return cond(got) }) != nil {
			t.Fatalf("%s: waited in vain for %s; INBOX:\n%s\nlog:\n%s", user, what, dump(got), p.logTail())
		}
		return got
	}
	answered := func(user, id string) {
		t.Helper()
		waitFor(user, "the answer to "+id, func(r []received) bool { return countReplies(r, id) > 0 })
	}

	// 1. A mail answered, then a clean stop.
	p.start()
	help1 := send(alice, pbem, "help", "")
	answered(alice, help1)
	p.stop()

	// 2. A mail dropped into the mail dir while pbem is down.
	raw := mailFrom(alice, pbem, "rules felix", "")
	rules1 := messageID(raw)
	newDir := filepath.Join(dir, "pbem.db.mail", pbem, "INBOX", "new")
	if err := os.MkdirAll(newDir, 0o700); err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(dir, "drop.tmp")
	if err := os.WriteFile(tmp, []byte(raw), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(newDir, "1.dropped")); err != nil {
		t.Fatal(err)
	}
	p.start()
	answered(alice, rules1)

	// 3. Mail accepted just before a stop, answered after the start.
	help2 := send(alice, pbem, "help", "")
	send(alice, pbem, "new felix with bob@pbem.test carol@pbem.test", "")
	p.stop()
	p.start()
	answered(alice, help2)
	invites := map[string]received{}
	for _, u := range []string{bob, carol} {
		got := waitFor(u, "an invitation", func(r []received) bool { return len(r) > 0 })
		invites[u] = got[0]
	}

	// 4. The players join with restarts in between.
	send(bob, invites[bob].replyTo, "join", invites[bob].id)
	p.stop()
	p.start()
	send(carol, invites[carol].replyTo, "join", invites[carol].id)
	p.stop()
	p.start()
	// A last mail: once it is answered, everything before it was handled
	// (pbem reads its INBOX in order), so a doubled answer would be there.
	help3 := send(alice, pbem, "help", "")
	answered(alice, help3)
	// pbem answers a player in the thread of the last mail it sent him:
	// the invitation.
	for _, u := range []string{bob, carol} {
		answered(u, invites[u].id)
	}
	p.stop()

	// Nothing lost, nothing doubled.
	p.start()
	final := map[string][]received{}
	for _, u := range []string{alice, bob, carol} {
		final[u] = p.inbox(u)
	}
	p.stop()
	for _, id := range []string{help1, rules1, help2, help3} {
		if n := countReplies(final[alice], id); n != 1 {
			t.Errorf("%s was answered %d times, want once", id, n)
		}
	}
	// A command handled twice sends its mails twice. Apart from the help
	// texts every mail pbem sent here has a subject of its own.
	helpSubject := ""
	for _, m := range final[alice] {
		if m.inReplyTo == help1 {
			helpSubject = m.subject
		}
	}
	for _, u := range []string{alice, bob, carol} {
		seen := map[string]int{}
		for _, m := range final[u] {
			seen[m.subject]++
		}
		for subject, n := range seen {
			if n > 1 && subject != helpSubject {
				t.Errorf("%s got %q %d times", u, subject, n)
			}
		}
	}
	if len(final[alice]) != 6 || len(final[bob]) < 2 || len(final[carol]) < 2 {
		t.Errorf("alice got %d mails (want 3 help texts, the rules, the new game's two), bob %d, carol %d", len(final[alice]), len(final[bob]), len(final[carol]))
	}
	if t.Failed() {
		t.Logf("alice:\n%s\nbob:\n%s\ncarol:\n%s", dump(final[alice]), dump(final[bob]), dump(final[carol]))
		t.Logf("log:\n%s", p.logTail())
	}
}

// received is a mail in a player's INBOX.
type received struct {
	id, inReplyTo, replyTo, subject string
}

func messageID(raw string) string {
	m, err := mail.ReadMessage(strings.NewReader(raw))
	if err != nil {
		return ""
	}
	return strings.Trim(m.Header.Get("Message-ID"), "<>")
}

func countReplies(r []received, id string) int {
	n := 0
	for _, m := range r {
		if m.inReplyTo == id {
			n++
		}
	}
	return n
}

func dump(r []received) string {
	var b strings.Builder
	for _, m := range r {
		fmt.Fprintf(&b, "  %q in reply to %q\n", m.subject, m.inReplyTo)
	}
	return b.String()
}

// serveProc is `pbem serve` as a child process.
type serveProc struct {
	t          *testing.T
	bin, log   string
	env        []string
	imap, smtp string
	cmd        *exec.Cmd
	exited     chan error
	starts     int
}

// start runs pbem serve and waits until its SMTP server answers.
func (p *serveProc) start() {
	p.t.Helper()
	p.starts++
	f, err := os.OpenFile(p.log, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		p.t.Fatal(err)
	}
	defer f.Close()
	fmt.Fprintf(f, "=== start %d\n", p.starts)
	cmd := exec.Command(p.bin, "serve")
	cmd.Env = p.env
	cmd.Stdout, cmd.Stderr = f, f
	if err := cmd.Start(); err != nil {
		p.t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	p.cmd, p.exited = cmd, exited
	for {
		c, err := smtp.Dial(p.smtp)
		if err == nil {
			c.Quit()
			return
		}
		select {
		case err := <-exited:
			p.cmd = nil
			p.t.Fatalf("pbem serve exited at start: %v\n%s", err, p.logTail())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// stop sends SIGTERM and waits for a clean exit.
func (p *serveProc) stop() {
	p.t.Helper()
	if p.cmd == nil {
		return
	}
	p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-p.exited:
		if err != nil {
			p.t.Errorf("pbem serve stopped with %v", err)
		}
	case <-time.After(time.Minute):
		p.cmd.Process.Kill()
		<-p.exited
		p.t.Errorf("pbem serve did not stop within a minute of SIGTERM")
	}
	p.cmd = nil
}

func (p *serveProc) kill() {
	if p.cmd != nil {
		p.cmd.Process.Kill()
		<-p.exited
		p.cmd = nil
	}
}

// inbox reads a user's INBOX over IMAP.
func (p *serveProc) inbox(user string) []received {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	msgs, err := mailer.ReadAll(ctx, mailer.InboxConfig{Addr: p.imap, Username: user, Password: "pw", Security: mailer.SecurityNone}, user)
	if err != nil {
		p.t.Fatalf("read %s: %v", user, err)
	}
	var out []received
	for _, m := range msgs {
		msg, err := mail.ReadMessage(bytes.NewReader(m.Raw))
		if err != nil {
			p.t.Fatalf("%s uid %d: %v", user, m.UID, err)
		}
		h := msg.Header
		replyTo := h.Get("Reply-To")
		if a, err := mail.ParseAddress(replyTo); err == nil {
			replyTo = a.Address
		}
		out = append(out, received{
			id: strings.Trim(h.Get("Message-ID"), "<>"), inReplyTo: strings.Trim(h.Get("In-Reply-To"), "<>"),
			// Every mail of a game has its Subject: what tells the mails
			// apart is their headline.
			replyTo: replyTo, subject: demo.ReadMail(m.Raw).Headline,
		})
	}
	return out
}

func (p *serveProc) logTail() string {
	b, _ := os.ReadFile(p.log)
	if len(b) > 6000 {
		b = b[len(b)-6000:]
	}
	return string(b)
}
