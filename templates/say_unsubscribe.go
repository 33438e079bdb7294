// The sentences of internal/daemon/unsubscribe.go: the pages of a mail's
// one-click unsubscribe address (RFC 8058).

package templates

func (English) UnsubscribeTitle() string {
	return "Turn off pbem's game mail"
}

// UnsubscribeAsk says what the button does, before it is pressed: the
// same as the command `notify off` from the address the mail went to.
func (English) UnsubscribeAsk() string {
	return "The button below turns off pbem's game mail to the address this mail went to, in all of its games, as the command `notify off` does. Opening this page changed nothing."
}

// UnsubscribeEffect says what game mail off means, in the words of
// NotifyOffSet and docs/playing.md.
func (English) UnsubscribeEffect() string {
	return "That address then gets mail only in answer to its own mail, the last reminder before a deadline, pokes from the other players, and the end of a game. Its seats stay its own. To have the game mail again, send `notify normal` in a game's thread."
}

func (English) UnsubscribeButton() string {
	return "Turn game mail off"
}

func (English) UnsubscribeDone() string {
	return "Done: pbem's game mail to the address this mail went to is off, in all of its games."
}
