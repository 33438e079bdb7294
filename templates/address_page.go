package templates

import (
	htmltemplate "html/template"
	"strings"
)

// AddressConfirmPage is the page of an address confirmation's link
// (internal/web, /a/TOKEN), which the confirmation mail to the new
// address carries when pbem serves pages. Before the button is pressed
// it says what the button does and shows it: a form that POSTs to the
// page itself, so that a GET, such as a link scanner's, changes nothing.
// After, it says that it is done (Done), or why it was not (Refused).
// Like the mail, it names the two addresses and nothing else: no game,
// no seat.
type AddressConfirmPage struct {
	From, To string // the player's address, and the one asked for
	Add      bool   // address add: To would be read as From's
	Until    string // when the confirmation expires, for the page before the button
	Done     bool
	// Refused, when not empty, is why the change is not done (and was
	// not: the page has no button).
	Refused string
	// Language is the player's language, a BCP 47 tag ("de"); "" and a
	// language pbem does not have are English.
	Language string
}

// addressPageData is what addressPage sees.
type addressPageData struct {
	Lang                      string // the page's language, a BCP 47 tag
	Title, Lead, Note, Button string
	Form                      bool
}

// addressConfirmField and addressConfirmValue are what the page's form
// POSTs, and what internal/web asks of a POST to /a/TOKEN.
const (
	addressConfirmField = "change"
	addressConfirmValue = "confirmed"
)

// addressPage is the page's markup: no script, no style sheet, no
// remote anything; the form posts to the page's own address (the web
// server's Content-Security-Policy allows form-action 'self').
var addressPage = htmltemplate.Must(htmltemplate.New("address-page").Parse(`<!DOCTYPE html>
<html lang="{{.Lang}}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>{{.Title}}</title></head><body>
<h1>{{.Title}}</h1>
<p>{{.Lead}}</p>
{{- with .Note}}
<p>{{.}}</p>
{{- end}}
{{- if .Form}}
<form method="post"><input type="hidden" name="` + addressConfirmField + `" value="` + addressConfirmValue + `"><button type="submit">{{.Button}}</button></form>
{{- end}}
</body></html>
`))

// Render renders the page.
func (p AddressConfirmPage) Render() (string, error) {
	w := For(p.Language)
	d := addressPageData{Lang: w.language().String(), Title: w.AddressPageTitle()}
	switch {
	case p.Refused != "":
		d.Lead = p.Refused
	case p.Done && p.Add:
		d.Lead = w.AddressPageAdded(p.To, p.From)
	case p.Done:
		d.Lead = w.AddressPageMoved(p.From, p.To)
	default:
		d.Lead, d.Note = w.AddressPageAsk(p.From, p.To, p.Add), w.AddressPageUntil(p.Until)
		d.Button, d.Form = w.AddressPageButton(), true
	}
	var b strings.Builder
	if err := addressPage.Execute(&b, d); err != nil {
		return "", err
	}
	return b.String(), nil
}
