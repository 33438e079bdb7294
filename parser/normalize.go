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
func normalize(text string) string {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	text = strings.ReplaceAll(text, "\r", "\n")
	text = norm.NFKC.String(text)
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
