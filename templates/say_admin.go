// The sentences of internal/daemon/admin.go.

package templates

import (
	"strings"
	"time"
)

func (e Words) AdminNameMissing() string {
	return e.f("an admin act needs the admin's name")
}

func (e Words) NoSuchGame(gameID int64) string {
	return e.f("there is no game %d", gameID)
}

func (e Words) GameAsideRetryOrAbort(gameID int64, broken string) string {
	return e.f("game %d is set aside as broken (%s): retry it after the repair, or abort it", gameID, broken)
}

func (e Words) GameNotSetAside(gameID int64) string {
	return e.f("game %d is not set aside: there is nothing to retry", gameID)
}

func (e Words) RetryStillFails(gameID int64, what string) string {
	return e.f("game %d still cannot be taken up: %s", gameID, what)
}

func (e Words) RepairedGameGoesOn() string {
	return e.f("repaired the game: it goes on where it stood, with fresh deadlines.")
}

func (e Words) AdminAbortedBrokenGame() string {
	return e.f("The host ended the game before its end, as it could not be repaired; it takes no more moves.")
}

func (e Words) NoSuchPlayer(gameID int64, who string, players string) string {
	return e.f("game %d has no player %q (players: %s)", gameID, who, players)
}

func (e Words) ExtendNeedsPositiveDuration() string {
	return e.f("extend by a positive time, such as 24h")
}

func (e Words) BotHasNoDeadline(name string) string {
	return e.f("%s is pbem's bot, which moves at once and has no deadline", name)
}

func (e Words) DeadlineExtended(name string, d time.Duration) string {
	return e.f("extended %s's deadline by %s.", name, e.Duration(d))
}

func (e Words) GameNotActive(gameID int64, status string) string {
	return e.f("game %d is %s, not active", gameID, status)
}

func (e Words) AdminMovedForYou(text string) string {
	return e.f("The host made this move for you: %s.", text)
}

func (e Words) MadeMoveFor(name string) string {
	return e.f("made a move for %s.", name)
}

func (e Words) CannotTakeBackLastCommand(name string, reason string) string {
	return e.f("%s's last command cannot be taken back: %s", name, reason)
}

func (e Words) NotMailAddress(address string) string {
	return e.f("%q is not a mail address", address)
}

func (e Words) CannotSeatBotAddress(address string) string {
	return e.f("%s is a bot seat's address, which no mail reaches; bots are seated only by new", address)
}

func (e Words) AlreadyPlaysGame(address string, gameID int64) string {
	return e.f("%s already plays in game %d", address, gameID)
}

func (e Words) BotSeatNowPlayedByPerson(name string) string {
	return e.f("gave %s's seat, pbem's bot's until now, to a person.", name)
}

func (e Words) SeatMovedToNewAddress(name string) string {
	return e.f("moved %s's seat to another address.", name)
}

func (e Words) NotPauseResumeOrAbort(action string) string {
	return e.f("%q is not pause, resume or abort", action)
}

func (e Words) StatusChangeRefused(action string, gameID int64, from string) string {
	return e.f("cannot %s game %d: it is %s", action, gameID, from)
}

func (e Words) PausedGame() string {
	return e.f("paused the game; moves count again when it resumes.")
}

func (e Words) ResumedGame() string {
	return e.f("resumed the game.")
}

func (e Words) AbortedGame() string {
	return e.f("ended the game before its end; it takes no more moves.")
}

// AdminDid announces an admin's act to the players. They read "the
// host", never the admin's login name (the audit keeps that).
func (e Words) AdminDid(announce string) string {
	return e.f("The host %s", announce)
}

// WithReason puts an admin's reason at the end of sentence.
func (e Words) WithReason(sentence string, reason string) string {
	return e.f("%s (%s).", strings.TrimSuffix(sentence, "."), reason)
}

// EndedByHostHeadline heads the mails and pages of a game the host
// ended before its end: "Felix #12: ended by the host".
func (e Words) EndedByHostHeadline(name string, gameID int64) string {
	return e.f("%s #%d: game over, ended by the host", name, gameID)
}

// EndedByHost is what a mail of a game the host ended says instead of
// whom it waits on.
func (e Words) EndedByHost() string {
	return e.f("The game is over: the host ended it before its end. Nothing more to send.")
}
