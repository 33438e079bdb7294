package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"github.com/pbem/pbem/mailer"
	"github.com/pbem/pbem/mailer/embedded"
)

// syncBuffer is a log written by pbem serve while the test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestServeLMTP runs pbem serve configured as docs/configuration.md and
// docs/mail-server.md say for LMTP only (lmtp.addr on a Unix socket, an
// SMTP server, no imap.addr): it reads no mailbox and runs no embedded servers, answers a mail delivered to
// its socket 250, sends its answer, and removes the socket when it stops.
func TestServeLMTP(t *testing.T) {
	dir := t.TempDir()
	// A mail server for pbem's answers (the embedded one's SMTP, which
	// delivers to its own mailboxes).
	mail, err := embedded.Start(context.Background(), embedded.Config{IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0", Domain: "pbem.test"})
	if err != nil {
		t.Fatal(err)
	}
	defer mail.Close()
	sock := filepath.Join(dir, "lmtp.sock")
	t.Setenv("PBEM_STORE_DATABASE", filepath.Join(dir, "pbem.db"))
	t.Setenv("PBEM_SERVICE_ADDRESS", "pbem@pbem.test")
	t.Setenv("PBEM_LMTP_ADDR", "unix:"+sock)
	t.Setenv("PBEM_SMTP_ADDR", mail.SMTPAddr())
	t.Setenv("PBEM_SMTP_SECURITY", "none")
	t.Setenv("PBEM_METRICS_ADDR", "127.0.0.1:0")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout bytes.Buffer
	var stderr syncBuffer
	exited := make(chan int, 1)
	go func() { exited <- run(ctx, &env{stdout: &stdout, stderr: &stderr}, []string{"serve"}) }()

	var conn net.Conn
	for deadline := time.Now().Add(30 * time.Second); ; {
		if strings.Contains(stderr.String(), "lmtp listening") {
			if conn, err = net.Dial("unix", sock); err != nil {
				t.Fatal(err)
			}
			break
		}
		select {
		case code := <-exited:
			t.Fatalf("pbem serve exited %d before listening:\n%s", code, stderr.String())
		case <-time.After(10 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("pbem serve did not listen on %s:\n%s", sock, stderr.String())
		}
	}
	c := smtp.NewClientLMTP(conn)
	defer c.Close()
	alice := mail.Address("alice")
	raw := "From: " + alice + "\r\nTo: pbem@pbem.test\r\nSubject: hi\r\nMessage-ID: <s1@pbem.test>\r\n\r\nhelp\r\n"
	if err := c.Hello("mx"); err != nil {
		t.Fatal(err)
	}
	if err := c.Mail(alice, nil); err != nil {
		t.Fatal(err)
	}
	if err := c.Rcpt("pbem@pbem.test", nil); err != nil {
		t.Fatal(err)
	}
	wc, err := c.Data()
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(wc, raw)
	if _, err := wc.CloseWithLMTPResponse(); err != nil {
		t.Fatalf("DATA: %v, want 250", err)
	}
	c.Quit()

	reader, err := mailer.NewMailboxReader(mailer.InboxConfig{Addr: mail.IMAPAddr(), Password: mail.Password(), Security: mailer.SecurityNone}, alice)
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	for deadline := time.Now().Add(30 * time.Second); ; {
		got, err := reader.ReadSince(ctx, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("alice has %d mails, want pbem's one answer:\n%s", len(got), stderr.String())
		}
		select {
		case <-reader.Changed():
		case <-time.After(50 * time.Millisecond):
		}
	}
	cancel()
	if code := <-exited; code != 0 {
		t.Fatalf("exit status %d\n%s", code, stderr.String())
	}
	log := stderr.String()
	if strings.Contains(log, "imap connected") || strings.Contains(log, "embedded") {
		t.Errorf("pbem read a mailbox or started embedded servers:\n%s", log)
	}
	if _, err := os.Stat(sock); !os.IsNotExist(err) {
		t.Errorf("the socket is still there after the stop: %v", err)
	}
}
