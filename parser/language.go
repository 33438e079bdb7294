package parser

import (
	"strings"
	"unicode"

	"github.com/pbem/pbem/engine"
)

// The languages pbem writes in, as the BCP 47 tags the store keeps and
// LanguageOf returns.
const (
	LangEnglish = "en"
	LangGerman  = "de"
)

// LangOfChoice is the tag of a `language` command's choice ("german" is
// "de"), or "" for none.
func LangOfChoice(choice string) string {
	switch choice {
	case LanguageEnglish:
		return LangEnglish
	case LanguageGerman:
		return LangGerman
	}
	return ""
}

// LanguageOf says which of pbem's languages a mail shows its writer
// speaks, for the first mail of an address pbem has not met (issue 39):
// German when its Content-Language field is German, when the quote
// under it is introduced in German ("Am 1. Dez. 2026 um 19:36 schrieb
// pbem:", "-------- Ursprüngliche Nachricht --------"), or when his own
// text is (a German command word first on a line, a German greeting or
// sign-off, or more German everyday words than English ones). It returns
// "" when the mail shows no German: pbem then writes English.
//
// It reads the header, the body's lines up to maxLanguageLines and the
// player's own text, so its work is bounded by what Extract already
// bounded.
func LanguageOf(m Message) string {
	if isGermanTag(m.ContentLanguage) || germanQuoteHeader(m.Body) || germanText(m.Text) {
		return LangGerman
	}
	return ""
}

// isGermanTag reports whether a Content-Language field names German
// first: "de", "de-DE", "de-AT, en".
func isGermanTag(field string) bool {
	first, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(field)), ",")
	first = strings.TrimSpace(first)
	return first == "de" || strings.HasPrefix(first, "de-")
}

// maxLanguageLines is how many lines of a body LanguageOf reads for a
// quote header: the header stands right below the player's text.
const maxLanguageLines = 200

// germanQuoteLines are what German mail programs write above a quote
// or a forwarded mail, lower-case (parser/testdata/l10n holds them with
// their sources): an attribution's verb, as a whole word, or a whole
// separator line.
var (
	germanQuoteVerbs = wordSet("schrieb", "schrieben", "geschrieben")
	germanQuoteLines = []string{
		"ursprüngliche nachricht", "weitergeleitete nachricht", "beginn der weitergeleiteten nachricht",
		"von meinem iphone gesendet", "von meinem ipad gesendet", "gesendet von meinem",
	}
)

// germanQuoteHeader reports whether body holds a German attribution or
// separator line.
func germanQuoteHeader(body string) bool {
	for i, line := range strings.SplitN(body, "\n", maxLanguageLines+1) {
		if i == maxLanguageLines {
			break
		}
		t := strings.ToLower(strings.TrimSpace(line))
		if strings.HasPrefix(t, ">") {
			continue // a quoted header is the other writer's
		}
		for _, l := range germanQuoteLines {
			if strings.Contains(t, l) {
				return true
			}
		}
		if strings.HasSuffix(t, ":") {
			for _, w := range strings.FieldsFunc(t, notLetter) {
				if germanQuoteVerbs[w] {
					return true
				}
			}
		}
	}
	return false
}

func notLetter(r rune) bool { return !unicode.IsLetter(r) }

// germanMarkers are words that, in a player's own text, show German on
// their own: greetings, thanks and sign-offs (folded, engine.Fold).
var germanMarkers = wordSet(
	"hallo", "moin", "servus", "gruss", "gruesse", "gruessle", "danke", "dankeschoen", "bitte", "tschuess", "mfg", "lg", "vg",
)

// germanEveryday and englishEveryday are the commonest small words of
// each language, which a line of prose cannot do without; a word in
// both ("in", "so") is in neither.
var (
	germanEveryday  = wordSet("ich", "du", "und", "nicht", "ist", "der", "die", "das", "ein", "eine", "mit", "auf", "fuer", "noch", "auch", "aber", "wir", "ihr", "mal", "jetzt", "dann", "gerne", "gern", "schon", "bin", "habe", "hab", "sehr", "gut", "leider", "heute", "morgen", "spiel", "runde", "zug")
	englishEveryday = wordSet("i", "you", "and", "not", "is", "the", "a", "an", "with", "on", "for", "still", "also", "but", "we", "now", "then", "please", "thanks", "am", "have", "very", "good", "sorry", "today", "tomorrow", "game", "round", "move", "my", "it", "to", "of")
)

// germanCommandWords are the lobby's German command words, folded: the
// words of germanWords, not of their arguments ("details" and "normal"
// are English too).
func germanCommandWords() map[string]bool {
	set := map[string]bool{}
	for _, ws := range germanWords {
		for _, w := range ws {
			set[engine.Fold(w)] = true
		}
	}
	return set
}

// germanText reports whether a player's own text is German: a German
// command word first on a line, a German marker word, or at least two
// German everyday words and more of them than English ones.
func germanText(text string) bool {
	commands := germanCommandWords()
	german, english := 0, 0
	for i, line := range strings.SplitN(text, "\n", maxLanguageLines+1) {
		if i == maxLanguageLines {
			break
		}
		for j, w := range proseWords(line) {
			switch {
			case j == 0 && w.whole && commands[w.word] && !englishEveryday[w.word]:
				return true
			case w.whole && germanMarkers[w.word]:
				return true
			case germanEveryday[w.word]:
				german++
			case englishEveryday[w.word]:
				english++
			}
		}
	}
	return german >= 2 && german > english
}

// proseWord is one word of a line, folded, and whether it stood alone
// between spaces and punctuation.
type proseWord struct {
	word  string
	whole bool // the only word of its field: "LG," but not "yn74vg"
}

// proseWords are the words of a line that a writer wrote as words. An
// address or a link is no prose: "xena-yn74vg@example.test" holds "vg",
// a German sign-off, by chance of a random suffix. And a marker or a
// command counts only when it is a field's one word, so that a token
// like "ab12lg" says nothing either.
func proseWords(line string) []proseWord {
	var words []proseWord
	for _, field := range strings.Fields(engine.Fold(strings.ToLower(line))) {
		if strings.ContainsRune(field, '@') || strings.Contains(field, "://") || strings.HasPrefix(field, "www.") {
			continue
		}
		parts := strings.FieldsFunc(field, notLetter)
		for _, w := range parts {
			words = append(words, proseWord{word: w, whole: len(parts) == 1})
		}
	}
	return words
}
