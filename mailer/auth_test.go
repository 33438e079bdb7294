package mailer

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-msgauth/dkim"
)

func TestCheckAuthResults(t *testing.T) {
	const id = "mx.pbem.test"
	body := "From: Bob <bob@mail.example.org>\r\nSubject: bid 3\r\n\r\nbid 3\r\n"
	for _, tc := range []struct {
		name   string
		fields []string
		from   string
		pass   bool
	}{
		{"dmarc pass", []string{"mx.pbem.test; dmarc=pass header.from=mail.example.org"}, "mail.example.org", true},
		{"dmarc pass, id in other case", []string{"MX.PBEM.TEST; dmarc=pass header.from=mail.example.org"}, "mail.example.org", true},
		{"dmarc fail", []string{"mx.pbem.test; dmarc=fail header.from=mail.example.org"}, "mail.example.org", false},
		{"dmarc pass for another domain", []string{"mx.pbem.test; dmarc=pass header.from=evil.test"}, "mail.example.org", false},
		{"no fields", nil, "mail.example.org", false},
		{"someone else's authserv-id", []string{"mx.evil.test; dmarc=pass header.from=mail.example.org"}, "mail.example.org", false},
		{"dkim pass, same domain", []string{"mx.pbem.test; dkim=pass header.d=mail.example.org header.s=s1"}, "mail.example.org", true},
		{"dkim pass, relaxed alignment", []string{"mx.pbem.test; dkim=pass header.d=example.org"}, "mail.example.org", true},
		{"dkim pass by header.i", []string{"mx.pbem.test; dkim=pass header.i=@example.org"}, "mail.example.org", true},
		{"dkim pass, not aligned", []string{"mx.pbem.test; dkim=pass header.d=evil.test"}, "mail.example.org", false},
		{"dkim pass of a shared suffix only", []string{"mx.pbem.test; dkim=pass header.d=other.co.uk"}, "bob.co.uk", false},
		{"dkim fail", []string{"mx.pbem.test; dkim=fail header.d=mail.example.org"}, "mail.example.org", false},
		{"spf pass alone", []string{"mx.pbem.test; spf=pass smtp.mailfrom=mail.example.org"}, "mail.example.org", false},
		{"several results in one field", []string{"mx.pbem.test; spf=pass smtp.mailfrom=x.org; dkim=fail header.d=x.org; dmarc=pass header.from=mail.example.org"}, "mail.example.org", true},
		{"several fields, the trusted one fails", []string{"mx.pbem.test; dmarc=fail header.from=mail.example.org", "mx.evil.test; dmarc=pass header.from=mail.example.org"}, "mail.example.org", false},
		{"malformed", []string{"mx.pbem.test dmarc pass"}, "mail.example.org", false},
		{"empty", []string{""}, "mail.example.org", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var raw strings.Builder
			for _, f := range tc.fields {
				raw.WriteString("Authentication-Results: " + f + "\r\n")
			}
			raw.WriteString(body)
			v := CheckAuthResults([]byte(raw.String()), id, tc.from)
			if v.Pass != tc.pass || v.Why == "" {
				t.Errorf("pass %v (%s), want %v", v.Pass, v.Why, tc.pass)
			}
		})
	}
	if v := CheckAuthResults([]byte(body), "", "mail.example.org"); v.Pass {
		t.Error("no authserv-id passed")
	}
}

// A mail with thousands of Authentication-Results fields costs bounded
// work: at most maxAuthFields are parsed.
func TestCheckAuthResultsBounded(t *testing.T) {
	raw := strings.Repeat("Authentication-Results: mx.pbem.test; dkim=fail header.d=x.org\r\n", 5000) +
		"Authentication-Results: mx.pbem.test; dmarc=pass header.from=x.org\r\nFrom: a@x.org\r\n\r\nx\r\n"
	if v := CheckAuthResults([]byte(raw), "mx.pbem.test", "x.org"); v.Pass {
		t.Error("a pass beyond the fields looked at was counted")
	}
}

func FuzzCheckAuthResults(f *testing.F) {
	f.Add("mx.pbem.test; dmarc=pass header.from=x.org", "x.org")
	f.Add("mx.pbem.test; dkim=pass header.d=x.org; spf=fail", "x.org")
	f.Add("(comment) mx.pbem.test 1; none", "x.org")
	f.Fuzz(func(t *testing.T, field, domain string) {
		defer timeLimited(t)()
		raw := "Authentication-Results: " + field + "\r\nFrom: a@" + domain + "\r\n\r\nx\r\n"
		v := CheckAuthResults([]byte(raw), "mx.pbem.test", domain)
		if v.Why == "" {
			t.Fatal("a verdict without words")
		}
	})
}

// inputTimeLimit bounds the time of one fuzz input, far above what any
// takes.
const inputTimeLimit = 5 * time.Second

func timeLimited(t *testing.T) func() {
	start := time.Now()
	return func() {
		if d := time.Since(start); d > inputTimeLimit {
			t.Fatalf("one input took %s, over the limit of %s", d, inputTimeLimit)
		}
	}
}

// The signature pbem adds verifies with the published key, for RSA and
// Ed25519 keys read from PEM files, and breaks when the mail is changed.
func TestDKIMSignVerifies(t *testing.T) {
	rsaKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	_, edKey, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	pkcs8, err := x509.MarshalPKCS8PrivateKey(edKey)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, tc := range []struct {
		name, pemType string
		der           []byte
		record        string
	}{
		{"rsa-pkcs1", "RSA PRIVATE KEY", x509.MarshalPKCS1PrivateKey(rsaKey), "v=DKIM1; k=rsa; p=" + base64.StdEncoding.EncodeToString(x509.MarshalPKCS1PublicKey(&rsaKey.PublicKey))},
		{"ed25519-pkcs8", "PRIVATE KEY", pkcs8, "v=DKIM1; k=ed25519; p=" + base64.StdEncoding.EncodeToString(edKey.Public().(ed25519.PublicKey))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.name+".pem")
			if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: tc.pemType, Bytes: tc.der}), 0o600); err != nil {
				t.Fatal(err)
			}
			s, err := LoadDKIMSigner(path, "s2026", "pbem.example")
			if err != nil {
				t.Fatal(err)
			}
			raw, err := Compose(Envelope{FromName: "pbem", From: "pbem@pbem.example", To: "bob@x.test", Subject: "Felix #3: your turn",
				MessageID: "m1@pbem.example", Date: time.Date(2026, 11, 23, 8, 0, 0, 0, time.UTC)}, "bid 3 or pass\n", "<p>bid 3 or pass</p>")
			if err != nil {
				t.Fatal(err)
			}
			var got []byte
			send := s.Wrap(func(_ context.Context, _ string, _ []string, b []byte) error { got = b; return nil })
			if err := send(context.Background(), "pbem@pbem.example", []string{"bob@x.test"}, raw); err != nil {
				t.Fatal(err)
			}
			lookup := func(domain string) ([]string, error) {
				if domain != "s2026._domainkey.pbem.example" {
					return nil, errors.New("no such record")
				}
				return []string{tc.record}, nil
			}
			vs, err := dkim.VerifyWithOptions(bytes.NewReader(got), &dkim.VerifyOptions{LookupTXT: lookup})
			if err != nil || len(vs) != 1 || vs[0].Err != nil || vs[0].Domain != "pbem.example" {
				t.Fatalf("verification: %+v, %v", vs, err)
			}
			tampered := bytes.Replace(got, []byte("bid 3 or pass"), []byte("bid 9 or pass"), 1)
			vs, err = dkim.VerifyWithOptions(bytes.NewReader(tampered), &dkim.VerifyOptions{LookupTXT: lookup})
			if err != nil || len(vs) != 1 || vs[0].Err == nil {
				t.Fatalf("a changed mail still verifies: %+v, %v", vs, err)
			}
		})
	}
	if _, err := LoadDKIMSigner(filepath.Join(dir, "missing.pem"), "s", "d"); err == nil {
		t.Error("a missing key loaded")
	}
	bad := filepath.Join(dir, "bad.pem")
	os.WriteFile(bad, []byte("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n"), 0o600)
	if _, err := LoadDKIMSigner(bad, "s", "d"); err == nil {
		t.Error("a certificate loaded as a key")
	}
}
