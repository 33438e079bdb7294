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
// kind says where its sentences put a name.
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
	return e
}
