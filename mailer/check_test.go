package mailer

import (
	"context"
	"errors"
	"net"
	"testing"
	"time"

	"github.com/pbem/pbem/mailer/embedded"
	"github.com/pbem/pbem/mailer/mailtest"
)

// closedAddr is a loopback address nothing listens on.
func closedAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

func checkStep(t *testing.T, err error, want CheckStep) *CheckError {
	t.Helper()
	var ce *CheckError
	if !errors.As(err, &ce) {
		t.Fatalf("check: %v; want a *CheckError at step %s", err, want)
	}
	if ce.Step != want {
		t.Fatalf("check failed at step %s (%v); want %s", ce.Step, ce.Err, want)
	}
	return ce
}

// TestCheckSMTP (issue 23, finding 9): the check of the SMTP session
// fails at the step the configuration got wrong, so that pbem can name
// the setting to change, and passes when AUTH and TLS are as configured.
func TestCheckSMTP(t *testing.T) {
	t.Parallel()
	serverTLS, clientTLS := mailtest.SelfSigned(t)
	const user, pass = "pbem@example.test", "right"
	plain := mailtest.StartSMTP(t, mailtest.SMTPOptions{})
	submission := mailtest.StartSMTP(t, mailtest.SMTPOptions{User: user, Password: pass, RequireAuth: true, TLS: serverTLS})
	relay := mailtest.StartSMTP(t, mailtest.SMTPOptions{RequireAuth: true})
	smtps := tlsProxy(t, serverTLS, submission)
	for _, tc := range []struct {
		name     string
		cfg      SenderConfig
		want     CheckStep // "" for success
		authReq  bool
		wantAuth string
	}{
		{"username set, server offers no AUTH", SenderConfig{Addr: plain, Username: user, Password: pass}, StepNoAuth, false, ""},
		{"wrong password", SenderConfig{Addr: submission, Username: user, Password: "wrong", Security: SecurityStartTLS}, StepLogin, false, ""},
		{"starttls, server offers none", SenderConfig{Addr: plain, Security: SecurityStartTLS}, StepTLS, false, ""},
		{"tls against a plain port", SenderConfig{Addr: plain, Security: SecurityTLS}, StepTLS, false, ""},
		{"nothing listens", SenderConfig{Addr: closedAddr(t)}, StepConnect, false, ""},
		{"no username, server wants AUTH", SenderConfig{Addr: relay}, StepEnvelope, true, ""},
		{"no AUTH needed", SenderConfig{Addr: plain}, "", false, ""},
		{"starttls and AUTH", SenderConfig{Addr: submission, Username: user, Password: pass, Security: SecurityStartTLS}, "", false, "PLAIN"},
		{"implicit tls and AUTH", SenderConfig{Addr: smtps, Username: user, Password: pass, Security: SecurityTLS}, "", false, "PLAIN"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.cfg.TLSConfig = clientTLS
			s, err := NewSender(tc.cfg)
			if err != nil {
				t.Fatal(err)
			}
			report, err := s.Check(context.Background(), "pbem@example.test")
			if tc.want == "" {
				if err != nil {
					t.Fatalf("check: %v", err)
				}
				if report.Auth != tc.wantAuth || report.TLS != (tc.cfg.Security != SecurityNone && tc.cfg.Security != "") {
					t.Errorf("report %+v; want AUTH %q, TLS as configured", report, tc.wantAuth)
				}
				return
			}
			ce := checkStep(t, err, tc.want)
			if ce.Server != "smtp" || ce.AuthRequired != tc.authReq {
				t.Errorf("%+v; want server smtp, AuthRequired %t", ce, tc.authReq)
			}
		})
	}
}

// TestCheckNoGreeting: security none or starttls against an
// implicit-TLS port gets no greeting (the server waits for a handshake):
// the check fails at the TLS step when its time is up, and does not
// hang (the IMAP client sets read deadlines of its own: the check closes
// the connection when its time is up).
func TestCheckNoGreeting(t *testing.T) {
	t.Parallel()
	serverTLS, _ := mailtest.SelfSigned(t)
	smtps := tlsProxy(t, serverTLS, mailtest.StartSMTP(t, mailtest.SMTPOptions{}))
	imaps := tlsProxy(t, serverTLS, testServers(t).IMAPAddr())
	bounded := func() context.Context {
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		t.Cleanup(cancel)
		return ctx
	}
	s, err := NewSender(SenderConfig{Addr: smtps, Security: SecurityStartTLS})
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Check(bounded(), "pbem@example.test")
	checkStep(t, err, StepTLS)
	for _, sec := range []Security{SecurityNone, SecurityStartTLS} {
		_, err = CheckIMAP(bounded(), InboxConfig{Addr: imaps, Username: "game@example.test", Password: testPassword, Security: sec})
		checkStep(t, err, StepTLS)
	}
}

// TestCheckIMAP: the IMAP check fails at the login, TLS, connection or
// mailbox, as the configuration got wrong, and passes with STARTTLS and
// implicit TLS.
func TestCheckIMAP(t *testing.T) {
	t.Parallel()
	serverTLS, clientTLS := mailtest.SelfSigned(t)
	srv, err := embedded.Start(context.Background(), embedded.Config{
		IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0", Domain: "example.test",
		Password: testPassword, TLSConfig: serverTLS, Logger: testLogger(),
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	bare := testServers(t) // no STARTTLS
	imaps := tlsProxy(t, serverTLS, srv.IMAPAddr())
	ok := InboxConfig{Addr: srv.IMAPAddr(), Username: "game@example.test", Password: testPassword, Security: SecurityStartTLS, TLSConfig: clientTLS}
	with := func(f func(*InboxConfig)) InboxConfig { c := ok; f(&c); return c }
	for _, tc := range []struct {
		name string
		cfg  InboxConfig
		want CheckStep
	}{
		{"wrong password", with(func(c *InboxConfig) { c.Password = "wrong" }), StepLogin},
		{"tls against a plain port", with(func(c *InboxConfig) { c.Security = SecurityTLS }), StepTLS},
		{"starttls, server offers none", with(func(c *InboxConfig) { c.Addr = bare.IMAPAddr() }), StepTLS},
		{"nothing listens", with(func(c *InboxConfig) { c.Addr = closedAddr(t) }), StepConnect},
		{"no such mailbox", with(func(c *InboxConfig) { c.Mailbox = "Games" }), StepMailbox},
		{"starttls", ok, ""},
		{"implicit tls", with(func(c *InboxConfig) { c.Addr, c.Security = imaps, SecurityTLS }), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			report, err := CheckIMAP(context.Background(), tc.cfg)
			if tc.want == "" {
				if err != nil || !report.TLS {
					t.Fatalf("check: %+v, %v", report, err)
				}
				return
			}
			if ce := checkStep(t, err, tc.want); ce.Server != "imap" {
				t.Errorf("%+v; want server imap", ce)
			}
		})
	}
}
