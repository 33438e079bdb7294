package parser

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// An attribution line, once wrapped lines are joined, ends in a colon
// and a verb of writing: its last word (attributionLast: "pbem wrote:",
// "pbem пишет:"), the end of its last word where a script writes no
// spaces (attributionEnds: "pbem 写道:"), a stem and a short ending
// ("napisał(a):"), or, in the languages that put the name after the
// verb, a word anywhere before the colon (attributionAnywhere: "Am ...
// schrieb Alice <alice@x.test>:", "كتب pbem:"). Words are read as
// Unicode reads them, in every script. The lists are the mail
// programs' own translations (attribution_words.go). isAttribution
// reads a line once, by hand: the expression it replaces cost a second
// on a 1 MB mail of 200-byte lines with a date and a colon, each tried
// three times as a wrapped attribution.

// maxStemEnding bounds the characters after an attribution's stem.
const maxStemEnding = 4

// quotingRe matches Horde's attribution, which names who is quoted, by
// address, and no verb of writing: "Quoting pbem <game@pbem.example>:",
// "Zitat von ...:".
var quotingRe = mustLinePattern(`(?i)^(quoting|zitat von|citation de|citando a?|citazione di|cytuję|citeren)\s[^:]{0,200}@[^:]{0,200}:$`)

// dateIntroRe matches the first line of an attribution that a client
// splits after the date: Claws Mail's "On Sun, 22 Nov 2026 21:06:13
// +0000", then "pbem <game@pbem.example> wrote:" below it.
var dateIntroRe = mustLinePattern(`(?i)^(on|am|le|el|op|il|em|den|dne|w dniu)\s`)

// dateRe finds a date or a time: a year, "10:02", "22/11/26",
// "22.11.2026". Every client's attribution carries one near its start
// ("On Sun, Nov 22, 2026 at 09:06", "Am 22.11.2026 um 21:06", "On
// 11/22/26 9:06 PM"), and the commands a player writes do not.
var dateRe = regexp.MustCompile(`\b(19|20)\d\d\b|\d:[0-5]\d|\b\d{1,2}[./-]\d{1,2}[./-]\d{2,4}\b`)

// hasDate reports whether t holds a date or a time (dateRe). Every
// date has a digit: most lines have none, and are spared the search.
func hasDate(t string) bool {
	return strings.ContainsAny(t, "0123456789") && dateRe.MatchString(t)
}

// minWrapWidth is the narrowest column a client wraps an attribution at
// (Gmail 78, Outlook 76, Thunderbird 72, Emacs 70): a line that ends
// early was not wrapped, and the line below it is not its continuation.
const minWrapWidth = 50

// isAttribution reports whether a (joined) line is an attribution.
func isAttribution(t string) bool {
	// The colon may be followed by blanks, then by the stars of a bold
	// attribution the HTML conversion wrote.
	t = strings.TrimRight(strings.TrimRight(t, "*"), asciiSpace)
	if !strings.HasSuffix(t, ":") {
		return false
	}
	before := strings.TrimRight(t[:len(t)-1], asciiSpace)
	// The last field before the colon, or its last bytes: a verb and
	// its ending are short.
	field := before[strings.LastIndexAny(before, asciiSpace)+1:]
	if len(field) > 64 {
		field = field[len(field)-64:]
	}
	field = strings.ToLower(field)
	for _, v := range attributionEnds {
		if strings.HasSuffix(field, v) {
			return true
		}
	}
	for _, v := range attributionStems {
		if k := strings.LastIndex(field, v); k >= 0 && utf8.RuneCountInString(field[k+len(v):]) <= maxStemEnding {
			return true
		}
	}
	var buf [maxVerbBytes]byte
	last := ""
	for w, rest := nextWord(before); w != ""; w, rest = nextWord(rest) {
		// Thunderbird's English "pbem wrote on 21/11/2026 17:00:".
		if verbStarts[w[0]] && inWordSet(attributionAnywhere, w, &buf) || strings.EqualFold(last, "wrote") && strings.EqualFold(w, "on") {
			return true
		}
		last = w
	}
	return last != "" && verbStarts[last[0]] && inWordSet(attributionLast, last, &buf) || quotingRe.match(t)
}

// verbStarts holds the first bytes of the verbs of attributionAnywhere
// and attributionLast, in both cases: most words of a line start with
// none, and are not looked up.
var verbStarts = firstBytes(attributionAnywhere, attributionLast)

func firstBytes(sets ...map[string]bool) (b [256]bool) {
	for _, set := range sets {
		for w := range set {
			b[w[0]] = true
			if u := strings.ToUpper(w); u != "" {
				b[u[0]] = true
			}
		}
	}
	return b
}

// maxVerbBytes bounds the words looked up as verbs: none is longer.
const maxVerbBytes = 64

// inWordSet reports whether w, in lower case, is in set. A word of ASCII
// is lowered into buf, so that a line of many words costs no
// allocation; a longer word is no verb.
func inWordSet(set map[string]bool, w string, buf *[maxVerbBytes]byte) bool {
	if len(w) > len(buf) {
		return false
	}
	for i := 0; i < len(w); i++ {
		c := w[i]
		if c >= utf8.RuneSelf {
			return set[strings.ToLower(w)]
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[i] = c
	}
	return set[string(buf[:len(w)])]
}

// asciiSpace is what \s matches in an expression.
const asciiSpace = " \t\n\f\r"

// nextWord returns the first word of s as Unicode reads words (a run of
// letters, marks and digits, in every script: "napisał", "пишет",
// "كتب") and the text after it; "" when s has none.
func nextWord(s string) (word, rest string) {
	start := -1
	for i, r := range s {
		switch in := isWordRune(r); {
		case in && start < 0:
			start = i
		case !in && start >= 0:
			return s[start:i], s[i:]
		}
	}
	if start < 0 {
		return "", ""
	}
	return s[start:], ""
}

// quoteHeader reports how many lines (1 to 3) from i form a quote header:
// an attribution, wrapped or not, or a line naming pbem's address.
//
// An attribution may wrap, but the player's own lines right above it
// (mutt and neomutt put the cursor there, with no blank line) must not
// be taken for its first part: "bid 3" above "On ..., pbem wrote:" is a
// command. So a wrapped attribution's first line must carry a date, each
// of its lines but the last must be full (the next word would not have
// fitted at minWrapWidth), and no later line may start an attribution of
// its own. A line that reads as a command meets none of these.
func quoteHeader(lines []string, i int, service *regexp.Regexp) int {
	t := strings.TrimSpace(lines[i])
	if t == "" || isQuoted(t) || len(t) > maxHeaderLine {
		return 0
	}
	if isAttribution(t) {
		return 1
	}
	if service != nil && strings.Contains(t, "@") && service.MatchString(t) {
		return 1
	}
	if !hasDate(t) {
		return 0
	}
	if splitAttribution(lines, i, service) {
		return 2
	}
	joined, prev := t, t
	for n := 2; n <= 3 && i+n-1 < len(lines); n++ {
		next := strings.TrimSpace(lines[i+n-1])
		if next == "" || isQuoted(next) || len(joined)+len(next) > maxHeaderLine || !wrapped(prev, next) {
			return 0
		}
		joined += " " + next
		prev = next
		if isAttribution(joined) {
			if laterStart(lines, i+1, i+n-1) {
				return 0
			}
			return n
		}
	}
	return 0
}

// splitAttribution reports whether line i, which holds a date, is the
// first line of an attribution split after the date (Claws Mail): it
// starts like one ("On", "Am", "Le"...) and the line below it is an
// attribution of its own with no date, "pbem <...> wrote:". A player's
// line above an attribution does not start so, and an attribution below
// it that carries its own date is whole without it.
func splitAttribution(lines []string, i int, service *regexp.Regexp) bool {
	if i+1 >= len(lines) || !dateIntroRe.match(strings.TrimSpace(lines[i])) {
		return false
	}
	next := strings.TrimSpace(lines[i+1])
	if next == "" || isQuoted(next) || len(next) > maxHeaderLine || dateRe.MatchString(next) {
		return false
	}
	return isAttribution(next) || (service != nil && strings.Contains(next, "@") && service.MatchString(next))
}

// wrapped reports whether next may continue prev after a client wrapped
// a long line: prev was full, so next's first word did not fit on it.
func wrapped(prev, next string) bool {
	first := next
	if k := strings.IndexAny(next, " \t"); k >= 0 {
		first = next[:k]
	}
	return len(prev)+1+len(first) > minWrapWidth
}

// laterStart reports whether an attribution ending at line end starts
// at a line from from on: a line with a date that, joined with the lines
// below it, is an attribution already. The lines above it are then not
// part of it.
func laterStart(lines []string, from, end int) bool {
	for k := from; k <= end; k++ {
		t := strings.TrimSpace(lines[k])
		if !hasDate(t) {
			continue
		}
		for j := k + 1; j <= end; j++ {
			t += " " + strings.TrimSpace(lines[j])
		}
		if isAttribution(t) {
			return true
		}
	}
	return false
}

// attributionByShape reports how many lines from i (1 or 2) are an
// attribution by its shape rather than its words, with a quote right
// below them (none: 0). A program that starts a reply with an
// attribution in a language no list here has ("21.11.2026 17:00, pbem
// пишет:") still writes it in one shape: it ends in a colon and names a
// date or a time, an address, or the sender of the mail answered (name:
// pbem's own display name, lower-case). The player's own "My move:"
// above a quote has none of them, and stays his. Two lines are one
// attribution when the first carries the date and the second none.
func attributionByShape(lines []string, i int, name string) int {
	t := strings.TrimSpace(lines[i])
	if t == "" || len(t) > maxHeaderLine {
		return 0
	}
	// Where no quote follows, nothing more is asked: that spares the
	// signals' search most lines of a long mail.
	if endsInColon(t) {
		if quoteFollows(lines, i+1) && attributionSignal(t, name) {
			return 1
		}
		return 0
	}
	if i+1 >= len(lines) {
		return 0
	}
	next := strings.TrimSpace(lines[i+1])
	if next == "" || isQuoted(next) || !endsInColon(next) || len(t)+len(next) > maxHeaderLine || !quoteFollows(lines, i+2) {
		return 0
	}
	// A line below with a date of its own is a whole attribution: the
	// line above it, dated or not, is the player's ("bid 3, see you at
	// 10:30" right above "On ..., pbem wrote:"). One without is the
	// rest of an attribution that was wrapped, or split after its date
	// as Claws Mail splits it in every language ("Στις 21.11.2026", then
	// "pbem <...> έγραψε:"); no command holds a date.
	if hasDate(t) && !hasDate(next) && (wrapped(t, next) || len(t) <= maxSplitDateLine && attributionSignal(next, name)) {
		return 2
	}
	return 0
}

// maxSplitDateLine bounds the first line of an attribution split after
// its date: Claws Mail's "%d", a date and a few words.
const maxSplitDateLine = 80

// endsInColon reports whether a line ends in a colon, before the blanks
// and the stars of a bold attribution.
func endsInColon(t string) bool {
	return strings.HasSuffix(strings.TrimRight(strings.TrimRight(t, "*"), asciiSpace), ":")
}

// attributionSignal reports whether a line ending in a colon says what
// an attribution says: a date or a time, an address, the name of pbem's
// mails, or a verb of writing.
func attributionSignal(t, name string) bool {
	return hasDate(t) || hasAddress(t) || (name != "" && namesWord(t, name)) || isAttribution(t)
}

// hasAddress reports whether t holds an address: an "@" between two
// characters an address is made of.
func hasAddress(t string) bool {
	for rest := t; ; {
		at := strings.IndexByte(rest, '@')
		if at < 0 {
			return false
		}
		if at > 0 && at+1 < len(rest) && isAddressByte(rest[at-1]) && isAddressByte(rest[at+1]) {
			return true
		}
		rest = rest[at+1:]
	}
}

// namesWord reports whether t holds name (lower-case) as words of its
// own, in any case: "pbem" in "21.11.2026, PBEM пишет:", not in
// "pbemx".
func namesWord(t, name string) bool {
	lower := strings.ToLower(t)
	for from := 0; ; {
		k := strings.Index(lower[from:], name)
		if k < 0 {
			return false
		}
		start, end := from+k, from+k+len(name)
		before, _ := utf8.DecodeLastRuneInString(lower[:start])
		after, _ := utf8.DecodeRuneInString(lower[end:])
		if (start == 0 || !isWordRune(before)) && (end == len(lower) || !isWordRune(after)) {
			return true
		}
		from = start + 1
	}
}

// isWordRune reports a character of a word as words reads them.
func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '_'
	}
	return unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsDigit(r)
}

// continuesHeader reports whether line i goes on with the quote header
// right above it: a line that ends in a colon, where a client wrapped an
// attribution after the address that made it a header ("... pbem
// <game+g42@pbem.example>", then "<game@pbem.example> kirjoitti:").
func continuesHeader(lines []string, i int) bool {
	if i >= len(lines) {
		return false
	}
	t := strings.TrimSpace(lines[i])
	return t != "" && !isQuoted(t) && len(t) <= maxHeaderLine && endsInColon(t) && !hasDate(t)
}
