// The sentences of internal/daemon/seat.go.

package templates

func (e Words) UnknownGameKind(kind string) string {
	return e.f("it is of a kind this pbem does not know (%q)", kind)
}

func (e Words) SavedStateDoesNotLoad() string {
	return e.f("its saved state does not load")
}

func (e Words) SetUpDoesNotRead() string {
	return e.f("its set-up does not read")
}

func (e Words) SetUpRefusedByRules() string {
	return e.f("its set-up is refused by the rules")
}

func (e Words) MoveLogDoesNotReplayBecause(err error) string {
	return e.f("its move log does not replay: %v", err)
}

func (e Words) NotForGameThread(text string) string {
	return e.f("%q cannot be used in a game's thread.", text)
}

func (e Words) NotApplied(text string, reason string) string {
	return e.f("Not applied: %s: %s.", text, reason)
}

func (e Words) LaterCommandsNotApplied() string {
	return e.f("The commands after it were not applied either.")
}

func (e Words) ResignedCommandsDontCount(playsFor string) string {
	return e.f("you resigned from this game, so your commands no longer count; %s", playsFor)
}

func (e Words) GameNotStartedYet() string {
	return e.f("the game has not started yet")
}

func (e Words) MailIsStale() string {
	return e.f("your mail answers an older mail of this game, and the table has changed since you read it (see below). If you still want it, send the command again as a reply to this mail")
}

func (e Words) StoppedReading(problem string) string {
	return e.f("pbem stopped reading there: %s", problem)
}

func (e Words) StoppedReadingAt(text string, problem string) string {
	return e.f("pbem stopped reading at %q: %s", text, problem)
}

func (e Words) DidYouMean(suggestions []string) string {
	return e.f(" (did you mean %s?)", e.joinOr(suggestions))
}

func (e Words) RestMailIgnored(line string) string {
	return e.f("%s. The rest of your mail was ignored.", line)
}

func (e Words) NotStartedJoinOrDecline() string {
	return e.f("The game has not started: reply join to take part, or decline.")
}

func (e Words) NotStartedWaitingFor(names string) string {
	return e.f("The game has not started: waiting for %s to join.", names)
}

func (e Words) GamePausedByAdmin() string {
	return e.f("The host has paused this game; moves count again when it resumes.")
}

func (e Words) GameOver() string {
	return e.f("This game is over.")
}

func (e Words) GameEndedAs(status string) string {
	return e.f("This game was %s; it takes no more moves.", status)
}

func (e Words) BackCannotUndoResign() string {
	return e.f("You resigned from this game: that is for good, and back does not undo it.")
}

func (e Words) NotAwayNorOnAutopilot() string {
	return e.f("You are not on vacation, and your seat is not on autopilot: you play it yourself.")
}

func (e Words) RematchOnlyWhenOver() string {
	return e.f("rematch starts a new game with the same players once this one is over.")
}

func (e Words) AlreadyJoined() string {
	return e.f("You have already joined this game.")
}

func (e Words) EveryoneJoined() string {
	return e.f("Everyone has joined: the game begins.")
}

func (e Words) DeclineTooLate() string {
	return e.f("This game has already started; decline is only for invitations.")
}

func (e Words) PlayerResigned(name string, playsFor string) string {
	return e.f("%s resigned; %s from now on.", name, playsFor)
}

func (e Words) YouResigned(playsFor string) string {
	return e.f("You have resigned. %s until the game ends; you will get only its final result.", playsFor)
}

func (e Words) PlayerBackFromAutopilot(name string) string {
	return e.f("%s is back and plays %s's seat again: pbem no longer moves for %s.", name, name, name)
}

func (e Words) SeatBackFromAutopilot() string {
	return e.f("a seat is back from autopilot")
}

func (e Words) GameSeatSentCommand(gameID int64, kind string, player string, seat int) string {
	return e.f("In game %d (%s), %s (seat %d) sent a command, so pbem no longer moves for the seat.", gameID, kind, player, seat)
}

func (e Words) WelcomeBackFromAutopilot() string {
	return e.f("Welcome back: your seat is off autopilot, and pbem no longer makes your moves. When the game waits on you, you have a deadline again.")
}

func (e Words) Applied(command string) string {
	return e.f("Applied: %s.", command)
}
