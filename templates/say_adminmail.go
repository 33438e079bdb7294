// The sentences of internal/daemon/adminmail.go.

package templates

import (
	"fmt"
)

func (English) PlayerDuration() string {
	return "PLAYER DURATION"
}

func (English) MoveBobDeadlineHours() string {
	return "move bob's deadline 24 hours later"
}

func (English) PlayerCommand() string {
	return "PLAYER COMMAND"
}

func (English) MakeMoveBob() string {
	return "make a move for bob"
}

func (English) PlayerAddress() string {
	return "PLAYER ADDRESS"
}

func (English) GiveBobSeatAnother() string {
	return "give bob's seat to another address"
}

func (English) StopMovesDeadlines() string {
	return "stop moves and deadlines"
}

func (English) StartAgainWithFresh() string {
	return "start again, with fresh deadlines"
}

func (English) EndGameGood() string {
	return "end the game for good"
}

func (English) TakeUpGameSet() string {
	return "take up a game set aside as broken, after the repair"
}

func (English) TakeBackBobLast() string {
	return "take back bob's last command, if nothing was revealed and nobody moved since"
}

func (English) TakeFinishedGameOut() string {
	return "take a finished game out of the ratings; its kind's ratings are computed again without it"
}

func (English) AdminActExample(example string, help string) string {
	return fmt.Sprintf("  e.g. 12 %s: %s", example, help)
}

func (English) WriteGame(form string) string {
	return fmt.Sprintf("write: GAME %s", form)
}

func (English) NotDurationSuchAs(param string) string {
	return fmt.Sprintf("%q is not a duration such as 24h", param)
}

func (English) NotAdminActActs(act string, adminActList string) string {
	return fmt.Sprintf("%q is not an admin act; the acts are %s", act, adminActList)
}

func (English) NotReadWriteGame(line string) string {
	return fmt.Sprintf("%q: not read; write GAME ACT ... (the rest of your mail was ignored)", line)
}

func (English) AdminLineNotDone(line string, why string) string {
	return fmt.Sprintf("%q: not done: %s", line, why)
}

func (English) AdminLineDone(line string) string {
	return fmt.Sprintf("%q: done.", line)
}

func (English) AdminActsOnePer() string {
	return "Admin acts, one per line (GAME is the game's number):"
}

func (English) WhatDone() string {
	return "what was done"
}
