// The sentences of internal/daemon/unsubscribe.go: the pages of a mail's
// one-click unsubscribe address (RFC 8058).

package templates

func (English) UnsubscribeTitle() string {
	return "Turn off pbem's mail about this game"
}

// UnsubscribeAsk says what the button does, before it is pressed: the
// same as the command `notify off here` in the game's thread.
func (English) UnsubscribeAsk() string {
	return "The button below turns off pbem's mail about the game of the mail that brought you here, to the address that mail went to, as the command `notify off here` does. Your other games keep your own setting. Opening this page changed nothing."
}

// UnsubscribeEffect says what a game's mail off means, in the words of
// GameNotifySet and docs/playing.md.
func (English) UnsubscribeEffect() string {
	return "About that game you then get mail only in answer to your own mail, the last reminder before a deadline, pokes from the other players, and when it ends. Your seat stays yours. To have its mail again, send `notify normal here` in the game's thread."
}

func (English) UnsubscribeButton() string {
	return "Turn this game's mail off"
}

func (English) UnsubscribeDone() string {
	return "Done: pbem's mail about that game, to the address the mail went to, is off."
}

func (English) UnsubscribeInvitationsTitle() string {
	return "Stop pbem's invitations"
}

// UnsubscribeInvitationsAsk says what the button does on an invitation's
// page: the same as the command `never` in its thread.
func (English) UnsubscribeInvitationsAsk() string {
	return "The button below declines the invitation that brought you here and stops every invitation to come to the address it went to, as the command `never` does. Opening this page changed nothing."
}

// UnsubscribeInvitationsEffect says what never means, in the words of
// NeverInviteAgain and docs/commands.md.
func (English) UnsubscribeInvitationsEffect() string {
	return "If the game still waits for answers, its other players are told that the invitation was declined. pbem then invites that address to no game, until it starts a game itself with `new`."
}

func (English) UnsubscribeInvitationsButton() string {
	return "Decline and stop invitations"
}

func (English) UnsubscribeInvitationsDone() string {
	return "Done: pbem will not invite the address the invitation went to again. If the game still waited for an answer, it is declined and the other players are told."
}
