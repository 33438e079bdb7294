// The sentences of internal/daemon/inbound.go and internal/intake.

package templates

import "fmt"

func (English) CommandFromSubject() string {
	return "pbem read your command from the Subject line, because the text of your mail held none."
}

// NotAuthenticated answers a mail the trusted receiving server could not
// authenticate as from its sender.
func (English) NotAuthenticated(from string) string {
	return "pbem did not act on your mail: the receiving mail server could not confirm that it comes from " + from + " (no DMARC or aligned DKIM pass). If you sent it, your mail provider's DKIM or DMARC set-up may be at fault."
}

// FromNotPlain answers a mail whose From is not one plain address.
func (English) FromNotPlain(problem string) string {
	return "pbem did not read your mail, because its From field is not one plain address (" + problem + "). pbem acts only on mail whose From holds just the address you play from."
}

// MailTooLarge answers a mail over the size limit, in KB.
func (English) MailTooLarge(kb int64) string {
	return fmt.Sprintf("Your mail is larger than %d KB, so pbem did not read it. Please reply with only your commands.", kb)
}
