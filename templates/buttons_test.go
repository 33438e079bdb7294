package templates

import (
	"bytes"
	htmltemplate "html/template"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// buttonTemplates are the templates buttons.go replaced, as they were:
// what html/template writes from them is what the Go must write.
const buttonTemplates = `
{{define "code"}}<code class="pb-code" style="display:inline-block;margin:2px 0;padding:2px 7px;font-family:Menlo,Consolas,'DejaVu Sans Mono',monospace;font-size:14px;line-height:1.5;color:#1f2328;background:#f1f3f5;border:1px solid #d5d9de;border-radius:4px;white-space:normal;overflow-wrap:anywhere;word-break:break-word;-webkit-user-select:all;user-select:all;">{{.}}</code>{{end}}
{{define "code.nowrap"}}<code class="pb-code" style="display:inline-block;margin:2px 0;padding:2px 7px;font-family:Menlo,Consolas,'DejaVu Sans Mono',monospace;font-size:14px;line-height:1.5;color:#1f2328;background:#f1f3f5;border:1px solid #d5d9de;border-radius:4px;white-space:nowrap;-webkit-user-select:all;user-select:all;">{{.}}</code>{{end}}
{{define "option"}}{{if .URL}}{{template "tap" .}}{{else}}{{template "code" .Label}}{{end}}{{end}}
{{define "tap"}}<a class="pb-tap" href="{{.URL}}" style="display:inline-block;box-sizing:border-box;min-width:44px;min-height:44px;margin:3px 0;padding:10px 14px;font-family:Menlo,Consolas,'DejaVu Sans Mono',monospace;font-size:15px;line-height:22px;text-align:center;color:#0b3d75;background:#e6f0fb;border:1px solid #8fb6e3;border-radius:8px;text-decoration:none;white-space:normal;overflow-wrap:anywhere;word-break:break-word;">{{.Label}}</a>{{end}}
{{define "lines"}}{{range .Lines}}<div style="margin:0 0 2px;">
{{- if .Usage}}{{T "%s, e.g. %s" (oldCode .Usage) (oldButton ($.Link (index .Commands 0)))}}
{{- else if .Prefix}}{{$line := .}}<span style="display:inline-block;min-width:44px;padding:0 6px 0 0;font-family:Menlo,Consolas,'DejaVu Sans Mono',monospace;font-size:15px;">{{.Prefix}}</span> {{range .Values}}{{template "option" ($.LinkAs $line.Prefix .)}} {{end}}
{{- else}}{{template "option" ($.Link (index .Commands 0))}}{{end}}</div>
{{end}}{{end}}
`

// oldButtons parses buttonTemplates.
func oldButtons(t testing.TB) *htmltemplate.Template {
	t.Helper()
	var h *htmltemplate.Template
	exec := func(name string, data any) (htmltemplate.HTML, error) {
		var b bytes.Buffer
		err := h.ExecuteTemplate(&b, name, data)
		return htmltemplate.HTML(b.String()), err
	}
	h = htmltemplate.Must(htmltemplate.New("old").Funcs(htmltemplate.FuncMap{
		"T":         Say.htmlT,
		"oldCode":   func(s any) (htmltemplate.HTML, error) { return exec("code", s) },
		"oldButton": func(l link) (htmltemplate.HTML, error) { return exec("option", l) },
	}).Parse(buttonTemplates))
	return h
}

// linesData is what the "lines" template ranges over, with the links a
// gameData makes.
type linesData struct {
	Lines []optionLine
	links *gameData
}

func (d linesData) Link(cmd string) link             { return d.links.Link(cmd) }
func (d linesData) LinkAs(prefix, value string) link { return d.links.LinkAs(prefix, value) }

// TestButtonsAreTheTemplates draws commands, buttons and option lines
// from any text, hostile or not, both with the Go of buttons.go and
// with the templates it replaced, and finds the same bytes.
func TestButtonsAreTheTemplates(t *testing.T) {
	old := oldButtons(t)
	render := func(t *rapid.T, name string, data any) string {
		var b bytes.Buffer
		if err := old.ExecuteTemplate(&b, name, data); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return b.String()
	}
	// Text with what html/template escapes or encodes in it: quotes,
	// markup, "&", "+", "%", NUL, a scheme, non-ASCII and broken UTF-8.
	text := rapid.OneOf(
		rapid.String(),
		rapid.StringOf(rapid.SampledFrom([]rune("ab <>&\"'+%:/?#=@()\x00\t\n javascript:mailto:é€\uFFFD"))),
		rapid.SampledFrom([]string{"", "pass", "play -8", "bid up to 9", "mailto:x@y?a=b&c=d", "JavaScript:alert(1)", "http://x/a b", "/relative:x", "\xff\xfe"}),
	)
	funcs := buttonFuncs()
	code := funcs["code"].(func(any) htmltemplate.HTML)
	nowrap := funcs["nowrap"].(func(any) htmltemplate.HTML)
	option := funcs["option"].(func(link) htmltemplate.HTML)
	rapid.Check(t, func(t *rapid.T) {
		s := text.Draw(t, "text")
		if got, want := string(code(s)), render(t, "code", s); got != want {
			t.Fatalf("code %q:\n got %s\nwant %s", s, got, want)
		}
		if got, want := string(code(htmltemplate.HTML(s))), render(t, "code", htmltemplate.HTML(s)); got != want {
			t.Fatalf("code of HTML %q:\n got %s\nwant %s", s, got, want)
		}
		if got, want := string(nowrap(s)), render(t, "code.nowrap", s); got != want {
			t.Fatalf("nowrap %q:\n got %s\nwant %s", s, got, want)
		}
		l := link{Command: s, Label: text.Draw(t, "label"), URL: text.Draw(t, "url")}
		if got, want := string(option(l)), render(t, "option", l); got != want {
			t.Fatalf("option %+v:\n got %s\nwant %s", l, got, want)
		}
		d := linesData{links: &gameData{ReplyAddress: rapid.SampledFrom([]string{"", "felix+tok@pbem.example"}).Draw(t, "reply"),
			replyTo: text.Draw(t, "subject"), MessageID: "m1@pbem.example", RefLine: "--- pbem: Felix #3"}}
		for i := rapid.IntRange(0, 3).Draw(t, "lines"); i > 0; i-- {
			l := optionLine{Commands: []string{text.Draw(t, "command")}}
			switch rapid.IntRange(0, 2).Draw(t, "kind") {
			case 1:
				l.Usage = text.Draw(t, "usage")
			case 2:
				l.Prefix = text.Draw(t, "prefix")
				l.Values = rapid.SliceOfN(text, 1, 4).Draw(t, "values")
			}
			d.Lines = append(d.Lines, l)
		}
		if got, want := string(Say.optionsHTML(d.Lines, d)), render(t, "lines", d); got != want {
			t.Fatalf("options %+v:\n got %s\nwant %s", d.Lines, got, want)
		}
	})
}

// TestButtonsInTheMail finds the Go's buttons where the templates call
// them: a game mail with a reply address has a tap for every option and
// footer command, each with its own mailto: link.
func TestButtonsInTheMail(t *testing.T) {
	r := newRenderer(t)
	mails := benchMails(t, "engine/felix/testdata/basics-4p.txt", "", 4)
	for _, m := range mails[:4] {
		m.ReplyAddress = "felix+tok@pbem.example"
		out, err := r.Game(m)
		if err != nil {
			t.Fatal(err)
		}
		taps := strings.Count(out.HTML, `<a class="pb-tap" href="mailto:felix%2Btok@pbem.example?subject=`)
		want := len(footerWords)
		for _, l := range newGameData(m, r.set("").games[m.Game].rules, Say).OptionLines {
			if l.Prefix != "" {
				want += len(l.Values)
			} else {
				want++
			}
		}
		if taps < want {
			t.Errorf("seat %s: %d taps, want at least %d (the options and the footer):\n%s", m.Reader, taps, want, out.HTML)
		}
	}
}
