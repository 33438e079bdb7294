// The sentences of internal/daemon/aside.go.

package templates

import (
	"fmt"
)

func (English) SetAsideIMAP(mailbox string, uidValidity uint32, uid uint32) string {
	return fmt.Sprintf("IMAP: %s UIDVALIDITY %d UID %d", mailbox, uidValidity, uid)
}

func (English) MailStaysInInbox() string {
	return "It stays in the mailbox, and in pbem's inbound record with outcome failed."
}

func (English) SetAsideLMTP(id string) string {
	return "LMTP: delivered to pbem directly, digest " + id
}

func (English) LMTPMailNotKept() string {
	return "It was delivered by LMTP, so no mailbox keeps it; pbem's inbound record has it with outcome failed."
}

func (English) MailSetAside() string {
	return "a mail was set aside"
}

func (English) MailSetAsideAfterTries(maxTries int) string {
	return fmt.Sprintf("pbem could not handle a mail after %d tries and set it aside, so that the mail behind it goes on.", maxTries)
}

func (English) SetAsideFrom(what string) string {
	return fmt.Sprintf("From: %s", what)
}

func (English) SetAsideMessageID(what string) string {
	return fmt.Sprintf("Message-ID: %s", what)
}

func (English) SetAsideError(cause string) string {
	return fmt.Sprintf("Error: %s", cause)
}

func (English) InternalErrorSubject() string {
	return "pbem could not handle your mail"
}

func (English) InternalErrorText() string {
	return "pbem met an error of its own while reading your mail, so nothing in it\n" + "was applied. The host is told of it. Please send your commands again\n" + "in a while, as a reply to the latest mail of your game.\n"
}

func (English) AdminSubject(name string, subject string) string {
	return name + " for its admins: " + subject
}

func (English) LastMailNotApplied() string {
	return "Your last mail was not applied: please send your commands again once the game goes on."
}

func (English) GameSetAsideAsBroken(id int64) string {
	return fmt.Sprintf("game %d is set aside as broken", id)
}

func (English) GameSetAsideBecause(id int64, kind string, why string) string {
	return fmt.Sprintf("Game %d (%s) is set aside as broken: %s.", id, kind, why)
}

func (English) WhatSetAsideMeans() string {
	return "Its deadlines wait, its players are told, and mail to it is answered, not applied. Other games go on."
}

func (English) HowToSeeTheFailure(game string) string {
	return "To see what fails:   pbem export " + game + " > game.txt && pbem replay game.txt"
}

func (English) HowToRetryAfterRepair(game string) string {
	return "After the repair:    pbem admin " + game + " retry   (or mail: " + game + " retry)"
}

func (English) HowToEndTheGame(game string) string {
	return "To end it for good:  pbem admin " + game + " abort"
}

func (English) BeingRepaired(ref string) string {
	return ref + " is being repaired"
}

func (English) GameSetAsideForRepair() string {
	return "pbem met a problem with this game that it cannot solve by itself, so the game is paused while the host repairs it. Nothing that was applied is lost, and no deadline passes while it waits. You will get a mail when it goes on."
}

func (English) GameBeingRepaired() string {
	return "This game is being repaired, so pbem did not apply your mail. You will get a mail when the game goes on; please send your commands again then."
}
