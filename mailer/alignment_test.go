package mailer

import (
	"bytes"
	"context"
	"crypto"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"errors"
	"net"
	"strings"
	"testing"

	"github.com/emersion/go-msgauth/dkim"
)

func TestDKIMAlignment(t *testing.T) {
	for _, tc := range []struct {
		d, from string
		want    Alignment
	}{
		{"example.org", "example.org", StrictAligned},
		{"Example.ORG.", "example.org", StrictAligned},
		{"example.org", "mail.example.org", RelaxedAligned},      // d= a parent of From's
		{"mail.example.org", "example.org", RelaxedAligned},      // and the other way round
		{"news.example.org", "mail.example.org", RelaxedAligned}, // siblings share example.org
		{"example.com", "example.org", NotAligned},
		{"other.org", "mail.example.org", NotAligned},
		{"example.co.uk", "games.example.co.uk", RelaxedAligned},
		{"co.uk", "example.co.uk", NotAligned}, // a public suffix is no one's organization
		{"bob.co.uk", "alice.co.uk", NotAligned},
		{"alice.github.io", "bob.github.io", NotAligned}, // a private entry of the list
		{"", "example.org", NotAligned},
		{"example.org", "", NotAligned},
	} {
		if got := DKIMAlignment(tc.d, tc.from); got != tc.want {
			t.Errorf("DKIMAlignment(%q, %q) = %d; want %d", tc.d, tc.from, got, tc.want)
		}
	}
}

// fakeDNS answers TXT look-ups from its map, as a resolver that finds
// nothing else; down: every look-up times out, as without a network.
type fakeDNS struct {
	txt  map[string][]string
	down bool
}

func (f fakeDNS) LookupTXT(_ context.Context, name string) ([]string, error) {
	if f.down {
		return nil, &net.DNSError{Err: "i/o timeout", Name: name, IsTimeout: true}
	}
	if txts, ok := f.txt[name]; ok {
		return txts, nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: name, IsNotFound: true}
}

func testSigner(t *testing.T, key crypto.Signer, domain string) *DKIMSigner {
	t.Helper()
	s, err := NewDKIMSigner(key, "pbem2026", domain)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func edKey(t *testing.T) ed25519.PrivateKey {
	t.Helper()
	_, k, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// TestKeyRecordVerifies: the record CheckSenderAuth tells the host to
// publish is one go-msgauth's verifier accepts for pbem's signatures.
func TestKeyRecordVerifies(t *testing.T) {
	rsaKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	for name, key := range map[string]crypto.Signer{"rsa": rsaKey, "ed25519": edKey(t)} {
		t.Run(name, func(t *testing.T) {
			s := testSigner(t, key, "example.org")
			record, err := s.KeyRecord()
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(record, "v=DKIM1; k="+name+"; p=") {
				t.Errorf("KeyRecord = %q", record)
			}
			signed, err := s.Sign([]byte("From: pbem@example.org\r\nTo: a@example.net\r\nSubject: x\r\n\r\nbody\r\n"))
			if err != nil {
				t.Fatal(err)
			}
			verifs, err := dkim.VerifyWithOptions(bytes.NewReader(signed), &dkim.VerifyOptions{LookupTXT: func(domain string) ([]string, error) {
				if domain != s.KeyName() {
					return nil, errors.New("looked up " + domain)
				}
				return []string{record}, nil
			}})
			if err != nil || len(verifs) != 1 || verifs[0].Err != nil {
				t.Fatalf("verify: %v %+v", err, verifs)
			}
		})
	}
}

func TestCheckSenderAuthKey(t *testing.T) {
	key := edKey(t)
	s := testSigner(t, key, "example.org")
	want, err := s.KeyRecord()
	if err != nil {
		t.Fatal(err)
	}
	rsaKey, err := rsa.GenerateKey(rand.Reader, 1024)
	if err != nil {
		t.Fatal(err)
	}
	der := x509.MarshalPKCS1PublicKey(&rsaKey.PublicKey)
	const name = "pbem2026._domainkey.example.org"
	other, _ := testSigner(t, edKey(t), "example.org").KeyRecord()
	for _, tc := range []struct {
		name    string
		records []string
		want    string
		trouble bool
	}{
		{"published and matching", []string{want}, name + " publishes the public half of smtp.dkim_key: receivers can verify pbem's signatures", false},
		{"published without v= and with spaces in p=", []string{"k=ed25519;p=" + strings.TrimPrefix(want, "v=DKIM1; k=ed25519; p=")[:10] + " " + strings.TrimPrefix(want, "v=DKIM1; k=ed25519; p=")[10:]}, name + " publishes the public half", false},
		{"missing", nil, "no key is published at " + name + ", so receivers fail every signature pbem makes: publish a TXT record there: " + want, true},
		{"another key", []string{other}, "the key published at " + name + " is not the public half of smtp.dkim_key, so receivers fail every signature pbem makes: publish " + want + " there, or set smtp.dkim_key to the private key of the published one", true},
		{"an RSA key instead", []string{"v=DKIM1; k=rsa; p=" + base64.StdEncoding.EncodeToString(der)}, "is not the public half of smtp.dkim_key", true},
		{"revoked", []string{"v=DKIM1; k=ed25519; p="}, "the TXT record at " + name + " is not a usable DKIM key (p= is empty: the key is revoked), so receivers fail every signature pbem makes: publish this one instead: " + want, true},
		{"unknown type", []string{"v=DKIM1; k=dsa; p=AAAA"}, "(k=dsa, a key type verifiers do not know)", true},
		{"two records", []string{want, other}, name + " has 2 TXT records, and receivers fail a key look-up that finds more than one (RFC 6376 §3.6.2.2): keep only this one: " + want, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dns := fakeDNS{txt: map[string][]string{}}
			if tc.records != nil {
				dns.txt[name] = tc.records
			}
			got := keyFinding(context.Background(), dns, s)
			if !strings.Contains(got.Sentence, tc.want) || got.Trouble != tc.trouble || got.Topic != "dkim" {
				t.Errorf("got %+v\nwant %q, trouble %v", got, tc.want, tc.trouble)
			}
		})
	}
}

func TestCheckSenderAuthSPF(t *testing.T) {
	for _, tc := range []struct {
		name    string
		records []string
		want    string
		trouble bool
	}{
		{"one", []string{"google-site-verification=x", "v=spf1 mx -all"}, `example.org publishes "v=spf1 mx -all": make sure it names the host your SMTP server sends from, since SPF checks it as the domain of pbem's envelope sender`, false},
		{"none among other TXT", []string{"google-site-verification=x", "v=spf10"}, `example.org publishes no SPF record, and SPF checks it as the domain of pbem's envelope sender: publish a TXT record there that names the hosts your SMTP server sends from, such as "v=spf1 mx -all" (docs/operations.md)`, true},
		{"no TXT at all", nil, "example.org publishes no SPF record", true},
		{"two", []string{"v=spf1 mx -all", "V=SPF1 a ~all"}, "example.org publishes 2 SPF records, which receivers treat as a permanent error (RFC 7208 §4.5): merge them into one", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dns := fakeDNS{txt: map[string][]string{}}
			if tc.records != nil {
				dns.txt["example.org"] = tc.records
			}
			got := spfFinding(context.Background(), dns, "example.org")
			if !strings.Contains(got.Sentence, tc.want) || got.Trouble != tc.trouble || got.Topic != "spf" {
				t.Errorf("got %+v\nwant %q, trouble %v", got, tc.want, tc.trouble)
			}
		})
	}
}

func TestCheckSenderAuthDMARC(t *testing.T) {
	signer := testSigner(t, edKey(t), "example.org")
	parent := testSigner(t, edKey(t), "example.org")
	for _, tc := range []struct {
		name    string
		from    string
		txt     map[string][]string
		signer  *DKIMSigner
		want    []string // one sentence per finding
		trouble bool
	}{
		{"absent", "example.org", nil, signer, []string{`example.org publishes no DMARC record, which Gmail and Yahoo expect of senders of much mail: publish a TXT record at _dmarc.example.org such as "v=DMARC1; p=none; rua=mailto:postmaster@example.org", and tighten p= once the reports show pbem's mail passing`}, true},
		{"none", "example.org", map[string][]string{"_dmarc.example.org": {"v=DMARC1; p=none; rua=mailto:d@example.org"}}, signer,
			[]string{"_dmarc.example.org says p=none: receivers deliver mail that fails DMARC and only report it; tighten to p=quarantine, then p=reject, once the reports show pbem's mail passing"}, false},
		{"quarantine", "example.org", map[string][]string{"_dmarc.example.org": {"v=DMARC1; p=quarantine"}}, signer,
			[]string{"_dmarc.example.org says p=quarantine: receivers put in spam mail from example.org that fails DMARC, so pbem's mail must pass by an aligned DKIM signature or by SPF"}, false},
		{"reject", "example.org", map[string][]string{"_dmarc.example.org": {"v=spf1 -all", "v=DMARC1; p=reject"}}, signer,
			[]string{"_dmarc.example.org says p=reject: receivers refuse mail from example.org that fails DMARC, so pbem's mail must pass by an aligned DKIM signature or by SPF"}, false},
		{"reject, unsigned", "example.org", map[string][]string{"_dmarc.example.org": {"v=DMARC1; p=reject"}}, nil,
			[]string{"_dmarc.example.org says p=reject: receivers refuse mail from example.org that fails DMARC, and pbem signs nothing, so unless your mail server signs pbem's mail, it passes only by SPF, which forwarding breaks: turn DKIM signing on"}, true},
		{"the organizational domain's, with sp=", "games.example.org", map[string][]string{"_dmarc.example.org": {"v=DMARC1; p=none; sp=reject"}}, parent,
			[]string{"_dmarc.example.org says p=reject for games.example.org: receivers refuse mail from games.example.org"}, false},
		{"adkim=s, relaxed only", "games.example.org", map[string][]string{"_dmarc.games.example.org": {"v=DMARC1; p=quarantine; adkim=s"}}, parent,
			[]string{"_dmarc.games.example.org says p=quarantine:", "_dmarc.games.example.org asks for strict DKIM alignment (adkim=s), and pbem signs for example.org, not games.example.org, so DMARC ignores pbem's signatures: sign for games.example.org or drop adkim=s"}, true},
		{"unreadable", "example.org", map[string][]string{"_dmarc.example.org": {"v=DMARC1; p=maybe"}}, signer,
			[]string{"the record at _dmarc.example.org cannot be read (", "), so receivers act as if example.org had none: fix it"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := dmarcFindings(context.Background(), fakeDNS{txt: tc.txt}, tc.from, tc.signer)
			var trouble bool
			var all []string
			for _, f := range got {
				trouble = trouble || f.Trouble
				all = append(all, f.Sentence)
				if f.Topic != "dmarc" {
					t.Errorf("topic %q", f.Topic)
				}
			}
			text := strings.Join(all, "\n")
			for _, w := range tc.want {
				if !strings.Contains(text, w) {
					t.Errorf("findings do not say %q:\n%s", w, text)
				}
			}
			if trouble != tc.trouble {
				t.Errorf("trouble %v; want %v:\n%s", trouble, tc.trouble, text)
			}
		})
	}
}

// TestCheckSenderAuthReport: the whole report, in order, for a host
// whose DNS is right, one whose DNS is empty, one without DKIM, and one
// without a network.
func TestCheckSenderAuthReport(t *testing.T) {
	s := testSigner(t, edKey(t), "example.org")
	record, err := s.KeyRecord()
	if err != nil {
		t.Fatal(err)
	}
	good := fakeDNS{txt: map[string][]string{
		"pbem2026._domainkey.example.org": {record},
		"example.org":                     {"v=spf1 mx -all"},
		"_dmarc.example.org":              {"v=DMARC1; p=reject"},
	}}
	for _, tc := range []struct {
		name   string
		dns    TXTResolver
		signer *DKIMSigner
		want   []string // topic: sentence prefix, one per finding
	}{
		{"all right", good, s, []string{
			"dkim: on: pbem signs every mail with d=example.org s=pbem2026 (Ed25519)",
			"dkim: d=example.org is the From domain: aligned, strictly and relaxed, as DMARC needs",
			"dkim: pbem2026._domainkey.example.org publishes the public half of smtp.dkim_key",
			`spf: example.org publishes "v=spf1 mx -all"`,
			"dmarc: _dmarc.example.org says p=reject",
		}},
		{"nothing published", fakeDNS{}, s, []string{
			"dkim: on:", "dkim: d=example.org is the From domain",
			"dkim: no key is published at pbem2026._domainkey.example.org",
			"spf: example.org publishes no SPF record",
			"dmarc: example.org publishes no DMARC record",
		}},
		{"signing off", good, nil, []string{
			"dkim: off: pbem signs nothing, so unless your mail server signs pbem's mail (OpenDKIM), DMARC can pass only by SPF, which forwarding breaks; set smtp.dkim_key and smtp.dkim_selector to sign it (docs/mail-authentication.md)",
			`spf: example.org publishes "v=spf1 mx -all"`,
			"dmarc: _dmarc.example.org says p=reject: receivers refuse mail from example.org that fails DMARC, and pbem signs nothing, so unless your mail server signs pbem's mail, it passes only by SPF",
		}},
		{"DNS unreachable", fakeDNS{down: true}, s, []string{
			"dkim: on:", "dkim: d=example.org is the From domain",
			"dkim: could not look up pbem2026._domainkey.example.org (lookup pbem2026._domainkey.example.org: i/o timeout): run pbem check again where DNS answers",
			"spf: could not look up example.org (",
			"dmarc: could not look up _dmarc.example.org (",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := CheckSenderAuth(context.Background(), tc.dns, SenderAuth{FromDomain: "Example.org", Signer: tc.signer})
			if len(got) != len(tc.want) {
				t.Fatalf("%d findings; want %d: %+v", len(got), len(tc.want), got)
			}
			for i, f := range got {
				if line := f.Topic + ": " + f.Sentence; !strings.HasPrefix(line, tc.want[i]) {
					t.Errorf("finding %d:\n got %s\nwant %s…", i, line, tc.want[i])
				}
			}
		})
	}
}

// waitingDNS answers only when the look-up's context is done, as a
// resolver with no server to ask.
type waitingDNS struct{}

func (waitingDNS) LookupTXT(ctx context.Context, name string) ([]string, error) {
	<-ctx.Done()
	return nil, &net.DNSError{Err: ctx.Err().Error(), Name: name, IsTimeout: true}
}

// TestCheckSenderAuthEndsWithItsContext: a resolver that never answers
// costs no more than the caller's context; every DNS step then says it
// could not look up, and none fails the check.
func TestCheckSenderAuthEndsWithItsContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	got := CheckSenderAuth(ctx, waitingDNS{}, SenderAuth{FromDomain: "example.org", Signer: testSigner(t, edKey(t), "example.org")})
	var lookedUp int
	for _, f := range got {
		if strings.HasPrefix(f.Sentence, "could not look up ") {
			lookedUp++
			if !f.Trouble {
				t.Errorf("not marked to act on: %+v", f)
			}
		}
	}
	if lookedUp != 3 {
		t.Errorf("%d steps could not look up; want 3 (key, SPF, DMARC): %+v", lookedUp, got)
	}
}

func TestDKIMSignerNames(t *testing.T) {
	s := testSigner(t, edKey(t), "example.org")
	if s.Domain() != "example.org" || s.Selector() != "pbem2026" || s.KeyName() != "pbem2026._domainkey.example.org" {
		t.Errorf("Domain %q Selector %q KeyName %q", s.Domain(), s.Selector(), s.KeyName())
	}
}

// TestSigningFindings: the sentences for each alignment, as a signer for
// another domain than pbem's own would get them.
func TestSigningFindings(t *testing.T) {
	key := edKey(t)
	for _, tc := range []struct {
		d, from string
		want    string
		trouble bool
	}{
		{"example.org", "example.org", "d=example.org is the From domain: aligned, strictly and relaxed, as DMARC needs", false},
		{"example.co.uk", "games.example.co.uk", "d=example.co.uk is aligned with the From domain games.example.co.uk by relaxed alignment (both under example.co.uk), which DMARC accepts unless the domain's record says adkim=s", false},
		{"bob.co.uk", "alice.co.uk", "d=bob.co.uk is not aligned with the From domain alice.co.uk (another organizational domain), so DMARC ignores pbem's signatures: sign for alice.co.uk", true},
	} {
		got := signingFindings(testSigner(t, key, tc.d), tc.from)
		if len(got) != 2 || got[1].Sentence != tc.want || got[1].Trouble != tc.trouble || got[0].Trouble {
			t.Errorf("d=%s From %s: %+v\nwant %q, trouble %v", tc.d, tc.from, got, tc.want, tc.trouble)
		}
	}
}
