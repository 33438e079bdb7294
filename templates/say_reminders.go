// The sentences of internal/daemon/reminders.go.

package templates

func (e Words) TimePerDecision(turn string, movesFor string) string {
	return e.f("You have %s for each decision; if your time for one runs out, %s.", turn, movesFor)
}

func (e Words) ReminderNotWritten(seat int) string {
	return e.f("the reminder of seat %d could not be written", seat)
}

func (e Words) DeadlineNearReminder(movesFor string) string {
	return e.f("Reminder: the game is waiting for you, and your deadline is near (below). When it passes, %s.", movesFor)
}

func (e Words) LastReminderBeforeDeadline() string {
	return e.f("This is the last reminder before the deadline.")
}

// WeekendsOff follows TimePerDecision in a game with weekends off.
func (e Words) WeekendsOff() string {
	return e.f(" The clocks stop on Saturday and Sunday, each player's in his own time zone.")
}
