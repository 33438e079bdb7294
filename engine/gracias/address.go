package gracias

import (
	"strings"

	"github.com/pbem/pbem/engine"
)

// verbs are the verbs Gracias's events put after a player's name.
var verbs = engine.Verbs{
	"keeps": "keep", "gives": "give", "chooses": "choose", "holds": "hold",
	"shuffles": "shuffle", "deals": "deal", "lays": "lay", "has": "have",
	"discards": "discard", "wins": "win", "takes": "take", "is": "are",
}

// Address writes an event for the player named reader (engine.Addresser):
// his own keeping and giving, his turn, his cards shown and scored in
// the second person, and a card given to him as given "to you". Each
// kind says where its sentences put a name. Its phrase (Event.Say) is
// written so too: its key's you-form (yous, leads), without the argument
// that names him.
func (Rules) Address(e engine.Event, reader string) engine.Event {
	switch e.Kind {
	case "keep":
		e.Text, _ = engine.YouFirst(e.Text, reader, verbs)
		e.Text = strings.Replace(e.Text, " to "+reader+". Gracias!", " to you. Gracias!", 1)
	case "turn", "winner":
		e.Text, _ = engine.YouFirst(e.Text, reader, verbs)
		// "bob wins: several players have 40 points, and bob is ahead ..."
		e.Text = strings.Replace(e.Text, ", and "+reader+" is ahead", ", and you are ahead", 1)
	case "setup":
		e.Text, _ = engine.YouAfter(e.Text, ". ", reader, verbs)
	case "session", "round":
		e.Text, _ = engine.YouAfter(e.Text, ": ", reader, verbs)
	case "colour":
		// "Red: nobody has a face-up red card." names nobody, whatever
		// the players are called.
		if !strings.Contains(e.Text, ": nobody has a face-up") {
			e.Text, _ = engine.YouAfter(e.Text, ": ", reader, verbs)
		}
	case "reveal":
		// "bob's face-down cards are red: with them bob has ..."
		if t, ok := engine.YouFirst(e.Text, reader, verbs); ok {
			e.Text, _ = engine.YouAfter(t, ": with them ", reader, verbs)
		}
	}
	e.Say = addressSay(e.Say, reader)
	return e
}

// addressSay is an event's phrase as the player named reader reads it.
func addressSay(say *engine.Phrase, reader string) *engine.Phrase {
	if say == nil {
		return nil
	}
	if l, ok := leads[say.Key]; ok {
		rest, ok := say.LeadingName(l.list, reader)
		if !ok {
			return say
		}
		key := l.more
		if len(rest.Args) == 1 {
			key = l.two
		}
		p := engine.Phrase{Key: key, Args: append([]engine.Arg(nil), say.Args...)}
		p.Args[l.list] = engine.ArgOf(rest)
		return &p
	}
	out, _ := yous.Address(say, reader)
	return out
}

// The sentences whose argument is a list of players that may start with
// the reader (leads).
const (
	shareEqualKey = "%s share the win: their totals, best sessions and second-best sessions are all equal."
	shareWithKey  = "%s share the win with %s each, equal in their best and second-best sessions too."
	tieKey        = "%s: %s tie (%d face up each) and discard them."
)

// lead is the you-forms of a sentence whose argument list is a list of
// players ("alice, bob and carol tie"): the list without the reader,
// after "you and" (two) when one other is left, after "you," (more) when
// more are ("you, bob and carol tie").
type lead struct {
	list      int
	two, more string
}

var leads = map[string]lead{
	shareEqualKey: {0, "You and %s share the win: their totals, best sessions and second-best sessions are all equal.",
		"You, %s share the win: their totals, best sessions and second-best sessions are all equal."},
	shareWithKey: {0, "You and %s share the win with %s each, equal in their best and second-best sessions too.",
		"You, %s share the win with %s each, equal in their best and second-best sessions too."},
	tieKey: {1, "%s: you and %s tie (%d face up each) and discard them.", "%s: you, %s tie (%d face up each) and discard them."},
}

// yous are the other sentences of the log that name a player, with their
// forms for him.
var yous = engine.Yous{
	"%s keeps %s and gives %s to %s. Gracias!": {
		{Key: "You keep %s and give %s to %s. Gracias!", Names: []int{0}},
		{Key: "%s keeps %s and gives %s to you. Gracias!", Names: []int{3}},
	},
	"%s chooses next.": {{Key: "You choose next.", Names: []int{0}}},
	"%s wins with %s.": {{Key: "You win with %s.", Names: []int{0}}},
	"%s wins: several players have %s, and %s is ahead on the best, then the second-best session.": {
		{Key: "You win: several players have %s, and you are ahead on the best, then the second-best session.", Names: []int{0, 2}}},
	"Gracias for %s: three sessions of four rounds. %s holds both start cards.": {
		{Key: "Gracias for %s: three sessions of four rounds. You hold both start cards.", Names: []int{1}}},
	"Session %d of %d: %s holds both start cards, shuffles all %d cards and deals two face up to each player: %s.": {
		{Key: "Session %d of %d: you hold both start cards, shuffle all %d cards and deal two face up to each player: %s.", Names: []int{2}}},
	// "chooses" stays as the text has it: the text's second person ends
	// at the first colon, which the triplets' list holds ("(1: red and
	// blue; ...)").
	"Session %d, round %d of %d: %s, with the small start card, lays out %d triplets, each with a card face down (%s), and chooses first.": {
		{Key: "Session %d, round %d of %d: you, with the small start card, lay out %d triplets, each with a card face down (%s), and chooses first.", Names: []int{3}}},
	"%s: %s has the most face up and discards it.":     {{Key: "%s: you have the most face up and discard it.", Names: []int{1}}},
	"%s: %s has the most face up and discards all %d.": {{Key: "%s: you have the most face up and discard all %d.", Names: []int{1}}},
	"%s's face-down cards are %s: with them %s has %s.": {
		{Key: "Your face-down cards are %s: with them you have %s.", Names: []int{0, 2}}},
	"%s's face-down cards are %s: with them %s has %s. Stacked face down: %s.": {
		{Key: "Your face-down cards are %s: with them you have %s. Stacked face down: %s.", Names: []int{0, 2}}},
}
