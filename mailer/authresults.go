package mailer

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/emersion/go-message/textproto"
	"github.com/emersion/go-msgauth/authres"
	"golang.org/x/net/publicsuffix"
)

// Sender authentication, for deployments behind a mail server that checks
// DKIM, SPF and DMARC and writes what it found in an Authentication-Results
// field (RFC 8601): OpenDKIM and OpenDMARC, or rspamd; see
// docs/mail-authentication.md, which also says why each rule below is as
// it is.
//
// Which fields count.
//
//  1. Only fields whose authserv-id is the configured one. Anyone can write
//     an Authentication-Results field into a mail; RFC 8601 §5 requires the
//     receiving server to delete arriving fields that carry its own id
//     before it adds its own, and that deletion is what makes trusting the
//     id sound. The id is compared exactly, case-insensitively (RFC 8601
//     §2.5); "mx.example." is not "mx.example".
//  2. Only fields in the plain form servers write and the deletion rule
//     (a Postfix header_checks regexp in the doc and in scripts/mailstack)
//     matches: the name immediately followed by ':', then the id as a bare
//     word followed by white space, ';' or the end. RFC 8601 also allows a
//     comment before the id, a quoted id, or (obsolete syntax) space before
//     the colon; such a field can slip past a deletion rule and still
//     claim the id, and no server writes one, so pbem ignores it. Every
//     field pbem trusts is thus one the deletion rule removes on arrival
//     (TestTrustedFormIsStripped and the fuzz target check this).
//  3. The topmost result decides. Servers insert their fields above the
//     header as it arrived (OpenDKIM and OpenDMARC at milter index 1, just
//     under Postfix's own Received; rspamd likewise), so the first DMARC
//     result from the top, and the first field from the top with DKIM
//     results, are the server's. Anything lower is older or forged. A
//     trusted field pbem cannot read stops the search: what it said is
//     unknown, and a forgery below must not stand in for it.
//
// Why not "only fields above the first Received that is not the server's
// own": with milters the server's field sits directly under its Received,
// right above the arriving header, with no Received between it and a
// forged field the server failed to delete; and telling the server's
// Received fields apart needs its host names, which often differ from the
// authserv-id. Rule 3 gets the same protection without them.
//
// What passes.
//
//   - The topmost DMARC result is pass and names the From domain
//     (header.from, compared exactly). A DMARC fail, or a pass for another
//     domain, refuses the mail whatever DKIM says: a server that reads the
//     mail so cannot have vouched for this From.
//   - Otherwise, a DKIM pass in the topmost DKIM field whose signing domain
//     (header.d, else the domain of header.i) is aligned with the From
//     domain: the same organizational domain by the public suffix list
//     (relaxed alignment, RFC 7489 §3.1.1).
//
// SPF alone never passes: it authenticates the envelope sender (MAIL FROM),
// which a forger chooses freely and which need not share a domain with the
// From a player is known by.

// AuthVerdict is what the trusted server's Authentication-Results say of a
// mail's From.
type AuthVerdict struct {
	Pass bool
	// Why says what passed, or why nothing did, in words for a log line
	// or an inbound record (no secret is in them).
	Why string
}

const (
	// maxAuthFields bounds the Authentication-Results fields looked at: a
	// mail may carry any number, and the work per mail must stay bounded.
	maxAuthFields = 50
	// maxAuthFieldBytes bounds one trusted field. Servers write a few
	// hundred bytes; a longer one is treated as unreadable.
	maxAuthFieldBytes = 8 << 10
	// maxCommentDepth bounds nested comments in a trusted field.
	maxCommentDepth = 16
)

const authResultsField = "Authentication-Results"

// CheckAuthResults reads the Authentication-Results fields of a raw
// message's header that carry authservID and says whether they show the
// From domain authenticated. fromDomain is the domain of the message's
// (strictly read) From address. The work is linear in the header's size.
func CheckAuthResults(raw []byte, authservID, fromDomain string) AuthVerdict {
	authservID = strings.TrimSpace(authservID)
	fromDomain = normDomain(fromDomain)
	if authservID == "" || fromDomain == "" {
		return AuthVerdict{Why: "no authserv-id or no From domain to check"}
	}
	h, err := textproto.ReadHeader(bufio.NewReader(bytes.NewReader(raw)))
	if err != nil {
		return AuthVerdict{Why: fmt.Sprintf("header unreadable: %v", err)}
	}

	found := readTrustedResults(&h, authservID)
	if v, ok := found.dmarcVerdict(fromDomain); ok {
		return v
	}
	for _, r := range found.dkim {
		d := signingDomain(r)
		if r.Value == authres.ResultPass && d != "" && aligned(d, fromDomain) {
			return AuthVerdict{Pass: true, Why: "dkim=pass for " + d + ", aligned with " + fromDomain}
		}
		found.notes = append(found.notes, "dkim="+string(r.Value)+" for "+orUnnamed(d))
	}
	if found.trusted == 0 {
		return AuthVerdict{Why: strings.Join(append([]string{"no Authentication-Results from " + authservID}, found.notes...), "; ")}
	}
	notes := found.notes
	if len(notes) == 0 {
		notes = []string{"no DMARC or DKIM result"}
	}
	return AuthVerdict{Why: "not authenticated as " + fromDomain + ": " + strings.Join(notes, ", ")}
}

// trustedResults is what the fields of the trusted authserv-id say.
type trustedResults struct {
	dmarc   *authres.DMARCResult // topmost DMARC result
	dkim    []*authres.DKIMResult
	notes   []string // why what was read does not settle it, for the verdict
	trusted int      // fields in trusted form
}

// readTrustedResults reads, top down, the first maxAuthFields
// Authentication-Results fields of the header, keeping those authservID
// wrote in trusted form: the topmost DMARC result and the DKIM results of
// the topmost field that has any. An unreadable trusted field stops the
// reading.
func readTrustedResults(h *textproto.Header, authservID string) trustedResults {
	var (
		found    trustedResults
		dkimSeen bool // the topmost field with DKIM results was read
	)
	fields := h.FieldsByKey(authResultsField)
	for n := 0; fields.Next(); n++ {
		if n == maxAuthFields {
			found.notes = append(found.notes, fmt.Sprintf("only the first %d fields read", maxAuthFields))
			break
		}
		rawField, err := fields.Raw()
		if err != nil || !trustedForm(rawField, authservID) {
			continue // someone else's, or a form no server writes
		}
		found.trusted++
		results, err := parseTrusted(fields.Value(), authservID)
		if err != nil {
			found.notes = append(found.notes, "a field of "+authservID+" is unreadable ("+err.Error()+"); fields below it not read")
			break
		}
		var fieldDKIM []*authres.DKIMResult
		for _, r := range results {
			switch r := r.(type) {
			case *authres.DMARCResult:
				if found.dmarc == nil {
					found.dmarc = r
				}
			case *authres.DKIMResult:
				fieldDKIM = append(fieldDKIM, r)
			case *authres.SPFResult:
				found.notes = append(found.notes, "spf="+string(r.Value)+" (never enough alone)")
			}
		}
		if !dkimSeen && len(fieldDKIM) > 0 {
			found.dkim, dkimSeen = fieldDKIM, true
		}
	}
	return found
}

// dmarcVerdict is the verdict of the topmost DMARC result, with ok true,
// when it settles the question; otherwise it notes why not and the DKIM
// results decide.
func (found *trustedResults) dmarcVerdict(fromDomain string) (AuthVerdict, bool) {
	if found.dmarc == nil {
		return AuthVerdict{}, false
	}
	from := normDomain(found.dmarc.From)
	switch {
	case found.dmarc.Value == authres.ResultPass && from == fromDomain:
		return AuthVerdict{Pass: true, Why: "dmarc=pass for " + fromDomain}, true
	case found.dmarc.Value == authres.ResultPass && from != "":
		return AuthVerdict{Why: "dmarc=pass is for " + from + ", not " + fromDomain}, true
	case found.dmarc.Value == authres.ResultFail:
		return AuthVerdict{Why: "dmarc=fail for " + orUnnamed(from)}, true
	case found.dmarc.Value == authres.ResultPass:
		found.notes = append(found.notes, "dmarc=pass names no header.from")
	default:
		found.notes = append(found.notes, "dmarc="+string(found.dmarc.Value))
	}
	return AuthVerdict{}, false
}

// trustedForm reports whether a raw header field (as it stands in the
// message, folding included) is an Authentication-Results field in the
// plain form, "Authentication-Results:" then optional white space then
// authservID as a bare word ending in white space, ';' or the end. This is
// exactly the set of fields the documented deletion rule matches:
//
//	/^Authentication-Results:[[:space:]]*ID([[:space:];]|$)/ IGNORE
//
// (Postfix regexp tables ignore case by default.)
func trustedForm(rawField []byte, authservID string) bool {
	name := len(authResultsField)
	if len(rawField) <= name || rawField[name] != ':' ||
		!strings.EqualFold(string(rawField[:name]), authResultsField) {
		return false
	}
	rest := bytes.TrimLeft(rawField[name+1:], " \t\r\n\v\f")
	if len(rest) < len(authservID) || !strings.EqualFold(string(rest[:len(authservID)]), authservID) {
		return false
	}
	rest = rest[len(authservID):]
	return len(rest) == 0 || bytes.IndexByte([]byte(" \t\r\n\v\f;"), rest[0]) >= 0
}

// parseTrusted parses the value of a field in trusted form. go-msgauth's
// parser splits at every ';' and white space, inside comments and quoted
// strings too, where a sender can put text of his choosing (an envelope
// sender such as "a;dmarc=pass"@evil.example shows up quoted in rspamd's
// SPF result). So comments are removed and quoted strings emptied first;
// no value pbem decides on (a result, header.from, header.d) is ever
// quoted.
func parseTrusted(value, authservID string) ([]authres.Result, error) {
	if len(value) > maxAuthFieldBytes {
		return nil, fmt.Errorf("longer than %d bytes", maxAuthFieldBytes)
	}
	clean, err := stripCommentsAndQuotes(value)
	if err != nil {
		return nil, err
	}
	id, results, err := authres.Parse(clean)
	if err != nil {
		return nil, err
	}
	if !strings.EqualFold(id, authservID) {
		return nil, fmt.Errorf("authserv-id %q", id)
	}
	return results, nil
}

// stripCommentsAndQuotes replaces each comment (RFC 5322 §3.2.2, nested,
// with quoted pairs) by a space and each quoted string by "". It fails on
// an unterminated one or nesting deeper than maxCommentDepth.
func stripCommentsAndQuotes(s string) (string, error) {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth := 0
			for ; i < len(s); i++ {
				switch s[i] {
				case '\\':
					i++
				case '(':
					if depth++; depth > maxCommentDepth {
						return "", errors.New("comments nested too deep")
					}
				case ')':
					depth--
				}
				if depth == 0 {
					break
				}
			}
			if depth != 0 {
				return "", errors.New("unterminated comment")
			}
			b.WriteByte(' ')
		case '"':
			closed := false
			for i++; i < len(s); i++ {
				if s[i] == '\\' {
					i++
				} else if s[i] == '"' {
					closed = true
					break
				}
			}
			if !closed {
				return "", errors.New("unterminated quoted string")
			}
			b.WriteString(`""`)
		case ')':
			return "", errors.New("unbalanced ')'")
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String(), nil
}

// signingDomain is a DKIM result's d= domain, else the domain of its i=.
func signingDomain(r *authres.DKIMResult) string {
	if d := normDomain(r.Domain); d != "" {
		return d
	}
	if _, d, ok := strings.Cut(r.Identifier, "@"); ok {
		return normDomain(d)
	}
	return ""
}

func normDomain(d string) string {
	return strings.ToLower(strings.TrimSuffix(strings.TrimSpace(d), "."))
}

func orUnnamed(d string) string {
	if d == "" {
		return "an unnamed domain"
	}
	return d
}

// aligned reports relaxed alignment: the two domains have the same
// organizational domain (example.org for mail.example.org), by the public
// suffix list, private entries included, as DMARC checkers use it.
func aligned(a, b string) bool {
	a, b = normDomain(a), normDomain(b)
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
