package engine

import (
	"fmt"
	"strings"
)

// Command is one command in canonical form. It is plain data: games switch
// on Name and read Args; Text is what transcripts and mails show.
type Command struct {
	Name string   `json:"name"` // the Spec's name
	Args []string `json:"args"` // canonical argument values, in the Spec's order
	Text string   `json:"text"` // canonical text, e.g. "take 2 keep red give bob"
}

func (c Command) String() string { return c.Text }

// ArgKind is the type of an argument slot.
type ArgKind int

const (
	// Literal is not an argument but a fixed keyword of the command.
	Literal ArgKind = iota
	// Number is a whole number written in digits.
	Number
	// Choice is one of a fixed set of values, each with aliases.
	Choice
	// Player is one of the game's player names, matched case-insensitively
	// and by unique prefix.
	Player
)

// Word is one element of a command's pattern: a keyword or an argument.
type Word struct {
	Kind    ArgKind
	Text    string      // the keyword itself, or the argument's name in help ("N", "CARD")
	Choices []ChoiceVal // for Choice
	// Also are other spellings of a keyword, in other languages ("biete"
	// for "bid"): read as the keyword when written whole (Fold makes
	// "zurück" and "zurueck" one), never as a prefix, and never written:
	// a command's text, usage and help use Text.
	Also []string
}

// ChoiceVal is one value of a Choice argument and the other ways to write
// it. An alias may have several words ("large dog").
type ChoiceVal struct {
	Value   string
	Aliases []string
}

// Spec describes one command of a game: its pattern and a line of help.
type Spec struct {
	Name  string
	Words []Word
	Help  string
	// Also are other patterns of the same command, in other languages,
	// whose words differ in more than spelling ("biete bis 9" for "bid
	// up to 9"): each has the arguments of Words, in the same order. They
	// are read only; Make, Usage and help use Words. Their keywords are
	// read whole, like a Word's Also.
	Also [][]Word
}

// Kw is a keyword word; also are its spellings in other languages
// (Word.Also).
func Kw(s string, also ...string) Word { return Word{Kind: Literal, Text: s, Also: also} }

// NumArg is a number argument named name in help.
func NumArg(name string) Word { return Word{Kind: Number, Text: name} }

// PlayerArg is a player argument named name in help.
func PlayerArg(name string) Word { return Word{Kind: Player, Text: name} }

// ChoiceArg is a choice argument named name in help.
func ChoiceArg(name string, vals ...ChoiceVal) Word {
	return Word{Kind: Choice, Text: name, Choices: vals}
}

// Usage is the pattern for help: "take T keep COLOUR give PLAYER".
func (s Spec) Usage() string {
	parts := make([]string, len(s.Words))
	for i, w := range s.Words {
		parts[i] = w.Text
	}
	return strings.Join(parts, " ")
}

// Make builds a command of this spec from canonical argument values, one
// per argument slot. It does not check them against the rules: that is
// Game.Apply's job.
func (s Spec) Make(args ...string) Command {
	parts := make([]string, 0, len(s.Words))
	ai := 0
	for _, w := range s.Words {
		if w.Kind == Literal {
			parts = append(parts, w.Text)
			continue
		}
		if ai < len(args) {
			parts = append(parts, args[ai])
		} else {
			parts = append(parts, w.Text)
		}
		ai++
	}
	a := append([]string(nil), args...)
	return Command{Name: s.Name, Args: a, Text: strings.Join(parts, " ")}
}

// Format shows this spec with each argument slot replaced by the given
// text, which may be a set of values ("bid 5..12", "keep red|blue give
// alice|bob"). Missing texts leave the slot's name.
func (s Spec) Format(args ...string) string { return s.Make(args...).Text }

// FindSpec returns the spec named name.
func FindSpec(specs []Spec, name string) (Spec, bool) {
	for _, s := range specs {
		if s.Name == name {
			return s, true
		}
	}
	return Spec{}, false
}

// ParseError explains why a text is not a command.
type ParseError struct {
	Input  string
	Reason string
}

func (e *ParseError) Error() string { return fmt.Sprintf("%q: %s", e.Input, e.Reason) }

// ParseCommand reads one command of the language specs from text. Case
// never matters; keywords and word-like values may be shortened to a
// unique prefix of at least two letters; player names match by unique
// prefix. players is the game's player names, for Player arguments. It is
// the strict configuration of Match: no word is skipped, numbers are
// digits.
func ParseCommand(specs []Spec, players []string, text string) (Command, error) {
	toks := Tokens(strings.ToLower(text))
	if len(toks) == 0 {
		return Command{}, &ParseError{Input: text, Reason: "no command"}
	}
	found, why := Match(specs, players, toks, MatchOptions{})
	switch {
	case len(found) == 1:
		return found[0], nil
	case len(found) > 1:
		texts := make([]string, len(found))
		for i, c := range found {
			texts[i] = c.Text
		}
		return Command{}, &ParseError{Input: text, Reason: "ambiguous: it could mean " + strings.Join(texts, " or ")}
	case why.Kind != NoFailure:
		return Command{}, &ParseError{Input: text, Reason: why.Reason}
	default:
		return Command{}, &ParseError{Input: text, Reason: "not a command; commands are: " + usages(specs)}
	}
}

func usages(specs []Spec) string {
	seen := map[string]bool{}
	var out []string
	for _, s := range specs {
		u := s.Usage()
		if !seen[u] {
			seen[u] = true
			out = append(out, u)
		}
	}
	return strings.Join(out, ", ")
}
