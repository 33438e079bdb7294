package templates

import (
	"time"

	"github.com/pbem/pbem/engine"
)

// Phrases are the sentences pbem itself writes into a game's log (the
// daemon's and the admin acts' events) as phrases (engine.Phrase), so
// that each player reads them in his language (Words.Event). Each
// method is the phrase of the Words method of the same name: its key is
// the very format string that method passes to e.f, and its English is
// that method's sentence (TestEventPhrasesAreTheirSentences). A part of
// a sentence another method writes is a phrase of its own; names, echoed
// commands and a player's own words stay as written.
var Phrases phrases

type phrases struct{}

// quoted is Words.quoted's phrase.
func (phrases) quoted(p any) engine.Phrase { return engine.W("\"%s\"", p) }

// Stand-ins (say_standin.go).

func (phrases) BotPlayedFor(name string) engine.Phrase {
	return engine.W("pbem's bot played for %s", name)
}
func (phrases) DefaultMoveMadeFor(name string) engine.Phrase {
	return engine.W("pbem made the default move for %s", name)
}
func (phrases) BotPlayedForYou() engine.Phrase { return engine.W("pbem's bot played for you") }
func (phrases) DefaultMoveMadeForYou() engine.Phrase {
	return engine.W("pbem made the default move for you")
}
func (phrases) BotPlaysFor(name string) engine.Phrase {
	return engine.W("pbem's bot plays for %s", name)
}
func (phrases) DefaultMovesPlayFor(name string) engine.Phrase {
	return engine.W("pbem plays %s's seat with the default moves", name)
}
func (phrases) BotPlaysForYou() engine.Phrase { return engine.W("pbem's bot plays for you") }
func (phrases) DefaultMovesPlayForYou() engine.Phrase {
	return engine.W("pbem plays your seat with the default moves")
}

// Deadlines and clocks (say_deadlines.go, say_clock.go).

func (phrases) DeadlinePassed(name string, movedFor engine.Phrase) engine.Phrase {
	return engine.W("%s's deadline passed, so %s.", name, movedFor)
}
func (phrases) YourDeadlinePassed(movedFor engine.Phrase, text string) engine.Phrase {
	return engine.W("Your deadline passed, so %s: %s.", movedFor, text)
}
func (phrases) PlayerOnAutopilot(name string, missed int, playsFor engine.Phrase) engine.Phrase {
	return engine.W("%s missed %d deadlines in a row, so %s, at once, until %s sends a move or back.", name, missed, playsFor, name)
}
func (phrases) YouAreOnAutopilot(missed int, playsFor engine.Phrase) engine.Phrase {
	return engine.W("You missed %d deadlines in a row, so %s, at once, until you send a move or back.", missed, playsFor)
}
func (phrases) PlayerClockRanOut(name string, playsFor engine.Phrase) engine.Phrase {
	return engine.W("%s's clock ran out, so %s until %s sends a move or back.", name, playsFor, name)
}
func (phrases) YourClockRanOut(playsForYou engine.Phrase) engine.Phrase {
	return engine.W("Your clock ran out, so %s until you send a move or back.", playsForYou)
}

// Moves made for a seat (say_settle.go, say_admin.go).

func (phrases) AutopilotMovedForYou(movedFor engine.Phrase, text string) engine.Phrase {
	return engine.W("Your seat is on autopilot, so %s: %s.", movedFor, text)
}
func (phrases) OnlyMoveMadeForYou(text string) engine.Phrase {
	return engine.W("pbem made your only move for you: %s. Everyone could tell you had no other choice, so nobody learns anything from it.", text)
}
func (phrases) AdminMovedForYou(text string) engine.Phrase {
	return engine.W("The host made this move for you: %s.", text)
}

// Undo (say_undo.go). seen is what the table saw of the move: a phrase
// (engine.Join of the seen events' phrases) or its text.

func (p phrases) UndoAsked(name string, seen any, names []string) engine.Phrase {
	return engine.W("%s asks to take back a move: %s Everyone else, answer agree or refuse: it is taken back when %s all agree within 24 hours, and it stands at the first refuse, at any move the table can see, or when the time is up.", name, p.quoted(seen), andOf(names))
}
func (p phrases) YourCommandTakenBack(text string) engine.Phrase {
	return engine.W("Your command %s is taken back: it is as if you had not sent it.", p.quoted(text))
}
func (phrases) AsEveryoneAgreed() engine.Phrase { return engine.W("as everyone agreed") }
func (phrases) ByAdmin() engine.Phrase          { return engine.W("by the host") }
func (p phrases) MoveTakenBack(name string, why engine.Phrase, seen any) engine.Phrase {
	return engine.W("%s's move is taken back, %s: %s", name, why, p.quoted(seen))
}
func (phrases) UndoWithdrawn(proposer string) engine.Phrase {
	return engine.W("%s withdrew the undo: the move stands.", proposer)
}
func (phrases) UndoRefused(name string, proposer string) engine.Phrase {
	return engine.W("%s refused the undo %s asked for: the move stands.", name, proposer)
}

// UndoNotPossible: why is the engine's reason, an English sentence
// (engine.ErrMovedOn) that the catalogs do not translate yet: it is a
// phrase of its own, its key its English.
func (phrases) UndoNotPossible(proposer string, why error) engine.Phrase {
	return engine.W("The move %s asked to take back stands: %s.", proposer, engine.W(why.Error()))
}
func (phrases) UndoLapsedByMove(proposer string, mover string) engine.Phrase {
	return engine.W("The undo %s asked for has lapsed: %s has moved since, so the move stands.", proposer, mover)
}
func (phrases) UndoLapsedByTime(name string) engine.Phrase {
	return engine.W("The undo %s asked for has lapsed after 24 hours, so the move stands.", name)
}
func (phrases) UndoLapsedUnanswered(name string, silent []string) engine.Phrase {
	return engine.W("The undo %s asked for has lapsed: not everyone answered within 24 hours (%s did not), so the move stands.", name, andOf(silent))
}

// The table (say_talk.go, say_names.go, say_seat.go, say_bounce.go,
// say_vacation.go).

func (phrases) Says(name string, said string) engine.Phrase {
	return engine.W("%s says: %s", name, said)
}
func (phrases) PokedYou(name string) engine.Phrase {
	return engine.W("%s poked you: the table is waiting for your move.", name)
}
func (phrases) NowCalled(old string, name string) engine.Phrase {
	return engine.W("%s is now called %s.", old, name)
}
func (phrases) EveryoneJoined() engine.Phrase {
	return engine.W("Everyone has joined: the game begins.")
}
func (phrases) PlayerResigned(name string, playsFor engine.Phrase) engine.Phrase {
	return engine.W("%s resigned; %s from now on.", name, playsFor)
}
func (phrases) PlayerBackFromAutopilot(name string) engine.Phrase {
	return engine.W("%s is back and plays %s's seat again: pbem no longer moves for %s.", name, name, name)
}
func (phrases) PlayerMailBounces(name string, playsFor engine.Phrase) engine.Phrase {
	return engine.W("Mail to %s bounces, so %s from the next decision on, until %s writes again.", name, playsFor, name)
}

// PlayerAway: until is written in its own zone, in ClockLayout's layout.
func (phrases) PlayerAway(name string, until time.Time) engine.Phrase {
	return engine.W("%s is away until %s; his deadlines wait for him.", name, engine.TimeOf(until, "Mon 2 Jan 15:04 MST"))
}
func (phrases) PlayerBackFromVacation(name string) engine.Phrase {
	return engine.W("%s is back from vacation; his deadlines run again.", name)
}

// The host's acts (say_admin.go, say_ratings.go): AdminDid's argument.

func (phrases) AdminDid(announce engine.Phrase) engine.Phrase {
	return engine.W("The host %s", announce)
}
func (phrases) RepairedGameGoesOn() engine.Phrase {
	return engine.W("repaired the game: it goes on where it stood, with fresh deadlines.")
}
func (p phrases) DeadlineExtended(name string, d time.Duration) engine.Phrase {
	return engine.W("extended %s's deadline by %s.", name, p.Duration(d))
}
func (phrases) MadeMoveFor(name string) engine.Phrase { return engine.W("made a move for %s.", name) }
func (phrases) BotSeatNowPlayedByPerson(name string) engine.Phrase {
	return engine.W("gave %s's seat, pbem's bot's until now, to a person.", name)
}
func (phrases) SeatMovedToNewAddress(name string) engine.Phrase {
	return engine.W("moved %s's seat to another address.", name)
}
func (phrases) UnratedGame() engine.Phrase { return engine.W("took this game out of the ratings.") }
func (phrases) PausedGame() engine.Phrase {
	return engine.W("paused the game; moves count again when it resumes.")
}
func (phrases) ResumedGame() engine.Phrase { return engine.W("resumed the game.") }
func (phrases) AbortedGame() engine.Phrase {
	return engine.W("ended the game before its end; it takes no more moves.")
}

// andOf is names as a list phrase joined as Words.joinAnd joins them.
func andOf(names []string) engine.Phrase {
	items := make([]any, len(names))
	for i, n := range names {
		items[i] = n
	}
	return engine.And(items...)
}

// Words.Duration's plural keys are declared for Phrase.English
// (engine.EnglishPlural), as pluralMessages has them: the declaration is
// what this value is for.
var _ = func() []string {
	var keys []string
	for _, m := range pluralMessages {
		switch m.key {
		case "%d days", "%d hours", "%d minutes", "%d seconds":
			keys = append(keys, engine.EnglishPlural(m.one, m.key))
		}
	}
	return keys
}()

// Duration is Words.Duration's phrase: the same parts, each a plural
// phrase, joined by spaces.
func (p phrases) Duration(d time.Duration) engine.Phrase {
	if d < 0 {
		return engine.W("minus %s", p.Duration(-d))
	}
	d = d.Truncate(time.Second)
	const day = 24 * time.Hour
	if d > 2*day && d%day == 0 {
		return engine.W("%d days", int(d/day))
	}
	var parts []any
	hours, minutes, seconds := int(d/time.Hour), int(d%time.Hour/time.Minute), int(d%time.Minute/time.Second)
	if d < 2*time.Hour && d%time.Hour != 0 {
		hours, minutes = 0, int(d/time.Minute)
	}
	if hours > 0 {
		parts = append(parts, engine.W("%d hours", hours))
	}
	if minutes > 0 {
		parts = append(parts, engine.W("%d minutes", minutes))
	}
	if seconds > 0 {
		parts = append(parts, engine.W("%d seconds", seconds))
	}
	if len(parts) == 0 {
		return engine.W("%d minutes", 0)
	}
	return engine.Join(" ", parts...)
}
