// The sentences of internal/daemon/route.go.

package templates

import (
	"fmt"
)

func (English) NotYourAddress(service string) string {
	return "The address you wrote to is not one of yours: commands count only from the address a game invited, in reply to that game's mail. To start a game, write to " + service + "."
}

func (English) LobbyLimitReached(lobbyPerHour int) string {
	return fmt.Sprintf("pbem reads at most %d commands an hour from one address at its own address; the rest of your mail was not read. Please write again later.", lobbyPerHour)
}

func (English) CommandNeedsGameThread(text string) string {
	return fmt.Sprintf("%q is about a game: reply to the latest mail of that game, so that pbem knows which one you mean.", text)
}

func (English) CouldNotRead(text string, problem string) string {
	return fmt.Sprintf("pbem could not read %q: %s", text, problem)
}

func (English) EarlierCommandsRead(read int) string {
	return fmt.Sprintf("The %d command(s) before it were read; the rest of your mail was ignored.", read)
}

func (English) HostedGamesWithRulesHint(games string, example string) string {
	return fmt.Sprintf("pbem hosts these games: %s. Ask for their rules with: rules %s", games, example)
}

func (English) YourTurn() string {
	return "your turn"
}

func (English) NeverInviteAgain() string {
	return "pbem will not invite you to any game again. If you start a game yourself with new, invitations are welcome again."
}
