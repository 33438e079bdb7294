// Package mailtest has SMTP servers for tests of how pbem meets a mail
// server it is configured for: one that offers no AUTH, one that wants
// AUTH before it takes mail, with or without STARTTLS. They take mail
// and keep none.
package mailtest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"io"
	"math/big"
	"net"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// SMTPOptions says what the test SMTP server offers and wants.
type SMTPOptions struct {
	// Auth offers AUTH PLAIN with this user and password; empty User
	// offers no AUTH at all.
	User, Password string
	// RequireAuth refuses RCPT TO with 530 5.7.0 until the session is
	// authenticated, as a submission server does.
	RequireAuth bool
	// TLS, if set, offers STARTTLS with it.
	TLS *tls.Config
}

// StartSMTP starts an SMTP server on a free loopback port for the
// test's life and returns its address.
func StartSMTP(t testing.TB, o SMTPOptions) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := smtp.NewServer(backend{o})
	srv.Domain = "mx.example.test"
	srv.AllowInsecureAuth = true
	srv.TLSConfig = o.TLS
	srv.ReadTimeout, srv.WriteTimeout = time.Minute, time.Minute
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

type backend struct{ o SMTPOptions }

func (b backend) NewSession(*smtp.Conn) (smtp.Session, error) {
	s := &session{o: b.o}
	if b.o.User == "" {
		return noAuthSession{s}, nil
	}
	return s, nil
}

// session takes mail, once authenticated if RequireAuth.
type session struct {
	o    SMTPOptions
	auth bool
}

// noAuthSession hides session's AUTH: go-smtp offers AUTH only to
// sessions that implement smtp.AuthSession.
type noAuthSession struct{ s *session }

func (n noAuthSession) Mail(from string, o *smtp.MailOptions) error { return n.s.Mail(from, o) }
func (n noAuthSession) Rcpt(to string, o *smtp.RcptOptions) error   { return n.s.Rcpt(to, o) }
func (n noAuthSession) Data(r io.Reader) error                      { return n.s.Data(r) }
func (n noAuthSession) Reset()                                      { n.s.Reset() }
func (n noAuthSession) Logout() error                               { return n.s.Logout() }

func (s *session) AuthMechanisms() []string { return []string{sasl.Plain} }

func (s *session) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, user, password string) error {
		if user != s.o.User || password != s.o.Password {
			return smtp.ErrAuthFailed
		}
		s.auth = true
		return nil
	}), nil
}

func (s *session) Mail(string, *smtp.MailOptions) error { return nil }

func (s *session) Rcpt(string, *smtp.RcptOptions) error {
	if s.o.RequireAuth && !s.auth {
		return &smtp.SMTPError{Code: 530, EnhancedCode: smtp.EnhancedCode{5, 7, 0}, Message: "Authentication required"}
	}
	return nil
}

func (s *session) Data(r io.Reader) error {
	_, err := io.Copy(io.Discard, r)
	return err
}

func (s *session) Reset()        {}
func (s *session) Logout() error { return nil }

// SelfSigned makes a self-signed certificate for 127.0.0.1 and localhost
// and returns the server's config and a client config that trusts it.
func SelfSigned(t testing.TB) (server, client *tls.Config) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "pbem test"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
		DNSNames:     []string{"localhost"},
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	server = &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}}
	client = &tls.Config{RootCAs: pool, ServerName: "127.0.0.1"}
	return server, client
}
