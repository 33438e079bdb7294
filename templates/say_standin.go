// The sentences of internal/daemon/standin.go.

package templates

import (
	"fmt"
)

func (English) BotPlayedFor(name string) string {
	return fmt.Sprintf("pbem's bot played for %s", name)
}

func (English) DefaultMoveMadeFor(name string) string {
	return fmt.Sprintf("pbem made the default move for %s", name)
}

func (English) BotPlayedForYou() string {
	return "pbem's bot played for you"
}

func (English) DefaultMoveMadeForYou() string {
	return "pbem made the default move for you"
}

func (English) BotPlaysFor(name string) string {
	return fmt.Sprintf("pbem's bot plays for %s", name)
}

func (English) DefaultMovesPlayFor(name string) string {
	return fmt.Sprintf("pbem plays %s's seat with the default moves", name)
}

func (English) BotPlaysForYou() string {
	return "pbem's bot plays for you"
}

func (English) DefaultMovesPlayForYou() string {
	return "pbem plays your seat with the default moves"
}

func (English) BotPlaysForThem() string {
	return "pbem's bot plays for them"
}

func (English) DefaultMovesPlayForThem() string {
	return "pbem makes the default moves for them"
}

func (English) BotPlaysTheSeat() string {
	return "pbem's bot plays the seat"
}

func (English) DefaultMovesPlayTheSeat() string {
	return "pbem plays the seat with the default moves"
}

func (English) BotMovesForYou() string {
	return "pbem's bot moves for you"
}

func (English) PbemMakesDefaultMoveForYou() string {
	return "pbem makes the default move for you"
}

func (English) BotFoundNoMove(seat int) string {
	return fmt.Sprintf("pbem's bot found no move for seat %d", seat)
}

func (English) MoveNamesNoSeat(seq int64) string {
	return fmt.Sprintf("move %d names no seat of the game", seq)
}

func (English) MoveLogDoesNotReplay() string {
	return "its move log does not replay"
}
