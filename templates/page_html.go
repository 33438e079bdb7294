package templates

import (
	htmltemplate "html/template"
	"strings"
)

// The page around every HTML part (page.tmpl's page.head, page.body and
// page.end) and a section's heading (its "h") are Go, not templates:
// every mail and page writes them, and as templates each of their
// actions was a call through reflect, and html/template's escapers for
// the title, the headline and the marker more (issue 40). The templates
// call them through pageFuncs, so that each piece of markup is written
// in one place; a game mail's HTML part (game_html.go) calls them
// directly. They write what the templates wrote, byte for byte, each
// value escaped as html/template escaped it in its place
// (TestPageIsTheTemplate compares them with the templates they replace).

// pageHeadStart, pageMeta and pageStyle are page.head around its two
// values, the page's language and its title. The <style> only adds dark
// mode and small screens, with !important to win over the inline light
// colours: mail programs drop a <style>, so every box carries its own.
const (
	pageHeadStart = "<!DOCTYPE html>\n" + `<html lang="`
	pageMeta      = `">` + "\n" + `<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="supported-color-schemes" content="light dark">
<title>`
	pageStyle = `</title>
<style>
:root { color-scheme: light dark; }
body { margin: 0; padding: 0; -webkit-text-size-adjust: 100%; }
@media (prefers-color-scheme: dark) {
  .pb-bg { background: #121416 !important; }
  .pb-card { background: #1d2024 !important; color: #e8eaed !important; border-color: #30353b !important; }
  .pb-muted { color: #a3aab2 !important; }
  .pb-h { color: #f1f3f4 !important; border-color: #3a4047 !important; }
  .pb-code { background: #2a2f35 !important; color: #f1f3f4 !important; border-color: #4a525b !important; }
  .pb-tap { background: #1b3452 !important; color: #e3eeff !important; border-color: #4f7fb8 !important; }
  .pb-note { background: #2b2a1e !important; border-color: #6b6330 !important; color: #f1f3f4 !important; }
  .pb-line { border-color: #353a40 !important; }
  .pb-box { background: #262a2f !important; border-color: #40474f !important; }
  .pb-empty { color: #aab1b8 !important; border-color: #7c848c !important; }
}
@media (max-width: 480px) {
  .pb-outer { padding: 0 !important; }
  .pb-card { border-radius: 0 !important; border-left: 0 !important; border-right: 0 !important; }
  .pb-pad { padding: 14px 12px !important; }
}
</style>`
)

// pageBodyStart opens page.body: the background, then the card at most
// 600px wide that holds the part, fluid below.
const pageBodyStart = `<body class="pb-bg" style="margin:0;padding:0;background:#eef0f2;">
<table role="presentation" class="pb-bg" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:#eef0f2;">
<tr><td class="pb-outer" align="center" style="padding:16px 8px;">
<table role="presentation" class="pb-card" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:600px;background:#ffffff;color:#1f2328;border:1px solid #d8dce0;border-radius:8px;">
<tr><td class="pb-pad" style="padding:18px 20px;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;font-size:15px;line-height:1.45;text-align:left;">
`

// pageEnd closes what page.start and page.body opened.
const pageEnd = `
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`

// headingStart is a section's heading up to its text.
const headingStart = `<h2 class="pb-h" style="margin:20px 0 8px;padding:0 0 3px;font-size:16px;line-height:1.3;color:#1f2328;border-bottom:1px solid #d8dce0;">`

// writePageStart writes page.start: page.head, then page.body. The web
// page (web.tmpl) writes the two itself, with its own style and script
// between them.
func writePageStart(b htmlOut, lang, subject, headline, marker string) {
	writePageHead(b, lang, subject)
	b.WriteString("\n</head>\n")
	writePageBody(b, headline, marker)
}

// writePageHead writes the page's head up to its </head>, which it
// leaves open: the page in the language lang (a BCP 47 tag), titled
// subject. A title is RCDATA, in which html/template escapes a value as
// it does in text.
func writePageHead(b htmlOut, lang, subject string) {
	b.WriteString(pageHeadStart)
	writeEscaped(b, lang) // an attribute's value, escaped as text is
	b.WriteString(pageMeta)
	writeEscaped(b, subject)
	b.WriteString(pageStyle)
}

// writePageBody opens the page's body: the headline first, the first
// text the reader sees, which mail clients show as the preview; then
// the marker line; each left out when "".
func writePageBody(b htmlOut, headline, marker string) {
	b.WriteString(pageBodyStart)
	b.WriteByte('\n')
	if headline != "" {
		b.WriteString(`<p class="pb-h" style="margin:0 0 10px;font-size:17px;font-weight:bold;line-height:1.3;color:#1f2328;">`)
		writeEscaped(b, headline)
		b.WriteString("</p>")
	}
	b.WriteByte('\n')
	if marker != "" {
		b.WriteString(`<p class="pb-muted" style="margin:0 0 12px;font-size:11px;color:#6b7075;">`)
		writeEscaped(b, marker)
		b.WriteString("</p>")
	}
	b.WriteByte('\n')
}

// writePageEnd closes the page.
func writePageEnd(b htmlOut) { b.WriteString(pageEnd) }

// writeHeading writes a section's heading: its text escaped, or HTML (a
// message) as it is.
func writeHeading(b htmlOut, text any) {
	b.WriteString(headingStart)
	writeText(b, text)
	b.WriteString("</h2>")
}

// pageFuncs are the template functions that write the page around an
// HTML part and its headings (page.tmpl): pageStart LANG SUBJECT
// HEADLINE MARKER, pageHead LANG SUBJECT, pageBody HEADLINE MARKER,
// pageEnd and heading TEXT.
func pageFuncs() htmltemplate.FuncMap {
	return htmltemplate.FuncMap{
		"pageStart": pageStartHTML,
		"pageHead":  pageHeadHTML,
		"pageBody":  pageBodyHTML,
		"pageEnd":   func() htmltemplate.HTML { return pageEnd },
		"heading":   headingHTML,
	}
}

// pageStartHTML, pageHeadHTML, pageBodyHTML and headingHTML are
// writePageStart, writePageHead, writePageBody and writeHeading as a
// template's function.
func pageStartHTML(lang, subject, headline, marker string) htmltemplate.HTML {
	b := pageBuilder()
	writePageStart(b, lang, subject, headline, marker)
	return htmltemplate.HTML(b.String())
}

func pageHeadHTML(lang, subject string) htmltemplate.HTML {
	b := pageBuilder()
	writePageHead(b, lang, subject)
	return htmltemplate.HTML(b.String())
}

func pageBodyHTML(headline, marker string) htmltemplate.HTML {
	b := pageBuilder()
	writePageBody(b, headline, marker)
	return htmltemplate.HTML(b.String())
}

func headingHTML(text any) htmltemplate.HTML {
	var b strings.Builder
	writeHeading(&b, text)
	return htmltemplate.HTML(b.String())
}

// pageBuilder is a builder with room for the page's start: its style
// alone is 1.5kB.
func pageBuilder() *strings.Builder {
	b := new(strings.Builder)
	b.Grow(len(pageHeadStart) + len(pageMeta) + len(pageStyle) + len(pageBodyStart) + 512)
	return b
}
