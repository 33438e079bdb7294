// The sentences of internal/daemon/unsubscribe.go: the pages of a mail's
// one-click unsubscribe address (RFC 8058).

package templates

func (e Words) UnsubscribeTitle() string {
	return e.f("Turn off pbem's mail about this game")
}

// UnsubscribeAsk says what the button does, before it is pressed: the
// same as the command `notify off here` in the game's thread.
func (e Words) UnsubscribeAsk() string {
	return e.f("The button below turns off pbem's mail about the game of the mail that brought you here, to the address that mail went to, as the command `notify off here` does. Your other games keep your own setting. Opening this page changed nothing.")
}

// UnsubscribeEffect says what a game's mail off means, in the words of
// GameNotifySet and docs/playing.md.
func (e Words) UnsubscribeEffect() string {
	return e.f("About that game you then get mail only in answer to your own mail, the last reminder before a deadline, pokes from the other players, and when it ends. Your seat stays yours. To have its mail again, send `notify normal here` in the game's thread.")
}

func (e Words) UnsubscribeButton() string {
	return e.f("Turn this game's mail off")
}

func (e Words) UnsubscribeDone() string {
	return e.f("Done: pbem's mail about that game, to the address the mail went to, is off.")
}

func (e Words) UnsubscribeInvitationsTitle() string {
	return e.f("Stop pbem's invitations")
}

// UnsubscribeInvitationsAsk says what the button does on an invitation's
// page: the same as the command `never` in its thread.
func (e Words) UnsubscribeInvitationsAsk() string {
	return e.f("The button below declines the invitation that brought you here and stops every invitation to come to the address it went to, as the command `never` does. Opening this page changed nothing.")
}

// UnsubscribeInvitationsEffect says what never means, in the words of
// NeverInviteAgain and docs/commands.md.
func (e Words) UnsubscribeInvitationsEffect() string {
	return e.f("If the game still waits for answers, its other players are told that the invitation was declined. pbem then invites that address to no game, until it starts a game itself with `new`.")
}

func (e Words) UnsubscribeInvitationsButton() string {
	return e.f("Decline and stop invitations")
}

func (e Words) UnsubscribeInvitationsDone() string {
	return e.f("Done: pbem will not invite the address the invitation went to again. If the game still waited for an answer, it is declined and the other players are told.")
}
