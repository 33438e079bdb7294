package felix

import (
	"slices"

	"github.com/pbem/pbem/engine"
)

// Forced moves (engine.Forcing). The only decision of Felix that the
// table can know to be forced is the last card of round 9. What is public:
// every card placed in a row is turned up before the row leaves the table
// (the winner's row, and a row nobody buys, which is turned up for the
// buy-for-1 choice), so after eight rounds everyone has seen eight of a
// player's cards, and everyone knows he holds exactly one (HandCount is
// public). Which card it is, nobody else can tell: it is one of the two
// cards of his set not yet seen, the other being the card set aside at
// the start. Placing it at once tells the table nothing it did not know:
// that he had no choice was public, and the card goes into the row face
// down, as a card he chose would. It is turned up in its turn, as any.
//
// Every other decision has at least two commands, or has one only for a
// reason that is the seat's secret: a player who cannot afford to raise
// has only `pass` left, and passing for him at once would tell the table
// about his money (docs/felix.md, "No automatic pass"). The buy-for-1
// choice always offers pass, and buy to a player who has a mouse.

var _ engine.Forcing = Rules{}

// PubliclyForced reports whether the public view shows that seat must
// place a card and holds only one.
func (Rules) PubliclyForced(public any, seat int) bool {
	v, ok := public.(View)
	if !ok || v.Phase != Placing.String() || seat < 0 || seat >= len(v.Players) {
		return false
	}
	p := v.Players[seat]
	return !p.Placed && p.HandCount == 1 && slices.Contains(v.Waiting, p.Name)
}
