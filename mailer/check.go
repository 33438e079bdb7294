package mailer

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/textproto"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/wneessen/go-mail/smtp"
)

// DefaultCheckTimeout bounds one whole check of a server. A server that
// sends no greeting within it is most likely waiting for a TLS handshake
// the configuration does not start (security none or starttls against
// an implicit-TLS port).
const DefaultCheckTimeout = 15 * time.Second

// CheckStep is the step of a server check that failed. Each names what
// the operator has to look at, so that the caller can point at the
// setting to change.
type CheckStep string

const (
	// StepConnect: no TCP connection (refused, no route, no such host).
	StepConnect CheckStep = "connect"
	// StepTLS: the TLS handshake failed, the server offers no STARTTLS,
	// or it sent no greeting (it waits for a handshake pbem does not
	// start), or its greeting was not readable (pbem started a handshake
	// the server does not expect).
	StepTLS CheckStep = "tls"
	// StepNoAuth: a user name is configured but the SMTP server offers
	// no AUTH on this session.
	StepNoAuth CheckStep = "no-auth"
	// StepLogin: the server refused the user name and password.
	StepLogin CheckStep = "login"
	// StepMailbox: the IMAP server has no such mailbox, or refuses it.
	StepMailbox CheckStep = "mailbox"
	// StepEnvelope: the SMTP server refused pbem's address as sender or
	// recipient (MAIL FROM, RCPT TO); AuthRequired says whether it asked
	// for authentication.
	StepEnvelope CheckStep = "envelope"
)

// CheckError says which step of a server check failed, and why.
type CheckError struct {
	Server string // "imap" or "smtp"
	Addr   string
	Step   CheckStep
	// AuthRequired: the SMTP server refused the envelope of a session
	// that did not log in, for security or policy (530, or an enhanced
	// code 5.7.x): most likely it wants a login.
	AuthRequired bool
	// TLS says whether the session was encrypted when the step failed.
	TLS bool
	Err error
}

func (e *CheckError) Error() string {
	return fmt.Sprintf("%s %s: %s: %v", e.Server, e.Addr, e.Step, e.Err)
}

func (e *CheckError) Unwrap() error { return e.Err }

// CheckReport says what a successful check found.
type CheckReport struct {
	TLS  bool   // the session was encrypted
	Auth string // the SASL mechanism used, "" for none
}

// CheckIMAP opens a session with the IMAP server as the Inbox would:
// connection, TLS as configured, login, and SELECT of the mailbox; then
// it logs out. It reads no mail and changes nothing. A failure is a
// *CheckError.
func CheckIMAP(ctx context.Context, cfg InboxConfig) (CheckReport, error) {
	sec, err := ParseSecurity(string(cfg.Security))
	if err != nil {
		return CheckReport{}, err
	}
	mailbox := cfg.Mailbox
	if mailbox == "" {
		mailbox = "INBOX"
	}
	fail := func(step CheckStep, tlsOn bool, err error) (CheckReport, error) {
		return CheckReport{}, &CheckError{Server: "imap", Addr: cfg.Addr, Step: step, TLS: tlsOn, Err: err}
	}
	raw, err := checkDial(ctx, cfg.Addr)
	if err != nil {
		return fail(StepConnect, false, err)
	}
	defer raw.Close()
	tlsConfig, err := checkTLSConfig(cfg.TLSConfig, cfg.Addr)
	if err != nil {
		return fail(StepConnect, false, err)
	}
	opts := &imapclient.Options{TLSConfig: tlsConfig}
	var c *imapclient.Client
	switch sec {
	case SecurityTLS:
		tc := tls.Client(raw, tlsConfig)
		if err := tc.HandshakeContext(ctx); err != nil {
			return fail(StepTLS, false, err)
		}
		c = imapclient.New(tc, opts)
	case SecurityStartTLS:
		if c, err = imapclient.NewStartTLS(raw, opts); err != nil {
			return fail(StepTLS, false, err)
		}
	default:
		c = imapclient.New(raw, opts)
	}
	defer c.Close()
	tlsOn := sec != SecurityNone
	if err := c.WaitGreeting(); err != nil {
		return fail(StepTLS, tlsOn, raw.noGreeting(err))
	}
	if err := c.Login(cfg.Username, cfg.Password).Wait(); err != nil {
		return fail(StepLogin, tlsOn, err)
	}
	if _, err := c.Select(mailbox, &imap.SelectOptions{ReadOnly: true}).Wait(); err != nil {
		return fail(StepMailbox, tlsOn, fmt.Errorf("select %s: %w", mailbox, err))
	}
	_ = c.Logout().Wait()
	return CheckReport{TLS: tlsOn}, nil
}

// Check opens a session with the SMTP server as Send would: connection,
// greeting, EHLO, TLS as configured and AUTH when a user name is set.
// Then it gives from as sender and recipient (MAIL FROM, RCPT TO), which
// shows whether the server takes mail from pbem at all, says RSET
// instead of DATA, so that nothing is sent, and QUIT. A failure is a
// *CheckError.
func (s *Sender) Check(ctx context.Context, from string) (CheckReport, error) {
	cfg := s.cfg
	fail := func(step CheckStep, tlsOn bool, err error) (CheckReport, error) {
		return CheckReport{}, &CheckError{Server: "smtp", Addr: cfg.Addr, Step: step, TLS: tlsOn, Err: err}
	}
	raw, err := checkDial(ctx, cfg.Addr)
	if err != nil {
		return fail(StepConnect, false, err)
	}
	defer raw.Close()
	tlsConfig, err := checkTLSConfig(cfg.TLSConfig, cfg.Addr)
	if err != nil {
		return fail(StepConnect, false, err)
	}
	host, _, _ := splitPort(cfg.Addr)
	var conn net.Conn = raw
	if cfg.Security == SecurityTLS {
		tc := tls.Client(raw, tlsConfig)
		if err := tc.HandshakeContext(ctx); err != nil {
			return fail(StepTLS, false, err)
		}
		conn = tc
	}
	c, err := smtp.NewClient(conn, host)
	if err != nil {
		return fail(StepTLS, cfg.Security == SecurityTLS, raw.noGreeting(err))
	}
	defer c.Close()
	helo := cfg.HELO
	if helo == "" {
		// As go-mail does for Send.
		if helo, err = os.Hostname(); err != nil {
			helo = "localhost"
		}
	}
	if err := c.Hello(helo); err != nil {
		return fail(StepConnect, cfg.Security == SecurityTLS, fmt.Errorf("EHLO: %w", err))
	}
	if cfg.Security == SecurityStartTLS {
		if ok, _ := c.Extension("STARTTLS"); !ok {
			return fail(StepTLS, false, errors.New("the server offers no STARTTLS"))
		}
		if err := c.StartTLS(tlsConfig); err != nil {
			return fail(StepTLS, false, err)
		}
	}
	tlsOn := cfg.Security != SecurityNone
	var report CheckReport
	report.TLS = tlsOn
	if cfg.Username != "" {
		ok, mechs := c.Extension("AUTH")
		if !ok {
			return fail(StepNoAuth, tlsOn, errors.New("offers no AUTH"))
		}
		// As Send: PLAIN, else LOGIN; without TLS only because the
		// operator chose security none.
		var auth smtp.Auth
		switch offered := strings.Fields(strings.ToUpper(mechs)); {
		case slices.Contains(offered, "PLAIN"):
			auth, report.Auth = smtp.PlainAuth("", cfg.Username, cfg.Password, host, !tlsOn), "PLAIN"
		case slices.Contains(offered, "LOGIN"):
			auth, report.Auth = smtp.LoginAuth(cfg.Username, cfg.Password, host, !tlsOn), "LOGIN"
		default:
			return fail(StepNoAuth, tlsOn, fmt.Errorf("offers AUTH %s, neither PLAIN nor LOGIN", mechs))
		}
		if err := c.Auth(auth); err != nil {
			return fail(StepLogin, tlsOn, err)
		}
	}
	if err := c.Mail("<" + from + ">"); err != nil {
		return CheckReport{}, envelopeError(cfg.Addr, tlsOn, report.Auth != "", fmt.Errorf("MAIL FROM:<%s>: %w", from, err))
	}
	if err := c.Rcpt("<" + from + ">"); err != nil {
		return CheckReport{}, envelopeError(cfg.Addr, tlsOn, report.Auth != "", fmt.Errorf("RCPT TO:<%s>: %w", from, err))
	}
	_ = c.Reset()
	_ = c.Quit()
	return report, nil
}

// envelopeError is a refused MAIL FROM or RCPT TO. Without a login, a
// refusal for security or policy (530, or an enhanced code 5.7.x, such
// as Postfix's "554 5.7.1 Client host rejected: Access denied" on a
// submission port) most likely means the server wants one.
func envelopeError(addr string, tlsOn, loggedIn bool, err error) error {
	e := &CheckError{Server: "smtp", Addr: addr, Step: StepEnvelope, TLS: tlsOn, Err: err}
	var tp *textproto.Error
	if errors.As(err, &tp) && !loggedIn {
		e.AuthRequired = tp.Code == 530 || strings.HasPrefix(tp.Msg, "5.7.")
	}
	return e
}

// checkConn is the TCP connection of a check. It closes itself when
// the check's time is up or ctx is done: a deadline on the connection is
// not enough, since the IMAP client sets its own.
type checkConn struct {
	net.Conn
	timer    *time.Timer
	stop     func() bool
	deadline time.Time
}

// checkDial opens the TCP connection of a check, bounded by
// DefaultCheckTimeout or ctx's deadline, whichever comes first.
func checkDial(ctx context.Context, addr string) (*checkConn, error) {
	deadline := time.Now().Add(DefaultCheckTimeout)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	d := net.Dialer{Deadline: deadline}
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	c := &checkConn{Conn: conn, deadline: deadline}
	c.timer = time.AfterFunc(time.Until(deadline), func() { conn.Close() })
	c.stop = context.AfterFunc(ctx, func() { conn.Close() })
	return c, nil
}

func (c *checkConn) Close() error {
	c.timer.Stop()
	c.stop()
	return c.Conn.Close()
}

// noGreeting explains a greeting that did not come or could not be read.
func (c *checkConn) noGreeting(err error) error {
	if !time.Now().Before(c.deadline) {
		return fmt.Errorf("no greeting in time (a server that waits for a TLS handshake sends none): %w", err)
	}
	return fmt.Errorf("greeting: %w", err)
}

// checkTLSConfig is cfg, or the system roots, with the server name from
// addr when cfg names none.
func checkTLSConfig(cfg *tls.Config, addr string) (*tls.Config, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	if cfg == nil {
		return &tls.Config{ServerName: host}, nil
	}
	cfg = cfg.Clone()
	if cfg.ServerName == "" {
		cfg.ServerName = host
	}
	return cfg, nil
}
