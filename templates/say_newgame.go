// The sentences of internal/daemon/newgame.go.

package templates

func (e Words) HostedGames(games string) string {
	return e.f("pbem hosts these games: %s.", games)
}

func (e Words) DeadlineOutOfRange(turn string) string {
	return e.f("a game's deadline is between 1 hour and 14 days, not %s.", turn)
}

func (e Words) BotCannotPlayGame(title string) string {
	return e.f("pbem's bot cannot play %s yet: invite people's addresses.", title)
}

func (e Words) NotInvitableAddress(a string) string {
	return e.f("%q is not a mail address pbem writes to.", a)
}

func (e Words) CannotInviteOwnAddress() string {
	return e.f("its own addresses cannot be invited: invite people's addresses.")
}

func (e Words) AndBots(bots int) string {
	return e.f(" and %d bots", bots)
}

func (e Words) PlayerCountWrong(title string, minPlayers int, maxPlayers int, with string, n int, game string) string {
	return e.f("%s is for %d to %d players; with you%s, that was %d. Write: new %s with ADDRESS ADDRESS ... (and N bots)", title, minPlayers, maxPlayers, with, n, game)
}

func (e Words) AddressOptedOut(a string) string {
	return e.f("%s has asked pbem never to invite it to a game.", a)
}

func (e Words) AlreadyInvitedToday(addr string) string {
	return e.f("%s has not answered pbem yet and was invited by you less than a day ago; pbem sends such an address one invitation a day from each inviter.", addr)
}

func (e Words) MailboxAlreadyInvited(addr string) string {
	return e.f("%s reaches the same mailbox as another address you invited to this game, and that mailbox has not answered pbem yet; pbem sends such a mailbox one invitation a day from each inviter.", addr)
}

func (e Words) WeeklyInviteLimitReached(addr string, perWeek int) string {
	return e.f("%s has not answered pbem yet, and pbem sends such an address at most %s a week, from all inviters together; it has had them. You may invite it again in a few days.", addr, e.f("%d invitations", perWeek))
}

func (e Words) InviterDailyLimitReached(perInviter int, addr string) string {
	return e.f("pbem sends at most %s a day from one address to addresses that have not answered it yet, and this game would pass that for you. You may invite %s again tomorrow.", e.f("%d invitations", perInviter), addr)
}

func (e Words) DailyInviteLimitReached(addr string) string {
	return e.f("pbem has sent today all the invitations it sends in a day to addresses that have not answered it yet. You may invite %s again tomorrow.", addr)
}
