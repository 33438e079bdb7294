package felix

import (
	"strings"

	"github.com/pbem/pbem/engine"
)

// verbs are the verbs Felix's events put after a player's name.
var verbs = engine.Verbs{
	"bids": "bid", "passes": "pass", "takes": "take", "buys": "buy",
	"wins": "win", "keeps": "keep", "puts": "put",
}

// startVerbs are the verbs of "Round 3 of 9: bob is the start player."
var startVerbs = engine.Verbs{"is": "are"}

// Address writes an event for the player named reader (engine.Addresser):
// his own bids, passes, rows won and cards turned up in the second
// person. Each kind says where its sentences put a name. Its phrase
// (Event.Say) is written so too: its key's you-form (yous), without the
// argument that names him.
func (Rules) Address(e engine.Event, reader string) engine.Event {
	switch e.Kind {
	case "turn":
		if e.Text == reader+" to bid." {
			e.Text = "Your turn to bid."
			break
		}
		e.Text, _ = engine.YouAfter(e.Text, ": ", reader, verbs)
	case "round":
		e.Text, _ = engine.YouAfter(e.Text, ": ", reader, startVerbs)
	case "buying":
		// "Everyone but bob passed without a bid. bob may buy the whole row ..."
		if t, ok := engine.YouAfter(e.Text, ". ", reader, verbs); ok {
			e.Text = strings.Replace(t, "Everyone but "+reader+" passed", "Everyone but you passed", 1)
		}
	case "bid", "pass", "buy", "void", "win", "won", "reveal", "winner":
		e.Text, _ = engine.YouFirst(e.Text, reader, verbs)
	}
	e.Say = addressSay(e.Say, reader)
	return e
}

// addressSay is an event's phrase as the player named reader reads it.
func addressSay(say *engine.Phrase, reader string) *engine.Phrase {
	if say != nil && say.Key == shareKey {
		// "alice and bob share the win." is "You and bob share the
		// win." for alice.
		if rest, ok := say.LeadingName(0, reader); ok {
			p := engine.W("You and %s share the win.", rest)
			return &p
		}
		return say
	}
	out, _ := yous.Address(say, reader)
	return out
}

// shareKey is the sentence of a shared win, whose first argument is the
// list of the winners.
const shareKey = "%s share the win."

// yous are the sentences of the log that name a player, with their
// forms for him.
var yous = engine.Yous{
	"%s bids %d.":                          {{Key: "You bid %d.", Names: []int{0}}},
	"%s passes.":                           {{Key: "You pass.", Names: []int{0}}},
	"%s passes, takes back a stake of %d.": {{Key: "You pass, take back a stake of %d.", Names: []int{0}}},
	"%s passes and takes the %d-mouse card with %s.": {{Key: "You pass and take the %d-mouse card with %s.", Names: []int{0}}},
	"%s passes, takes back a stake of %d and takes the %d-mouse card with %s.": {
		{Key: "You pass, take back a stake of %d and take the %d-mouse card with %s.", Names: []int{0}}},
	"%s buys the row for 1 mouse.": {{Key: "You buy the row for 1 mouse.", Names: []int{0}}},
	"%s passes too: nobody takes the row, and its cards go to the box. The next round keeps the same start player, and its mouse cards are not refilled.": {
		{Key: "You pass too: nobody takes the row, and its cards go to the box. The next round keeps the same start player, and its mouse cards are not refilled.", Names: []int{0}}},
	"%s wins the row for %d: %s.":          {{Key: "You win the row for %d: %s.", Names: []int{0}}},
	"%s takes nothing home from this row.": {{Key: "You take nothing home from this row.", Names: []int{0}}},
	"%s keeps %s.":                         {{Key: "You keep %s.", Names: []int{0}}},
	"%s's card is turned up: %s.":          {{Key: "Your card is turned up: %s.", Names: []int{0}}},
	"%s to bid.":                           {{Key: "Your turn to bid.", Names: []int{0}}},
	"The auction begins: %s bids first.":   {{Key: "The auction begins: you bid first.", Names: []int{0}}},
	"%s wins.":                             {{Key: "You win.", Names: []int{0}}},
	"Round %d of %d: %s is the start player. Everyone puts one card face down into the row.": {
		{Key: "Round %d of %d: you are the start player. Everyone puts one card face down into the row.", Names: []int{2}}},
	"Everyone but %s passed without a bid. %s may buy the whole row for 1 mouse (buy) or pass, and then the row goes to the box.": {
		{Key: "Everyone but you passed without a bid. You may buy the whole row for 1 mouse (buy) or pass, and then the row goes to the box.", Names: []int{0, 1}}},
}
