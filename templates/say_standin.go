// The sentences of internal/daemon/standin.go.

package templates

func (e Words) BotPlayedFor(name string) string {
	return e.f("pbem's bot played for %s", name)
}

func (e Words) DefaultMoveMadeFor(name string) string {
	return e.f("pbem made the default move for %s", name)
}

func (e Words) BotPlayedForYou() string {
	return e.f("pbem's bot played for you")
}

func (e Words) DefaultMoveMadeForYou() string {
	return e.f("pbem made the default move for you")
}

func (e Words) BotPlaysFor(name string) string {
	return e.f("pbem's bot plays for %s", name)
}

func (e Words) DefaultMovesPlayFor(name string) string {
	return e.f("pbem plays %s's seat with the default moves", name)
}

func (e Words) BotPlaysForYou() string {
	return e.f("pbem's bot plays for you")
}

func (e Words) DefaultMovesPlayForYou() string {
	return e.f("pbem plays your seat with the default moves")
}

func (e Words) BotPlaysForThem() string {
	return e.f("pbem's bot plays for them")
}

func (e Words) DefaultMovesPlayForThem() string {
	return e.f("pbem makes the default moves for them")
}

func (e Words) BotPlaysTheSeat() string {
	return e.f("pbem's bot plays the seat")
}

func (e Words) DefaultMovesPlayTheSeat() string {
	return e.f("pbem plays the seat with the default moves")
}

func (e Words) BotMovesForYou() string {
	return e.f("pbem's bot moves for you")
}

func (e Words) PbemMakesDefaultMoveForYou() string {
	return e.f("pbem makes the default move for you")
}

func (e Words) BotFoundNoMove(seat int) string {
	return e.f("pbem's bot found no move for seat %d", seat)
}

func (e Words) MoveNamesNoSeat(seq int64) string {
	return e.f("move %d names no seat of the game", seq)
}

func (e Words) MoveLogDoesNotReplay() string {
	return e.f("its move log does not replay")
}
