package parser

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// normalize makes a body's text plain: LF line ends, no trailing space,
// NFKC (full-width digits, ligatures), and the characters mail clients
// and phones insert for people replaced by what a person typed: spaces
// of every width become a space, zero-width characters vanish, curly
// quotes become straight and dashes and the minus sign become "-" (so
// that "play −8" and "I’ll pass" read as written).
func normalize(text string) string { return normalizeMax(text, len(text)*maxNFKCGrowth+16) }

// maxNFKCGrowth is the most NFKC lengthens a text: U+FDFA, 3 bytes,
// becomes 33.
const maxNFKCGrowth = 11

// normalizeMax is normalize that stops after max bytes of NFKC output,
// so that a text of characters NFKC expands costs no more than max.
func normalizeMax(text string, max int) string {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	text = strings.ReplaceAll(text, "\r", "\n")
	text = nfkc(text, max)
	var b strings.Builder
	b.Grow(len(text))
	for _, r := range text {
		switch {
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case r == '\u200b' || r == '\u200c' || r == '\u200d' || r == '\u2060' || r == '\ufeff' || r == '\u00ad':
			// zero-width spaces and joiners, word joiner, BOM, soft hyphen
		case unicode.Is(unicode.Zs, r):
			b.WriteByte(' ')
		case r == '‘' || r == '’' || r == '‚' || r == '‛' || r == '′' || r == '`':
			b.WriteByte('\'')
		case r == '“' || r == '”' || r == '„' || r == '‟' || r == '″' || r == '«' || r == '»':
			b.WriteByte('"')
		case r == '‐' || r == '‑' || r == '‒' || r == '–' || r == '—' || r == '―' || r == '−' || r == '﹣' || r == '－':
			b.WriteByte('-')
		case unicode.IsControl(r):
			// other control characters carry nothing a person wrote
		default:
			b.WriteRune(r)
		}
	}
	lines := strings.Split(b.String(), "\n")
	for i, l := range lines {
		// Keep the one trailing space of a "-- " signature separator:
		// cutting recognises it either way, but Body should show it.
		if l == "-- " {
			continue
		}
		lines[i] = strings.TrimRight(l, " \t")
	}
	return strings.Join(lines, "\n")
}

// nfkc is norm.NFKC.String(text) cut after about max bytes.
func nfkc(text string, max int) string {
	if norm.NFKC.IsNormalString(text) && len(text) <= max {
		return text
	}
	var it norm.Iter
	it.InitString(norm.NFKC, text)
	out := make([]byte, 0, min(max, 2*len(text))+64)
	for !it.Done() && len(out) < max {
		out = append(out, it.Next()...)
	}
	return string(out)
}
