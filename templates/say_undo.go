// The sentences of internal/daemon/undo.go.

package templates

func (e Words) NothingTakenBack(why string) string {
	return e.f("Nothing was taken back: %s", why)
}

func (e Words) NothingTakenBackResigned() string {
	return e.f("Nothing was taken back: you resigned from this game.")
}

func (e Words) UndoAlreadyAsked(when string) string {
	return e.f("You have already asked to take back your last command; the others have until %s to answer.", when)
}

func (e Words) NothingTakenBackUndoPending(name string) string {
	return e.f("Nothing was taken back: %s has asked to take back a move, and the table answers one undo at a time. Answer agree or refuse first.", name)
}

func (e Words) NothingTakenBackBecause(reason string) string {
	return e.f("Nothing was taken back: %s.", reason)
}

func (e Words) MadeAtYourDeadline() string {
	return e.f("pbem made it for you when your deadline passed")
}

func (e Words) MadeByAdmin() string {
	return e.f("the host made it for you")
}

func (e Words) NothingTakenBackNotYours(text string, who string) string {
	return e.f("Nothing was taken back: your last command, %s, was not yours: %s. Only a command you sent yourself can be taken back.", text, who)
}

func (e Words) TakenBackUnseen(text string) string {
	return e.f("Taken back: %s. Nobody else could see anything of it, so nobody was asked.", text)
}

func (e Words) TakenBackNobodyToAsk(text string) string {
	return e.f("Taken back: %s. No other person is left in the game to ask.", text)
}

func (e Words) NothingTakenBackDailyLimit(limit int, when string) string {
	return e.f("Nothing was taken back: you may ask this table to take a move back at most %d times a day, and you have asked it %d times since %s. Ask again later, or play on.", limit, limit, when)
}

func (e Words) UndoAsked(name string, seenText string, names []string) string {
	return e.f("%s asks to take back a move: %s Everyone else, answer agree or refuse: it is taken back when %s all agree within 24 hours, and it stands at the first refuse, at any move the table can see, or when the time is up.", name, e.quoted(seenText), e.joinAnd(names))
}

func (e Words) YouAskedUndo(names []string, text string, when string) string {
	return e.f("You asked %s to let you take back %s. It is taken back when all of them answer agree by %s; a single refuse, or any move the table can see, keeps it.", e.joinAnd(names), text, when)
}

func (e Words) NoUndoToAnswer() string {
	return e.f("Nobody has asked to take a move back in this game: there is nothing to agree to or refuse.")
}

func (e Words) CannotAnswerOwnUndo() string {
	return e.f("It is your own undo: the others answer it.")
}

func (e Words) UndoWithdrawn(proposer string) string {
	return e.f("%s withdrew the undo: the move stands.", proposer)
}

func (e Words) YouWithdrewUndo() string {
	return e.f("You withdrew your undo: your move stands.")
}

func (e Words) ResignedCannotAnswerUndo(proposer string) string {
	return e.f("You resigned from this game, so %s's undo is for the others to answer.", proposer)
}

func (e Words) UndoRefused(name string, proposer string) string {
	return e.f("%s refused the undo %s asked for: the move stands.", name, proposer)
}

func (e Words) YouRefusedUndo(proposer string) string {
	return e.f("You refused: %s's move stands.", proposer)
}

func (e Words) YouAgreedUndo(proposer string, missing []string, when string) string {
	return e.f("You agreed to take back %s's move. It still needs the agreement of %s, by %s.", proposer, e.joinAnd(missing), when)
}

func (e Words) YouAgreedMoveTakenBack(proposer string) string {
	return e.f("You agreed, and so has everyone: %s's move is taken back.", proposer)
}

func (e Words) UndoNotPossible(proposer string, why error) string {
	return e.f("The move %s asked to take back stands: %s.", proposer, why)
}

func (e Words) NothingTakenBackMovedOn(why error) string {
	return e.f("Nothing was taken back: %s.", why)
}

func (e Words) YourCommandTakenBack(text string) string {
	return e.f("Your command %s is taken back: it is as if you had not sent it.", e.quoted(text))
}

func (e Words) AsEveryoneAgreed() string {
	return e.f("as everyone agreed")
}

func (e Words) ByAdmin() string {
	return e.f("by the host")
}

func (e Words) MoveTakenBack(name string, why string, seenText string) string {
	return e.f("%s's move is taken back, %s: %s", name, why, e.quoted(seenText))
}

func (e Words) UndoLapsedByMove(proposer string, mover string) string {
	return e.f("The undo %s asked for has lapsed: %s has moved since, so the move stands.", proposer, mover)
}

func (e Words) UndoLapsedByTime(name string) string {
	return e.f("The undo %s asked for has lapsed after 24 hours, so the move stands.", name)
}

func (e Words) UndoLapsedUnanswered(name string, silent []string) string {
	return e.f("The undo %s asked for has lapsed: not everyone answered within 24 hours (%s did not), so the move stands.", name, e.joinAnd(silent))
}

func (e Words) YourUndoPending(missing []string, until string) string {
	return e.f("You asked to take back your last command; still to agree: %s, by %s.", e.joinAnd(missing), until)
}

func (e Words) UndoAwaitsYourAnswer(name string, until string, missing []string) string {
	return e.f("%s asks to take back a move: answer agree or refuse by %s (still to agree: %s).", name, until, e.joinAnd(missing))
}

func (e Words) UndoAwaitsOthers(name string, missing []string, until string) string {
	return e.f("%s asks to take back a move; still to agree: %s, by %s.", name, e.joinAnd(missing), until)
}
