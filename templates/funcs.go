package templates

import (
	"fmt"
	"strings"
	"text/template"
	"time"
	"unicode/utf8"
)

// lineWidth is the longest line a body has where it can be broken: short
// enough for a phone held upright.
const lineWidth = 72

// funcs are the helpers every template may call, the games' included
// (a game adds its own through engine.Presenter).
func funcs() template.FuncMap {
	return template.FuncMap{
		"list":   andList,
		"commas": func(s []string) string { return strings.Join(s, ", ") },
		"plural": plural,
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

// plural writes a count with its noun: "1 mouse", "3 mice".
func plural(n int, one, many string) string {
	if n == 1 || n == -1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
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

// wrapLine breaks a line longer than width at spaces. Continuation lines
// are indented under the text of a bullet ("- ", "12. ") or under the
// line's own indentation.
func wrapLine(line string, width int) []string {
	if utf8.RuneCountInString(line) <= width {
		return []string{line}
	}
	indent := len(line) - len(strings.TrimLeft(line, " "))
	rest := line[indent:]
	hang := indent
	if strings.HasPrefix(rest, "- ") || strings.HasPrefix(rest, "* ") {
		hang += 2
	} else if i := strings.Index(rest, ". "); i > 0 && i <= 3 && isDigits(rest[:i]) {
		hang += i + 2
	}
	var out []string
	cur := line[:indent]
	curLen := indent
	words := strings.Fields(rest)
	for i, w := range words {
		wl := utf8.RuneCountInString(w)
		if i > 0 && curLen+1+wl > width {
			out = append(out, cur)
			cur = strings.Repeat(" ", hang) + w
			curLen = hang + wl
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

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}
