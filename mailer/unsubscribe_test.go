package mailer

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"errors"
	"testing"
	"time"

	"github.com/emersion/go-message/mail"
	"github.com/emersion/go-msgauth/dkim"
)

// oneClickEnvelope is a seat's mail of a pbem that serves web pages.
func oneClickEnvelope() Envelope {
	return Envelope{
		FromName: "pbem", From: "pbem@pbem.example", To: "alice@x.test", Subject: "Felix #3 with alice, bob, carol",
		MessageID: "g3.s0.e17@pbem.example", Date: time.Date(2026, 11, 29, 7, 0, 0, 0, time.UTC),
		ListUnsubscribe:     "mailto:pbem+tok123@pbem.example?subject=notify%20off",
		OneClickUnsubscribe: "https://pbem.example/u/3-0-abcdefghijklmnopqrstuvwxyz",
	}
}

// TestComposeOneClickUnsubscribe: with a one-click URL, List-Unsubscribe
// names it and the mailto:, and List-Unsubscribe-Post asks for RFC
// 8058's POST; without one, neither the URL nor List-Unsubscribe-Post is
// written; a URL that is no http(s) URL, or that could write more than
// its own URI, or that comes without the mailto:, is refused.
func TestComposeOneClickUnsubscribe(t *testing.T) {
	t.Parallel()
	e := oneClickEnvelope()
	h := composedHeader(t, e)
	if got, want := h.Get("List-Unsubscribe"), "<https://pbem.example/u/3-0-abcdefghijklmnopqrstuvwxyz>, <mailto:pbem+tok123@pbem.example?subject=notify%20off>"; got != want {
		t.Errorf("List-Unsubscribe %q, want %q", got, want)
	}
	if got := h.Get("List-Unsubscribe-Post"); got != "List-Unsubscribe=One-Click" {
		t.Errorf("List-Unsubscribe-Post %q", got)
	}

	e.OneClickUnsubscribe = ""
	h = composedHeader(t, e)
	if got := h.Get("List-Unsubscribe"); got != "<mailto:pbem+tok123@pbem.example?subject=notify%20off>" {
		t.Errorf("without web: List-Unsubscribe %q", got)
	}
	if h.Has("List-Unsubscribe-Post") {
		t.Error("without web: List-Unsubscribe-Post is written")
	}

	for _, bad := range []string{
		"mailto:pbem@pbem.example",
		"ftp://pbem.example/u/x",
		"https://pbem.example/u/x>\r\nBcc: <x@y",
		"https://pbem.example/u/x>, <https://evil.test/",
		"https://pbem.example/u/a b",
	} {
		e := oneClickEnvelope()
		e.OneClickUnsubscribe = bad
		if _, err := Compose(e, "text\n", ""); err == nil {
			t.Errorf("one-click %q was written", bad)
		}
	}
	e = oneClickEnvelope()
	e.ListUnsubscribe = ""
	if _, err := Compose(e, "text\n", ""); err == nil {
		t.Error("a one-click URL without the mailto: was written")
	}
}

func composedHeader(t *testing.T, e Envelope) mail.Header {
	t.Helper()
	raw, err := Compose(e, "text\n", "<p>text</p>")
	if err != nil {
		t.Fatal(err)
	}
	r, err := mail.CreateReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	return r.Header
}

// TestDKIMSignsOneClickUnsubscribe: RFC 8058, section 4: both fields of
// a one-click unsubscribe are covered by the DKIM signature, so that a
// mail whose unsubscribe address was changed on the way fails DKIM.
func TestDKIMSignsOneClickUnsubscribe(t *testing.T) {
	t.Parallel()
	pub, key, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	spki, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	record := "v=DKIM1; k=ed25519; p=" + base64.StdEncoding.EncodeToString(spki[len(spki)-ed25519.PublicKeySize:])
	lookup := func(domain string) ([]string, error) {
		if domain != "s2026._domainkey.pbem.example" {
			return nil, errors.New("no such record")
		}
		return []string{record}, nil
	}
	s, err := NewDKIMSigner(key, "s2026", "pbem.example")
	if err != nil {
		t.Fatal(err)
	}
	raw, err := Compose(oneClickEnvelope(), "bid 3 or pass\n", "")
	if err != nil {
		t.Fatal(err)
	}
	signed, err := s.Sign(raw)
	if err != nil {
		t.Fatal(err)
	}
	vs, err := dkim.VerifyWithOptions(bytes.NewReader(signed), &dkim.VerifyOptions{LookupTXT: lookup})
	if err != nil || len(vs) != 1 || vs[0].Err != nil {
		t.Fatalf("verification: %+v, %v", vs, err)
	}
	for _, k := range []string{"List-Unsubscribe", "List-Unsubscribe-Post"} {
		if !containsFold(vs[0].HeaderKeys, k) {
			t.Errorf("%s is not signed (h=%v)", k, vs[0].HeaderKeys)
		}
	}
	for name, changed := range map[string][]byte{
		"the URL changed": bytes.Replace(signed, []byte("https://pbem.example/u/"), []byte("https://evil.example/u/"), 1),
		"the Post field changed": bytes.Replace(signed, []byte("List-Unsubscribe-Post: List-Unsubscribe=One-Click"),
			[]byte("List-Unsubscribe-Post: List-Unsubscribe=Two-Clicks"), 1),
	} {
		if bytes.Equal(changed, signed) {
			t.Fatalf("%s: the test changed nothing", name)
		}
		vs, err := dkim.VerifyWithOptions(bytes.NewReader(changed), &dkim.VerifyOptions{LookupTXT: lookup})
		if err != nil || len(vs) != 1 || vs[0].Err == nil {
			t.Errorf("%s: still verifies: %+v, %v", name, vs, err)
		}
	}
}
