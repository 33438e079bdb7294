// The sentences of internal/daemon/seat.go.

package templates

import (
	"fmt"
	"strings"
)

func (English) UnknownGameKind(kind string) string {
	return fmt.Sprintf("it is of a kind this pbem does not know (%q)", kind)
}

func (English) SavedStateDoesNotLoad() string {
	return "its saved state does not load"
}

func (English) SetUpDoesNotRead() string {
	return "its set-up does not read"
}

func (English) SetUpRefusedByRules() string {
	return "its set-up is refused by the rules"
}

func (English) MoveLogDoesNotReplayBecause(err error) string {
	return fmt.Sprintf("its move log does not replay: %v", err)
}

func (English) NotForGameThread(text string) string {
	return fmt.Sprintf("%q cannot be used in a game's thread.", text)
}

func (English) NotApplied(text string, reason string) string {
	return fmt.Sprintf("Not applied: %s: %s.", text, reason)
}

func (English) LaterCommandsNotApplied() string {
	return "The commands after it were not applied either."
}

func (English) ResignedCommandsDontCount(playsFor string) string {
	return "you resigned from this game, so your commands no longer count; " + playsFor
}

func (English) GameNotStartedYet() string {
	return "the game has not started yet"
}

func (English) MailIsStale() string {
	return "your mail answers an older mail of this game, and the table has changed since you read it (see below). If you still want it, send the command again as a reply to this mail"
}

func (English) StoppedReading(problem string) string {
	return "pbem stopped reading there: " + problem
}

func (English) StoppedReadingAt(text string, problem string) string {
	return fmt.Sprintf("pbem stopped reading at %q: %s", text, problem)
}

func (English) DidYouMean(suggestions []string) string {
	return fmt.Sprintf(" (did you mean %s?)", strings.Join(suggestions, " or "))
}

func (English) RestMailIgnored(line string) string {
	return line + ". The rest of your mail was ignored."
}

func (English) NotStartedJoinOrDecline() string {
	return "The game has not started: reply join to take part, or decline."
}

func (English) NotStartedWaitingFor(names string) string {
	return "The game has not started: waiting for " + names + " to join."
}

func (English) GamePausedByAdmin() string {
	return "The host has paused this game; moves count again when it resumes."
}

func (English) GameOver() string {
	return "This game is over."
}

func (English) GameEndedAs(status string) string {
	return "This game was " + status + "; it takes no more moves."
}

func (English) BackCannotUndoResign() string {
	return "You resigned from this game: that is for good, and back does not undo it."
}

func (English) NotAwayNorOnAutopilot() string {
	return "You are not on vacation, and your seat is not on autopilot: you play it yourself."
}

func (English) RematchOnlyWhenOver() string {
	return "rematch starts a new game with the same players once this one is over."
}

func (English) AlreadyJoined() string {
	return "You have already joined this game."
}

func (English) EveryoneJoined() string {
	return "Everyone has joined: the game begins."
}

func (English) DeclineTooLate() string {
	return "This game has already started; decline is only for invitations."
}

func (English) PlayerResigned(name string, playsFor string) string {
	return fmt.Sprintf("%s resigned; %s from now on.", name, playsFor)
}

func (English) YouResigned(playsFor string) string {
	return fmt.Sprintf("You have resigned. %s until the game ends; you will get only its final result.", playsFor)
}

func (English) PlayerBackFromAutopilot(name string) string {
	return fmt.Sprintf("%s is back and plays %s's seat again: pbem no longer moves for %s.", name, name, name)
}

func (English) SeatBackFromAutopilot() string {
	return "a seat is back from autopilot"
}

func (English) GameSeatSentCommand(gameID int64, kind string, player string, seat int) string {
	return fmt.Sprintf("In game %d (%s), %s (seat %d) sent a command, so pbem no longer moves for the seat.", gameID, kind, player, seat)
}

func (English) WelcomeBackFromAutopilot() string {
	return "Welcome back: your seat is off autopilot, and pbem no longer makes your moves. When the game waits on you, you have a deadline again."
}

func (English) Applied(command string) string {
	return "Applied: " + command + "."
}
