package templates

import (
	"strings"

	"golang.org/x/text/language"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/parser"
)

// Commands in the reader's language (issue 39). A mail names the
// commands its reader may send: in the sentences that tell him what to
// send ("Reply `standings` for the whole table"), on its one-tap buttons
// and in the lists of moves. To a German reader they are written in
// German, as he may send them back: the lobby's from the parser's words
// (parser.GermanCommand), a game's by the game (engine.CommandTranslator).
// Every one reads back through the parser as the same command
// (TestOfferedCommandsReadBack). The usages help lists stay the English
// syntax, with the lobby command's own word beside it.

// isEnglish says that the words are English's: the commands are written
// as the parser's table and the games give them.
func (e Words) isEnglish() bool {
	base, _ := e.language().Base()
	en, _ := language.English.Base()
	return base == en
}

// isGerman says that the words are German's.
func (e Words) isGerman() bool {
	base, _ := e.language().Base()
	de, _ := language.German.Base()
	return base == de
}

// Command writes a lobby command, given as its English text ("notify
// digest", "standings detail"), in the words' language, as the reader
// may send it: "Benachrichtigung Zusammenfassung" to a German reader.
// A language whose command words the parser does not read writes it
// as given.
func (e Words) Command(cmd string) string {
	if e.isGerman() {
		return parser.GermanCommand(cmd)
	}
	return cmd
}

// commandAlias is the lobby command's own word in the words' language,
// for help to show beside its English usage ("help / Hilfe"): "" when it
// is the English one, or usage is no lobby command's.
func (e Words) commandAlias(usage string) string {
	first, _, _ := strings.Cut(usage, " ")
	if _, ok := parser.LobbyCommandOf(first); !ok {
		return ""
	}
	if w, _, _ := strings.Cut(e.Command(first), " "); w != first {
		return w
	}
	return ""
}

// move writes a game's command (an Option's, "play rabbit") in the
// words' language, through the game's engine.CommandTranslator; as the
// game gives it for English, or for a game that translates none.
func (e Words) move(rules engine.Rules, cmd string) string {
	if e.isEnglish() || rules == nil {
		return cmd
	}
	if t, ok := rules.(engine.CommandTranslator); ok {
		return t.CommandIn(cmd, e.f)
	}
	return cmd
}

// title is a game's title in the words' language: the game's catalogs'
// form of its English title ("Felix: Die Katze im Sack"), or the title
// as it is.
func (e Words) title(t string) string {
	if e.isEnglish() || t == "" {
		return t
	}
	return e.T(t)
}

// standingsTitles are tables with each game kind's title in the words'
// language (title).
func (e Words) standingsTitles(tables []StandingsTable) []StandingsTable {
	if e.isEnglish() || len(tables) == 0 {
		return tables
	}
	out := make([]StandingsTable, len(tables))
	for i, t := range tables {
		out[i] = t
		out[i].Title = e.title(t.Title)
	}
	return out
}

// gameLineTitles are lines with each game's title in the words'
// language (title).
func (e Words) gameLineTitles(lines []GameLine) []GameLine {
	if e.isEnglish() || len(lines) == 0 {
		return lines
	}
	out := make([]GameLine, len(lines))
	for i, l := range lines {
		out[i] = l
		out[i].Title = e.title(l.Title)
	}
	return out
}

// usage is a command's usage ("bid N", "new GAME with ADDRESS...") in
// the words' language, as help and an answer's list of commands show
// it: a lobby command's from the catalogs (locales/LANG/usages.toml), a
// game's as the game writes its commands (move); the English one when
// there is none.
func (e Words) usage(rules engine.Rules, u string) string {
	if e.isEnglish() {
		return u
	}
	if _, lobby := parser.LobbyCommandOf(u); lobby && rules == nil {
		return e.f(u)
	}
	return e.move(rules, u)
}
