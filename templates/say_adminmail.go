// The sentences of internal/daemon/adminmail.go.

package templates

func (e Words) ExtendArgs() string {
	return e.f("PLAYER DURATION")
}

func (e Words) ExtendHelp() string {
	return e.f("move bob's deadline 24 hours later")
}

func (e Words) MoveArgs() string {
	return e.f("PLAYER COMMAND")
}

func (e Words) MoveHelp() string {
	return e.f("make a move for bob")
}

func (e Words) ReplaceArgs() string {
	return e.f("PLAYER ADDRESS")
}

func (e Words) ReplaceHelp() string {
	return e.f("give bob's seat to another address")
}

func (e Words) PauseHelp() string {
	return e.f("stop moves and deadlines")
}

func (e Words) ResumeHelp() string {
	return e.f("start again, with fresh deadlines")
}

func (e Words) AbortHelp() string {
	return e.f("end the game for good")
}

func (e Words) RetryHelp() string {
	return e.f("take up a game set aside as broken, after the repair")
}

func (e Words) UndoHelp() string {
	return e.f("take back bob's last command, if nothing was revealed and nobody moved since")
}

func (e Words) UnrateHelp() string {
	return e.f("take a finished game out of the ratings; its kind's ratings are computed again without it")
}

func (e Words) AdminActExample(example string, help string) string {
	return e.f("  e.g. 12 %s: %s", example, help)
}

func (e Words) AdminActUsage(form string) string {
	return e.f("write: GAME %s", form)
}

func (e Words) NotADuration(param string) string {
	return e.f("%q is not a duration such as \"2 days\", \"36 hours\" or 24h", param)
}

func (e Words) NotAnAdminAct(act string, adminActList string) string {
	return e.f("%q is not an admin act; the acts are %s", act, adminActList)
}

func (e Words) AdminLineNotRead(line string) string {
	return e.f("%q: not read; write GAME ACT ... (the rest of your mail was ignored)", line)
}

func (e Words) AdminLineNotDone(line string, why string) string {
	return e.f("%q: not done: %s", line, why)
}

func (e Words) AdminLineDone(line string) string {
	return e.f("%q: done.", line)
}

func (e Words) AdminActsHeading() string {
	return e.f("Admin acts, one per line (GAME is the game's number):")
}

func (e Words) WhatWasDone() string {
	return e.f("what was done")
}
