package parser

import (
	"errors"
	"fmt"
	"io"
	"mime"
	"net/mail"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/unicode/norm"
)

// fromField is what readFrom finds in the From fields.
type fromField struct {
	name, address, problem string
}

// readFrom reads the From fields strictly, the way a mail client and
// DMARC find the author: the mailbox in angle brackets, not whatever the
// display name says. The lenient reader pbem used before took the first
// address-like text, so that `bob@pbem.test <mallory@evil.test>` passed
// as bob.
func readFrom(values []string) fromField {
	switch {
	case len(values) == 0 || len(values) == 1 && strings.TrimSpace(values[0]) == "":
		return fromField{}
	case len(values) > 1:
		return fromField{problem: fmt.Sprintf("the message has %d From fields", len(values))}
	}
	raw := values[0]
	parser := mail.AddressParser{WordDecoder: &mime.WordDecoder{CharsetReader: charsetReader}}
	list, err := parser.ParseList(raw)
	switch {
	case err == nil && len(list) == 1:
		return checkMailbox(list[0].Name, list[0].Address, "")
	case err == nil:
		return fromField{problem: fmt.Sprintf("From holds %d addresses", len(list))}
	}
	// Not strict syntax. Clients show the one address in angle brackets
	// as the author, if there is exactly one; with none or several it
	// is not clear who the author is.
	open, close := strings.IndexByte(raw, '<'), strings.LastIndexByte(raw, '>')
	if open < 0 || close < open || strings.Count(raw, "<") != 1 || strings.Count(raw, ">") != 1 {
		return fromField{problem: fmt.Sprintf("From is not an address: %v", err)}
	}
	addr, aerr := parser.Parse(raw[open : close+1])
	if aerr != nil {
		return fromField{problem: fmt.Sprintf("From is not an address: %v", err)}
	}
	// The display name, read as it stands: an unquoted name with an "@"
	// or a "," is what makes the field not strict.
	name := strings.TrimSpace(raw[:open] + " " + raw[close+1:])
	if dec, derr := parser.WordDecoder.DecodeHeader(name); derr == nil {
		name = dec
	}
	problem := ""
	if unquoted := strings.Trim(name, `"' `); !strings.EqualFold(unquoted, addr.Address) {
		problem = fmt.Sprintf("From is not strict RFC 5322: %v", err)
	}
	return checkMailbox(name, addr.Address, problem)
}

// checkMailbox finishes reading one mailbox: the display name must not
// name another address, and the address must be one pbem can answer.
func checkMailbox(name, address, problem string) fromField {
	f := fromField{name: strings.TrimSpace(headerText(name)), address: strings.ToLower(address), problem: problem}
	if other := addressIn(f.name, f.address); other != "" && f.problem == "" {
		f.problem = fmt.Sprintf("the display name is the address %q, not the sender's", other)
	}
	if f.problem == "" && strings.IndexFunc(f.address, func(r rune) bool { return isControl(r) || isBidi(r) || r >= utf8.RuneSelf }) >= 0 {
		f.problem = fmt.Sprintf("the address %q holds characters that are not plain ASCII", f.address)
		f.address = ""
	}
	if f.problem != "" {
		// A name that lies about the address or hides in a broken field
		// is not one to show or to match a signature with.
		f.name = ""
	}
	return f
}

// addressIn returns an address written in a display name other than
// addr, or "". The name is compared in NFKC form without invisible
// characters, so that a full-width "＠" or a zero-width space does not
// hide an address.
func addressIn(name, addr string) string {
	name = strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Cf, r) || isControl(r) {
			return -1
		}
		return r
	}, norm.NFKC.String(name))
	for rest := name; ; {
		at := strings.IndexByte(rest, '@')
		if at < 0 {
			return ""
		}
		start := at
		for start > 0 && isAddressByte(rest[start-1]) {
			start--
		}
		end := at + 1
		for end < len(rest) && isAddressByte(rest[end]) {
			end++
		}
		found := strings.Trim(strings.ToLower(rest[start:end]), ".")
		if start < at && end > at+1 && found != addr {
			return found
		}
		rest = rest[at+1:]
	}
}

func isAddressByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("!#$%&'*+-/=?^_`{|}~.", c) >= 0
}

// charsetReader decodes the charsets of encoded words in a From field,
// by their WHATWG names (which cover the IANA ones mail uses).
func charsetReader(charset string, input io.Reader) (io.Reader, error) {
	enc, err := htmlindex.Get(charset)
	if err != nil {
		return nil, fmt.Errorf("charset %q: %w", charset, err)
	}
	return enc.NewDecoder().Reader(input), nil
}

// isControl reports C0 and C1 control characters, CR, LF and TAB
// included.
func isControl(r rune) bool { return unicode.IsControl(r) }

// isBidi reports the characters that change the direction of the text
// around them: U+202E makes "gpj.exe" of "exe.jpg" and can make a name
// or a subject read as something else. Letters of right-to-left scripts
// are not among them.
func isBidi(r rune) bool {
	switch {
	case r == '\u061c', r == '\u200e', r == '\u200f':
		return true
	case '\u202a' <= r && r <= '\u202e', '\u2066' <= r && r <= '\u2069':
		return true
	}
	return false
}

// isHidden reports invisible characters that can hide a word's real
// spelling: zero-width space, word joiner and the other invisible
// operators, BOM, Mongolian vowel separator and the tag characters. The
// zero-width joiner and non-joiner stay: emoji and Persian need them.
func isHidden(r rune) bool {
	switch {
	case r == '\u200b', r == '\u180e', r == '\ufeff', r == '\u00ad':
		return true
	case '\u2060' <= r && r <= '\u2064', '\U000e0000' <= r && r <= '\U000e007f':
		return true
	}
	return false
}

// MaxNameRunes is how long SanitizeName lets a display name be; names
// of people are far shorter, and a name is shown in lists and subjects.
const MaxNameRunes int = 64

// SanitizeName makes a display name safe to show in plain text and in a
// Subject: SanitizeText bounded to MaxNameRunes.
func SanitizeName(name string) string { return SanitizeText(name, MaxNameRunes) }

// SanitizeText makes text from a mail header (a display name, a
// Subject) safe to show as one line of plain text: control characters
// (CR and LF included), bidi controls and invisible characters are
// dropped, invalid UTF-8 is dropped, runs of white space become one
// space, and the result has at most maxRunes characters (an ellipsis
// ends a shortened one). It does not escape markup: HTML output must
// still be escaped where it is written.
func SanitizeText(s string, maxRunes int) string {
	var b strings.Builder
	b.Grow(min(len(s), 4*maxRunes+3))
	runes := 0
	space := false
	for i, r := range s {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size <= 1 {
				continue
			}
		}
		switch {
		case unicode.IsSpace(r) || r == '\r' || r == '\n' || r == '\t':
			space = b.Len() > 0
			continue
		case isControl(r) || isBidi(r) || isHidden(r):
			continue
		}
		if runes >= maxRunes {
			return strings.TrimRight(b.String(), " ") + "…"
		}
		if space {
			b.WriteByte(' ')
			runes++
			space = false
			if runes >= maxRunes {
				return strings.TrimRight(b.String(), " ") + "…"
			}
		}
		b.WriteRune(r)
		runes++
	}
	return b.String()
}

// ErrBadAddress is matched (errors.Is) by CheckAddress's errors.
var ErrBadAddress = errors.New("not a usable mail address")

// CheckAddress refuses an address pbem should neither answer nor show:
// one with control, bidi or invisible characters, quotes, spaces or
// other characters outside RFC 5322's dot-atom, non-ASCII characters
// (pbem does not send SMTPUTF8), or that is not local@domain with a
// plausible domain: at least two labels of letters, digits and inner
// hyphens, a top-level one that is not all digits, no address literal.
// It wants the bare address (`bob@x.test`, not `Bob <bob@x.test>`).
func CheckAddress(addr string) error {
	bad := func(why string) error { return fmt.Errorf("%w: %q: %s", ErrBadAddress, addr, why) }
	if len(addr) > 254 {
		return bad("longer than 254 characters")
	}
	for _, r := range addr {
		switch {
		case isControl(r):
			return bad("control character")
		case isBidi(r) || isHidden(r):
			return bad("invisible or text-direction character")
		case r >= utf8.RuneSelf:
			return bad("non-ASCII character")
		case r == ' ':
			return bad("space")
		case r == '"' || r == '\\':
			return bad("quote")
		}
	}
	at := strings.LastIndexByte(addr, '@')
	if at < 0 {
		return bad("no @")
	}
	local, domain := addr[:at], addr[at+1:]
	switch {
	case local == "":
		return bad("nothing before the @")
	case len(local) > 64:
		return bad("more than 64 characters before the @")
	case strings.HasPrefix(local, ".") || strings.HasSuffix(local, ".") || strings.Contains(local, ".."):
		return bad("misplaced dot before the @")
	}
	for i := 0; i < len(local); i++ {
		if !isAddressByte(local[i]) {
			return bad(fmt.Sprintf("%q before the @", local[i]))
		}
	}
	if err := checkDomain(domain); err != "" {
		return bad(err)
	}
	return nil
}

// checkDomain says what makes a domain implausible, "" when nothing.
func checkDomain(domain string) string {
	if domain == "" {
		return "no domain"
	}
	if len(domain) > 253 {
		return "domain longer than 253 characters"
	}
	labels := strings.Split(domain, ".")
	if len(labels) < 2 {
		return "domain without a dot"
	}
	for _, l := range labels {
		if l == "" || len(l) > 63 {
			return "empty or too long label in the domain"
		}
		if l[0] == '-' || l[len(l)-1] == '-' {
			return "domain label starts or ends with a hyphen"
		}
		for i := 0; i < len(l); i++ {
			c := l[i]
			if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-') {
				return fmt.Sprintf("%q in the domain", c)
			}
		}
	}
	tld := labels[len(labels)-1]
	if strings.Trim(tld, "0123456789") == "" {
		return "top-level domain of digits (an IP address?)"
	}
	if len(tld) < 2 {
		return "one-letter top-level domain"
	}
	return ""
}
