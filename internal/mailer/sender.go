package mailer

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/textproto"
	"strconv"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"
)

// DefaultSendTimeout bounds one whole SMTP conversation.
const DefaultSendTimeout = 60 * time.Second

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
	// Timeout bounds connecting and each command. Zero means
	// DefaultSendTimeout.
	Timeout time.Duration
}

// Sender delivers already-built messages over SMTP.
type Sender struct {
	cfg SenderConfig
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

// Send delivers raw, a complete RFC 5322 message, from the envelope sender
// from to the envelope recipients to. The bytes go out unchanged: the
// Message-ID the outbox gave the message is the one recipients see, so a
// retry after a crash can be recognised as a repeat.
//
// go-mail's Msg type renders its own headers, so Send uses go-mail only to
// connect, negotiate TLS and authenticate, and then speaks MAIL, RCPT and
// DATA on the low-level client go-mail exposes.
//
// Errors are *SendError values when the server refused something; use
// IsPermanent to tell a 5xx refusal from trouble worth retrying. A message
// with several recipients fails as a whole if any recipient is refused, so
// the caller never has to remember who already got it.
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

	gc, err := s.client()
	if err != nil {
		return &SendError{Op: "config", Permanent: true, Err: err}
	}
	sc, err := gc.DialToSMTPClientWithContext(ctx)
	if err != nil {
		// Whatever goes wrong before MAIL FROM (greeting, EHLO, STARTTLS,
		// AUTH) is about the server or our configuration, not this
		// message: even a 5xx there must not make the outbox give up on
		// mail that a fixed configuration would deliver.
		se := classify("connect", err)
		se.Permanent = false
		return se
	}
	// go-mail's client has no context of its own after dialing: close the
	// connection when ctx ends, which unblocks any command.
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-ctx.Done():
			sc.Close()
		case <-done:
		}
	}()
	defer sc.Close()

	// go-mail's low-level client sends the path as given; RFC 5321 wants
	// angle brackets, and <> is the null sender.
	if err := sc.Mail("<" + from + ">"); err != nil {
		return classify("mail from", err)
	}
	for _, rcpt := range to {
		if err := sc.Rcpt("<" + rcpt + ">"); err != nil {
			sc.Reset()
			return classify("rcpt to "+rcpt, err)
		}
	}
	w, err := sc.Data()
	if err != nil {
		return classify("data", err)
	}
	// The DATA writer dot-stuffs, turns bare LF into CRLF and ends the last
	// line if needed, as the wire format requires; the content is untouched.
	if _, err := w.Write(raw); err != nil {
		w.Close()
		return classify("data", err)
	}
	if err := w.Close(); err != nil {
		return classify("data", err)
	}
	// The message is accepted; a failing QUIT changes nothing.
	_ = sc.Quit()
	return nil
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
