// The sentences of internal/daemon/seat.go.

package templates

func (e English) UnknownGameKind(kind string) string {
	return e.f("it is of a kind this pbem does not know (%q)", kind)
}

func (e English) SavedStateDoesNotLoad() string {
	return e.f("its saved state does not load")
}

func (e English) SetUpDoesNotRead() string {
	return e.f("its set-up does not read")
}

func (e English) SetUpRefusedByRules() string {
	return e.f("its set-up is refused by the rules")
}

func (e English) MoveLogDoesNotReplayBecause(err error) string {
	return e.f("its move log does not replay: %v", err)
}

func (e English) NotForGameThread(text string) string {
	return e.f("%q cannot be used in a game's thread.", text)
}

func (e English) NotApplied(text string, reason string) string {
	return e.f("Not applied: %s: %s.", text, reason)
}

func (e English) LaterCommandsNotApplied() string {
	return e.f("The commands after it were not applied either.")
}

func (e English) ResignedCommandsDontCount(playsFor string) string {
	return e.f("you resigned from this game, so your commands no longer count; %s", playsFor)
}

func (e English) GameNotStartedYet() string {
	return e.f("the game has not started yet")
}

func (e English) MailIsStale() string {
	return e.f("your mail answers an older mail of this game, and the table has changed since you read it (see below). If you still want it, send the command again as a reply to this mail")
}

func (e English) StoppedReading(problem string) string {
	return e.f("pbem stopped reading there: %s", problem)
}

func (e English) StoppedReadingAt(text string, problem string) string {
	return e.f("pbem stopped reading at %q: %s", text, problem)
}

func (e English) DidYouMean(suggestions []string) string {
	return e.f(" (did you mean %s?)", e.joinOr(suggestions))
}

func (e English) RestMailIgnored(line string) string {
	return e.f("%s. The rest of your mail was ignored.", line)
}

func (e English) NotStartedJoinOrDecline() string {
	return e.f("The game has not started: reply join to take part, or decline.")
}

func (e English) NotStartedWaitingFor(names string) string {
	return e.f("The game has not started: waiting for %s to join.", names)
}

func (e English) GamePausedByAdmin() string {
	return e.f("The host has paused this game; moves count again when it resumes.")
}

func (e English) GameOver() string {
	return e.f("This game is over.")
}

func (e English) GameEndedAs(status string) string {
	return e.f("This game was %s; it takes no more moves.", status)
}

func (e English) BackCannotUndoResign() string {
	return e.f("You resigned from this game: that is for good, and back does not undo it.")
}

func (e English) NotAwayNorOnAutopilot() string {
	return e.f("You are not on vacation, and your seat is not on autopilot: you play it yourself.")
}

func (e English) RematchOnlyWhenOver() string {
	return e.f("rematch starts a new game with the same players once this one is over.")
}

func (e English) AlreadyJoined() string {
	return e.f("You have already joined this game.")
}

func (e English) EveryoneJoined() string {
	return e.f("Everyone has joined: the game begins.")
}

func (e English) DeclineTooLate() string {
	return e.f("This game has already started; decline is only for invitations.")
}

func (e English) PlayerResigned(name string, playsFor string) string {
	return e.f("%s resigned; %s from now on.", name, playsFor)
}

func (e English) YouResigned(playsFor string) string {
	return e.f("You have resigned. %s until the game ends; you will get only its final result.", playsFor)
}

func (e English) PlayerBackFromAutopilot(name string) string {
	return e.f("%s is back and plays %s's seat again: pbem no longer moves for %s.", name, name, name)
}

func (e English) SeatBackFromAutopilot() string {
	return e.f("a seat is back from autopilot")
}

func (e English) GameSeatSentCommand(gameID int64, kind string, player string, seat int) string {
	return e.f("In game %d (%s), %s (seat %d) sent a command, so pbem no longer moves for the seat.", gameID, kind, player, seat)
}

func (e English) WelcomeBackFromAutopilot() string {
	return e.f("Welcome back: your seat is off autopilot, and pbem no longer makes your moves. When the game waits on you, you have a deadline again.")
}

func (e English) Applied(command string) string {
	return e.f("Applied: %s.", command)
}
