package mailer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"testing"
	"time"
)

// smtpProxy stands between a Sender and the embedded SMTP server: it
// counts the connections, can drop them all, and can cut a connection
// when the client's bytes contain a marker (a drop in the middle of DATA).
type smtpProxy struct {
	ln     net.Listener
	target string
	closed chan struct{} // one value per connection that ended

	mu       sync.Mutex
	accepted int
	open     map[net.Conn]net.Conn // client side → server side
	cut      []byte                // cut the connection that sends this, once
	sent     []byte                // every byte the clients sent
}

func newSMTPProxy(t *testing.T, target string) *smtpProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &smtpProxy{ln: ln, target: target, closed: make(chan struct{}, 100), open: map[net.Conn]net.Conn{}}
	t.Cleanup(func() { ln.Close(); p.dropAll() })
	go p.serve()
	return p
}

func (p *smtpProxy) addr() string { return p.ln.Addr().String() }

func (p *smtpProxy) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		s, err := net.Dial("tcp", p.target)
		if err != nil {
			c.Close()
			continue
		}
		p.mu.Lock()
		p.accepted++
		p.open[c] = s
		p.mu.Unlock()
		go func() {
			io.Copy(c, s) // server → client
			c.Close()
		}()
		go func() {
			p.forward(s, c) // client → server
			s.Close()
			c.Close()
			p.mu.Lock()
			delete(p.open, c)
			p.mu.Unlock()
			p.closed <- struct{}{}
		}()
	}
}

// forward copies the client's bytes to the server until either side
// ends, or until the marker to cut at shows up.
func (p *smtpProxy) forward(s, c net.Conn) {
	buf := make([]byte, 64<<10)
	for {
		n, err := c.Read(buf)
		if n > 0 {
			p.mu.Lock()
			p.sent = append(p.sent, buf[:n]...)
			cut := p.cut != nil && bytes.Contains(buf[:n], p.cut)
			if cut {
				p.cut = nil
			}
			p.mu.Unlock()
			if cut {
				return
			}
			if _, err := s.Write(buf[:n]); err != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// commands counts the lines the clients sent that begin with verb
// (such as "RSET"), in every connection so far.
func (p *smtpProxy) commands(verb string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for line := range bytes.SplitSeq(p.sent, []byte("\r\n")) {
		if bytes.HasPrefix(line, []byte(verb)) {
			n++
		}
	}
	return n
}

func (p *smtpProxy) connections() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.accepted
}

// dropAll cuts every open connection, as a server restarting would.
func (p *smtpProxy) dropAll() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for c, s := range p.open {
		c.Close()
		s.Close()
	}
}

func (p *smtpProxy) cutAt(marker string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cut = []byte(marker)
}

// waitClosed waits until n more connections have ended.
func (p *smtpProxy) waitClosed(t *testing.T, n int) {
	t.Helper()
	for range n {
		select {
		case <-p.closed:
		case <-time.After(10 * time.Second):
			t.Fatal("no connection ended within 10s")
		}
	}
}

// sendN sends n messages to bob, numbered from first, and fails on any
// error.
func sendN(t *testing.T, s *Sender, first, n int) {
	t.Helper()
	for i := first; i < first+n; i++ {
		to := "bob@example.test"
		if err := s.Send(context.Background(), "game@example.test", []string{to}, testMessage("game@example.test", to, fmt.Sprintf("m%d", i))); err != nil {
			t.Fatalf("message %d: %v", i, err)
		}
	}
}

// inboxSubjects returns the subjects of user's messages, with how many
// times each arrived.
func inboxSubjects(t *testing.T, srv interface{ IMAPAddr() string }, user string) map[string]int {
	t.Helper()
	cfg := InboxConfig{Addr: srv.IMAPAddr(), Username: user, Password: testPassword}
	msgs, err := ReadAll(context.Background(), cfg, user)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, m := range msgs {
		got[subject(t, m.Raw)]++
	}
	return got
}

// wantDelivered checks that bob has the messages first..first+n-1, each
// exactly once, and nothing else.
func wantDelivered(t *testing.T, got map[string]int, n int) {
	t.Helper()
	if len(got) != n {
		t.Errorf("bob has %d distinct messages, want %d: %v", len(got), n, got)
	}
	for i := range n {
		if c := got[fmt.Sprintf("m%d", i)]; c != 1 {
			t.Errorf("m%d arrived %d times, want once", i, c)
		}
	}
}

func TestSenderReusesSession(t *testing.T) {
	t.Parallel()
	srv := testServers(t)
	p := newSMTPProxy(t, srv.SMTPAddr())
	s, err := NewSender(SenderConfig{Addr: p.addr(), Username: "game@example.test", Password: testPassword, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	sendN(t, s, 0, 20)
	if c, d := p.connections(), s.Dials(); c != 1 || d != 1 {
		t.Errorf("20 messages took %d connections (%d dials), want 1", c, d)
	}
	wantDelivered(t, inboxSubjects(t, srv, "bob@example.test"), 20)
	// Each message after the first begins with MAIL at once: RSET would
	// be a round trip a mail that ends nothing.
	if n, m := p.commands("RSET"), p.commands("MAIL FROM:"); n != 0 || m != 20 {
		t.Errorf("20 messages on one session sent %d RSET and %d MAIL FROM, want 0 and 20", n, m)
	}

	// Close says QUIT on the idle session.
	s.Close()
	p.waitClosed(t, 1)
}

// TestSenderRedialsDroppedSession: a server that drops the idle session
// (a restart, its own idle timeout) costs no message: the next Send finds
// the session dead at MAIL, dials again, and sends.
func TestSenderRedialsDroppedSession(t *testing.T) {
	t.Parallel()
	srv := testServers(t)
	p := newSMTPProxy(t, srv.SMTPAddr())
	s, err := NewSender(SenderConfig{Addr: p.addr(), Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	sendN(t, s, 0, 3)
	p.dropAll()
	p.waitClosed(t, 1)
	sendN(t, s, 3, 3)
	if c := p.connections(); c != 2 {
		t.Errorf("%d connections, want 2 (one redial after the drop)", c)
	}
	wantDelivered(t, inboxSubjects(t, srv, "bob@example.test"), 6)
}

// TestSenderCutInData: a connection cut in the middle of a message's DATA
// fails that message, temporarily: the server did not take it. The next
// message goes over a new session, and the failed one, sent again as the
// outbox does, arrives once.
func TestSenderCutInData(t *testing.T) {
	t.Parallel()
	srv := testServers(t)
	p := newSMTPProxy(t, srv.SMTPAddr())
	s, err := NewSender(SenderConfig{Addr: p.addr(), Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	sendN(t, s, 0, 2)
	p.cutAt("body of m2")
	err = s.Send(context.Background(), "game@example.test", []string{"bob@example.test"}, testMessage("game@example.test", "bob@example.test", "m2"))
	var se *SendError
	if !errors.As(err, &se) || IsPermanent(err) {
		t.Fatalf("cut in DATA: got %v, want a temporary SendError", err)
	}
	p.waitClosed(t, 1)
	if got := inboxSubjects(t, srv, "bob@example.test"); got["m2"] != 0 {
		t.Fatalf("m2 arrived although its DATA was cut: %v", got)
	}
	sendN(t, s, 3, 2)
	sendN(t, s, 2, 1) // the outbox's retry
	if c := p.connections(); c != 2 {
		t.Errorf("%d connections, want 2", c)
	}
	wantDelivered(t, inboxSubjects(t, srv, "bob@example.test"), 5)
}

// TestSenderRefusalKeepsSession: a message the server refuses does not
// cost the next one its session: RSET, and the session goes on.
func TestSenderRefusalKeepsSession(t *testing.T) {
	t.Parallel()
	srv := testServers(t)
	p := newSMTPProxy(t, srv.SMTPAddr())
	s, err := NewSender(SenderConfig{Addr: p.addr(), Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	sendN(t, s, 0, 1)
	// bob is accepted, then the second recipient is refused: the whole
	// transaction is abandoned.
	err = s.Send(context.Background(), "game@example.test", []string{"bob@example.test", "nodomain"},
		testMessage("game@example.test", "bob@example.test", "refused"))
	if !IsPermanent(err) {
		t.Fatalf("refused recipient: got %v, want a permanent error", err)
	}
	sendN(t, s, 1, 2)
	if c := p.connections(); c != 1 {
		t.Errorf("%d connections, want 1: a refusal must not end the session", c)
	}
	wantDelivered(t, inboxSubjects(t, srv, "bob@example.test"), 3)
}

// TestSenderIdleTimeout: a session unused for IdleTimeout is ended, and
// the next message dials again.
func TestSenderIdleTimeout(t *testing.T) {
	t.Parallel()
	srv := testServers(t)
	p := newSMTPProxy(t, srv.SMTPAddr())
	s, err := NewSender(SenderConfig{Addr: p.addr(), Timeout: 10 * time.Second, IdleTimeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	sendN(t, s, 0, 2)
	p.waitClosed(t, 1) // the Sender ended the idle session
	sendN(t, s, 2, 1)
	if c := p.connections(); c != 2 {
		t.Errorf("%d connections, want 2", c)
	}
	wantDelivered(t, inboxSubjects(t, srv, "bob@example.test"), 3)
}

// TestSenderNoReuse: a negative IdleTimeout gives each message a session
// of its own, as before sessions were kept.
func TestSenderNoReuse(t *testing.T) {
	t.Parallel()
	srv := testServers(t)
	p := newSMTPProxy(t, srv.SMTPAddr())
	s, err := NewSender(SenderConfig{Addr: p.addr(), Timeout: 10 * time.Second, IdleTimeout: -1})
	if err != nil {
		t.Fatal(err)
	}
	sendN(t, s, 0, 3)
	if c := p.connections(); c != 3 {
		t.Errorf("%d connections, want 3", c)
	}
	p.waitClosed(t, 3)
}
