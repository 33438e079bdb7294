// The sentences of internal/daemon/reminders.go.

package templates

func (e English) TimePerDecision(turn string, movesFor string) string {
	return e.f("You have %s for each decision; if your time for one runs out, %s.", turn, movesFor)
}

func (e English) ReminderNotWritten(seat int) string {
	return e.f("the reminder of seat %d could not be written", seat)
}

func (e English) DeadlineNearReminder(movesFor string) string {
	return e.f("Reminder: the game is waiting for you, and your deadline is near (below). When it passes, %s.", movesFor)
}

func (e English) LastReminderBeforeDeadline() string {
	return e.f("This is the last reminder before the deadline.")
}

// WeekendsOff follows TimePerDecision in a game with weekends off.
func (e English) WeekendsOff() string {
	return e.f(" The clocks stop on Saturday and Sunday, each player's in his own time zone.")
}
