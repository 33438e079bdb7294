package templates

import (
	"bytes"
	htmltemplate "html/template"
	"testing"

	"pgregory.net/rapid"
)

// pageTemplates are the templates page_html.go replaced, as page.tmpl
// had them: what html/template writes from them is what the Go must
// write.
const pageTemplates = `
{{define "page.start"}}{{template "page.head" .}}
</head>
{{template "page.body" .}}{{end}}

{{define "page.head"}}<!DOCTYPE html>
<html lang="{{lang}}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="supported-color-schemes" content="light dark">
<title>{{.Subject}}</title>
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
</style>{{end}}

{{define "page.body"}}<body class="pb-bg" style="margin:0;padding:0;background:#eef0f2;">
<table role="presentation" class="pb-bg" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:#eef0f2;">
<tr><td class="pb-outer" align="center" style="padding:16px 8px;">
<table role="presentation" class="pb-card" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:600px;background:#ffffff;color:#1f2328;border:1px solid #d8dce0;border-radius:8px;">
<tr><td class="pb-pad" style="padding:18px 20px;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;font-size:15px;line-height:1.45;text-align:left;">
{{/* The headline is the first text the reader sees: clients show it as the preview. */}}
{{with .Headline}}<p class="pb-h" style="margin:0 0 10px;font-size:17px;font-weight:bold;line-height:1.3;color:#1f2328;">{{.}}</p>{{end}}
{{with .Marker}}<p class="pb-muted" style="margin:0 0 12px;font-size:11px;color:#6b7075;">{{.}}</p>{{end}}
{{end}}

{{define "page.end"}}
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
{{end}}

{{/* h is a section heading. */}}
{{define "h"}}<h2 class="pb-h" style="margin:20px 0 8px;padding:0 0 3px;font-size:16px;line-height:1.3;color:#1f2328;border-bottom:1px solid #d8dce0;">{{.}}</h2>{{end}}
`

// pageData is what the page templates read of a mail.
type pageData struct{ Subject, Headline, Marker string }

// oldPage parses pageTemplates, with the page in the language lang.
func oldPage(lang string) *htmltemplate.Template {
	return htmltemplate.Must(htmltemplate.New("old").Funcs(htmltemplate.FuncMap{
		"lang": func() string { return lang },
	}).Parse(pageTemplates))
}

// TestPageIsTheTemplate writes the page around an HTML part, and a
// heading, from any subject, headline, marker and language, hostile or
// not, both with the Go of page_html.go (directly, and through the
// templates that call it now, in English and German) and with the
// templates it replaced, and finds the same bytes.
func TestPageIsTheTemplate(t *testing.T) {
	r := newRenderer(t)
	// The sets' templates, which call the Go, by their language.
	sets := map[string]*htmltemplate.Template{"en": r.set("").h, "de": r.set("de").h}
	olds := map[string]*htmltemplate.Template{}
	for lang := range sets {
		olds[lang] = oldPage(lang)
	}
	render := func(t *rapid.T, h *htmltemplate.Template, name string, data any) string {
		var b bytes.Buffer
		if err := h.ExecuteTemplate(&b, name, data); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return b.String()
	}
	// Text with what html/template escapes in it: quotes, markup, "&",
	// "+", NUL, non-ASCII and broken UTF-8; and the empty text, which
	// leaves out a headline or marker.
	text := rapid.OneOf(
		rapid.String(),
		rapid.StringOf(rapid.SampledFrom([]rune("ab <>&\"'+%:/\x00\t\n é€\uFFFD\uFDD0"))),
		rapid.SampledFrom([]string{"", "Felix #12", "Felix #12: your turn to bid (round 4)", "--- pbem: reply above this line", "</title><script>", "\xff\xfe"}),
	)
	rapid.Check(t, func(t *rapid.T) {
		d := pageData{Subject: text.Draw(t, "subject"), Headline: text.Draw(t, "headline"), Marker: text.Draw(t, "marker")}
		lang := rapid.OneOf(rapid.SampledFrom([]string{"en", "de"}), text).Draw(t, "lang")
		old := oldPage(lang)
		for name, got := range map[string]htmltemplate.HTML{
			"page.start": pageStartHTML(lang, d.Subject, d.Headline, d.Marker),
			"page.head":  pageHeadHTML(lang, d.Subject),
			"page.body":  pageBodyHTML(d.Headline, d.Marker),
			"page.end":   pageEnd,
		} {
			if want := render(t, old, name, d); string(got) != want {
				t.Fatalf("%s of %+v in %q:\n got %s\nwant %s", name, d, lang, got, want)
			}
		}
		for lang, h := range sets {
			for _, name := range []string{"page.start", "page.head", "page.body", "page.end"} {
				if got, want := render(t, h, name, d), render(t, olds[lang], name, d); got != want {
					t.Fatalf("the template %s of %+v in %q:\n got %s\nwant %s", name, d, lang, got, want)
				}
			}
		}
		heading := text.Draw(t, "heading")
		for _, v := range []any{heading, htmltemplate.HTML(heading)} {
			want := render(t, old, "h", v)
			if got := string(headingHTML(v)); got != want {
				t.Fatalf("heading %#v:\n got %s\nwant %s", v, got, want)
			}
			if got := render(t, sets["en"], "h", v); got != want {
				t.Fatalf("the template h of %#v:\n got %s\nwant %s", v, got, want)
			}
		}
	})
}
