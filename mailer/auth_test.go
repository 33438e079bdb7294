package mailer

import (
	"bufio"
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
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-message/textproto"
	"github.com/emersion/go-msgauth/dkim"
)

// field is one Authentication-Results field of a test header, top down;
// other fields (Received, From) are written as they are.
func authHeader(fields ...string) []byte {
	var b strings.Builder
	b.WriteString("Received: from mx.pbem.test by mx.pbem.test with LMTP; Mon, 23 Nov 2026 08:00:00 +0000\r\n")
	for _, f := range fields {
		if strings.Contains(f, ":") && !strings.HasPrefix(f, "mx.") && !strings.HasPrefix(f, "MX.") && !strings.HasPrefix(f, " ") {
			b.WriteString(f + "\r\n") // a whole field of its own
			continue
		}
		b.WriteString("Authentication-Results: " + f + "\r\n")
	}
	b.WriteString("From: Bob <bob@mail.example.org>\r\nSubject: bid 3\r\n\r\nbid 3\r\n")
	return []byte(b.String())
}

func TestCheckAuthResults(t *testing.T) {
	t.Parallel()
	const id, from = "mx.pbem.test", "mail.example.org"
	border := "Received: from out.example.org by mx.pbem.test (Postfix) with ESMTPS id 4Q; Mon, 23 Nov 2026 07:59:59 +0000"
	for _, tc := range []struct {
		name   string
		fields []string
		pass   bool
	}{
		{"dmarc pass", []string{"mx.pbem.test; dmarc=pass header.from=mail.example.org"}, true},
		{"dmarc pass as OpenDMARC writes it", []string{"mx.pbem.test; dmarc=pass (p=reject dis=none) header.from=mail.example.org"}, true},
		{"dmarc pass with version", []string{"mx.pbem.test 1; dmarc=pass header.from=mail.example.org"}, true},
		{"dmarc pass, id in other case", []string{"MX.PBEM.TEST; dmarc=pass header.from=MAIL.example.org"}, true},
		{"dmarc pass, folded", []string{"\r\n\tmx.pbem.test;\r\n\tdmarc=pass header.from=mail.example.org"}, true},
		{"dmarc fail", []string{"mx.pbem.test; dmarc=fail header.from=mail.example.org"}, false},
		{"dmarc none", []string{"mx.pbem.test; dmarc=none header.from=mail.example.org"}, false},
		{"dmarc pass for another domain", []string{"mx.pbem.test; dmarc=pass header.from=evil.test"}, false},
		{"dmarc pass for the parent domain only", []string{"mx.pbem.test; dmarc=pass header.from=example.org"}, false},
		{"dmarc pass naming no domain", []string{"mx.pbem.test; dmarc=pass"}, false},
		{"no fields", nil, false},
		{"someone else's authserv-id", []string{"mx.evil.test; dmarc=pass header.from=mail.example.org"}, false},
		{"an id that only starts with ours", []string{"mx.pbem.test.evil.test; dmarc=pass header.from=mail.example.org"}, false},
		{"dkim pass, same domain", []string{"mx.pbem.test; dkim=pass header.d=mail.example.org header.s=s1"}, true},
		{"dkim pass, relaxed alignment", []string{"mx.pbem.test; dkim=pass header.d=example.org"}, true},
		{"dkim pass by header.i", []string{"mx.pbem.test; dkim=pass header.i=@example.org"}, true},
		{"dkim pass, not aligned", []string{"mx.pbem.test; dkim=pass header.d=evil.test"}, false},
		{"dkim pass of a shared public suffix only", []string{"mx.pbem.test; dkim=pass header.d=other.co.uk"}, false},
		{"dkim fail", []string{"mx.pbem.test; dkim=fail header.d=mail.example.org"}, false},
		{"dkim pass, dmarc none (no policy)", []string{"mx.pbem.test; dmarc=none header.from=mail.example.org", "mx.pbem.test; dkim=pass header.d=mail.example.org"}, true},
		{"dkim pass, dmarc naming no domain", []string{"mx.pbem.test; dmarc=pass; dkim=pass header.d=example.org"}, true},
		{"dmarc fail vetoes an aligned dkim pass", []string{"mx.pbem.test; dmarc=fail header.from=mail.example.org; dkim=pass header.d=mail.example.org"}, false},
		{"dmarc pass for another domain vetoes dkim", []string{"mx.pbem.test; dmarc=pass header.from=evil.test", "mx.pbem.test; dkim=pass header.d=mail.example.org"}, false},
		{"spf pass alone", []string{"mx.pbem.test; spf=pass smtp.mailfrom=bob@mail.example.org"}, false},
		{"several results in one field", []string{"mx.pbem.test; spf=pass smtp.mailfrom=x.org; dkim=fail header.d=x.org; dmarc=pass header.from=mail.example.org"}, true},
		{"rspamd's field", []string{"mx.pbem.test; dkim=pass header.d=example.org header.s=s1 header.b=Ab12; " +
			"spf=pass (mx.pbem.test: domain of bob@mail.example.org designates 192.0.2.1 as permitted sender) smtp.mailfrom=bob@mail.example.org; " +
			"dmarc=pass (policy=reject) header.from=mail.example.org"}, true},
		{"several fields, the trusted one fails", []string{"mx.pbem.test; dmarc=fail header.from=mail.example.org", "mx.evil.test; dmarc=pass header.from=mail.example.org"}, false},
		{"several fields, the trusted one passes", []string{"mx.evil.test; dmarc=fail header.from=mail.example.org", "mx.pbem.test; dmarc=pass header.from=mail.example.org"}, true},
		{"OpenDMARC over OpenDKIM", []string{"mx.pbem.test; dmarc=pass header.from=mail.example.org", "mx.pbem.test; dkim=pass header.d=mail.example.org"}, true},
		// A server that failed to delete a forged field still wrote its own
		// above it: the topmost result decides.
		{"forged dmarc pass below the real fail", []string{"mx.pbem.test; dmarc=fail header.from=mail.example.org", border, "mx.pbem.test; dmarc=pass header.from=mail.example.org"}, false},
		{"forged dmarc pass below the real fail, no Received between", []string{"mx.pbem.test; dmarc=fail header.from=mail.example.org", "mx.pbem.test; dmarc=pass header.from=mail.example.org"}, false},
		{"forged dkim pass below the real dkim fail", []string{"mx.pbem.test; dkim=fail header.d=mail.example.org", "mx.pbem.test; dkim=pass header.d=mail.example.org"}, false},
		{"real pass above a forged fail", []string{"mx.pbem.test; dmarc=pass header.from=mail.example.org", border, "mx.pbem.test; dmarc=fail header.from=mail.example.org"}, true},
		// Forms no server writes, which a deletion rule may miss.
		{"comment before the id", []string{"(x) mx.pbem.test; dmarc=pass header.from=mail.example.org"}, false},
		{"quoted id", []string{`"mx.pbem.test"; dmarc=pass header.from=mail.example.org`}, false},
		{"id with a trailing dot", []string{"mx.pbem.test.; dmarc=pass header.from=mail.example.org"}, false},
		{"space before the colon", []string{"Authentication-Results : mx.pbem.test; dmarc=pass header.from=mail.example.org"}, false},
		// Sender-chosen text inside the server's own field.
		{"a result smuggled in a quoted envelope sender", []string{`mx.pbem.test; spf=fail smtp.mailfrom="a;dmarc=pass header.from=mail.example.org"@evil.test`}, false},
		{"a result smuggled in a comment", []string{"mx.pbem.test; dkim=fail (bad; dmarc=pass header.from=mail.example.org) header.d=evil.test"}, false},
		{"a result smuggled in a nested comment", []string{"mx.pbem.test; dkim=fail (a (b; dmarc=pass header.from=mail.example.org) c) header.d=evil.test"}, false},
		// Unreadable fields prove nothing and hide what is below them.
		{"malformed", []string{"mx.pbem.test dmarc pass"}, false},
		{"malformed above a pass", []string{"mx.pbem.test; dmarc", "mx.pbem.test; dmarc=pass header.from=mail.example.org"}, false},
		{"unterminated comment", []string{"mx.pbem.test; dmarc=pass (x header.from=mail.example.org"}, false},
		{"unterminated quote", []string{`mx.pbem.test; dmarc=pass reason="x header.from=mail.example.org`}, false},
		{"stray parenthesis", []string{"mx.pbem.test; dmarc=pass ) header.from=mail.example.org"}, false},
		{"deeply nested comment", []string{"mx.pbem.test; dmarc=pass " + strings.Repeat("(", 100) + strings.Repeat(")", 100) + " header.from=mail.example.org"}, false},
		{"empty", []string{""}, false},
		{"id only", []string{"mx.pbem.test"}, false},
		{"none", []string{"mx.pbem.test; none"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := CheckAuthResults(authHeader(tc.fields...), id, from)
			t.Log(v.Why)
			if v.Pass != tc.pass || v.Why == "" {
				t.Errorf("pass %v (%s), want %v", v.Pass, v.Why, tc.pass)
			}
		})
	}
	if v := CheckAuthResults(authHeader("mx.pbem.test; dmarc=pass header.from=mail.example.org"), "", from); v.Pass {
		t.Error("no authserv-id passed")
	}
	if v := CheckAuthResults(authHeader("mx.pbem.test; dmarc=pass header.from=mail.example.org"), id, ""); v.Pass {
		t.Error("no From domain passed")
	}
	if v := CheckAuthResults([]byte("X-Broken header line\r\nAuthentication-Results: mx.pbem.test; dmarc=pass header.from=mail.example.org\r\n\r\n"), id, from); v.Pass {
		t.Error("an unreadable header passed")
	}
}

// A mail with thousands of Authentication-Results fields costs bounded
// work: at most maxAuthFields are parsed.
func TestCheckAuthResultsBounded(t *testing.T) {
	t.Parallel()
	raw := strings.Repeat("Authentication-Results: mx.evil.test; dkim=fail header.d=x.org\r\n", 5000) +
		"Authentication-Results: mx.pbem.test; dmarc=pass header.from=x.org\r\nFrom: a@x.org\r\n\r\nx\r\n"
	if v := CheckAuthResults([]byte(raw), "mx.pbem.test", "x.org"); v.Pass {
		t.Error("a pass beyond the fields looked at was counted")
	}
	huge := "Authentication-Results: mx.pbem.test; dmarc=pass header.from=x.org reason=" + strings.Repeat("x", maxAuthFieldBytes) + "\r\nFrom: a@x.org\r\n\r\nx\r\n"
	if v := CheckAuthResults([]byte(huge), "mx.pbem.test", "x.org"); v.Pass {
		t.Error("an overlong field was read")
	}
}

// stripRule is the deletion rule of docs/mail-authentication.md and
// scripts/mailstack, as Go reads the same POSIX expression (Postfix
// regexp tables ignore case by default; without REG_NEWLINE, '$' is the
// end of the field).
var stripRule = regexp.MustCompile(`(?i)^Authentication-Results:[[:space:]]*mx\.pbem\.test([[:space:];]|$)`)

// Every field pbem would trust is one the border server deletes on
// arrival, so a forger cannot get one through.
func TestTrustedFormIsStripped(t *testing.T) {
	t.Parallel()
	for _, f := range []string{
		"Authentication-Results: mx.pbem.test; dmarc=pass\r\n",
		"authentication-results:mx.pbem.test;dmarc=pass\r\n",
		"Authentication-Results:\r\n\tMX.PBEM.TEST 1; dmarc=pass\r\n",
		"Authentication-Results: mx.pbem.test",
		"Authentication-Results: mx.pbem.test (c); dmarc=pass\r\n",
		"Authentication-Results : mx.pbem.test; dmarc=pass\r\n",
		"Authentication-Results: (c) mx.pbem.test; dmarc=pass\r\n",
		"Authentication-Results: \"mx.pbem.test\"; dmarc=pass\r\n",
		"Authentication-Results: mx.pbem.test.; dmarc=pass\r\n",
		"Authentication-Results: mx.pbem.testx; dmarc=pass\r\n",
		"Authentication-Results: mx-pbem.test; dmarc=pass\r\n",
	} {
		if trustedForm([]byte(f), "mx.pbem.test") && !stripRule.MatchString(f) {
			t.Errorf("trusted but not stripped: %q", f)
		}
	}
	if !trustedForm([]byte("Authentication-Results: mx.pbem.test; dmarc=pass\r\n"), "mx.pbem.test") {
		t.Error("the plain form is not trusted")
	}
}

func FuzzCheckAuthResults(f *testing.F) {
	f.Add("Authentication-Results: mx.pbem.test; dmarc=pass header.from=x.org", "x.org")
	f.Add("Authentication-Results: mx.pbem.test; dkim=pass header.d=x.org; spf=fail\r\nAuthentication-Results: mx.pbem.test; dmarc=fail", "x.org")
	f.Add("Authentication-Results: (comment) mx.pbem.test 1; none", "x.org")
	f.Add("Authentication-Results:\r\n mx.pbem.test; spf=fail smtp.mailfrom=\"a;dmarc=pass\"@x (c (d)) ", "x.org")
	f.Fuzz(func(t *testing.T, header, domain string) {
		defer timeLimited(t)()
		raw := []byte(header + "\r\nFrom: a@" + domain + "\r\n\r\nx\r\n")
		v := CheckAuthResults(raw, "mx.pbem.test", domain)
		if v.Why == "" {
			t.Fatal("a verdict without words")
		}
		h, err := textproto.ReadHeader(bufio.NewReader(bytes.NewReader(raw)))
		if err != nil {
			if v.Pass {
				t.Fatal("an unreadable header passed")
			}
			return
		}
		trusted := 0
		for fs := h.FieldsByKey("Authentication-Results"); fs.Next(); {
			r, err := fs.Raw()
			if err == nil && trustedForm(r, "mx.pbem.test") {
				trusted++
				if !stripRule.Match(r) {
					t.Fatalf("trusted but not stripped: %q", r)
				}
			}
		}
		if v.Pass && trusted == 0 {
			t.Fatalf("passed with no trusted field: %s", v.Why)
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
// Ed25519 keys read from PEM files in the forms openssl writes, published
// as docs/mail-authentication.md says; a resend is signed again and
// verifies again; the signature covers the fields pbem means to sign; and
// it breaks when the mail is changed.
func TestDKIMSignVerifies(t *testing.T) {
	rsaKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	rsaPKCS8, err := x509.MarshalPKCS8PrivateKey(rsaKey)
	if err != nil {
		t.Fatal(err)
	}
	rsaSPKI, err := x509.MarshalPKIXPublicKey(&rsaKey.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	_, edKey, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	edPKCS8, err := x509.MarshalPKCS8PrivateKey(edKey)
	if err != nil {
		t.Fatal(err)
	}
	edSPKI, err := x509.MarshalPKIXPublicKey(edKey.Public())
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, tc := range []struct {
		name, pemType string
		der           []byte
		record        string
	}{
		// openssl genpkey writes PKCS #8 ("PRIVATE KEY"); older tools and
		// openssl genrsa -traditional write PKCS #1. The record's p= is
		// "openssl pkey -pubout -outform DER | base64" for RSA, and the
		// last 32 bytes of that DER for Ed25519 (RFC 8463).
		{"rsa-pkcs8", "PRIVATE KEY", rsaPKCS8, "v=DKIM1; k=rsa; p=" + base64.StdEncoding.EncodeToString(rsaSPKI)},
		{"rsa-pkcs1", "RSA PRIVATE KEY", x509.MarshalPKCS1PrivateKey(rsaKey), "v=DKIM1; k=rsa; p=" + base64.StdEncoding.EncodeToString(rsaSPKI)},
		{"ed25519-pkcs8", "PRIVATE KEY", edPKCS8, "v=DKIM1; k=ed25519; p=" + base64.StdEncoding.EncodeToString(edSPKI[len(edSPKI)-ed25519.PublicKeySize:])},
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
			stored := bytes.Clone(raw)
			var sent [][]byte
			send := s.Wrap(func(_ context.Context, _ string, _ []string, b []byte) error { sent = append(sent, b); return nil })
			for range 2 { // a send and a resend of the same outbox bytes
				if err := send(context.Background(), "pbem@pbem.example", []string{"bob@x.test"}, raw); err != nil {
					t.Fatal(err)
				}
			}
			if !bytes.Equal(raw, stored) {
				t.Fatal("signing changed the stored bytes")
			}
			lookup := func(domain string) ([]string, error) {
				if domain != "s2026._domainkey.pbem.example" {
					return nil, errors.New("no such record")
				}
				return []string{tc.record}, nil
			}
			for i, got := range sent {
				if !bytes.HasSuffix(got, raw) {
					t.Fatalf("send %d: the mail is not the stored bytes under a new field", i)
				}
				vs, err := dkim.VerifyWithOptions(bytes.NewReader(got), &dkim.VerifyOptions{LookupTXT: lookup})
				if err != nil || len(vs) != 1 || vs[0].Err != nil || vs[0].Domain != "pbem.example" {
					t.Fatalf("send %d: verification: %+v, %v", i, vs, err)
				}
				for _, k := range []string{"From", "To", "Subject", "Date", "Message-Id", "Mime-Version", "Content-Type", "Auto-Submitted", "Reply-To", "In-Reply-To", "References", "List-Unsubscribe"} {
					if !containsFold(vs[0].HeaderKeys, k) {
						t.Errorf("send %d: %s is not signed (h=%v)", i, k, vs[0].HeaderKeys)
					}
				}
			}
			tampered := bytes.Replace(sent[0], []byte("bid 3 or pass"), []byte("bid 9 or pass"), 1)
			vs, err := dkim.VerifyWithOptions(bytes.NewReader(tampered), &dkim.VerifyOptions{LookupTXT: lookup})
			if err != nil || len(vs) != 1 || vs[0].Err == nil {
				t.Fatalf("a changed mail still verifies: %+v, %v", vs, err)
			}
			added := append([]byte("Reply-To: evil@evil.test\r\n"), sent[0]...)
			vs, err = dkim.VerifyWithOptions(bytes.NewReader(added), &dkim.VerifyOptions{LookupTXT: lookup})
			if err != nil || len(vs) != 1 || vs[0].Err == nil {
				t.Fatalf("a mail with an added Reply-To still verifies: %+v, %v", vs, err)
			}
		})
	}

	// Keys that do not load are refused with the reason, so that pbem
	// serve stops at start rather than send unsigned or broken mail.
	// Go itself refuses RSA keys under 1024 bits unless told otherwise;
	// pbem's own check must refuse them even then.
	t.Setenv("GODEBUG", "rsa1024min=0")
	small, err := rsa.GenerateKey(rand.Reader, 768)
	if err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string]string{
		"missing.pem":   "",
		"cert.pem":      "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n",
		"garbage.pem":   "not a key",
		"broken.pem":    "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n",
		"small-rsa.pem": string(pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(small)})),
	} {
		path := filepath.Join(dir, name)
		if content != "" {
			if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := LoadDKIMSigner(path, "s", "d.example"); err == nil || !strings.Contains(err.Error(), "DKIM key") {
			t.Errorf("%s: loaded or unclear (%v)", name, err)
		} else {
			t.Logf("%s: %v", name, err)
		}
	}
	if _, err := LoadDKIMSigner(filepath.Join(dir, "rsa-pkcs8.pem"), "", "d.example"); err == nil {
		t.Error("a signer without a selector")
	}
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}
