package mailer

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/textproto"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	gomail "github.com/wneessen/go-mail"
	"github.com/wneessen/go-mail/smtp"
)

// DefaultSendTimeout bounds one whole SMTP conversation.
const DefaultSendTimeout = 60 * time.Second

// DefaultIdleTimeout is how long an SMTP session may wait unused before
// the Sender closes it. Servers must wait at least five minutes for a
// client's next command (RFC 5321 §4.5.3.2.7) but many cut idle clients
// sooner; half a minute covers a command's answers and the next
// command's, and leaves nothing open for long when the table is quiet.
const DefaultIdleTimeout = 30 * time.Second

// DefaultMaxIdle is how many idle sessions a Sender keeps. The outbox
// sends one mail at a time, so one is enough; the second serves a caller
// sending beside it.
const DefaultMaxIdle = 2

// maxPerSession is how many messages go over one session before the
// Sender says QUIT and dials again. Some servers (Exchange's default
// receive connector among them) refuse more than a few dozen per
// connection; a fresh session now and then costs little.
const maxPerSession = 100

// SenderConfig configures a Sender.
type SenderConfig struct {
	Addr string // host:port of the SMTP server (submission, relay or MX)
	// Username and Password enable SMTP AUTH (PLAIN or LOGIN, whichever
	// the server offers). Leave Username empty for no authentication.
	Username, Password string
	Security           Security // none, starttls or tls; empty means none
	// TLSConfig is used for starttls and tls. Nil means the system roots
	// and the host name from Addr.
	TLSConfig *tls.Config
	// HELO is the name given in EHLO. Empty means the local host name.
	HELO string
	// Timeout bounds connecting and each message. Zero means
	// DefaultSendTimeout.
	Timeout time.Duration
	// IdleTimeout closes a session that has sent nothing for this long.
	// Zero means DefaultIdleTimeout; negative means no reuse: every
	// message has a session of its own, ended by QUIT.
	IdleTimeout time.Duration
	// MaxIdle is how many idle sessions are kept for reuse. Zero means
	// DefaultMaxIdle.
	MaxIdle int
}

// Sender delivers already-built messages over SMTP. It keeps the
// sessions it opened and sends the next messages over them, with RSET
// between two messages, so that a burst of mail costs one connection,
// one TLS handshake and one AUTH rather than one per message. A Sender
// is safe for concurrent use; Close ends its idle sessions.
type Sender struct {
	cfg SenderConfig

	mu     sync.Mutex
	idle   []*session // most recently used last
	closed bool
	dials  int // sessions opened, for tests and benchmarks
}

// session is one SMTP connection, logged in, between two messages.
type session struct {
	c     *smtp.Client
	sent  int         // messages it carried
	timer *time.Timer // ends it once idle too long; nil while in use
}

// NewSender returns a Sender for cfg. It does not connect.
func NewSender(cfg SenderConfig) (*Sender, error) {
	if cfg.Addr == "" {
		return nil, errors.New("mailer: sender needs an SMTP address")
	}
	sec, err := ParseSecurity(string(cfg.Security))
	if err != nil {
		return nil, err
	}
	cfg.Security = sec
	setDefault(&cfg.Timeout, DefaultSendTimeout)
	if cfg.IdleTimeout == 0 {
		cfg.IdleTimeout = DefaultIdleTimeout
	}
	if cfg.MaxIdle <= 0 {
		cfg.MaxIdle = DefaultMaxIdle
	}
	if _, _, err := splitPort(cfg.Addr); err != nil {
		return nil, err
	}
	return &Sender{cfg: cfg}, nil
}

func splitPort(addr string) (string, int, error) {
	host, p, err := net.SplitHostPort(addr)
	if err != nil {
		return "", 0, fmt.Errorf("mailer: smtp address %q: %w", addr, err)
	}
	port, err := strconv.Atoi(p)
	if err != nil || port <= 0 || port > 65535 {
		return "", 0, fmt.Errorf("mailer: smtp address %q: bad port", addr)
	}
	return host, port, nil
}

// client builds the go-mail client: connection, TLS policy and AUTH.
func (s *Sender) client() (*gomail.Client, error) {
	host, port, _ := splitPort(s.cfg.Addr)
	opts := []gomail.Option{
		gomail.WithPort(port),
		gomail.WithTimeout(s.cfg.Timeout),
	}
	switch s.cfg.Security {
	case SecurityTLS:
		opts = append(opts, gomail.WithSSL())
	case SecurityStartTLS:
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSMandatory))
	default:
		opts = append(opts, gomail.WithTLSPolicy(gomail.NoTLS))
	}
	if s.cfg.TLSConfig != nil {
		opts = append(opts, gomail.WithTLSConfig(s.cfg.TLSConfig))
	}
	if s.cfg.HELO != "" {
		opts = append(opts, gomail.WithHELO(s.cfg.HELO))
	}
	if s.cfg.Username != "" {
		// Prefer PLAIN, then LOGIN, as offered. The NoEnc variants only
		// matter with SecurityNone, which the operator chose knowingly
		// (typically a relay on loopback).
		plain, login := gomail.SMTPAuthPlain, gomail.SMTPAuthLogin
		if s.cfg.Security == SecurityNone {
			plain, login = gomail.SMTPAuthPlainNoEnc, gomail.SMTPAuthLoginNoEnc
		}
		opts = append(opts,
			gomail.WithOpportunisticSMTPAuth(plain, login),
			gomail.WithUsername(s.cfg.Username),
			gomail.WithPassword(s.cfg.Password))
	}
	return gomail.NewClient(host, opts...)
}

// dial opens a new session: connection, greeting, EHLO, TLS and AUTH.
func (s *Sender) dial(ctx context.Context) (*session, error) {
	gc, err := s.client()
	if err != nil {
		return nil, &SendError{Op: "config", Permanent: true, Err: err}
	}
	sc, err := gc.DialToSMTPClientWithContext(ctx)
	if err != nil {
		// Whatever goes wrong before MAIL FROM (greeting, EHLO, STARTTLS,
		// AUTH) is about the server or our configuration, not this
		// message: even a 5xx there must not make the outbox give up on
		// mail that a fixed configuration would deliver.
		se := classify(opConnect, err)
		se.Permanent = false
		return nil, se
	}
	s.mu.Lock()
	s.dials++
	s.mu.Unlock()
	return &session{c: sc}, nil
}

// take returns an idle session, most recently used first, or nil.
func (s *Sender) take() *session {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := len(s.idle)
	if n == 0 {
		return nil
	}
	ss := s.idle[n-1]
	s.idle = s.idle[:n-1]
	// If the timer already fired, expire is waiting for the lock and will
	// find the session gone: it is ours now.
	ss.timer.Stop()
	ss.timer = nil
	return ss
}

// put keeps a session that ended its message cleanly for the next one,
// or ends it when the Sender keeps no more.
func (s *Sender) put(ss *session) {
	s.mu.Lock()
	if s.closed || s.cfg.IdleTimeout < 0 || len(s.idle) >= s.cfg.MaxIdle || ss.sent >= maxPerSession {
		s.mu.Unlock()
		s.quit(ss)
		return
	}
	ss.timer = time.AfterFunc(s.cfg.IdleTimeout, func() { s.expire(ss) })
	s.idle = append(s.idle, ss)
	s.mu.Unlock()
}

// expire ends a session that waited unused for IdleTimeout, unless take
// got it first.
func (s *Sender) expire(ss *session) {
	s.mu.Lock()
	i := slices.Index(s.idle, ss)
	if i >= 0 {
		s.idle = slices.Delete(s.idle, i, i+1)
	}
	s.mu.Unlock()
	if i >= 0 {
		s.quit(ss)
	}
}

// quit ends a session politely, within a short bound: the server already
// has every message it accepted, so nothing depends on the answer.
func (s *Sender) quit(ss *session) {
	_ = ss.c.UpdateDeadline(min(s.cfg.Timeout, 5*time.Second))
	if err := ss.c.Quit(); err != nil {
		ss.c.Close()
	}
}

// Close ends the idle sessions. A Send after Close still works, over a
// session of its own that it ends at once.
func (s *Sender) Close() error {
	s.mu.Lock()
	s.closed = true
	idle := s.idle
	s.idle = nil
	for _, ss := range idle {
		ss.timer.Stop()
	}
	s.mu.Unlock()
	for _, ss := range idle {
		s.quit(ss)
	}
	return nil
}

// Dials reports how many SMTP sessions the Sender has opened.
func (s *Sender) Dials() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dials
}

// Deliver is Send: it makes a Sender the courier through which pbem's
// outbox sends (internal/outbox.Courier).
func (s *Sender) Deliver(ctx context.Context, from string, to []string, raw []byte) error {
	return s.Send(ctx, from, to, raw)
}

// Send delivers raw, a complete RFC 5322 message, from the envelope sender
// from to the envelope recipients to. The bytes go out unchanged: the
// Message-ID the outbox gave the message is the one recipients see, so a
// retry after a crash can be recognised as a repeat.
//
// go-mail's Msg type renders its own headers, so Send uses go-mail only to
// connect, negotiate TLS and authenticate, and then speaks MAIL, RCPT and
// DATA on the low-level client go-mail exposes.
//
// Send reuses an idle session when there is one. It first says RSET,
// which clears whatever the last message left and proves the session
// alive; a session the server has dropped in the meantime (idle timeout,
// restart) is replaced by a new one before anything of this message is
// sent, and a reused session the server refuses MAIL FROM on is replaced
// too, once: up to that point the server cannot have taken the message, so
// trying again cannot deliver it twice.
//
// Errors are *SendError values when the server refused something; use
// IsPermanent to tell a 5xx refusal from trouble worth retrying. A message
// with several recipients fails as a whole if any recipient is refused, so
// the caller never has to remember who already got it. A session on which
// the server refused a message (a reply, not a broken connection) serves
// the next message after RSET: one bad message does not cost the others
// their session.
func (s *Sender) Send(ctx context.Context, from string, to []string, raw []byte) error {
	if len(to) == 0 {
		return &SendError{Op: "rcpt", Permanent: true, Err: errors.New("no recipients")}
	}
	if len(raw) == 0 {
		return &SendError{Op: "data", Permanent: true, Err: errors.New("empty message")}
	}
	for _, a := range append([]string{from}, to...) {
		if strings.ContainsAny(a, "<>\r\n") {
			return &SendError{Op: "envelope", Permanent: true, Err: fmt.Errorf("bad address %q", a)}
		}
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()

	fresh := false // after a stale session, dial: at most two tries
	for {
		var ss *session
		if !fresh {
			ss = s.take()
		}
		reused := ss != nil
		if ss == nil {
			var err error
			if ss, err = s.dial(ctx); err != nil {
				return err
			}
		}
		keep, err := s.sendOn(ctx, ss, reused, from, to, raw)
		if keep {
			s.put(ss)
		} else {
			ss.c.Close()
		}
		var stale *staleSession
		if errors.As(err, &stale) {
			fresh = true
			continue
		}
		return err
	}
}

// staleSession says a reused session failed before the message was
// begun: the message is still to send, on another session.
type staleSession struct{ err error }

func (e *staleSession) Error() string { return "stale session: " + e.err.Error() }

// sendOn sends one message over ss and says whether ss can carry the
// next. A reused session that fails before the server could have taken
// anything of the message yields a *staleSession error.
func (s *Sender) sendOn(ctx context.Context, ss *session, reused bool, from string, to []string, raw []byte) (keep bool, err error) {
	sc := ss.c
	// go-mail's client has no context of its own after dialing: close the
	// connection when ctx ends, which unblocks any command, and the
	// session is not kept.
	stop := context.AfterFunc(ctx, func() { sc.Close() })
	defer func() {
		if !stop() {
			keep = false
		}
	}()
	// The deadline go-mail set at dialing has to be renewed for each
	// message on a reused session.
	if err := sc.UpdateDeadline(s.cfg.Timeout); err != nil {
		return false, &staleSession{err}
	}
	// A reused session begins with MAIL, not RSET: a session is kept
	// only after a message the server took (its end of data resets the
	// transaction, RFC 5321 4.1.1.4) or after a failure that RSET ended
	// (reusable). A session the server dropped while idle fails at MAIL
	// as it would at RSET, before anything of the message: one round
	// trip a mail fewer (issue 40).
	//
	// go-mail's low-level client sends the path as given; RFC 5321 wants
	// angle brackets, and <> is the null sender.
	if err := sc.Mail("<" + from + ">"); err != nil {
		if reused && ctx.Err() == nil {
			// The server dropped the idle session, or limits messages per
			// connection and says so here.
			return false, &staleSession{err}
		}
		return reusable(sc, err), classify("mail from", err)
	}
	for _, rcpt := range to {
		if err := sc.Rcpt("<" + rcpt + ">"); err != nil {
			return reusable(sc, err), classify("rcpt to "+rcpt, err)
		}
	}
	w, err := sc.Data()
	if err != nil {
		return reusable(sc, err), classify("data", err)
	}
	// The DATA writer dot-stuffs, turns bare LF into CRLF and ends the last
	// line if needed, as the wire format requires; the content is untouched.
	// writeData spares a message that needs none of that the DATA
	// writer's byte-by-byte copy.
	if err := writeData(sc, w, raw); err != nil {
		w.Close()
		// The server has not seen the end of the data: the connection
		// cannot carry another message.
		return false, classify("data", err)
	}
	if err := w.Close(); err != nil {
		return reusable(sc, err), classify("data", err)
	}
	ss.sent++
	return true, nil
}

// reusable says whether a session whose message failed with err can carry
// the next one: only if the server answered (a reply, not a broken
// connection or a timeout), did not announce it is closing (421), and
// takes RSET, which ends the failed transaction.
func reusable(sc *smtp.Client, err error) bool {
	var tp *textproto.Error
	if !errors.As(err, &tp) || tp.Code == 421 {
		return false
	}
	return sc.Reset() == nil
}

// opConnect is the SendError.Op of a failure to open a session:
// connecting, the greeting, EHLO, STARTTLS or AUTH.
const opConnect = "connect"

// IsUnreachable reports whether err says that no session with the SMTP
// server could be opened: the connection was refused or timed out, or
// the greeting, EHLO, STARTTLS or AUTH failed. Such an error is about the
// server or pbem's configuration, never about the message, which was not
// begun: the caller may try again soon without counting it against the
// message. A connection that breaks once the message is begun is not
// unreachable: the message itself may be what the server cannot take.
func IsUnreachable(err error) bool {
	var se *SendError
	return errors.As(err, &se) && se.Op == opConnect
}

// SendError describes a failed delivery attempt.
type SendError struct {
	Op        string // the SMTP step that failed: connect, mail from, rcpt to X, data
	Code      int    // the server's reply code, or 0 if there was none
	Permanent bool   // the server refused for good (5xx); do not retry
	Err       error
}

func (e *SendError) Error() string {
	kind := "temporary"
	if e.Permanent {
		kind = "permanent"
	}
	return fmt.Sprintf("smtp %s (%s): %v", e.Op, kind, e.Err)
}

func (e *SendError) Unwrap() error { return e.Err }

// classify turns an error from go-mail's SMTP client into a SendError.
// Reply codes 5xx are permanent; 4xx, network errors, timeouts and anything
// unknown are temporary, because retrying a permanent failure costs little
// and dropping a temporary one loses mail.
func classify(op string, err error) *SendError {
	se := &SendError{Op: op, Err: err}
	var tp *textproto.Error
	if errors.As(err, &tp) {
		se.Code = tp.Code
		se.Permanent = tp.Code >= 500 && tp.Code < 600
	}
	return se
}

// IsPermanent reports whether err says that retrying the same message will
// not help: the server refused it (MAIL, RCPT or DATA) with a 5xx reply, or
// the message itself is unusable (no recipients, empty, a bad address).
// Network errors, timeouts, 4xx replies and failures while connecting,
// starting TLS or authenticating are temporary. A nil error is not
// permanent.
func IsPermanent(err error) bool {
	var se *SendError
	return errors.As(err, &se) && se.Permanent
}
