// The sentences of internal/daemon/standin.go.

package templates

func (e English) BotPlayedFor(name string) string {
	return e.f("pbem's bot played for %s", name)
}

func (e English) DefaultMoveMadeFor(name string) string {
	return e.f("pbem made the default move for %s", name)
}

func (e English) BotPlayedForYou() string {
	return e.f("pbem's bot played for you")
}

func (e English) DefaultMoveMadeForYou() string {
	return e.f("pbem made the default move for you")
}

func (e English) BotPlaysFor(name string) string {
	return e.f("pbem's bot plays for %s", name)
}

func (e English) DefaultMovesPlayFor(name string) string {
	return e.f("pbem plays %s's seat with the default moves", name)
}

func (e English) BotPlaysForYou() string {
	return e.f("pbem's bot plays for you")
}

func (e English) DefaultMovesPlayForYou() string {
	return e.f("pbem plays your seat with the default moves")
}

func (e English) BotPlaysForThem() string {
	return e.f("pbem's bot plays for them")
}

func (e English) DefaultMovesPlayForThem() string {
	return e.f("pbem makes the default moves for them")
}

func (e English) BotPlaysTheSeat() string {
	return e.f("pbem's bot plays the seat")
}

func (e English) DefaultMovesPlayTheSeat() string {
	return e.f("pbem plays the seat with the default moves")
}

func (e English) BotMovesForYou() string {
	return e.f("pbem's bot moves for you")
}

func (e English) PbemMakesDefaultMoveForYou() string {
	return e.f("pbem makes the default move for you")
}

func (e English) BotFoundNoMove(seat int) string {
	return e.f("pbem's bot found no move for seat %d", seat)
}

func (e English) MoveNamesNoSeat(seq int64) string {
	return e.f("move %d names no seat of the game", seq)
}

func (e English) MoveLogDoesNotReplay() string {
	return e.f("its move log does not replay")
}
