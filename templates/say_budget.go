// The sentences of internal/daemon/budget.go.

package templates

func (e Words) Seconds(wait int) string {
	return e.f("%d seconds", wait)
}

func (e Words) LooksLikeAutoResponder() string {
	return e.f("That is what a mail program that answers pbem's mails by itself looks like")
}

func (e Words) AnswersHeld(name string, seconds string) string {
	return e.f("%s is holding its answers to you for about %s", name, seconds)
}

func (e Words) TooManyMailsToOwnAddress(name string, limit int, address string, loop string, seconds string) string {
	return e.f("%s had to answer more than %d of your mails to its own address, %s, within a minute. %s, so it does not answer them until fewer than %d of them have come within the last minute: in about %s if you send nothing more.", name, limit, address, loop, limit, seconds)
}

func (e Words) StillActsOnYourMail(name string, address string) string {
	return e.f("Until then %s still reads your mails to %s and does what they ask, but sends you no answer from that address. Mail to your games' own addresses is counted apart. If you wanted an answer, send your mail again after that.", name, address)
}

func (e Words) GameAnswersHeld(name string, seconds string) string {
	return e.f("%s is holding its answers to you in this game for about %s", name, seconds)
}

func (e Words) TooManyIdleMailsToGame(name string, limit int, loop string, seconds string) string {
	return e.f("%s had to answer more than %d of your mails to this game within a minute that changed nothing in it. %s, so it does not answer such mails until fewer than %d of them have come within the last minute: in about %s if you send nothing more.", name, limit, loop, limit, seconds)
}

func (e Words) MovesStillCount(name string) string {
	return e.f("Your moves still count: %s reads every mail you send to this game, plays the moves in it and sends the game's mails as always. Only a mail that changes nothing gets no answer until then, such as a command that is not legal now, a mail without a command, or help or status. Send it again after that if you want its answer.", name)
}

func (e Words) ToOwnAddress() string {
	return e.f("to pbem's own address")
}

func (e Words) ToGame(gameID int64) string {
	return e.f("to game #%d", gameID)
}

func (e Words) AnswersHeldForAddress(limit int, from string, where string) string {
	return e.f("More than %d mails from %s %s within a minute called for an answer, so pbem holds its answers to that address there until fewer than %d of them have come within the last minute. It still reads that address's mails and plays their moves. It may be a mail loop with an auto-responder that marks its mail in no standard way.", limit, from, where, limit)
}

func (e Words) MailLoopStopped() string {
	return e.f("a mail loop was stopped")
}
