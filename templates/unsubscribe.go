package templates

import (
	htmltemplate "html/template"
	"strings"
)

// UnsubscribePage is the page of a one-click unsubscribe address
// (internal/web, /u/TOKEN). Before the button is pressed (Done false) it
// says what the button does and shows it: a form that POSTs to the page
// itself what a mail program's one-click POST sends (RFC 8058), so that
// a GET, such as a link scanner's, changes nothing. After (Done true) it
// says that it is done. Invitation is set while the mail's seat is an
// invitation not yet answered: the button then does `never` (declines it,
// and no invitation comes again), else `notify off here` (that game's mail
// off). The page names no game and no address: whoever holds the link
// learns nothing from it.
type UnsubscribePage struct {
	Invitation bool
	Done       bool
	// Language is the player's language, a BCP 47 tag ("de"); "" and a
	// language pbem does not have are English.
	Language string
}

// unsubscribeData is what unsubscribePage sees.
type unsubscribeData struct {
	Lang                        string // the page's language, a BCP 47 tag
	Title, Lead, Effect, Button string
	Done                        bool
}

// unsubscribePage is the page's markup: no script, no style sheet, no
// remote anything; the form posts to the page's own address (the web
// server's Content-Security-Policy allows form-action 'self').
var unsubscribePage = htmltemplate.Must(htmltemplate.New("unsubscribe").Parse(`<!DOCTYPE html>
<html lang="{{.Lang}}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>{{.Title}}</title></head><body>
<h1>{{.Title}}</h1>
<p>{{.Lead}}</p>
<p>{{.Effect}}</p>
{{- if not .Done}}
<form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">{{.Button}}</button></form>
{{- end}}
</body></html>
`))

// Render renders the page.
func (p UnsubscribePage) Render() (string, error) {
	w := For(p.Language)
	d := unsubscribeData{Title: w.UnsubscribeTitle(), Lead: w.UnsubscribeAsk(), Effect: w.UnsubscribeEffect(), Button: w.UnsubscribeButton(), Done: p.Done}
	if p.Invitation {
		d = unsubscribeData{Title: w.UnsubscribeInvitationsTitle(), Lead: w.UnsubscribeInvitationsAsk(), Effect: w.UnsubscribeInvitationsEffect(), Button: w.UnsubscribeInvitationsButton(), Done: p.Done}
	}
	d.Lang = w.language().String()
	switch {
	case p.Done && p.Invitation:
		d.Lead = w.UnsubscribeInvitationsDone()
	case p.Done:
		d.Lead = w.UnsubscribeDone()
	}
	var b strings.Builder
	if err := unsubscribePage.Execute(&b, d); err != nil {
		return "", err
	}
	return b.String(), nil
}
