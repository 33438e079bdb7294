package engine

// Forcing is implemented by the Rules of a game that can tell, from what
// every player sees, that a seat has exactly one legal command: the last
// card of a hand whose size everyone knows, say. The service makes such a
// move at once, as it makes a bot's, instead of mailing the player a
// question with one answer (docs/mail.md, "Forced moves").
//
// The answer must rest on public information only. Making a move at once
// tells the table that the seat had no choice; when that rests on
// something only the seat knows (its money, the cards in its hand), the
// timing alone would give it away, so such a seat is not publicly forced
// and is asked as usual. The move itself may still be hidden (a card
// placed face down): what must be public is that there was no choice.
type Forcing interface {
	// PubliclyForced reports whether a game whose public view (the value
	// of Game.View(Public)) is public waits on seat with exactly one legal
	// command. It reads nothing but public.
	PubliclyForced(public any, seat int) bool
}

// ForcedCommand is the command g's rules force on seat when that is
// known from public information (Forcing): its only legal command, and
// ok. ok is false for a game whose rules do not implement Forcing, for a
// seat the game does not wait on, and for a seat with a choice, or whose
// lack of choice only it can know.
func ForcedCommand(g Game, seat int) (text string, ok bool) {
	f, isForcing := g.Rules().(Forcing)
	if !isForcing || !f.PubliclyForced(g.View(Public), seat) {
		return "", false
	}
	var cmds []string
	for _, o := range g.Options(seat) {
		cmds = append(cmds, o.Commands...)
	}
	if len(cmds) != 1 {
		// The rules' public answer disagrees with their own options: no
		// move is made for the seat (the property tests catch this).
		return "", false
	}
	return cmds[0], true
}
