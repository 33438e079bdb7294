// The sentences of internal/daemon/admin.go.

package templates

import (
	"fmt"
	"strings"
	"time"
)

func (English) AdminNameMissing() string {
	return "an admin act needs the admin's name"
}

func (English) NoSuchGame(gameID int64) string {
	return fmt.Sprintf("there is no game %d", gameID)
}

func (English) GameAsideRetryOrAbort(gameID int64, broken string) string {
	return fmt.Sprintf("game %d is set aside as broken (%s): retry it after the repair, or abort it", gameID, broken)
}

func (English) GameNotSetAside(gameID int64) string {
	return fmt.Sprintf("game %d is not set aside: there is nothing to retry", gameID)
}

func (English) RetryStillFails(gameID int64, what string) string {
	return fmt.Sprintf("game %d still cannot be taken up: %s", gameID, what)
}

func (English) RepairedGameGoesOn() string {
	return "repaired the game: it goes on where it stood, with fresh deadlines."
}

func (English) AdminAbortedBrokenGame() string {
	return "The host ended the game before its end, as it could not be repaired; it takes no more moves."
}

func (English) NoSuchPlayer(gameID int64, who string, players string) string {
	return fmt.Sprintf("game %d has no player %q (players: %s)", gameID, who, players)
}

func (English) ExtendNeedsPositiveDuration() string {
	return "extend by a positive time, such as 24h"
}

func (English) BotHasNoDeadline(name string) string {
	return fmt.Sprintf("%s is pbem's bot, which moves at once and has no deadline", name)
}

func (English) DeadlineExtended(name string, d time.Duration) string {
	return fmt.Sprintf("extended %s's deadline by %s.", name, Say.Duration(d))
}

func (English) GameNotActive(gameID int64, status string) string {
	return fmt.Sprintf("game %d is %s, not active", gameID, status)
}

func (English) AdminMovedForYou(text string) string {
	return fmt.Sprintf("The host made this move for you: %s.", text)
}

func (English) MadeMoveFor(name string) string {
	return fmt.Sprintf("made a move for %s.", name)
}

func (English) CannotTakeBackLastCommand(name string, reason string) string {
	return fmt.Sprintf("%s's last command cannot be taken back: %s", name, reason)
}

func (English) NotMailAddress(address string) string {
	return fmt.Sprintf("%q is not a mail address", address)
}

func (English) CannotSeatBotAddress(address string) string {
	return fmt.Sprintf("%s is a bot seat's address, which no mail reaches; bots are seated only by new", address)
}

func (English) AlreadyPlaysGame(address string, gameID int64) string {
	return fmt.Sprintf("%s already plays in game %d", address, gameID)
}

func (English) BotSeatNowPlayedByPerson(name string) string {
	return fmt.Sprintf("gave %s's seat, pbem's bot's until now, to a person.", name)
}

func (English) SeatMovedToNewAddress(name string) string {
	return fmt.Sprintf("moved %s's seat to another address.", name)
}

func (English) NotPauseResumeOrAbort(action string) string {
	return fmt.Sprintf("%q is not pause, resume or abort", action)
}

func (English) StatusChangeRefused(action string, gameID int64, from string) string {
	return fmt.Sprintf("cannot %s game %d: it is %s", action, gameID, from)
}

func (English) PausedGame() string {
	return "paused the game; moves count again when it resumes."
}

func (English) ResumedGame() string {
	return "resumed the game."
}

func (English) AbortedGame() string {
	return "ended the game before its end; it takes no more moves."
}

// AdminDid announces an admin's act to the players. They read "the
// host", never the admin's login name (the audit keeps that).
func (English) AdminDid(announce string) string {
	return "The host " + announce
}

// WithReason puts an admin's reason at the end of sentence.
func (English) WithReason(sentence string, reason string) string {
	return strings.TrimSuffix(sentence, ".") + " (" + reason + ")."
}

// EndedByHostHeadline heads the mails and pages of a game the host
// ended before its end: "Felix #12: ended by the host".
func (English) EndedByHostHeadline(name string, gameID int64) string {
	return fmt.Sprintf("%s #%d: game over, ended by the host", name, gameID)
}

// EndedByHost is what a mail of a game the host ended says instead of
// whom it waits on.
func (English) EndedByHost() string {
	return "The game is over: the host ended it before its end. Nothing more to send."
}
