package templates

import (
	"strings"
	"text/template"
	"time"
	"unicode/utf8"

	"github.com/pbem/pbem/engine"
)

// lineWidth is the longest line a body has where it can be broken: short
// enough for a phone held upright.
const lineWidth = 72

// funcs are the helpers every template may call, the games' included
// (a game adds its own through engine.Presenter), in the language of w:
// T prints a message of the catalog, keyed by its English format
// ({{T "Your move: reply by %s" .DeadlineText}}), and list joins names
// with the language's "and".
func funcs(w Words) template.FuncMap {
	return template.FuncMap{
		"T":      w.f,
		"list":   w.joinAnd,
		"commas": func(s []string) string { return strings.Join(s, ", ") },
		"plural": engine.Plural,
		"upper":  upperFirst,
		"underline": func(s string) string {
			return s + "\n" + strings.Repeat("-", utf8.RuneCountInString(s))
		},
		"deref": func(p *int) int {
			if p == nil {
				return 0
			}
			return *p
		},
	}
}

// andList joins names for a sentence: "alice", "alice and bob",
// "alice, bob and carol".
func andList(s []string) string {
	switch len(s) {
	case 0:
		return ""
	case 1:
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	return strings.ToUpper(string(r)) + s[n:]
}

// deadlineText writes a deadline in the reader's zone: "Tue 24 Nov 18:00 CET".
func deadlineText(t time.Time, loc *time.Location) string {
	if t.IsZero() {
		return ""
	}
	if loc == nil {
		loc = time.UTC
	}
	return t.In(loc).Format("Mon 2 Jan 15:04 MST")
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
