package parser

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The lobby's commands as pbem writes them to a German reader (issue
// 39): the words of germanWords, with the capital a German noun takes
// ("Hilfe", "Rangliste") and their umlauts, and the German words of their
// arguments. Read takes every one of them back as the English command
// (TestGermanCommandReadsBack, and the templates' test of every command a
// mail offers).

// germanNounKinds are the lobby commands whose German words are nouns,
// written with a capital (docs/commands.md, "Commands in German"); the
// others' are verbs or particles, written in lower case ("beitreten",
// "zurück"), but for a noun in -ung among them ("Bestätigung").
var germanNounKinds = map[Kind]bool{
	KindHelp: true, KindRules: true, KindGames: true, KindStatus: true, KindNotify: true,
	KindTimezone: true, KindQuiet: true, KindVacation: true, KindAddress: true, KindRematch: true,
	KindHistory: true, KindStandings: true, KindSpectators: true, KindLanguage: true,
}

// GermanWordsOf lists the German words of the lobby command k as a mail
// writes them, the one pbem writes first: a noun with its capital
// ("Hilfe", "Rangliste"), umlauts written ("zurück"). None for a command
// whose German word is its English one (name, link), and for KindMove.
func GermanWordsOf(k Kind) []string {
	var out []string
	for _, w := range germanWords[k] {
		if germanNounKinds[k] || strings.HasSuffix(w, "ung") {
			r, n := utf8.DecodeRuneInString(w)
			w = string(unicode.ToUpper(r)) + w[n:]
		}
		out = append(out, w)
	}
	return out
}

// germanArgsWritten are the German words of lobby commands' arguments as
// a mail writes them, by the English word each is read as: choices
// (germanChoiceWords: "Benachrichtigung Zusammenfassung", "bestätigen
// an") and the words of `new`, `vacation` and `address`
// (germanArgWords: "neu felix mit bob@x.test und ein Bot").
var germanArgsWritten = map[string]string{
	// choices
	"on": "an", "off": "aus", "here": "hier", "all": "alle", "turns": "Züge",
	KindNew.String(): germanWords[KindNew][0], // link's choice: "link neu"
	"digest":         "Zusammenfassung", "detail": "Details",
	LanguageGerman: "deutsch", LanguageEnglish: "englisch",
	// new, vacation, address
	"with": germanWith, "and": "und", "until": germanUntil, "deadline": "Frist", "add": "hinzufügen",
	"a": "ein", "bot": "Bot", "bots": "Bots",
}

// GermanCommand writes a lobby command, given as its English text ("notify
// digest 19", "standings detail", "new felix with bob@x.test and a bot"),
// as pbem writes it to a German reader: "Benachrichtigung Zusammenfassung
// 19", "Rangliste Details", "neu felix mit bob@x.test und ein Bot". Read
// takes it back as the English command. A word with no German form (a
// number, an address, a game, a zone) stays as it is, and so does the
// whole text when its first word names no lobby command (a game's
// command: the game writes its own, engine.CommandTranslator).
func GermanCommand(cmd string) string {
	words := strings.Fields(cmd)
	if len(words) == 0 {
		return cmd
	}
	lc, ok := LobbyCommandOf(words[0])
	if !ok {
		return cmd
	}
	if de := GermanWordsOf(lc.Kind); len(de) > 0 {
		words[0] = de[0]
	}
	c, _ := lobbyByKind(lc.Kind)
	for i := 1; i < len(words); i++ {
		w := strings.ToLower(words[i])
		switch {
		case lc.Kind == KindNew && w == weekendsWord && i+1 < len(words) && strings.EqualFold(words[i+1], offWord):
			// "weekends off" is "Wochenenden frei": its "off" is not a choice's.
			words[i], words[i+1] = "Wochenenden", germanOff
			i++
		case lc.Kind == KindNew && (w == "with" || w == "and" || w == "deadline" || w == "a" || w == "bot" || w == "bots"),
			lc.Kind == KindVacation && w == "until",
			lc.Kind == KindAddress && w == "add",
			(c.arg == choiceArg || c.arg == optArg || c.arg == quietArg) && germanArgsWritten[w] != "":
			if de, ok := germanArgsWritten[w]; ok {
				words[i] = de
			}
		}
	}
	return strings.Join(words, " ")
}

// endsGermanMail reports whether t, a trimmed line of at most
// maxHeaderLine bytes, is the last line of one of pbem's mails to a
// German reader (EndsOwnMail), as the templates' German footers write
// it (templates/locales/de): a game mail's one-line footer, "Jederzeit:
// Hilfe · Stand · Verlauf · Regeln · Benachrichtigung Zusammenfassung"
// (its HTML part's buttons read the same words), or a notice's, "pbem:
// Schicke `Hilfe` für die Befehle, `Partien` für deine Partien." (the
// Service's name first; normalising makes the backquotes straight
// quotes).
func endsGermanMail(t string) bool {
	// Most lines are neither: they are told apart without allocating.
	const game = "jederzeit:"
	if len(t) > len(game) && strings.EqualFold(t[:len(game)], game) {
		words := strings.FieldsFunc(strings.ToLower(t[len(game):]), func(r rune) bool { return !unicode.IsLetter(r) })
		return len(words) >= len(germanFooterWords) && slices.Equal(words[:len(germanFooterWords)], germanFooterWords)
	}
	i := strings.Index(t, ": ")
	const send = "schicke "
	if i <= 0 || i > 61 || unicode.IsSpace(rune(t[0])) || len(t) < i+2+len(send) || !strings.EqualFold(t[i+2:i+2+len(send)], send) {
		return false
	}
	rest := strings.ToLower(unquote.Replace(t[i+2:]))
	return strings.TrimSuffix(rest, ".") == germanNoticeFooter
}

// germanFooterWords are the commands a German game mail's footer starts
// with, after "Jederzeit:": help, status, history, rules.
var germanFooterWords = []string{germanWords[KindHelp][0], germanWords[KindStatus][0], germanWords[KindHistory][0], germanWords[KindRules][0]}

// germanNoticeFooter is a German notice's footer after "pbem: ", lower
// case, without its quotes and its full stop.
var germanNoticeFooter = "schicke " + germanWords[KindHelp][0] + " für die befehle, " + germanWords[KindGames][0] + " für deine partien"

// unquote takes the quotes out of a footer's commands.
var unquote = strings.NewReplacer("`", "", "'", "", "\"", "")
