package mailer

import (
	"bufio"
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
)

// lmtpTest is an LMTP server whose handler keeps what it was handed.
type lmtpTest struct {
	srv  *LMTPServer
	mu   sync.Mutex
	got  []Message
	fail error // the handler's answer while set: nothing committed
}

func (x *lmtpTest) handle(_ context.Context, msgs []Message) (int, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.fail != nil {
		return 0, x.fail
	}
	x.got = append(x.got, msgs...)
	return len(msgs), nil
}

func (x *lmtpTest) handed() []Message {
	x.mu.Lock()
	defer x.mu.Unlock()
	return append([]Message(nil), x.got...)
}

func testLMTPConfig(addr string) LMTPConfig {
	return LMTPConfig{
		Addr:      addr,
		Accept:    func(r string) bool { return strings.HasSuffix(r, "@pbem.test") },
		Separator: "+", MaxSize: 1 << 10, HardLimit: 8 << 10, MaxRecipients: 5,
		MaxConns: 4, MailsPerConn: 3, Timeout: 5 * time.Second, MaxBatch: 8,
	}
}

func startLMTP(t testing.TB, cfg LMTPConfig) *lmtpTest {
	t.Helper()
	srv, err := NewLMTPServer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	x := &lmtpTest{srv: srv}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.RunBatch(ctx, x.handle) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("RunBatch: %v", err)
		}
	})
	return x
}

func dialLMTP(t testing.TB, addr string) *smtp.Client {
	t.Helper()
	network, where := "tcp", addr
	if p, ok := strings.CutPrefix(addr, "unix:"); ok {
		network, where = "unix", p
	}
	conn, err := net.Dial(network, where)
	if err != nil {
		t.Fatal(err)
	}
	c := smtp.NewClientLMTP(conn)
	if err := c.Hello("mx.test"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// send sends one mail and returns the error of DATA's answers.
func send(t testing.TB, c *smtp.Client, from string, rcpts []string, raw string) error {
	t.Helper()
	if err := c.Mail(from, nil); err != nil {
		return err
	}
	for _, r := range rcpts {
		if err := c.Rcpt(r, nil); err != nil {
			return err
		}
	}
	wc, err := c.Data()
	if err != nil {
		return err
	}
	if _, err := io.WriteString(wc, raw); err != nil {
		return err
	}
	_, err = wc.CloseWithLMTPResponse()
	return err
}

const plain = "From: a@x.test\r\nSubject: hi\r\n\r\nhelp\r\n"

// A mail is handed over once, with Return-Path and the Delivered-To of
// its first recipient with a detail; its ID is the digest of its bytes.
func TestLMTPHandsOverOnce(t *testing.T) {
	x := startLMTP(t, testLMTPConfig("127.0.0.1:0"))
	c := dialLMTP(t, x.srv.Addr())
	if err := send(t, c, "a@x.test", []string{"pbem@pbem.test", "pbem+tok@pbem.test"}, plain); err != nil {
		t.Fatal(err)
	}
	if err := send(t, c, "", []string{"pbem@pbem.test"}, plain); err != nil {
		t.Fatal(err)
	}
	got := x.handed()
	if len(got) != 2 {
		t.Fatalf("%d mails handed over, want 2", len(got))
	}
	if !strings.HasPrefix(string(got[0].Raw), "Return-Path: <a@x.test>\r\nDelivered-To: pbem+tok@pbem.test\r\nFrom: a@x.test") {
		t.Errorf("first mail:\n%s", got[0].Raw)
	}
	if !strings.HasPrefix(string(got[1].Raw), "Return-Path: <>\r\nDelivered-To: pbem@pbem.test\r\n") {
		t.Errorf("bounce:\n%s", got[1].Raw)
	}
	if got[0].ID == "" || got[0].ID != got[1].ID || got[0].Mailbox != LMTPMailbox || got[0].UID != 0 {
		t.Errorf("IDs %q and %q of the same bytes, mailbox %q, UID %d", got[0].ID, got[1].ID, got[0].Mailbox, got[0].UID)
	}
}

// The handler's failure is every recipient's 451; a mail over MaxSize
// is handed over as its header, with TooLarge; a recipient not accepted
// is 550 at RCPT.
func TestLMTPAnswers(t *testing.T) {
	x := startLMTP(t, testLMTPConfig("127.0.0.1:0"))
	c := dialLMTP(t, x.srv.Addr())
	x.mu.Lock()
	x.fail = errors.New("database full")
	x.mu.Unlock()
	err := send(t, c, "a@x.test", []string{"pbem@pbem.test", "pbem+t@pbem.test"}, plain)
	var per smtp.LMTPDataError
	if !errors.As(err, &per) || len(per) != 2 || per["pbem@pbem.test"].Code != 451 || per["pbem+t@pbem.test"].Code != 451 {
		t.Fatalf("handler failing: %v, want 451 for both", err)
	}
	x.mu.Lock()
	x.fail = nil
	x.mu.Unlock()
	big := "From: a@x.test\r\nSubject: big\r\n\r\n" + strings.Repeat("x\r\n", 1000)
	if err := send(t, c, "a@x.test", []string{"pbem@pbem.test"}, big); err != nil {
		t.Fatal(err)
	}
	got := x.handed()
	if len(got) != 1 || !got[0].TooLarge || !strings.HasSuffix(string(got[0].Raw), "Subject: big\r\n\r\n") || got[0].Size < int64(len(big)) {
		t.Fatalf("too large: %d mails, %+v", len(got), got)
	}
	c2 := dialLMTP(t, x.srv.Addr())
	c2.Mail("a@x.test", nil)
	var se *smtp.SMTPError
	if err := c2.Rcpt("someone@else.test", nil); !errors.As(err, &se) || se.Code != 550 {
		t.Errorf("a stranger's recipient: %v, want 550", err)
	}
	if err := c2.Rcpt("pbem\r\nX-Evil: 1@pbem.test", nil); err == nil {
		t.Error("a recipient with a line break was accepted")
	}
}

// Bounds: connections past MaxConns are answered 421; past MailsPerConn
// MAIL is answered 421.
func TestLMTPConnectionBounds(t *testing.T) {
	cfg := testLMTPConfig("127.0.0.1:0")
	x := startLMTP(t, cfg)
	for range cfg.MaxConns {
		dialLMTP(t, x.srv.Addr())
	}
	conn, err := net.Dial("tcp", x.srv.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	line, _ := bufio.NewReader(conn).ReadString('\n')
	if !strings.HasPrefix(line, "421 ") {
		t.Errorf("connection %d: greeted %q, want 421", cfg.MaxConns+1, line)
	}
	x2 := startLMTP(t, cfg)
	c := dialLMTP(t, x2.srv.Addr())
	for range cfg.MailsPerConn {
		if err := send(t, c, "a@x.test", []string{"pbem@pbem.test"}, plain); err != nil {
			t.Fatal(err)
		}
	}
	var se *smtp.SMTPError
	if err := c.Mail("a@x.test", nil); !errors.As(err, &se) || se.Code != 421 {
		t.Errorf("mail %d on one connection: %v, want 421", cfg.MailsPerConn+1, err)
	}
}

// A Unix socket: a stale one is replaced, one in use refused, and it is
// removed at the stop.
func TestLMTPUnixSocket(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lmtp.sock")
	stale, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	stale.(*net.UnixListener).SetUnlinkOnClose(false)
	stale.Close() // the file stays, as after a crash
	cfg := testLMTPConfig("unix:" + path)
	x := startLMTP(t, cfg)
	if _, err := NewLMTPServer(cfg); err == nil {
		t.Fatal("a second server on a socket in use started")
	}
	c := dialLMTP(t, x.srv.Addr())
	if err := send(t, c, "a@x.test", []string{"pbem@pbem.test"}, plain); err != nil {
		t.Fatal(err)
	}
}

// FuzzLMTPSession feeds a whole client session to the server: whatever
// it is, the server answers within its timeout, never panics, and a
// well-formed mail after it is still taken.
func FuzzLMTPSession(f *testing.F) {
	f.Add([]byte("LHLO x\r\nMAIL FROM:<a@x.test>\r\nRCPT TO:<pbem@pbem.test>\r\nDATA\r\n" + plain + ".\r\nQUIT\r\n"))
	f.Add([]byte("LHLO x\r\nMAIL FROM:<>\r\nRCPT TO:<pbem+a@pbem.test>\r\nRCPT TO:<pbem@pbem.test>\r\nDATA\r\n\r\n.\r\n"))
	f.Add([]byte("EHLO x\r\nBDAT 10 LAST\r\n0123456789"))
	f.Add([]byte("LHLO x\r\nMAIL FROM:<a@x.test> BODY=BINARYMIME\r\nRCPT TO:<pbem@pbem.test>\r\nBDAT 3\r\nabcBDAT 0 LAST\r\n"))
	f.Add([]byte("LHLO x\r\nMAIL FROM:<a\x00b@x>\r\nRSET\r\nNOOP\r\nVRFY pbem\r\n"))
	cfg := testLMTPConfig("127.0.0.1:0")
	cfg.Timeout = time.Second
	cfg.MaxConns = 64
	x := startLMTP(f, cfg)
	f.Fuzz(func(t *testing.T, session []byte) {
		conn, err := net.Dial("tcp", x.srv.Addr())
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		conn.SetDeadline(time.Now().Add(10 * time.Second))
		go func() { conn.Write(session); conn.(*net.TCPConn).CloseWrite() }()
		// The server answers and closes within its timeout.
		if _, err := io.Copy(io.Discard, conn); err != nil && !errors.Is(err, net.ErrClosed) && !isReset(err) {
			t.Fatalf("reading the server's answers: %v", err)
		}
		before := len(x.handed())
		c := dialLMTP(t, x.srv.Addr())
		if err := send(t, c, "a@x.test", []string{"pbem@pbem.test"}, plain); err != nil {
			t.Fatalf("a mail after the session: %v", err)
		}
		if len(x.handed()) != before+1 {
			t.Fatal("the mail after the session was not handed over")
		}
	})
}

func isReset(err error) bool {
	return strings.Contains(err.Error(), "connection reset")
}

// A batch whose second mail fails: the first is committed, the second
// answered 451, and the third handed over again at once and committed,
// not sent back to wait for the client's next try.
func TestLMTPBatchFailingMail(t *testing.T) {
	s := &LMTPServer{log: discardLog()}
	var calls [][]string
	h := func(_ context.Context, msgs []Message) (int, error) {
		var ids []string
		for _, m := range msgs {
			ids = append(ids, m.ID)
		}
		calls = append(calls, ids)
		for i, m := range msgs {
			if m.ID == "poison" {
				return i, errors.New("a bug")
			}
		}
		return len(msgs), nil
	}
	var batch []*delivery
	for _, id := range []string{"a", "poison", "b"} {
		batch = append(batch, &delivery{msg: Message{ID: id}, done: make(chan error, 1)})
	}
	s.handle(context.Background(), h, batch)
	for i, want := range []int{250, 451, 250} {
		got := 250
		if err := <-batch[i].done; err != nil {
			got = err.(*smtp.SMTPError).Code
		}
		if got != want {
			t.Errorf("mail %s: %d, want %d", batch[i].msg.ID, got, want)
		}
	}
	if len(calls) != 2 || strings.Join(calls[1], ",") != "b" {
		t.Errorf("handler calls %v, want [a poison b] then [b]", calls)
	}
}

func discardLog() *slog.Logger { return slog.New(slog.DiscardHandler) }
