// The sentences of internal/daemon/reminders.go.

package templates

import (
	"fmt"
)

func (English) TimePerDecision(turn string, movesFor string) string {
	return "You have " + turn + " for each decision; if your time for one runs out, " + movesFor + "."
}

func (English) ReminderNotWritten(seat int) string {
	return fmt.Sprintf("the reminder of seat %d could not be written", seat)
}

func (English) DeadlineNearReminder(movesFor string) string {
	return "Reminder: the game is waiting for you, and your deadline is near (below). When it passes, " + movesFor + "."
}

func (English) LastReminderBeforeDeadline() string {
	return "This is the last reminder before the deadline."
}

// WeekendsOff follows TimePerDecision in a game with weekends off.
func (English) WeekendsOff() string {
	return " The clocks stop on Saturday and Sunday, each player's in his own time zone."
}
