// Package mailbox says which spellings of a mail address reach one
// mailbox. pbem keys every limit that protects a person's inbox (the
// daily answer budget, the invitation limits, `never`, the loop
// breaker's counts) and the identity it rates on the mailbox, not on the
// address as written: victim+1@x.test and Victim@x.test land in one
// inbox, and a limit counted per spelling is no limit at all
// (docs/security.md, "One mailbox, one limit"). The address as the
// player wrote it is still the one pbem delivers to.
//
// This is the one place the rule lives; everything else asks a Rule.
package mailbox

import (
	"strings"
)

// DefaultSeparators is the sub-address separator of the default Rule:
// Postfix's recipient_delimiter, Gmail's, Fastmail's and Outlook.com's.
const DefaultSeparators = "+"

// dotlessDomains are the providers known to ignore dots in the local
// part (j.doe@gmail.com is jdoe@gmail.com), each mapped to the domain
// its mailboxes are named by: googlemail.com is gmail.com.
var dotlessDomains = map[string]string{
	"gmail.com":      "gmail.com",
	"googlemail.com": "gmail.com",
}

// Rule is how addresses map to mailboxes: which characters begin a
// sub-address. The zero Rule strips no sub-address (only case and the
// providers' dots).
type Rule struct {
	// Separators holds each character that begins a sub-address in the
	// local part: everything from the first of them to the @ is dropped.
	Separators string
}

// Default is the rule pbem uses unless configured otherwise.
func Default() Rule { return Rule{Separators: DefaultSeparators} }

// Key returns the mailbox addr reaches, in a form to compare and store:
// trimmed, lower-case, without a sub-address, and without the dots a
// provider ignores. A string that is not LOCAL@DOMAIN is returned
// trimmed and lower-cased, so that it still equals itself.
func (r Rule) Key(addr string) string {
	addr = strings.ToLower(strings.TrimSpace(addr))
	at := strings.LastIndexByte(addr, '@')
	if at <= 0 || at == len(addr)-1 {
		return addr
	}
	local, domain := addr[:at], strings.TrimSuffix(addr[at+1:], ".")
	if strings.HasPrefix(local, `"`) {
		// A quoted local part may hold any character: none of it is a
		// separator or an ignorable dot.
		return local + "@" + domain
	}
	if i := strings.IndexAny(local, r.Separators); i > 0 {
		local = local[:i]
	}
	if canonical, ok := dotlessDomains[domain]; ok {
		if dotless := strings.ReplaceAll(local, ".", ""); dotless != "" {
			local = dotless
		}
		domain = canonical
	}
	return local + "@" + domain
}

// Same reports whether a and b reach one mailbox.
func (r Rule) Same(a, b string) bool { return r.Key(a) == r.Key(b) }

// Shared reports whether any two of addrs reach one mailbox, and if so
// the first such pair (indexes into addrs, i < j).
func (r Rule) Shared(addrs []string) (i, j int, shared bool) {
	first := make(map[string]int, len(addrs))
	for k, a := range addrs {
		key := r.Key(a)
		if prev, ok := first[key]; ok {
			return prev, k, true
		}
		first[key] = k
	}
	return 0, 0, false
}
