package parser

import (
	"strings"
	"unicode"
)

// This file is what people and their phones put around a command that
// is no part of it: emoji, list markers, and a closed list of filler
// phrases at either end ("I'll bid 7 this time.", "OK, pass").

// isDecoration reports whether r is an emoji or a mark that dresses one:
// pictographs and other symbols (So), the skin-tone modifiers and other
// non-ASCII modifier symbols (Sk), keycap and other enclosing marks (Me),
// variation selectors and the tag characters of flag sequences. ASCII
// symbols ("+", "<", "^") are not: they may be part of a command.
func isDecoration(r rune) bool {
	switch {
	case r < 0x80:
		return false
	case unicode.Is(unicode.So, r), unicode.Is(unicode.Sk, r), unicode.Is(unicode.Me, r):
		return true
	case unicode.Is(unicode.Variation_Selector, r), r >= 0xE0020 && r <= 0xE007F:
		return true
	}
	return false
}

// listMarkerRe matches a list marker at the start of a line: "1.", "2)",
// "(3)", "-", "*", "•" and other bullets, followed by a space. Phones
// and rich-text editors turn lines into lists on their own. A sign stuck
// to a number ("-8", a card) has no space and is no marker.
var listMarkerRe = mustLinePattern(`^(\(?\d{1,2}[.)]|[-*+•·◦‣▪▫●○■□►▸▹➢➤→–])\s{1,8}`)

// withoutListMarker returns a trimmed line without its list marker.
func withoutListMarker(t string) string {
	if m := listMarkerRe.find(t); m != "" && len(m) < len(t) {
		return strings.TrimLeft(t[len(m):], " \t")
	}
	return t
}

// leadingPhrases and trailingPhrases are the filler a person puts before
// or after a whole command, and nowhere else: "OK, bid 7", "pass for
// now", "I'll bid 7 this time", "take 2, thanks". The lists are closed
// on purpose: a word that may change what a command means ("not",
// "don't", "next time", "later", "maybe", "more", "instead", "up to")
// is never in them, so that such a line is refused and explained rather
// than read as something the player did not mean. Single filler words
// anywhere in a command are fillerWords.
var (
	leadingPhrases = [][]string{
		{"ok"}, {"okay"}, {"alright"}, {"so"}, {"well"}, {"hmm"}, {"um"},
	}
	trailingPhrases = [][]string{
		{"this", "time"}, {"this", "round"}, {"this", "turn"}, {"for", "now"},
		{"thanks"}, {"thank", "you"}, {"thx"}, {"cheers"},
	}
)

// withoutEdgeFiller drops leadingPhrases from the start of toks and
// trailingPhrases from its end, looking past single filler words there;
// it reports whether it dropped any.
func (c *compiled) withoutEdgeFiller(toks []token) ([]token, bool) {
	dropped := false
	for {
		i, j := 0, len(toks)
		for i < j && c.filler[toks[i].low] {
			i++
		}
		for j > i && c.filler[toks[j-1].low] {
			j--
		}
		if n := phraseAt(toks[i:j], leadingPhrases, true); n > 0 {
			toks, dropped = toks[i+n:], true
			continue
		}
		if n := phraseAt(toks[i:j], trailingPhrases, false); n > 0 {
			toks, dropped = toks[:j-n], true
			continue
		}
		return toks, dropped
	}
}

// phraseAt returns the length of the phrase of list that toks starts
// with (or, with !start, ends with), or 0. A phrase is never the whole
// of toks: something must be left to read.
func phraseAt(toks []token, list [][]string, start bool) int {
	for _, p := range list {
		if len(p) >= len(toks) {
			continue
		}
		at := 0
		if !start {
			at = len(toks) - len(p)
		}
		ok := true
		for k, w := range p {
			if toks[at+k].low != w {
				ok = false
				break
			}
		}
		if ok {
			return len(p)
		}
	}
	return 0
}
