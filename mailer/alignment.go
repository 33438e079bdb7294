package mailer

import (
	"context"
	"crypto"
	"crypto/ed25519"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"errors"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/emersion/go-msgauth/dmarc"
	"golang.org/x/net/publicsuffix"
)

// DefaultDNSTimeout bounds all the DNS look-ups of one CheckSenderAuth,
// so that a host without a working resolver hears "could not look up"
// in seconds rather than a resolver's retries for each name.
const DefaultDNSTimeout = 10 * time.Second

// TXTResolver looks up DNS TXT records. *net.Resolver is one; tests use
// a fake, so that they never touch the network.
type TXTResolver interface {
	LookupTXT(ctx context.Context, name string) ([]string, error)
}

// Alignment is how a DKIM signing domain (d=) relates to the From
// domain, as DMARC judges it (RFC 7489 §3.1.1).
type Alignment int

const (
	// NotAligned: different organizational domains; DMARC ignores the
	// signature.
	NotAligned Alignment = iota
	// RelaxedAligned: the same organizational domain, not the same
	// name; DMARC accepts it unless the record says adkim=s.
	RelaxedAligned
	// StrictAligned: the same name; DMARC accepts it in either mode.
	StrictAligned
)

// DKIMAlignment says how signingDomain aligns with fromDomain. Relaxed
// alignment compares organizational domains by the public suffix list,
// as the rest of pbem does (aligned): mail.example.org aligns with
// example.org, bob.co.uk does not with alice.co.uk.
func DKIMAlignment(signingDomain, fromDomain string) Alignment {
	d, f := normDomain(signingDomain), normDomain(fromDomain)
	switch {
	case d != "" && d == f:
		return StrictAligned
	case aligned(d, f):
		return RelaxedAligned
	}
	return NotAligned
}

// Domain is the signing domain, d= of every signature.
func (d *DKIMSigner) Domain() string { return d.opts.Domain }

// Selector is s= of every signature: the key's name in DNS.
func (d *DKIMSigner) Selector() string { return d.opts.Selector }

// KeyName is where receivers look the public key up:
// SELECTOR._domainkey.DOMAIN.
func (d *DKIMSigner) KeyName() string {
	return d.opts.Selector + "._domainkey." + d.opts.Domain
}

// KeyRecord is the TXT record to publish at KeyName: the public half of
// the signing key, as verifiers read it (RFC 6376 §3.6.1, RFC 8463).
func (d *DKIMSigner) KeyRecord() (string, error) {
	switch pub := d.opts.Signer.Public().(type) {
	case *rsa.PublicKey:
		der, err := x509.MarshalPKIXPublicKey(pub)
		if err != nil {
			return "", fmt.Errorf("mailer: DKIM public key: %w", err)
		}
		return "v=DKIM1; k=rsa; p=" + base64.StdEncoding.EncodeToString(der), nil
	case ed25519.PublicKey:
		return "v=DKIM1; k=ed25519; p=" + base64.StdEncoding.EncodeToString(pub), nil
	default:
		return "", fmt.Errorf("mailer: DKIM public key of type %T", pub)
	}
}

// keyKind names the signing key for the report: "RSA 2048 bits", "Ed25519".
func (d *DKIMSigner) keyKind() string {
	if pub, ok := d.opts.Signer.Public().(*rsa.PublicKey); ok {
		return fmt.Sprintf("RSA %d bits", pub.N.BitLen())
	}
	return "Ed25519"
}

// Finding is one thing CheckSenderAuth found about how receivers will
// judge pbem's mail.
type Finding struct {
	Topic string // "dkim", "spf" or "dmarc"
	// Sentence is true as written, and says what to do when something
	// is wrong or could not be looked at.
	Sentence string
	// Trouble: receivers will doubt pbem's mail, or pbem could not tell.
	Trouble bool
}

// SenderAuth is what CheckSenderAuth looks at.
type SenderAuth struct {
	// FromDomain is the domain of pbem's From, and of its envelope
	// sender, which SPF checks.
	FromDomain string
	// Signer is pbem's DKIM signer; nil when signing is off.
	Signer *DKIMSigner
}

// CheckSenderAuth reports, one finding per sentence, whether pbem's mail
// can pass DMARC: DKIM signing on or off, the signing domain's alignment
// with the From domain, and then from DNS whether the DKIM public key is
// published and is the signer's, whether the From domain publishes SPF,
// and its DMARC policy. A DNS look-up that fails (no network, a timeout)
// is a finding that says so, never an error: the look-ups together take
// at most DefaultDNSTimeout or ctx's deadline.
func CheckSenderAuth(ctx context.Context, r TXTResolver, a SenderAuth) []Finding {
	ctx, cancel := context.WithTimeout(ctx, DefaultDNSTimeout)
	defer cancel()
	from := normDomain(a.FromDomain)
	var out []Finding
	out = append(out, signingFindings(a.Signer, from)...)
	if a.Signer != nil {
		out = append(out, keyFinding(ctx, r, a.Signer))
	}
	out = append(out, spfFinding(ctx, r, from))
	out = append(out, dmarcFindings(ctx, r, from, a.Signer)...)
	return out
}

// signingFindings say whether pbem signs, as what, and how the signing
// domain aligns with the From domain.
func signingFindings(s *DKIMSigner, from string) []Finding {
	if s == nil {
		return []Finding{{Topic: "dkim", Trouble: true, Sentence: "off: pbem signs nothing, so unless your mail server signs pbem's mail (OpenDKIM), DMARC can pass only by SPF, which forwarding breaks; " +
			"set smtp.dkim_key and smtp.dkim_selector to sign it (docs/mail-authentication.md)"}}
	}
	on := Finding{Topic: "dkim", Sentence: fmt.Sprintf("on: pbem signs every mail with d=%s s=%s (%s)", s.Domain(), s.Selector(), s.keyKind())}
	d := normDomain(s.Domain())
	var align Finding
	switch DKIMAlignment(d, from) {
	case StrictAligned:
		align = Finding{Topic: "dkim", Sentence: fmt.Sprintf("d=%s is the From domain: aligned, strictly and relaxed, as DMARC needs", d)}
	case RelaxedAligned:
		org, _ := publicsuffix.EffectiveTLDPlusOne(from)
		align = Finding{Topic: "dkim", Sentence: fmt.Sprintf("d=%s is aligned with the From domain %s by relaxed alignment (both under %s), which DMARC accepts unless the domain's record says adkim=s", d, from, org)}
	default:
		align = Finding{Topic: "dkim", Trouble: true, Sentence: fmt.Sprintf("d=%s is not aligned with the From domain %s (another organizational domain), so DMARC ignores pbem's signatures: sign for %s", d, from, from)}
	}
	return []Finding{on, align}
}

// keyFinding says whether the public key at SELECTOR._domainkey.DOMAIN is
// the signer's.
func keyFinding(ctx context.Context, r TXTResolver, s *DKIMSigner) Finding {
	name := s.KeyName()
	want, err := s.KeyRecord()
	if err != nil {
		return Finding{Topic: "dkim", Trouble: true, Sentence: err.Error()}
	}
	txts, found, err := lookupTXT(ctx, r, name)
	switch {
	case err != nil:
		return couldNotLookUp("dkim", name, err)
	case !found:
		return Finding{Topic: "dkim", Trouble: true, Sentence: fmt.Sprintf("no key is published at %s, so receivers fail every signature pbem makes: publish a TXT record there: %s", name, want)}
	case len(txts) > 1:
		return Finding{Topic: "dkim", Trouble: true, Sentence: fmt.Sprintf("%s has %d TXT records, and receivers fail a key look-up that finds more than one (RFC 6376 §3.6.2.2): keep only this one: %s", name, len(txts), want)}
	}
	pub, err := parseDKIMKeyRecord(txts[0])
	switch {
	case err != nil:
		return Finding{Topic: "dkim", Trouble: true, Sentence: fmt.Sprintf("the TXT record at %s is not a usable DKIM key (%v), so receivers fail every signature pbem makes: publish this one instead: %s", name, err, want)}
	case !samePublicKey(pub, s.opts.Signer.Public()):
		return Finding{Topic: "dkim", Trouble: true, Sentence: fmt.Sprintf("the key published at %s is not the public half of smtp.dkim_key, so receivers fail every signature pbem makes: publish %s there, or set smtp.dkim_key to the private key of the published one", name, want)}
	}
	return Finding{Topic: "dkim", Sentence: fmt.Sprintf("%s publishes the public half of smtp.dkim_key: receivers can verify pbem's signatures", name)}
}

// parseDKIMKeyRecord reads the public key of a DKIM key record
// (RFC 6376 §3.6.1) as verifiers do: go-msgauth keeps its parser to
// itself.
func parseDKIMKeyRecord(txt string) (crypto.PublicKey, error) {
	tags := map[string]string{}
	for _, part := range strings.Split(txt, ";") {
		k, v, ok := strings.Cut(part, "=")
		if !ok {
			continue
		}
		tags[strings.TrimSpace(k)] = strings.Join(strings.Fields(v), "")
	}
	if v, ok := tags["v"]; ok && v != "DKIM1" {
		return nil, fmt.Errorf("v=%s, not DKIM1", v)
	}
	p, ok := tags["p"]
	switch {
	case !ok:
		return nil, errors.New("no p= tag")
	case p == "":
		return nil, errors.New("p= is empty: the key is revoked")
	}
	der, err := base64.StdEncoding.DecodeString(p)
	if err != nil {
		return nil, fmt.Errorf("p= is not base64: %w", err)
	}
	switch k := tags["k"]; k {
	case "", "rsa":
		if pub, err := x509.ParsePKIXPublicKey(der); err == nil {
			return pub, nil
		}
		pub, err := x509.ParsePKCS1PublicKey(der)
		if err != nil {
			return nil, fmt.Errorf("p= is not an RSA public key: %w", err)
		}
		return pub, nil
	case "ed25519":
		if len(der) != ed25519.PublicKeySize {
			return nil, fmt.Errorf("p= holds %d bytes, not an Ed25519 key's %d", len(der), ed25519.PublicKeySize)
		}
		return ed25519.PublicKey(der), nil
	default:
		return nil, fmt.Errorf("k=%s, a key type verifiers do not know", k)
	}
}

// samePublicKey: a and b are the same key (both crypto/ types have Equal).
func samePublicKey(a, b crypto.PublicKey) bool {
	eq, ok := a.(interface{ Equal(crypto.PublicKey) bool })
	return ok && eq.Equal(b)
}

// spfFinding says whether the From domain, which is also the envelope
// sender's and so the one SPF checks, publishes one SPF record.
func spfFinding(ctx context.Context, r TXTResolver, domain string) Finding {
	txts, _, err := lookupTXT(ctx, r, domain)
	if err != nil {
		return couldNotLookUp("spf", domain, err)
	}
	var spf []string
	for _, t := range txts {
		if lower := strings.ToLower(t); lower == "v=spf1" || strings.HasPrefix(lower, "v=spf1 ") {
			spf = append(spf, t)
		}
	}
	switch len(spf) {
	case 0:
		return Finding{Topic: "spf", Trouble: true, Sentence: fmt.Sprintf("%s publishes no SPF record, and SPF checks it as the domain of pbem's envelope sender: publish a TXT record there that names the hosts your SMTP server sends from, such as \"v=spf1 mx -all\" (docs/operations.md)", domain)}
	case 1:
		return Finding{Topic: "spf", Sentence: fmt.Sprintf("%s publishes %q: make sure it names the host your SMTP server sends from, since SPF checks it as the domain of pbem's envelope sender", domain, spf[0])}
	}
	return Finding{Topic: "spf", Trouble: true, Sentence: fmt.Sprintf("%s publishes %d SPF records, which receivers treat as a permanent error (RFC 7208 §4.5): merge them into one", domain, len(spf))}
}

// dmarcFindings report the From domain's DMARC policy: its own record,
// or else its organizational domain's (RFC 7489 §6.6.3), where sp=, if
// set, is the policy for subdomains.
func dmarcFindings(ctx context.Context, r TXTResolver, from string, s *DKIMSigner) []Finding {
	rec, name, err := lookupDMARC(ctx, r, from)
	if err != nil {
		var bad badDMARCError
		if errors.As(err, &bad) {
			return []Finding{{Topic: "dmarc", Trouble: true, Sentence: fmt.Sprintf("the record at %s cannot be read (%v), so receivers act as if %s had none: fix it", name, bad.err, from)}}
		}
		return []Finding{couldNotLookUp("dmarc", name, err)}
	}
	if rec == nil {
		return []Finding{{Topic: "dmarc", Trouble: true, Sentence: fmt.Sprintf("%s publishes no DMARC record, which Gmail and Yahoo expect of senders of much mail: publish a TXT record at _dmarc.%s such as \"v=DMARC1; p=none; rua=mailto:postmaster@%s\", and tighten p= once the reports show pbem's mail passing", from, from, from)}}
	}
	policy := rec.Policy
	if name != "_dmarc."+from && rec.SubdomainPolicy != "" {
		policy = rec.SubdomainPolicy
	}
	out := []Finding{policyFinding(name, from, policy, s)}
	if s != nil && rec.DKIMAlignment == dmarc.AlignmentStrict && DKIMAlignment(s.Domain(), from) != StrictAligned {
		out = append(out, Finding{Topic: "dmarc", Trouble: true, Sentence: fmt.Sprintf("%s asks for strict DKIM alignment (adkim=s), and pbem signs for %s, not %s, so DMARC ignores pbem's signatures: sign for %s or drop adkim=s", name, normDomain(s.Domain()), from, from)})
	}
	return out
}

// policyFinding is the sentence for a DMARC policy found at name;
// dmarc.Parse accepts no other policy than none, quarantine and reject.
func policyFinding(name, from string, policy dmarc.Policy, s *DKIMSigner) Finding {
	where := name + " says p=" + string(policy)
	if name != "_dmarc."+from {
		where += " for " + from
	}
	if policy == dmarc.PolicyNone {
		return Finding{Topic: "dmarc", Sentence: where + ": receivers deliver mail that fails DMARC and only report it; tighten to p=quarantine, then p=reject, once the reports show pbem's mail passing"}
	}
	verb := "refuse"
	if policy == dmarc.PolicyQuarantine {
		verb = "put in spam"
	}
	if s == nil {
		return Finding{Topic: "dmarc", Trouble: true, Sentence: fmt.Sprintf("%s: receivers %s mail from %s that fails DMARC, and pbem signs nothing, so unless your mail server signs pbem's mail, it passes only by SPF, which forwarding breaks: turn DKIM signing on", where, verb, from)}
	}
	return Finding{Topic: "dmarc", Sentence: fmt.Sprintf("%s: receivers %s mail from %s that fails DMARC, so pbem's mail must pass by an aligned DKIM signature or by SPF", where, verb, from)}
}

// badDMARCError is a DMARC record that exists but cannot be read.
type badDMARCError struct{ err error }

func (e badDMARCError) Error() string { return e.err.Error() }

// lookupDMARC finds the DMARC record for domain: at _dmarc.DOMAIN, else
// at _dmarc of its organizational domain. rec is nil when neither has
// one; name is where the record is, or was last looked for.
func lookupDMARC(ctx context.Context, r TXTResolver, domain string) (rec *dmarc.Record, name string, err error) {
	names := []string{"_dmarc." + domain}
	if org, err := publicsuffix.EffectiveTLDPlusOne(domain); err == nil && org != domain {
		names = append(names, "_dmarc."+org)
	}
	for _, name = range names {
		txts, _, err := lookupTXT(ctx, r, name)
		if err != nil {
			return nil, name, err
		}
		for _, t := range txts {
			if !strings.HasPrefix(strings.ToUpper(strings.TrimSpace(t)), "V=DMARC1") {
				continue
			}
			rec, err := dmarc.Parse(t)
			if err != nil {
				return nil, name, badDMARCError{err}
			}
			return rec, name, nil
		}
	}
	return nil, names[0], nil
}

// lookupTXT looks name up. found is false, with no error, when DNS says
// there is no such name or no TXT record at it; err is any other
// failure: no answer in time, no resolver, a server failure.
func lookupTXT(ctx context.Context, r TXTResolver, name string) (txts []string, found bool, err error) {
	txts, err = r.LookupTXT(ctx, name)
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) && dnsErr.IsNotFound {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	return txts, len(txts) > 0, nil
}

// couldNotLookUp is the finding for a look-up that got no answer.
func couldNotLookUp(topic, name string, err error) Finding {
	return Finding{Topic: topic, Trouble: true, Sentence: fmt.Sprintf("could not look up %s (%v): run pbem check again where DNS answers", name, err)}
}
