// The sentences of internal/daemon/newgame.go.

package templates

import (
	"fmt"
)

func (English) HostedGames(games string) string {
	return fmt.Sprintf("pbem hosts these games: %s.", games)
}

func (English) DeadlineOutOfRange(turn string) string {
	return fmt.Sprintf("a game's deadline is between 1 hour and 14 days, not %s.", turn)
}

func (English) BotCannotPlayGame(title string) string {
	return fmt.Sprintf("pbem's bot cannot play %s yet: invite people's addresses.", title)
}

func (English) NotInvitableAddress(a string) string {
	return fmt.Sprintf("%q is not a mail address pbem writes to.", a)
}

func (English) CannotInviteOwnAddress() string {
	return "its own addresses cannot be invited: invite people's addresses."
}

func (English) AndBots(bots int) string {
	return fmt.Sprintf(" and %s", countNoun(bots, "bot", "bots"))
}

func (English) PlayerCountWrong(title string, minPlayers int, maxPlayers int, with string, n int, game string) string {
	return fmt.Sprintf("%s is for %d to %d players; with you%s, that was %d. Write: new %s with ADDRESS ADDRESS ... (and N bots)", title, minPlayers, maxPlayers, with, n, game)
}

func (English) AddressOptedOut(a string) string {
	return fmt.Sprintf("%s has asked pbem never to invite it to a game.", a)
}

func (English) AlreadyInvitedToday(addr string) string {
	return fmt.Sprintf("%s has not answered pbem yet and was invited by you less than a day ago; pbem sends such an address one invitation a day from each inviter.", addr)
}

func (English) MailboxAlreadyInvited(addr string) string {
	return fmt.Sprintf("%s reaches the same mailbox as another address you invited to this game, and that mailbox has not answered pbem yet; pbem sends such a mailbox one invitation a day from each inviter.", addr)
}

func (English) WeeklyInviteLimitReached(addr string, perWeek int) string {
	return fmt.Sprintf("%s has not answered pbem yet, and pbem sends such an address at most %s a week, from all inviters together; it has had them. You may invite it again in a few days.", addr, countNoun(perWeek, "invitation", "invitations"))
}

func (English) InviterDailyLimitReached(perInviter int, addr string) string {
	return fmt.Sprintf("pbem sends at most %s a day from one address to addresses that have not answered it yet, and this game would pass that for you. You may invite %s again tomorrow.", countNoun(perInviter, "invitation", "invitations"), addr)
}

func (English) DailyInviteLimitReached(addr string) string {
	return fmt.Sprintf("pbem has sent today all the invitations it sends in a day to addresses that have not answered it yet. You may invite %s again tomorrow.", addr)
}
