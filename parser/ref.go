package parser

import "strings"

// A one-tap link in the HTML part of a game mail (a mailto: URL) writes a
// fresh mail: most mail programs give it no In-Reply-To, so nothing in
// the header says which of pbem's mails the tap came from. The link's
// body therefore carries, below the command, a line
//
//	pbem ref: REF
//
// naming that mail, so that the stale-reply rule treats a tap on an old
// mail as it treats a reply to it. The line is metadata: Extract takes
// it out of the player's text (it is never read as a command, and never
// stops the reading) and gives its REF as Message.Ref. The ref is not
// trusted for anything else; the daemon ignores a ref of another seat.

// RefPrefix starts a reference line, in any case.
const RefPrefix = "pbem ref:"

// MaxRefLen bounds a reference: a longer value is no ref of pbem's, and
// its line is dropped without one.
const MaxRefLen = 64

// RefLine is the line that carries ref in a link's body.
func RefLine(ref string) string { return RefPrefix + " " + ref }

// takeRef removes every reference line from a player's own text and
// returns the text without them and the first well-formed reference ("").
// It looks at each line once and compares a bounded prefix, so that any
// number of such lines, or a huge one, costs no more than reading the
// text.
func takeRef(text string) (rest, ref string) {
	if !containsFold(text, RefPrefix) {
		return text, ""
	}
	lines := strings.Split(text, "\n")
	out := lines[:0]
	for _, line := range lines {
		t := strings.TrimSpace(line)
		if len(t) < len(RefPrefix) || !strings.EqualFold(t[:len(RefPrefix)], RefPrefix) {
			out = append(out, line)
			continue
		}
		if v := strings.TrimSpace(t[len(RefPrefix):]); ref == "" && validRef(v) {
			ref = strings.ToLower(v)
		}
	}
	return strings.Join(trimBlank(out), "\n"), ref
}

// validRef reports whether v may be a reference: letters and digits,
// at most MaxRefLen of them. pbem's own are shorter (see the daemon's
// refOf); the rest is up to the daemon, which looks the ref up.
func validRef(v string) bool {
	if v == "" || len(v) > MaxRefLen {
		return false
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// containsFold reports whether s contains the ASCII word sub in any case,
// without copying s.
func containsFold(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(sub)], sub) {
			return true
		}
	}
	return false
}
