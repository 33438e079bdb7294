//go:build integration

// TestMailServerGuide runs pbem exactly as docs/mail-server.md ("Running
// against a real mail server") configures it, against the Postfix and
// Dovecot that scripts/mailstack sets up the way that guide walks through (IMAP with TLS,
// submission with STARTTLS and SMTP AUTH through Dovecot, a self-signed
// certificate):
//
//	scripts/mailstack start && eval "$(scripts/mailstack env)"
//	go test -tags integration -run TestMailServerGuide ./cmd/pbem
package main

import (
	"bytes"
	"context"
	"fmt"
	"net/smtp"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

// guideConfigMarker stands right above the TOML block the test takes
// from docs/mail-server.md.
const guideConfigMarker = "<!-- This block is tested: cmd/pbem/mailserver_guide_integration_test.go"

// guideConfig returns docs/mail-server.md's configuration block for a
// real server.
func guideConfig(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "mail-server.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), guideConfigMarker)
	if !ok {
		t.Fatalf("docs/mail-server.md has no %q", guideConfigMarker)
	}
	_, rest, ok = strings.Cut(rest, "```toml\n")
	if !ok {
		t.Fatal("no ```toml block after the guide's marker")
	}
	block, _, ok := strings.Cut(rest, "```")
	if !ok {
		t.Fatal("the guide's toml block does not end")
	}
	return block
}

// substitute puts the test's servers in place of the guide's: each of
// the guide's values must be there (if the guide changes them, this test
// must follow), and nothing else changes.
func substitute(t *testing.T, block string, values [][2]string) string {
	t.Helper()
	for _, v := range values {
		if !strings.Contains(block, v[0]) {
			t.Fatalf("the guide's configuration no longer has %q:\n%s", v[0], block)
		}
		block = strings.ReplaceAll(block, v[0], v[1])
	}
	for _, left := range []string{"example.org", "/var/lib"} {
		if strings.Contains(block, left) {
			t.Fatalf("the guide's configuration has a value the test does not set (%q):\n%s", left, block)
		}
	}
	return block
}

func TestMailServerGuide(t *testing.T) {
	imaps, submission := os.Getenv("PBEM_TEST_IMAPS"), os.Getenv("PBEM_TEST_SUBMISSION")
	plainSMTP, plainIMAP := os.Getenv("PBEM_TEST_SMTP"), os.Getenv("PBEM_TEST_IMAP")
	domain, password, ca := os.Getenv("PBEM_TEST_DOMAIN"), os.Getenv("PBEM_TEST_PASSWORD"), os.Getenv("PBEM_TEST_CA")
	if imaps == "" || submission == "" || plainSMTP == "" || plainIMAP == "" || domain == "" || password == "" || ca == "" {
		t.Fatal(`PBEM_TEST_IMAPS, PBEM_TEST_SUBMISSION, PBEM_TEST_SMTP, PBEM_TEST_IMAP, PBEM_TEST_DOMAIN, PBEM_TEST_PASSWORD and PBEM_TEST_CA must be set: ` +
			`run scripts/mailstack start && eval "$(scripts/mailstack env)" first, or use scripts/test`)
	}
	dir := t.TempDir()
	// A fresh service address, so that runs against the same Dovecot
	// state do not see each other's mail.
	run := time.Now().UnixNano()
	service := fmt.Sprintf("pbem%d@%s", run, domain)
	player := fmt.Sprintf("alice%d@%s", run, domain)
	conf := substitute(t, guideConfig(t), [][2]string{
		{"mail.example.org:993", imaps},
		{"mail.example.org:587", submission},
		{"pbem@example.org", service},
		{"/var/lib/pbem/pbem.db", filepath.Join(dir, "pbem.db")},
	})
	confPath := filepath.Join(dir, "pbem.toml")
	if err := os.WriteFile(confPath, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "pbem")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	// The guide: the passwords in the environment, and SSL_CERT_FILE for a
	// self-signed certificate.
	var environ []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PBEM_") && !strings.HasPrefix(kv, "SSL_CERT_") {
			environ = append(environ, kv)
		}
	}
	environ = append(environ, "PBEM_IMAP_PASSWORD="+password, "PBEM_SMTP_PASSWORD="+password, "SSL_CERT_FILE="+ca)
	pbem := func(extraEnv []string, args ...string) (stdout, stderr string, code int) {
		cmd := exec.Command(bin, args...)
		cmd.Env = append(append([]string{}, environ...), extraEnv...)
		var o, e bytes.Buffer
		cmd.Stdout, cmd.Stderr = &o, &e
		err := cmd.Run()
		if ee, ok := err.(*exec.ExitError); ok {
			return o.String(), e.String(), ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return o.String(), e.String(), 0
	}

	t.Run("check", func(t *testing.T) {
		stdout, stderr, code := pbem(nil, "check", "--config", confPath)
		if code != 0 {
			t.Fatalf("pbem check exited %d:\n%s%s", code, stdout, stderr)
		}
		for _, want := range []string{
			"imap: logged in to " + imaps + " as " + service + " (TLS), mailbox INBOX selected",
			"smtp: " + submission + " (TLS, AUTH PLAIN as " + service + ") takes mail from and to " + service,
			// The guide's set-up signs nothing; what DNS says of the
			// domain depends on the runner's network.
			"dkim: off: pbem signs nothing",
			"\nspf: ", "\ndmarc: ",
		} {
			if !strings.Contains(stdout, want) {
				t.Errorf("pbem check did not say %q:\n%s", want, stdout)
			}
		}
	})

	// The mistakes of issue 23 against the real servers: each names the
	// key to change.
	for _, tc := range []struct {
		name string
		env  []string
		want []string
	}{
		{"wrong password", []string{"PBEM_IMAP_PASSWORD=wrong"}, []string{"imap.username and imap.password"}},
		// Postfix offers AUTH on the submission port only after STARTTLS.
		{"submission without STARTTLS", []string{"PBEM_SMTP_SECURITY=none"}, []string{"offers no AUTH", `smtp.security = "starttls"`}},
		{"submission without a login", []string{"PBEM_SMTP_USERNAME="}, []string{"without a login", "set smtp.username and smtp.password"}},
		{"implicit TLS on the STARTTLS port", []string{"PBEM_SMTP_SECURITY=tls"}, []string{"smtp.security"}},
		{"self-signed certificate not trusted", []string{"SSL_CERT_FILE=/dev/null"}, []string{"imap.security", "certificate"}},
	} {
		t.Run("check "+tc.name, func(t *testing.T) {
			stdout, stderr, code := pbem(tc.env, "check", "--config", confPath)
			if code != 1 {
				t.Fatalf("pbem check exited %d; want 1:\n%s%s", code, stdout, stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("pbem check did not say %q:\n%s", w, stderr)
				}
			}
		})
	}

	t.Run("round trip", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		logPath := filepath.Join(dir, "serve.log")
		logFile, err := os.Create(logPath)
		if err != nil {
			t.Fatal(err)
		}
		defer logFile.Close()
		serve := exec.Command(bin, "serve", "--config", confPath)
		serve.Env = environ
		serve.Stdout, serve.Stderr = logFile, logFile
		if err := serve.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan error, 1)
		go func() { exited <- serve.Wait() }()
		defer func() {
			serve.Process.Signal(syscall.SIGTERM)
			if err := <-exited; err != nil {
				t.Errorf("pbem serve after SIGTERM: %v", err)
			}
			if t.Failed() {
				log, _ := os.ReadFile(logPath)
				t.Logf("pbem serve's log:\n%s", log)
			}
		}()

		// A player starts a game with two bots, from outside (port 25's
		// stand-in, no login).
		send := func(to, inReplyTo, body string) {
			t.Helper()
			msg := "From: " + player + "\r\nTo: " + to + "\r\nSubject: pbem\r\nMessage-ID: <" +
				fmt.Sprintf("%d.%s", time.Now().UnixNano(), player) + ">\r\n"
			if inReplyTo != "" {
				msg += "In-Reply-To: <" + inReplyTo + ">\r\n"
			}
			msg += "\r\n" + body + "\r\n"
			if err := smtp.SendMail(plainSMTP, nil, player, []string{to}, []byte(msg)); err != nil {
				t.Fatalf("send %q to %s: %v", body, to, err)
			}
		}
		send(service, "", "new felix with 2 bots")
		first := waitMail(ctx, t, plainIMAP, player, password, 1, exited)
		// The guide: From is pbem's address, Reply-To the seat's.
		from, replyTo := addrs(first.From), addrs(first.ReplyTo)
		local, _, _ := strings.Cut(service, "@")
		if len(from) != 1 || from[0] != service {
			t.Fatalf("the game's mail is from %v; want %s", from, service)
		}
		if len(replyTo) != 1 || !strings.HasPrefix(replyTo[0], local+"+") || !strings.HasSuffix(replyTo[0], "@"+domain) {
			t.Fatalf("the game's mail has Reply-To %v; want the seat's address %s+TOKEN@%s", replyTo, local, domain)
		}
		// The player replies, as a mail program's Reply does: to the
		// seat's address, through Postfix's plus-addressing into pbem's
		// mailbox, and pbem answers in the game's thread.
		send(replyTo[0], first.MessageID, "status")
		answer := waitMail(ctx, t, plainIMAP, player, password, 2, exited)
		if got := addrs(answer.ReplyTo); len(got) != 1 || got[0] != replyTo[0] {
			t.Errorf("the answer to the seat's mail has Reply-To %v; want %s", got, replyTo[0])
		}
	})
}

func addrs(as []imap.Address) []string {
	var out []string
	for _, a := range as {
		out = append(out, a.Addr())
	}
	return out
}

// waitMail waits until user's INBOX holds n mails and returns the
// envelope of the n-th. It looks again every 200 ms: the mail is on its
// way through pbem, Postfix and Dovecot, and the test ends when it
// arrives, when pbem serve exits, or when ctx does.
func waitMail(ctx context.Context, t *testing.T, addr, user, password string, n uint32, exited <-chan error) *imap.Envelope {
	t.Helper()
	for {
		if env := fetchEnvelope(t, addr, user, password, n); env != nil {
			return env
		}
		select {
		case err := <-exited:
			t.Fatalf("pbem serve exited while the test waited for mail %d: %v", n, err)
		case <-ctx.Done():
			t.Fatalf("mail %d did not reach %s", n, user)
		case <-time.After(200 * time.Millisecond):
		}
	}
}

func fetchEnvelope(t *testing.T, addr, user, password string, n uint32) *imap.Envelope {
	t.Helper()
	c, err := imapclient.DialInsecure(addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login(user, password).Wait(); err != nil {
		t.Fatal(err)
	}
	data, err := c.Select("INBOX", &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil {
		t.Fatal(err)
	}
	if data.NumMessages < n {
		c.Logout().Wait()
		return nil
	}
	msgs, err := c.Fetch(imap.SeqSetNum(n), &imap.FetchOptions{Envelope: true}).Collect()
	if err != nil || len(msgs) != 1 {
		t.Fatalf("fetch mail %d: %d, %v", n, len(msgs), err)
	}
	c.Logout().Wait()
	return msgs[0].Envelope
}
