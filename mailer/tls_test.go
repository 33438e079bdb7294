package mailer

import (
	"context"
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

	"github.com/pbem/pbem/mailer/embedded"
)

// testCert makes a self-signed certificate for 127.0.0.1 and returns the
// server's config and a client config that trusts it.
func testCert(t *testing.T) (server, client *tls.Config) {
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

// tlsProxy accepts implicit-TLS connections and relays them in plain text to
// target: a stand-in for IMAPS (993) and SMTPS (465) in front of the
// embedded servers.
func tlsProxy(t *testing.T, cfg *tls.Config, target string) string {
	t.Helper()
	ln, err := tls.Listen("tcp", "127.0.0.1:0", cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				u, err := net.Dial("tcp", target)
				if err != nil {
					return
				}
				defer u.Close()
				go func() { io.Copy(u, c); u.Close() }()
				io.Copy(c, u)
			}()
		}
	}()
	return ln.Addr().String()
}

func TestTLSModes(t *testing.T) {
	t.Parallel()
	serverTLS, clientTLS := testCert(t)
	srv, err := embedded.Start(context.Background(), embedded.Config{
		IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0", Domain: "example.test",
		Password: testPassword, TLSConfig: serverTLS, Logger: testLogger(),
	})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	imapsAddr := tlsProxy(t, serverTLS, srv.IMAPAddr())
	smtpsAddr := tlsProxy(t, serverTLS, srv.SMTPAddr())

	for _, tc := range []struct {
		sec                Security
		imapAddr, smtpAddr string
	}{
		{SecurityStartTLS, srv.IMAPAddr(), srv.SMTPAddr()},
		{SecurityTLS, imapsAddr, smtpsAddr},
	} {
		t.Run(string(tc.sec), func(t *testing.T) {
			to := "game+" + string(tc.sec) + "@example.test"
			s, err := NewSender(SenderConfig{
				Addr: tc.smtpAddr, Security: tc.sec, TLSConfig: clientTLS,
				Username: "game@example.test", Password: testPassword, Timeout: 10 * time.Second,
			})
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Send(context.Background(), "game@example.test", []string{to}, testMessage("game@example.test", to, string(tc.sec))); err != nil {
				t.Fatalf("send: %v", err)
			}
			cfg := inboxConfig(srv)
			cfg.Addr, cfg.Security, cfg.TLSConfig = tc.imapAddr, tc.sec, clientTLS
			rec := newRecorder(newMemCursor())
			runInbox(t, newTestInbox(t, cfg, rec.cursor), rec.handle)
			for {
				m := rec.next(t, 10*time.Second)
				if header(t, m.Raw, "Delivered-To") == to {
					break
				}
			}
		})
	}

	// A client that does not trust the certificate gets nowhere, and a
	// Sender says so as a temporary error (the operator may fix it).
	s, err := NewSender(SenderConfig{Addr: srv.SMTPAddr(), Security: SecurityStartTLS, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	err = s.Send(context.Background(), "game@example.test", []string{"x@example.test"}, testMessage("a@b", "x@example.test", "untrusted"))
	if err == nil {
		t.Fatal("STARTTLS with an untrusted certificate succeeded")
	}
	if IsPermanent(err) {
		t.Errorf("untrusted certificate: %v classified permanent", err)
	}
}
