// The sentences of internal/daemon/route.go.

package templates

func (e Words) NotYourAddress(service string) string {
	return e.f("The address you wrote to is not one of yours: commands count only from the address a game invited, in reply to that game's mail. To start a game, write to %s.", service)
}

func (e Words) LobbyLimitReached(lobbyPerHour int) string {
	return e.f("pbem reads at most %d commands an hour from one address at its own address; the rest of your mail was not read. Please write again later.", lobbyPerHour)
}

func (e Words) CommandNeedsGameThread(text string) string {
	return e.f("%q is about a game: reply to the latest mail of that game, so that pbem knows which one you mean.", text)
}

func (e Words) CouldNotRead(text string, problem string) string {
	return e.f("pbem could not read %q: %s", text, problem)
}

func (e Words) EarlierCommandsRead(read int) string {
	return e.f("The %d command(s) before it were read; the rest of your mail was ignored.", read)
}

func (e Words) HostedGamesWithRulesHint(games string, example string) string {
	return e.f("pbem hosts these games: %s. Ask for their rules with: rules %s", games, example)
}

func (e Words) YourTurn() string {
	return e.f("your turn")
}

func (e Words) NeverInviteAgain() string {
	return e.f("pbem will not invite you to any game again. If you start a game yourself with new, invitations are welcome again.")
}

// GameStatus is a game's state as a word, for the list of games and the
// sentences that name it ("This game was aborted"): the store's value,
// in the words' language.
func (e Words) GameStatus(status string) string {
	switch status {
	case "inviting":
		return e.f("inviting")
	case "active":
		return e.f("active")
	case "paused":
		return e.f("paused")
	case "finished":
		return e.f("finished")
	case "aborted":
		return e.f("aborted")
	case "declined":
		return e.f("declined")
	}
	return status
}
