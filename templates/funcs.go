package templates

import (
	"strings"
	"text/template"
	"unicode/utf8"

	"github.com/pbem/pbem/engine"
)

// lineWidth is the longest line a body has where it can be broken: short
// enough for a phone held upright.
const lineWidth = 72

// funcs are the helpers every template may call, the games' included
// (a game adds its own through engine.Presenter), in the language of w:
//
//   - T prints a message of the catalog, keyed by its English format
//     ({{T "Your move: reply by %s" .DeadlineText}}); in the HTML part
//     it is HTML (htmlT);
//   - cmd writes a lobby command in the reader's language, as he may
//     send it ({{cmd "standings"}} is "Rangliste" in German); code marks
//     one as a command to copy (`standings` in the text, a code box in
//     the HTML part), codeList a list of them;
//   - alias is " / Hilfe" beside a lobby command's usage ("help") for a
//     reader whose language has its own word for it, else "";
//   - list joins names with the language's "and"; lang is the
//     language's BCP 47 tag, for the page's lang;
//   - waiting is the renderer's own game.waiting (game_text.go's
//     waitingText; in the HTML part game_html.go's waitingHTML).
func funcs(w Words) template.FuncMap {
	return template.FuncMap{
		"T":        w.f,
		"cmd":      w.Command,
		"code":     func(s string) string { return "`" + s + "`" },
		"codeList": codeList,
		"alias":    w.aliasOf,
		"lang":     func() string { return w.language().String() },
		"list":     w.joinAnd,
		"commas":   func(s []string) string { return strings.Join(s, ", ") },
		"plural":   engine.Plural,
		"upper":    upperFirst,
		"underline": func(s string) string {
			return s + "\n" + strings.Repeat("-", utf8.RuneCountInString(s))
		},
		"waiting": w.waitingText,
		"deref": func(p *int) int {
			if p == nil {
				return 0
			}
			return *p
		},
	}
}

// codeList writes commands to copy as the text part lists them, each
// after a space and in backticks, with commas between: " `a`, `b`".
func codeList(cmds []string) string {
	var b strings.Builder
	for i, c := range cmds {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(" `" + c + "`")
	}
	return b.String()
}

// aliasOf is " / WORD" for a lobby command's usage whose command has a
// word of its own in the words' language ("help / Hilfe"), else "".
func (e Words) aliasOf(usage string) string {
	if a := e.commandAlias(usage); a != "" {
		return " / " + a
	}
	return ""
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	return strings.ToUpper(string(r)) + s[n:]
}

// writeWrapped writes line to b wrapped at width (wrapLine), each line
// with its newline; a line that fits is written as it is, without the
// slice wrapLine would make of it.
func writeWrapped(b *strings.Builder, line string, width int) {
	if utf8.RuneCountInString(line) <= width {
		b.WriteString(line)
		b.WriteByte('\n')
		return
	}
	for _, l := range wrapLine(line, width) {
		b.WriteString(l)
		b.WriteByte('\n')
	}
}

// wrapLine breaks a line longer than width at spaces, as format=flowed
// (RFC 3676) wants it: every line but the last ends with a space, which
// marks a soft break, so that a mail program that reflows puts the line
// together again, and one that does not shows it wrapped. A continuation
// line is not indented: a flowed reader would keep the indentation inside
// the rejoined line. Each line, its space included, is at most width
// long where it can be broken.
func wrapLine(line string, width int) []string {
	if utf8.RuneCountInString(line) <= width {
		return []string{line}
	}
	indent := len(line) - len(strings.TrimLeft(line, " "))
	var out []string
	cur := line[:indent]
	curLen := indent
	words := strings.Fields(line[indent:])
	for i, w := range words {
		wl := utf8.RuneCountInString(w)
		// The soft break's space counts towards the width.
		if i > 0 && curLen+1+wl+1 > width {
			out = append(out, cur+" ")
			cur, curLen = w, wl
			continue
		}
		if i > 0 {
			cur += " "
			curLen++
		}
		cur += w
		curLen += wl
	}
	return append(out, cur)
}
