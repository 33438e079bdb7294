package parser

import (
	"slices"

	"github.com/pbem/pbem/engine"
)

// A Problem's Reason and NotNow are English, as logs, transcripts and
// the corpora read them. Each is made from a message (engine.Message:
// its English format and arguments), which the Problem keeps beside it
// (ToldMessage), so that a player who reads another language is told
// the same in his (templates.Words.Told; issue 39). The formats are the
// keys of the catalogs: Formats lists every one a Problem may give, and
// reasons_test.go checks that no call site makes another.

// notACommand is the reason a line gives that names no command at all.
var notACommand = engine.Msg("this is not a command")

// formats are the formats of the messages the parser makes, in the
// order of the files that make them.
var formats = []string{
	// bots.go
	"%q is not a bot level; the levels are %s",
	`write how many bots, such as "2 bots" or "a bot"`,
	"a game has at most %d bots, not %d",
	"write 1 to %d bots, not %s",
	"a game has at most %d bots, not %s",
	// clock.go
	"a game has either a time per decision (deadline) or a clock, not both",
	"write each player's time bank after \"clock\", between 1 hour and 30 days, then + the time added after each of his moves (at most 7 days) and max the most the bank holds (at most 60 days), such as clock 2d+12h max 5d or clock 3d",
	"a clock starts with between 1 hour and 30 days, not %s",
	"a clock adds at most 7 days after each move, not %s",
	"a clock holds at most 60 days, not %s",
	"a clock's max is at least the time it starts with (%s), not %s",
	// match.go
	"%q is not a %s you can choose now",
	"%q takes nothing after it, not %q",
	"write %q with at most one game",
	"write %q",
	"write one address after %q: %s",
	"%q is not a mail address: %s",
	"%q covers all your games at once: write %q without %q",
	"%q is not one of %s: write %q",
	"%q is not an hour of the day: write it as 0 to 23, such as %s 19",
	"write the new name after %q: %s",
	"a name has at most %d characters, not %d",
	"%q is not a game's name",
	"%q could be %s",
	"%q is not a game; the games are %s",
	"write the game after %q: %s",
	"%s: %s",
	"write the players' email addresses: %s",
	"%q is not an email address: %s",
	"write the time for each decision after \"deadline\", between 1 hour and 14 days, such as 48h, 36 hours, 2d or 3 days",
	"a game's deadline is between 1 hour and 14 days, not %s",
	"%q is not a date: write it as YEAR-MONTH-DAY, such as vacation until 2026-12-24",
	"write %q, such as vacation 5d, vacation 2w or vacation until 2026-12-24",
	"a vacation is 1 to %d days, not %d",
	// quiet.go
	"write the hours your night starts and ends, such as quiet 23-7, or quiet off",
	"quiet hours that start and end at %d:00 are none: %s",
	// read.go and this file
	"no command found in the message",
	"pbem reads at most %d commands from one message",
	"this is too long to be a command",
	"this could mean %s",
	"this is not a command",
	"write %q in full",
	"%q only comes inside %s",
	"%q is not a command",
	"neither %s nor %s is possible now",
	"none of %s is possible now",
	// say.go
	"write what to tell the other players after \"say\": say TEXT",
	"a message to the table has at most %d characters; yours is longer, and nothing of it was sent",
}

// Formats lists the format of every message a Problem may tell
// (ToldMessage), the engine grammar's for a player's mail
// (engine.MailFormats) included, sorted: what a catalog of another
// language translates. The nouns of the games' Choice words
// (engine.Noun) are not among them: each game has its own.
func Formats() []string {
	out := append(slices.Clone(formats), engine.MailFormats()...)
	slices.Sort(out)
	return slices.Compact(out)
}
