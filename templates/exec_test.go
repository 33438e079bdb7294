package templates

import (
	"strings"
	"testing"
)

// TestTidyHTMLAsSplit checks tidyHTML, which copies lines out of the
// executed template's buffer, against the plain split-trim-join it
// replaced (issue 40): the HTML parts must stay byte for byte.
func TestTidyHTMLAsSplit(t *testing.T) {
	split := func(s string) string {
		var b strings.Builder
		for _, line := range strings.Split(s, "\n") {
			if line = strings.TrimSpace(line); line != "" {
				b.WriteString(line + "\n")
			}
		}
		return b.String()
	}
	for _, s := range []string{
		"", "\n", "\n\n\n", "a", "a\n", "  a  \n\n\t b\t\n", "<p>\n  x\n</p>", "\u00a0y\u00a0\n\r\nz\r",
		"last line without newline\n   ", strings.Repeat("  <td>x</td>\n\n", 50),
	} {
		if got, want := tidyHTML([]byte(s)), split(s); got != want {
			t.Errorf("tidyHTML(%q) = %q, want %q", s, got, want)
		}
	}
}

// TestTidyBodyEnds checks that a body ends in exactly one newline
// whatever its template leaves, as it did when tidyBody trimmed a copy.
func TestTidyBodyEnds(t *testing.T) {
	cases := []struct{ headline, marker, body, want string }{
		{"", "", "", "\n"},
		{"", "", "\n\n\n", "\n"},
		{"", "", "a\n\n\n", "a\n"},
		{"", "", "a", "a\n"},
		{"H", "", "", "H\n"},
		{"H", "M", "", "H\n\nM\n"},
		{"H", "M", "\n\na  \n\n\nb\n\n", "H\n\nM\n\na\n\nb\n"},
		{"", "", "x\n--\nfooter line\n", "x\n-- \nfooter line\n"},
	}
	for _, c := range cases {
		if got := tidyBody(c.headline, c.marker, c.body); got != c.want {
			t.Errorf("tidyBody(%q, %q, %q) = %q, want %q", c.headline, c.marker, c.body, got, c.want)
		}
	}
}

// TestScratchBuffersDoNotLeak renders two parts through one scratch in
// turn: the second holds nothing of the first, though it reuses its
// buffer.
func TestScratchBuffersDoNotLeak(t *testing.T) {
	r := newRenderer(t)
	set := r.set("")
	long, err := r.buf.text(set.t, "help.subject", newNoticeData(Notice{Kind: NoticeHelp, Service: strings.Repeat("x", 500)}, r.rules, set.words))
	if err != nil {
		t.Fatal(err)
	}
	short, err := r.buf.text(set.t, "help.subject", newNoticeData(Notice{Kind: NoticeHelp, Service: "p"}, r.rules, set.words))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(short, "xx") || len(short) >= len(long) {
		t.Errorf("the second part holds the first's: %q", short)
	}
}
