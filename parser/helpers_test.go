package parser

import (
	"fmt"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/felix"
)

// graciasNouns are Gracias's nouns (gracias.Rules.Nouns), written out
// for the same reason.
var graciasNouns = []string{"triplet", "card", "cards", "colour", "color"}

// graciasSpecs has the shape of Gracias's grammar, built here so that the
// parser is shown to read a game it does not import.
func graciasSpecs() []engine.Spec {
	colour := engine.ChoiceArg("COLOUR",
		engine.ChoiceVal{Value: "red"}, engine.ChoiceVal{Value: "orange"}, engine.ChoiceVal{Value: "yellow"},
		engine.ChoiceVal{Value: "green"}, engine.ChoiceVal{Value: "blue"}, engine.ChoiceVal{Value: "purple"})
	return []engine.Spec{
		{Name: "take", Words: []engine.Word{engine.Kw("take"), engine.NumArg("T")}},
		{Name: "keep", Words: []engine.Word{engine.Kw("keep"), colour, engine.Kw("give"), engine.PlayerArg("PLAYER")}},
		{Name: "takekeep", Words: []engine.Word{engine.Kw("take"), engine.NumArg("T"), engine.Kw("keep"), colour, engine.Kw("give"), engine.PlayerArg("PLAYER")}},
	}
}

var testGames = []string{"felix", "gracias"}

func lobbyLang() Grammar { return Grammar{Games: testGames} }

func felixLang() Grammar {
	return Grammar{Games: testGames, Specs: felix.Rules{}.Specs(), Nouns: felix.Rules{}.Nouns(), Players: []string{"alice", "bob", "carol", "dave"}}
}

func graciasLang() Grammar {
	return Grammar{Games: testGames, Specs: graciasSpecs(), Nouns: graciasNouns, Players: []string{"alice", "bob", "carol"}}
}

// problemText is a problem as the player reads it, on one line: its
// line, the text, the reason and the suggestions (Problem.Error, which
// is logged, names only its kind).
func problemText(p *Problem) string {
	mustTell(p)
	if p.Line == 0 {
		return p.Reason
	}
	s := fmt.Sprintf("line %d, %q: %s", p.Line, p.Text, p.Reason)
	if len(p.DidYouMean) > 0 {
		s += "; did you mean " + quotedOr(p.DidYouMean) + "?"
	}
	return s
}
