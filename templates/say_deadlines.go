// The sentences of internal/daemon/deadlines.go.

package templates

import (
	"fmt"
)

func (English) DeadlineNotHandled(seat int, date string) string {
	return fmt.Sprintf("the deadline of seat %d (%s) could not be handled", seat, date)
}

func (English) StandInMoveRefused(seat int) string {
	return fmt.Sprintf("pbem's move for seat %d is refused by the rules", seat)
}

func (English) DeadlinePassed(name string, movedFor string) string {
	return fmt.Sprintf("%s's deadline passed, so %s.", name, movedFor)
}

func (English) YourDeadlinePassed(movedFor string, text string) string {
	return fmt.Sprintf("Your deadline passed, so %s: %s.", movedFor, text)
}

func (English) PlayerOnAutopilot(name string, missed int, playsFor string) string {
	return fmt.Sprintf("%s missed %d deadlines in a row, so %s, at once, until %s sends a move or back.", name, missed, playsFor, name)
}

func (English) YouAreOnAutopilot(missed int, playsFor string) string {
	return fmt.Sprintf("You missed %d deadlines in a row, so %s, at once, until you send a move or back.", missed, playsFor)
}

func (English) AdminSeatOnAutopilot() string {
	return "a seat is on autopilot"
}

func (English) GameSeatMissedDeadlines(gameID int64, kind string, player string, seat int, missed int, playsTheSeat string) string {
	return fmt.Sprintf("In game %d (%s), %s (seat %d) missed %d deadlines in a row, so %s, at once, until the player sends a move or back.", gameID, kind, player, seat, missed, playsTheSeat)
}
