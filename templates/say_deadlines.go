// The sentences of internal/daemon/deadlines.go.

package templates

func (e Words) DeadlineNotHandled(seat int, date string) string {
	return e.f("the deadline of seat %d (%s) could not be handled", seat, date)
}

func (e Words) StandInMoveRefused(seat int) string {
	return e.f("pbem's move for seat %d is refused by the rules", seat)
}

func (e Words) DeadlinePassed(name string, movedFor string) string {
	return e.f("%s's deadline passed, so %s.", name, movedFor)
}

func (e Words) YourDeadlinePassed(movedFor string, text string) string {
	return e.f("Your deadline passed, so %s: %s.", movedFor, text)
}

func (e Words) PlayerOnAutopilot(name string, missed int, playsFor string) string {
	return e.f("%s missed %d deadlines in a row, so %s, at once, until %s sends a move or back.", name, missed, playsFor, name)
}

func (e Words) YouAreOnAutopilot(missed int, playsFor string) string {
	return e.f("You missed %d deadlines in a row, so %s, at once, until you send a move or back.", missed, playsFor)
}

func (e Words) AdminSeatOnAutopilot() string {
	return e.f("a seat is on autopilot")
}

func (e Words) GameSeatMissedDeadlines(gameID int64, kind string, player string, seat int, missed int, playsTheSeat string) string {
	return e.f("In game %d (%s), %s (seat %d) missed %d deadlines in a row, so %s, at once, until the player sends a move or back.", gameID, kind, player, seat, missed, playsTheSeat)
}
