// The sentences of internal/daemon/aside.go.

package templates

func (e English) SetAsideIMAP(mailbox string, uidValidity uint32, uid uint32) string {
	return e.f("IMAP: %s UIDVALIDITY %d UID %d", mailbox, uidValidity, uid)
}

func (e English) MailStaysInInbox() string {
	return e.f("It stays in the mailbox, and in pbem's inbound record with outcome failed.")
}

func (e English) SetAsideLMTP(id string) string {
	return e.f("LMTP: delivered to pbem directly, digest %s", id)
}

func (e English) LMTPMailNotKept() string {
	return e.f("It was delivered by LMTP, so no mailbox keeps it; pbem's inbound record has it with outcome failed.")
}

func (e English) MailSetAside() string {
	return e.f("a mail was set aside")
}

func (e English) MailSetAsideAfterTries(maxTries int) string {
	return e.f("pbem could not handle a mail after %d tries and set it aside, so that the mail behind it goes on.", maxTries)
}

func (e English) SetAsideFrom(what string) string {
	return e.f("From: %s", what)
}

func (e English) SetAsideMessageID(what string) string {
	return e.f("Message-ID: %s", what)
}

func (e English) SetAsideError(cause string) string {
	return e.f("Error: %s", cause)
}

func (e English) InternalErrorSubject() string {
	return e.f("pbem could not handle your mail")
}

func (e English) InternalErrorText() string {
	return e.f("pbem met an error of its own while reading your mail, so nothing in it\nwas applied. The host is told of it. Please send your commands again\nin a while, as a reply to the latest mail of your game.\n")
}

func (e English) AdminSubject(name string, subject string) string {
	return e.f("%s for its admins: %s", name, subject)
}

func (e English) LastMailNotApplied() string {
	return e.f("Your last mail was not applied: please send your commands again once the game goes on.")
}

func (e English) GameSetAsideAsBroken(id int64) string {
	return e.f("game %d is set aside as broken", id)
}

func (e English) GameSetAsideBecause(id int64, kind string, why string) string {
	return e.f("Game %d (%s) is set aside as broken: %s.", id, kind, why)
}

func (e English) WhatSetAsideMeans() string {
	return e.f("Its deadlines wait, its players are told, and mail to it is answered, not applied. Other games go on.")
}

func (e English) HowToSeeTheFailure(game string) string {
	return e.f("To see what fails:   pbem export %s > game.txt && pbem replay game.txt", game)
}

func (e English) HowToRetryAfterRepair(game string) string {
	return e.f("After the repair:    pbem admin %s retry   (or mail: %s retry)", game, game)
}

func (e English) HowToEndTheGame(game string) string {
	return e.f("To end it for good:  pbem admin %s abort", game)
}

func (e English) BeingRepaired(ref string) string {
	return e.f("%s is being repaired", ref)
}

func (e English) GameSetAsideForRepair() string {
	return e.f("pbem met a problem with this game that it cannot solve by itself, so the game is paused while the host repairs it. Nothing that was applied is lost, and no deadline passes while it waits. You will get a mail when it goes on.")
}

func (e English) GameBeingRepaired() string {
	return e.f("This game is being repaired, so pbem did not apply your mail. You will get a mail when the game goes on; please send your commands again then.")
}
