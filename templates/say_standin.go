// The sentences of internal/daemon/standin.go.

package templates

import (
	"fmt"
)

func (English) PbemBotPlayed(name string) string {
	return fmt.Sprintf("pbem's bot played for %s", name)
}

func (English) PbemMadeDefaultMove(name string) string {
	return fmt.Sprintf("pbem made the default move for %s", name)
}

func (English) PbemBotPlayedYou() string {
	return "pbem's bot played for you"
}

func (English) PbemMadeDefaultMoveYou() string {
	return "pbem made the default move for you"
}

func (English) PbemBotPlays(name string) string {
	return fmt.Sprintf("pbem's bot plays for %s", name)
}

func (English) PbemPlaysSeatWith(name string) string {
	return fmt.Sprintf("pbem plays %s's seat with the default moves", name)
}

func (English) PbemBotPlaysYou() string {
	return "pbem's bot plays for you"
}

func (English) PbemPlaysSeatWithDefault() string {
	return "pbem plays your seat with the default moves"
}

func (English) PbemBotPlaysThem() string {
	return "pbem's bot plays for them"
}

func (English) PbemMakesDefaultMoves() string {
	return "pbem makes the default moves for them"
}

func (English) PbemBotPlaysSeat() string {
	return "pbem's bot plays the seat"
}

func (English) PbemPlaysSeatWithDefaultMoves() string {
	return "pbem plays the seat with the default moves"
}

func (English) PbemBotMovesYou() string {
	return "pbem's bot moves for you"
}

func (English) PbemMakesDefaultMove() string {
	return "pbem makes the default move for you"
}

func (English) PbemBotFoundNo(seat int) string {
	return fmt.Sprintf("pbem's bot found no move for seat %d", seat)
}

func (English) MoveNamesNoSeat(seq int64) string {
	return fmt.Sprintf("move %d names no seat of the game", seq)
}

func (English) MoveLogDoesNotReplay() string {
	return "its move log does not replay"
}
