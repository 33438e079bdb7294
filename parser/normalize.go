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
		if typed, ok := asTyped(r); ok {
			b.WriteRune(typed)
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

// isInvisible reports the format characters (Unicode category Cf) that
// change no letter: zero-width spaces and joiners, the word joiner, the
// BOM, the soft hyphen, the direction marks, embeddings and isolates
// (an Outlook in Hebrew starts a line with U+200F), the tag characters.
// Mail programs insert them and nobody reads them, so a command is read
// without them. The prepended concatenation marks (the Arabic number
// sign and its kin) are Cf too but are seen: they stay.
func isInvisible(r rune) bool {
	return unicode.Is(unicode.Cf, r) && !unicode.Is(unicode.Prepended_Concatenation_Mark, r)
}

// digitValue is the value of a decimal digit of any script. Unicode
// gives each script's digits as a run of ten from its zero, and the
// table of decimal digits (Nd) lists those runs, alone or side by side
// (TestDigitValue checks that every range is whole runs).
func digitValue(r rune) rune {
	for _, rg := range unicode.Nd.R16 {
		if rune(rg.Lo) <= r && r <= rune(rg.Hi) {
			return (r - rune(rg.Lo)) % 10
		}
	}
	for _, rg := range unicode.Nd.R32 {
		if rune(rg.Lo) <= r && r <= rune(rg.Hi) {
			return (r - rune(rg.Lo)) % 10
		}
	}
	return 0
}

// asTyped is what a person typed for r, or false for a character that
// carries nothing a person wrote.
func asTyped(r rune) (rune, bool) {
	if ' ' <= r && r < 0x7f && r != '`' {
		return r, true // most of a mail: spare it the tables below
	}
	switch r {
	case '\n', '\t':
		return r, true
	case '‘', '’', '‚', '‛', '′', '`':
		return '\'', true
	case '“', '”', '„', '‟', '″', '«', '»':
		return '"', true
	case '‐', '‑', '‒', '–', '—', '―', '−', '﹣', '－':
		return '-', true
	}
	switch {
	case unicode.IsLetter(r):
		return r, true // no letter is a digit, a mark or a space
	case unicode.IsDigit(r):
		// Arabic-Indic, Persian, Devanagari, Thai... digits: an
		// attribution's date and a bid are read in them as in 0-9
		// (NFKC has made the full-width ones ASCII already).
		return '0' + digitValue(r), true
	case isInvisible(r):
		return 0, false
	case unicode.Is(unicode.Zs, r):
		return ' ', true
	case unicode.IsControl(r):
		// other control characters carry nothing a person wrote
		return 0, false
	}
	return r, true
}
