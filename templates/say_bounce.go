// The sentences of internal/daemon/bounce.go.

package templates

// InviteeBounced is the reason a declined notice gives (it adds how to
// invite others).
func (e Words) InviteeBounced(name, game string) string {
	return e.f("mail to %s bounced, so that address cannot play. To play with a bot in its place: new %s with ADDRESS... and 1 bot.", name, game)
}

func (e Words) AddressBounces(addr string) string {
	return e.f("Mail to %s bounced and it has not written since, so pbem does not invite it: invite another address, or play with a bot in its place (and 1 bot).", addr)
}

func (e Words) PlayerMailBounces(name, playsFor string) string {
	return e.f("Mail to %s bounces, so %s from the next decision on, until %s writes again.", name, playsFor, name)
}

func (e Words) AdminSeatUnreachable() string {
	return e.f("a player's address bounces")
}

func (e Words) GameSeatBounced(gameID int64, kind, player string, seat int, playsTheSeat string) string {
	return e.f("In game %d (%s), mail to %s (seat %d) bounces, so %s until the player writes again.", gameID, kind, player, seat, playsTheSeat)
}
