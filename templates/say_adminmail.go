// The sentences of internal/daemon/adminmail.go.

package templates

import (
	"fmt"
)

func (English) ExtendArgs() string {
	return "PLAYER DURATION"
}

func (English) ExtendHelp() string {
	return "move bob's deadline 24 hours later"
}

func (English) MoveArgs() string {
	return "PLAYER COMMAND"
}

func (English) MoveHelp() string {
	return "make a move for bob"
}

func (English) ReplaceArgs() string {
	return "PLAYER ADDRESS"
}

func (English) ReplaceHelp() string {
	return "give bob's seat to another address"
}

func (English) PauseHelp() string {
	return "stop moves and deadlines"
}

func (English) ResumeHelp() string {
	return "start again, with fresh deadlines"
}

func (English) AbortHelp() string {
	return "end the game for good"
}

func (English) RetryHelp() string {
	return "take up a game set aside as broken, after the repair"
}

func (English) UndoHelp() string {
	return "take back bob's last command, if nothing was revealed and nobody moved since"
}

func (English) UnrateHelp() string {
	return "take a finished game out of the ratings; its kind's ratings are computed again without it"
}

func (English) AdminActExample(example string, help string) string {
	return fmt.Sprintf("  e.g. 12 %s: %s", example, help)
}

func (English) AdminActUsage(form string) string {
	return fmt.Sprintf("write: GAME %s", form)
}

func (English) NotADuration(param string) string {
	return fmt.Sprintf("%q is not a duration such as \"2 days\", \"36 hours\" or 24h", param)
}

func (English) NotAnAdminAct(act string, adminActList string) string {
	return fmt.Sprintf("%q is not an admin act; the acts are %s", act, adminActList)
}

func (English) AdminLineNotRead(line string) string {
	return fmt.Sprintf("%q: not read; write GAME ACT ... (the rest of your mail was ignored)", line)
}

func (English) AdminLineNotDone(line string, why string) string {
	return fmt.Sprintf("%q: not done: %s", line, why)
}

func (English) AdminLineDone(line string) string {
	return fmt.Sprintf("%q: done.", line)
}

func (English) AdminActsHeading() string {
	return "Admin acts, one per line (GAME is the game's number):"
}

func (English) WhatWasDone() string {
	return "what was done"
}
