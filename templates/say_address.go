// The sentences of internal/daemon/address.go: a player's change of
// address (address NEW) and his second address (address add OTHER).
// None of them speaks of a game: they go to addresses that may not be at
// any table yet.

package templates

func (e Words) AddressConfirmationSent(to string, add bool) string {
	if add {
		return e.f("A confirmation was mailed to %s. Once it is answered from there within 24 hours, mail from %s is read as yours; pbem's mail still comes to this address. Until then nothing changes.", to, to)
	}
	return e.f("A confirmation was mailed to %s. Once it is answered from there within 24 hours, your games, settings, vacation days and ratings move to %s, and pbem writes to you there. Until then nothing changes.", to, to)
}

func (e Words) AddressConfirmHeadline() string {
	return e.f("Confirm this address for pbem")
}

func (e Words) AddressConfirmAsked(from, to string, add bool) string {
	if add {
		return e.f("The pbem player at %s asked that mail from this address, %s, be read as his. His mail still goes to %s.", from, to, from)
	}
	return e.f("The pbem player at %s asked to move to this address, %s: his games, settings, vacation days and ratings, and the mail pbem sends him.", from, to)
}

// AddressConfirmHow says how to confirm, until when: by a reply, and by
// the link (AddressConfirmButton) when the mail has one (web: pbem
// serves web pages). The link leads to a page whose button confirms:
// opening it does not (internal/web's /a/).
func (e Words) AddressConfirmHow(until string, web bool) string {
	if web {
		return e.f("To confirm, open the link below and press the button on its page, or reply to this mail from this address, before %s (UTC); what you write in a reply does not matter. If you did not ask for this, do nothing: nothing changes.", until)
	}
	return e.f("To confirm, reply to this mail from this address before %s (UTC); what you write in the reply does not matter. If you did not ask for this, do nothing: nothing changes.", until)
}

// AddressConfirmButton is the label of the confirmation mail's link to
// its page (AddressConfirmPage).
func (e Words) AddressConfirmButton() string {
	return e.f("Confirm on the web")
}

// The sentences of AddressConfirmPage, the page of a confirmation's
// link: like the mail, they name the two addresses and nothing else.

func (e Words) AddressPageTitle() string {
	return e.f("Confirm an address for pbem")
}

// AddressPageAsk says what the page's button does, before it is pressed.
func (e Words) AddressPageAsk(from, to string, add bool) string {
	if add {
		return e.f("The pbem player at %s asked that mail from %s be read as his; his mail would still go to %s. The button below confirms it, as a reply to the confirmation mail from %s does. Opening this page changed nothing.", from, to, from, to)
	}
	return e.f("The pbem player at %s asked to move to %s: his games, settings, vacation days and ratings, and the mail pbem sends him. The button below confirms it, as a reply to the confirmation mail from %s does. Opening this page changed nothing.", from, to, to)
}

func (e Words) AddressPageUntil(until string) string {
	return e.f("The button works until %s (UTC). If you did not ask for this, close this page: nothing changes.", until)
}

func (e Words) AddressPageButton() string {
	return e.f("Confirm")
}

func (e Words) AddressPageMoved(from, to string) string {
	return e.f("Done: the pbem games, settings, vacation days and ratings of %s have moved to %s, and pbem writes to the player there from now on.", from, to)
}

func (e Words) AddressPageAdded(alias, address string) string {
	return e.f("Done: mail from %s is read as the pbem player's at %s from now on; his mail still goes to %s.", alias, address, address)
}

func (e Words) AddressMovedHeadline() string {
	return e.f("Your pbem address has changed")
}

func (e Words) AddressMovedOld(to string) string {
	return e.f("Your pbem games, settings, vacation days and ratings have moved to %s, as asked from one of your games and confirmed from %s. pbem writes to you there from now on; this is its last mail to this address.", to, to)
}

func (e Words) AddressMovedNew(from string) string {
	return e.f("Done: the games, settings, vacation days and ratings of %s are yours at this address now, and pbem writes to you here. Your next game mails come from the same game addresses as before.", from)
}

func (e Words) AddressAddedHeadline() string {
	return e.f("A second address of yours for pbem")
}

func (e Words) AddressAdded(alias, address string) string {
	return e.f("Done: mail from %s is read as yours from now on. pbem's mail still goes to %s, and both count against one daily limit.", alias, address)
}

func (e Words) AddressSameAsYours(addr string) string {
	return e.f("Not done: %s is already your address.", addr)
}

func (e Words) AddressAlreadyYours(addr string) string {
	return e.f("Not done: %s is already an address of yours.", addr)
}

func (e Words) AddressPlaysOnItsOwn(addr string) string {
	return e.f("Not done: %s has games or ratings of its own at pbem, and pbem does not merge two players. Choose another address.", addr)
}

func (e Words) AddressIsPbems(addr string) string {
	return e.f("Not done: %s is one of pbem's own addresses.", addr)
}

func (e Words) AddressNeedsGameThread() string {
	return e.f("Not done: send address in reply to a mail of one of your games, whose address is yours alone, so that nobody else can move your games.")
}

func (e Words) AddressConfirmExpired() string {
	return e.f("Not done: this confirmation was more than 24 hours old. Send address again in one of your games for a new one.")
}

func (e Words) AddressConfirmFromElsewhere() string {
	return e.f("Not done: a confirmation counts only when it is answered from the address it was mailed to.")
}

func (e Words) AddressConfirmGone() string {
	return e.f("Not done: this confirmation no longer applies (the address it was for has changed since).")
}

func (e Words) AddressHeadline() string {
	return e.f("Your pbem address")
}

func (e Words) AddressOfAnotherPlayer(addr string) string {
	return e.f("Not done: %s is already an address of another player.", addr)
}

func (e Words) AddressMovedByHost(to string) string {
	return e.f("Your pbem games, settings, vacation days and ratings have moved to %s: the host of this pbem moved them. pbem writes to you there from now on; this is its last mail to this address.", to)
}

func (e Words) AddressNotValid(addr string) string {
	return e.f("Not done: %q is not a mail address (write it bare: name@example.org).", addr)
}

func (e Words) AddressNoPlayer(addr string) string {
	return e.f("Not done: pbem knows no player at %s.", addr)
}
