package mailer

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"

	"github.com/emersion/go-message/textproto"
	"github.com/emersion/go-msgauth/authres"
	"golang.org/x/net/publicsuffix"
)

// Sender authentication, for deployments behind a mail server that checks
// DKIM, SPF and DMARC and writes what it found in an Authentication-Results
// field (RFC 8601) — OpenDKIM and OpenDMARC, or rspamd; see
// docs/mail-authentication.md.
//
// Which fields count. Anyone can write an Authentication-Results field
// into a mail, so a field counts only when its authserv-id is the one of
// the receiving server that pbem is told to trust. RFC 8601 §5 requires
// that server to delete fields carrying its own authserv-id from arriving
// mail before it adds its own, which is what makes the rule sound; the
// deployment must make sure it does (the doc names the settings). The
// authserv-id is compared case-insensitively, as the RFC says.
//
// What passes. DMARC pass: the server checked that the author's domain (the
// From domain) authenticated the mail. Or DKIM pass with a signing domain
// (header.d) aligned with the From domain: the same organizational domain
// (relaxed alignment, RFC 7489 §3.1.1). SPF alone never passes: it
// authenticates the envelope sender, which a forger chooses freely and
// which need not be the From a player is known by.

// AuthVerdict is what the trusted server's Authentication-Results say of a
// mail's From.
type AuthVerdict struct {
	Pass bool
	// Why says what passed, or why nothing did, in words for a log line
	// or an inbound record (no secret is in them).
	Why string
}

// maxAuthFields bounds the Authentication-Results fields looked at: a mail
// may carry any number, and the work per mail must stay bounded.
const maxAuthFields = 50

// CheckAuthResults reads the Authentication-Results fields of a raw
// message's header that carry authservID and says whether they show the
// From domain authenticated. fromDomain is the domain of the message's
// (strictly read) From address.
func CheckAuthResults(raw []byte, authservID, fromDomain string) AuthVerdict {
	authservID = strings.TrimSpace(authservID)
	fromDomain = strings.ToLower(strings.TrimSuffix(strings.TrimSpace(fromDomain), "."))
	if authservID == "" || fromDomain == "" {
		return AuthVerdict{Why: "no authserv-id or no From domain to check"}
	}
	h, err := textproto.ReadHeader(bufio.NewReader(bytes.NewReader(raw)))
	if err != nil {
		return AuthVerdict{Why: fmt.Sprintf("header unreadable: %v", err)}
	}
	fields := h.Values("Authentication-Results")
	if len(fields) > maxAuthFields {
		fields = fields[:maxAuthFields]
	}
	seen := false
	var found []string
	for _, f := range fields {
		id, results, err := authres.Parse(f)
		if err != nil || !strings.EqualFold(strings.TrimSpace(id), authservID) {
			continue // someone else's, or unreadable: proves nothing
		}
		seen = true
		for _, r := range results {
			switch r := r.(type) {
			case *authres.DMARCResult:
				found = append(found, "dmarc="+string(r.Value))
				if r.Value == authres.ResultPass && (r.From == "" || aligned(r.From, fromDomain)) {
					return AuthVerdict{Pass: true, Why: "dmarc=pass for " + fromDomain}
				}
			case *authres.DKIMResult:
				found = append(found, "dkim="+string(r.Value))
				d := r.Domain
				if d == "" {
					_, d, _ = strings.Cut(r.Identifier, "@")
				}
				if r.Value == authres.ResultPass && d != "" && aligned(d, fromDomain) {
					return AuthVerdict{Pass: true, Why: "dkim=pass aligned with " + fromDomain}
				}
			case *authres.SPFResult:
				found = append(found, "spf="+string(r.Value)+" (not enough alone)")
			}
		}
	}
	if !seen {
		return AuthVerdict{Why: "no Authentication-Results from " + authservID}
	}
	if len(found) == 0 {
		return AuthVerdict{Why: "no DMARC or DKIM result from " + authservID}
	}
	return AuthVerdict{Why: "not authenticated as " + fromDomain + ": " + strings.Join(found, ", ")}
}

// aligned reports relaxed alignment: the two domains have the same
// organizational domain (example.org for mail.example.org).
func aligned(a, b string) bool {
	a = strings.ToLower(strings.TrimSuffix(strings.TrimSpace(a), "."))
	b = strings.ToLower(strings.TrimSuffix(strings.TrimSpace(b), "."))
	if a == "" || b == "" {
		return false
	}
	if a == b {
		return true
	}
	oa, err1 := publicsuffix.EffectiveTLDPlusOne(a)
	ob, err2 := publicsuffix.EffectiveTLDPlusOne(b)
	return err1 == nil && err2 == nil && oa == ob
}
