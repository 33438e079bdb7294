package gracias

import (
	"slices"

	"github.com/pbem/pbem/engine"
)

// Forced moves (engine.Forcing). Every command of Gracias is known to the
// table: which triplets are left, their face-up cards and the opponents
// are public, and the face-down card a player looked at never changes
// what he may do. So the number of legal commands is public, and a seat
// with exactly one would be publicly forced. None ever has one: a take
// offers `take T` beside the one-line `take T keep COLOUR give PLAYER`,
// and every keep may give to any of at least two opponents. The answer is
// computed from the view all the same, so that a rule change that left
// one command would be caught by the property test, not silently asked.

var _ engine.Forcing = Rules{}

// PubliclyForced counts the commands the public view allows seat.
func (Rules) PubliclyForced(public any, seat int) bool {
	v, ok := public.(View)
	if !ok || v.Finished || seat < 0 || seat >= len(v.Players) || !slices.Contains(v.Waiting, v.Players[seat].Name) {
		return false
	}
	return publicCommands(v) == 1
}

// publicCommands is the number of legal commands of the seat the public
// view v waits on.
func publicCommands(v View) int {
	opponents := len(v.Players) - 1
	colours := func(t TripletView) int {
		if t.FaceUp[0] == t.FaceUp[1] {
			return 1
		}
		return 2
	}
	n := 0
	for _, t := range v.Triplets {
		switch {
		case v.Phase == Keeping.String() && t.Taken && t.TakenBy == v.Turn:
			// The triplet the seat took this round, each player taking one.
			return colours(t) * opponents
		case v.Phase == Taking.String() && !t.Taken:
			n += 1 + colours(t)*opponents // take T, and take T keep C give P
		}
	}
	return n
}
