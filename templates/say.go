package templates

// English is pbem's own words in English: every sentence the daemon
// writes into a mail (an answer's lines, an event a table reads, a
// notice's reason, an admin's report) is one method of it, with the
// facts it states as typed arguments. The daemon calls Say.NoSuchGame(id)
// where it once wrote the sentence out, so that the words of a mail live
// here, beside its templates, and a second language is a second type
// with the same methods (issue 39). Each method is named for what it
// says (NoSuchGame, LobbyLimitReached, UndoLapsedByTime), so that the
// calling code reads as the mail does.
//
// The methods are grouped in files by the daemon file that says them
// (say_undo.go for internal/daemon/undo.go); words.go holds the small
// words they share: lists ("a, b and c"), counts ("1 day", "3 days").
// A game's own words stay in the game's package (engine.Presenter).
//
// strays_test.go fails on a sentence written out in the daemon's code.
type English struct{}

// Say is how the daemon speaks to players and admins.
var Say English
