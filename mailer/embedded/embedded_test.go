package embedded

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/smtp"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

func start(t *testing.T) *Servers {
	t.Helper()
	s, err := Start(context.Background(), Config{
		IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0", Domain: "Example.TEST", Password: "pw",
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// fetchAll logs in as user and returns the bodies in its INBOX.
func fetchAll(t *testing.T, s *Servers, user, password string) ([]string, error) {
	t.Helper()
	c, err := imapclient.DialInsecure(s.IMAPAddr(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login(user, password).Wait(); err != nil {
		return nil, err
	}
	data, err := c.Select("INBOX", nil).Wait()
	if err != nil {
		t.Fatal(err)
	}
	if data.NumMessages == 0 {
		return nil, nil
	}
	section := &imap.FetchItemBodySection{}
	bufs, err := c.Fetch(imap.SeqSet{{Start: 1, Stop: data.NumMessages}}, &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{section}}).Collect()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, b := range bufs {
		out = append(out, string(b.FindBodySection(section)))
	}
	return out, nil
}

func TestDeliveryByAddress(t *testing.T) {
	t.Parallel()
	s := start(t)
	if s.Domain() != "example.test" || s.Address("bob") != "bob@example.test" {
		t.Fatalf("domain %q, address %q", s.Domain(), s.Address("bob"))
	}
	msg := "Subject: hi\r\n\r\nhello\r\n"
	err := smtp.SendMail(s.SMTPAddr(), nil, "x@elsewhere.test",
		[]string{"Game+Tok1@example.test", "game+tok2@example.test", "alice@example.test"}, []byte(msg))
	if err != nil {
		t.Fatal(err)
	}
	game, err := fetchAll(t, s, "GAME@example.test", "pw")
	if err != nil {
		t.Fatal(err)
	}
	if len(game) != 2 {
		t.Fatalf("game has %d messages, want 2 (one per plus-address)", len(game))
	}
	for i, want := range []string{"Game+Tok1@example.test", "game+tok2@example.test"} {
		if !strings.HasPrefix(game[i], "Return-Path: <x@elsewhere.test>\r\nDelivered-To: "+want+"\r\n") {
			t.Errorf("message %d starts %q", i, game[i][:min(len(game[i]), 80)])
		}
		if !strings.HasSuffix(game[i], "\r\n"+msg) {
			t.Errorf("message %d does not end with the sent message", i)
		}
	}
	// A login without domain gets the server's.
	alice, err := fetchAll(t, s, "alice", "pw")
	if err != nil || len(alice) != 1 {
		t.Fatalf("alice: %v, %d messages", err, len(alice))
	}
	// New users exist on first login, with an empty INBOX.
	if msgs, err := fetchAll(t, s, "nobody@example.test", "pw"); err != nil || len(msgs) != 0 {
		t.Fatalf("nobody: %v, %d messages", err, len(msgs))
	}
	if _, err := fetchAll(t, s, "alice@example.test", "wrong"); err == nil {
		t.Fatal("login with a wrong password succeeded")
	}
}

func TestIMAPRestartKeepsMail(t *testing.T) {
	t.Parallel()
	s := start(t)
	if err := s.Deliver("a@example.test", []string{"bob@example.test"}, []byte("Subject: 1\r\n\r\nx\r\n")); err != nil {
		t.Fatal(err)
	}
	c, err := imapclient.DialInsecure(s.IMAPAddr(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login("bob@example.test", "pw").Wait(); err != nil {
		t.Fatal(err)
	}
	if err := s.RestartIMAP(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-c.Closed():
	case <-time.After(10 * time.Second):
		t.Fatal("client connection survived the restart")
	}
	msgs, err := fetchAll(t, s, "bob@example.test", "pw")
	if err != nil || len(msgs) != 1 {
		t.Fatalf("after restart: %v, %d messages", err, len(msgs))
	}
}

func TestCloseFreesPorts(t *testing.T) {
	t.Parallel()
	s := start(t)
	imapAddr, smtpAddr := s.IMAPAddr(), s.SMTPAddr()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	for _, addr := range []string{imapAddr, smtpAddr} {
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			t.Fatalf("port %s still taken after Close: %v", addr, err)
		}
		ln.Close()
	}
}

func TestInstructionsAndSMTPDialogue(t *testing.T) {
	t.Parallel()
	s := start(t)
	text := s.Instructions()
	for _, want := range []string{s.IMAPAddr()[strings.LastIndex(s.IMAPAddr(), ":")+1:], "alice@example.test", "pw"} {
		if !strings.Contains(text, want) {
			t.Errorf("instructions lack %q:\n%s", want, text)
		}
	}
	// The SMTP greeting names the domain.
	conn, err := net.Dial("tcp", s.SMTPAddr())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	line, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "220 example.test") {
		t.Fatalf("greeting %q, %v", line, err)
	}
	fmt.Fprintf(conn, "QUIT\r\n")
}
