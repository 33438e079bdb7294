// The sentences of internal/daemon/inbound.go and internal/intake.

package templates

func (e Words) CommandFromSubject() string {
	return e.f("pbem read your command from the Subject line, because the text of your mail held none.")
}

// NotAuthenticated answers a mail the trusted receiving server could not
// authenticate as from its sender.
func (e Words) NotAuthenticated(from string) string {
	return e.f("pbem did not act on your mail: the receiving mail server could not confirm that it comes from %s (no DMARC or aligned DKIM pass). If you sent it, your mail provider's DKIM or DMARC set-up may be at fault.", from)
}

// FromNotPlain answers a mail whose From is not one plain address.
func (e Words) FromNotPlain(problem string) string {
	return e.f("pbem did not read your mail, because its From field is not one plain address (%s). pbem acts only on mail whose From holds just the address you play from.", problem)
}

// MailTooLarge answers a mail over the size limit, in KB.
func (e Words) MailTooLarge(kb int64) string {
	return e.f("Your mail is larger than %d KB, so pbem did not read it. Please reply with only your commands.", kb)
}
