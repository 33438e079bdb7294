package parser

import "github.com/pbem/pbem/engine"

// ProblemKind names what kind of problem a Problem is, in words that
// hold nothing of the player's: they are what pbem logs and stores
// (Problem.Error). The player's line, the reason in full, the options an
// ambiguous word could be and the suggestions are for the player's own
// answer only (Problem.Explain and the fields): a suggestion is filtered
// by what is legal now, so "did you mean play 15" in a log tells its
// reader that 15 is in the player's hand.
type ProblemKind string

// The kinds of Problem.
const (
	ProblemNoCommand      ProblemKind = "no command found"
	ProblemTooMany        ProblemKind = "too many commands"
	ProblemTooLong        ProblemKind = "line too long"
	ProblemUnknown        ProblemKind = "unknown command"
	ProblemAmbiguous      ProblemKind = "ambiguous command"    // the line reads as several commands
	ProblemAmbiguousWord  ProblemKind = "ambiguous keyword"    // a word is the start of several keywords
	ProblemAbbreviated    ProblemKind = "abbreviated keyword"  // a keyword that must be written in full
	ProblemMisplaced      ProblemKind = "keyword out of place" // a keyword that only comes inside a command
	ProblemExtraWords     ProblemKind = "words after a command"
	ProblemIncomplete     ProblemKind = "incomplete command"
	ProblemNotANumber     ProblemKind = "not a number"
	ProblemUnknownPlayer  ProblemKind = "unknown player"
	ProblemUnknownValue   ProblemKind = "unknown value"   // no card, colour... of the game
	ProblemAmbiguousValue ProblemKind = "ambiguous value" // a word that is several cards, players...
	ProblemBadArgument    ProblemKind = "bad argument"    // what follows a lobby command's keyword
	ProblemSay            ProblemKind = "say refused"     // say with no text, or too long
)

// failureKind is the kind of a failure of the engine's grammar.
func failureKind(k engine.FailureKind) ProblemKind {
	switch k {
	case engine.FailExtra:
		return ProblemExtraWords
	case engine.FailMissing:
		return ProblemIncomplete
	case engine.FailNumber:
		return ProblemNotANumber
	case engine.FailPlayer:
		return ProblemUnknownPlayer
	case engine.FailChoice:
		return ProblemUnknownValue
	case engine.FailAmbiguous:
		return ProblemAmbiguousValue
	}
	return ProblemUnknown
}
