package parser

import (
	"fmt"
	"strings"
	"testing"
)

// TestDeepHTMLIsRead is issue 23's finding: the HTML parser refuses
// more than 512 open elements, below pbem's old depth limit of 1000, so
// a reply nested 513 to 1000 deep read as "no command found". Every
// depth is read now: as a tree up to DefaultMaxHTMLDepth, flat beyond
// it, and flat too when the parser refuses a body whose depth pbem
// counts as lower (each level of nested tables opens four elements, of
// which only the table counts).
func TestDeepHTMLIsRead(t *testing.T) {
	nested := func(open, close string, levels int) string {
		return strings.Repeat(open, levels) + "bid 4" + strings.Repeat(close, levels)
	}
	tests := []struct {
		name string
		html string
		flat bool
	}{
		{"divs 100", nested("<div>", "</div>", 100), false},
		{"divs at the limit", nested("<div>", "</div>", DefaultMaxHTMLDepth), false},
		{"divs 513", nested("<div>", "</div>", 513), true},
		{"divs 700", nested("<div>", "</div>", 700), true},
		{"divs 1000", nested("<div>", "</div>", 1000), true},
		{"divs 1001 unclosed", nested("<div>", "", 1001), true},
		{"spans 600", nested("<span>", "</span>", 600), true},
		{"tables 150", nested("<table><tr><td>", "</td></tr></table>", 150), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw := "From: Bob <bob@x.test>\r\nTo: game@pbem.example\r\nSubject: Re: Felix\r\nMIME-Version: 1.0\r\n" +
				"Content-Type: text/html; charset=utf-8\r\n\r\n<html><body>" + tt.html + "</body></html>\r\n"
			m, w, err := extract(strings.NewReader(raw), ExtractOptions{})
			if err != nil {
				t.Fatal(err)
			}
			cmds, prob := Read(m.Text, felixLang())
			if prob != nil || len(cmds) != 1 || cmds[0].Text != "bid 4" {
				t.Errorf("read %v, %v from %.60q; want bid 4", cmds, prob, m.Text)
			}
			if w.htmlFlat != tt.flat {
				t.Errorf("read flat: %v, want %v", w.htmlFlat, tt.flat)
			}
		})
	}
}

// TestHTMLDepthOption checks that a depth limit above what the HTML
// parser accepts is lowered to it.
func TestHTMLDepthOption(t *testing.T) {
	for _, depth := range []int{0, 1000, 1 << 20} {
		if got := (ExtractOptions{MaxHTMLDepth: depth}).limits().htmlDepth; got != DefaultMaxHTMLDepth {
			t.Errorf("MaxHTMLDepth %d: limit %d, want %d", depth, got, DefaultMaxHTMLDepth)
		}
	}
	if got := (ExtractOptions{MaxHTMLDepth: 8}).limits().htmlDepth; got != 8 {
		t.Errorf("MaxHTMLDepth 8: limit %d", got)
	}
	if DefaultMaxHTMLDepth+2 > htmlParserDepth {
		t.Error(fmt.Sprint("DefaultMaxHTMLDepth leaves no room for html and body below ", htmlParserDepth))
	}
}
