// The sentences of internal/daemon/aside.go.

package templates

func (e Words) SetAsideIMAP(mailbox string, uidValidity uint32, uid uint32) string {
	return e.f("IMAP: %s UIDVALIDITY %d UID %d", mailbox, uidValidity, uid)
}

func (e Words) MailStaysInInbox() string {
	return e.f("It stays in the mailbox, and in pbem's inbound record with outcome failed.")
}

func (e Words) SetAsideLMTP(id string) string {
	return e.f("LMTP: delivered to pbem directly, digest %s", id)
}

func (e Words) LMTPMailNotKept() string {
	return e.f("It was delivered by LMTP, so no mailbox keeps it; pbem's inbound record has it with outcome failed.")
}

func (e Words) MailSetAside() string {
	return e.f("a mail was set aside")
}

func (e Words) MailSetAsideAfterTries(maxTries int) string {
	return e.f("pbem could not handle a mail after %d tries and set it aside, so that the mail behind it goes on.", maxTries)
}

func (e Words) SetAsideFrom(what string) string {
	return e.f("From: %s", what)
}

func (e Words) SetAsideMessageID(what string) string {
	return e.f("Message-ID: %s", what)
}

func (e Words) SetAsideError(cause string) string {
	return e.f("Error: %s", cause)
}

func (e Words) InternalErrorSubject() string {
	return e.f("pbem could not handle your mail")
}

func (e Words) InternalErrorText() string {
	return e.f("pbem met an error of its own while reading your mail, so nothing in it\nwas applied. The host is told of it. Please send your commands again\nin a while, as a reply to the latest mail of your game.\n")
}

func (e Words) AdminSubject(name string, subject string) string {
	return e.f("%s for its admins: %s", name, subject)
}

func (e Words) LastMailNotApplied() string {
	return e.f("Your last mail was not applied: please send your commands again once the game goes on.")
}

func (e Words) GameSetAsideAsBroken(id int64) string {
	return e.f("game %d is set aside as broken", id)
}

func (e Words) GameSetAsideBecause(id int64, kind string, why string) string {
	return e.f("Game %d (%s) is set aside as broken: %s.", id, kind, why)
}

func (e Words) WhatSetAsideMeans() string {
	return e.f("Its deadlines wait, its players are told, and mail to it is answered, not applied. Other games go on.")
}

func (e Words) HowToSeeTheFailure(game string) string {
	return e.f("To see what fails:   pbem export %s > game.txt && pbem replay game.txt", game)
}

func (e Words) HowToRetryAfterRepair(game string) string {
	return e.f("After the repair:    pbem admin %s retry   (or mail: %s retry)", game, game)
}

func (e Words) HowToEndTheGame(game string) string {
	return e.f("To end it for good:  pbem admin %s abort", game)
}

func (e Words) BeingRepaired(ref string) string {
	return e.f("%s is being repaired", ref)
}

func (e Words) GameSetAsideForRepair() string {
	return e.f("pbem met a problem with this game that it cannot solve by itself, so the game is paused while the host repairs it. Nothing that was applied is lost, and no deadline passes while it waits. You will get a mail when it goes on.")
}

func (e Words) GameBeingRepaired() string {
	return e.f("This game is being repaired, so pbem did not apply your mail. You will get a mail when the game goes on; please send your commands again then.")
}
