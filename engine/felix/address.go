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
// person. Each kind says where its sentences put a name.
func (Rules) Address(e engine.Event, reader string) engine.Event {
	switch e.Kind {
	case "turn":
		if e.Text == reader+" to bid." {
			e.Text = "Your turn to bid."
			return e
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
	return e
}
