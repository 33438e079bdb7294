// The sentences of internal/daemon/undo.go.

package templates

import (
	"fmt"
)

func (English) NothingTakenBack(why string) string {
	return "Nothing was taken back: " + why
}

func (English) NothingTakenBackResigned() string {
	return "Nothing was taken back: you resigned from this game."
}

func (English) UndoAlreadyAsked(when string) string {
	return fmt.Sprintf("You have already asked to take back your last command; the others have until %s to answer.", when)
}

func (English) NothingTakenBackUndoPending(name string) string {
	return fmt.Sprintf("Nothing was taken back: %s has asked to take back a move, and the table answers one undo at a time. Answer agree or refuse first.", name)
}

func (English) NothingTakenBackBecause(reason string) string {
	return "Nothing was taken back: " + reason + "."
}

func (English) MadeAtYourDeadline() string {
	return "pbem made it for you when your deadline passed"
}

func (English) MadeByAdmin() string {
	return "the host made it for you"
}

func (English) NothingTakenBackNotYours(text string, who string) string {
	return fmt.Sprintf("Nothing was taken back: your last command, %s, was not yours: %s. Only a command you sent yourself can be taken back.", text, who)
}

func (English) TakenBackUnseen(text string) string {
	return fmt.Sprintf("Taken back: %s. Nobody else could see anything of it, so nobody was asked.", text)
}

func (English) TakenBackNobodyToAsk(text string) string {
	return fmt.Sprintf("Taken back: %s. No other person is left in the game to ask.", text)
}

func (English) NothingTakenBackDailyLimit(limit int, when string) string {
	return fmt.Sprintf("Nothing was taken back: you may ask this table to take a move back at most %d times a day, and you have asked it %d times since %s. Ask again later, or play on.", limit, limit, when)
}

func (English) UndoAsked(name string, seenText string, names []string) string {
	return fmt.Sprintf("%s asks to take back a move: %s Everyone else, answer agree or refuse: it is taken back when %s all agree within 24 hours, and it stands at the first refuse, at any move the table can see, or when the time is up.", name, quoted(seenText), joinAnd(names))
}

func (English) YouAskedUndo(names []string, text string, when string) string {
	return fmt.Sprintf("You asked %s to let you take back %s. It is taken back when all of them answer agree by %s; a single refuse, or any move the table can see, keeps it.", joinAnd(names), text, when)
}

func (English) NoUndoToAnswer() string {
	return "Nobody has asked to take a move back in this game: there is nothing to agree to or refuse."
}

func (English) CannotAnswerOwnUndo() string {
	return "It is your own undo: the others answer it."
}

func (English) UndoWithdrawn(proposer string) string {
	return fmt.Sprintf("%s withdrew the undo: the move stands.", proposer)
}

func (English) YouWithdrewUndo() string {
	return "You withdrew your undo: your move stands."
}

func (English) ResignedCannotAnswerUndo(proposer string) string {
	return fmt.Sprintf("You resigned from this game, so %s's undo is for the others to answer.", proposer)
}

func (English) UndoRefused(name string, proposer string) string {
	return fmt.Sprintf("%s refused the undo %s asked for: the move stands.", name, proposer)
}

func (English) YouRefusedUndo(proposer string) string {
	return fmt.Sprintf("You refused: %s's move stands.", proposer)
}

func (English) YouAgreedUndo(proposer string, missing []string, when string) string {
	return fmt.Sprintf("You agreed to take back %s's move. It still needs the agreement of %s, by %s.", proposer, joinAnd(missing), when)
}

func (English) YouAgreedMoveTakenBack(proposer string) string {
	return fmt.Sprintf("You agreed, and so has everyone: %s's move is taken back.", proposer)
}

func (English) UndoNotPossible(proposer string, why error) string {
	return fmt.Sprintf("The move %s asked to take back stands: %s.", proposer, why)
}

func (English) NothingTakenBackMovedOn(why error) string {
	return fmt.Sprintf("Nothing was taken back: %s.", why)
}

func (English) YourCommandTakenBack(text string) string {
	return fmt.Sprintf("Your command %s is taken back: it is as if you had not sent it.", quoted(text))
}

func (English) AsEveryoneAgreed() string {
	return "as everyone agreed"
}

func (English) ByAdmin() string {
	return "by the host"
}

func (English) MoveTakenBack(name string, why string, seenText string) string {
	return fmt.Sprintf("%s's move is taken back, %s: %s", name, why, quoted(seenText))
}

func (English) UndoLapsedByMove(proposer string, mover string) string {
	return fmt.Sprintf("The undo %s asked for has lapsed: %s has moved since, so the move stands.", proposer, mover)
}

func (English) UndoLapsedByTime(name string) string {
	return fmt.Sprintf("The undo %s asked for has lapsed after 24 hours, so the move stands.", name)
}

func (English) UndoLapsedUnanswered(name string, silent []string) string {
	return fmt.Sprintf("The undo %s asked for has lapsed: not everyone answered within 24 hours (%s did not), so the move stands.", name, joinAnd(silent))
}

func (English) YourUndoPending(missing []string, until string) string {
	return fmt.Sprintf("You asked to take back your last command; still to agree: %s, by %s.", joinAnd(missing), until)
}

func (English) UndoAwaitsYourAnswer(name string, until string, missing []string) string {
	return fmt.Sprintf("%s asks to take back a move: answer agree or refuse by %s (still to agree: %s).", name, until, joinAnd(missing))
}

func (English) UndoAwaitsOthers(name string, missing []string, until string) string {
	return fmt.Sprintf("%s asks to take back a move; still to agree: %s, by %s.", name, joinAnd(missing), until)
}
