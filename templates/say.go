package templates

import (
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// Words is pbem's own words, in one language: every sentence the daemon
// writes into a mail (an answer's lines, an event a table reads, a
// notice's reason, an admin's report) is one method of it, with the
// facts it states as typed arguments. The daemon calls Say.NoSuchGame(id)
// where it once wrote the sentence out, so that the words of a mail live
// here, beside its templates. Each method prints its sentence through
// the message catalog (catalog.go), keyed by the English format string,
// so that a second language is a catalog (issue 39); In and For give the
// words of a language, and the zero value (Say) is English. Each method is named for what it
// says (NoSuchGame, LobbyLimitReached, UndoLapsedByTime), so that the
// calling code reads as the mail does.
//
// The methods are grouped in files by the daemon file that says them
// (say_undo.go for internal/daemon/undo.go); words.go holds the small
// words they share: lists ("a, b and c"), counts ("1 day", "3 days").
// A game's own words stay in the game's package (engine.Presenter).
//
// strays_test.go fails on a sentence written out in the daemon's code.
type Words struct {
	// p prints the messages; nil prints English (see printer).
	p *message.Printer
	// tag is p's language, for what the catalog cannot choose by
	// itself (an ordinal's form); unset with p.
	tag language.Tag
	// kept keeps the sentences printed, for the renderer's words; nil
	// prints each one every time (sentences).
	kept *sentences
}

// Say is pbem's words in English: how the daemon speaks to admins, and
// to a player whose language it does not know.
var Say Words

// For is pbem's words in the language a player's record names, a BCP
// 47 tag ("de"); English for "" and for a language pbem does not have.
func For(tag string) Words {
	if tag == "" {
		return Say
	}
	if w, ok := packageWords().byName[tag]; ok {
		return w
	}
	t, err := language.Parse(tag)
	if err != nil {
		return Say
	}
	return In(t)
}

// Language is the words' language as a BCP 47 tag, as the store keeps
// it: "en" for English.
func (e Words) Language() string {
	base, _ := e.language().Base()
	return base.String()
}
