package parser

import (
	"strings"
	"unicode/utf8"

	"github.com/pbem/pbem/engine"
)

// MaxSayRunes bounds what one `say` tells the table: a remark across the
// table, not a letter. A longer one is refused whole rather than cut, so
// that the others never read words the sender did not end there.
const MaxSayRunes = 500

// sayWord is the keyword of table talk. It is matched whole (never a
// prefix): prose that begins "sa…" must not become a message to the
// table.
var sayWord = KindSay.String()

// isSay reports whether a trimmed line begins with the word say, or
// one of its German words ("sag").
func isSay(line string) bool {
	tok, ok := firstToken(line)
	return ok && (tok.low == sayWord || isGermanWord(KindSay, tok.low))
}

// sayRest is the line after its first word (say, with any punctuation the
// player put after it: "say: hi").
func sayRest(line string) string {
	i := strings.IndexFunc(line, func(r rune) bool { return r == ' ' || r == '\t' })
	if i < 0 {
		return ""
	}
	return line[i+1:]
}

// sayCommand makes the command `say` from the words after it. The words
// are sanitized as one line (SanitizeText: control, bidi and invisible
// characters dropped, white space, line ends included, folded), so that
// they cannot pass for a line pbem wrote; a Problem names the command,
// never the words, which logs may show; only MaxSayRunes+1 characters
// are looked at, so a huge text costs no more than a short one.
func sayCommand(raw string, lineNo int) (Command, *Problem) {
	said := strings.TrimLeft(SanitizeText(raw, MaxSayRunes+1), ":,-– ")
	switch {
	case said == "":
		return Command{}, problem(ProblemSay, lineNo, sayWord, engine.Msg("write what to tell the other players after \"say\": say TEXT"))
	case utf8.RuneCountInString(said) > MaxSayRunes:
		return Command{}, problem(ProblemSay, lineNo, sayWord,
			engine.Msg("a message to the table has at most %d characters; yours is longer, and nothing of it was sent", MaxSayRunes))
	}
	return Command{Lobby: true, Kind: KindSay, Name: sayWord, Text: sayWord, Said: said, Line: lineNo, Source: sayWord}, nil
}
