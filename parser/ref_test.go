package parser

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// tapMail is a mail as a one-tap link writes it: a fresh mail to the
// seat's address whose body is the command, a blank line and the
// reference line, as the link's percent-encoded CRLFs decode.
func tapMail(body string) string {
	return "From: Bob <bob@y.test>\r\n" +
		"To: game+s1@pbem.example\r\n" +
		"Subject: Re: Felix #12: your turn to bid (round 2)\r\n" +
		"Message-ID: <tap1@y.test>\r\n" +
		"\r\n" + body
}

const testRef = "x4kq2m7ddfjlwzgr6tcoyb3h"

// A reference line is metadata: it leaves the player's text, never
// reads as a command or stops the reading, and gives Message.Ref; a
// quoted one, or one that is no ref, gives none.
func TestRefLine(t *testing.T) {
	t.Parallel()
	huge := strings.Repeat("a", 200_000)
	many := strings.Repeat("pbem ref: "+testRef+"\r\n", 5000)
	cases := []struct {
		name, body string
		ref        string
		cmds       []string // nil: no command read
	}{
		{"with the command", "bid 5\r\n\r\n" + RefLine(testRef) + "\r\n", testRef, []string{"bid 5"}},
		{"alone", RefLine(testRef) + "\r\n", testRef, nil},
		{"first, then the command", RefLine(testRef) + "\r\nbid 5\r\n", testRef, []string{"bid 5"}},
		{"any case and spaces", "pass\r\n\r\n   PBEM Ref:   " + strings.ToUpper(testRef) + "  \r\n", testRef, []string{"pass"}},
		{"between two commands", "bid 5\r\npbem ref: " + testRef + "\r\npass\r\n", testRef, []string{"bid 5", "pass"}},
		{"with a signature below", "bid 5\r\n\r\n" + RefLine(testRef) + "\r\n\r\nSent from my iPhone\r\n", testRef, []string{"bid 5"}},
		{"quoted only", "bid 5\r\n\r\n> " + RefLine(testRef) + "\r\n", "", []string{"bid 5"}},
		{"quoted and own", "bid 5\r\n" + RefLine("own1") + "\r\n\r\n> " + RefLine(testRef) + "\r\n", "own1", []string{"bid 5"}},
		{"the first of several", "bid 5\r\n" + RefLine("first") + "\r\n" + RefLine("second") + "\r\n", "first", []string{"bid 5"}},
		{"many", "bid 5\r\n" + many, testRef, []string{"bid 5"}},
		{"huge", "bid 5\r\n\r\npbem ref: " + huge + "\r\n", "", []string{"bid 5"}},
		{"huge, then a good one", "bid 5\r\npbem ref: " + huge + "\r\n" + RefLine("good") + "\r\n", "good", []string{"bid 5"}},
		{"not letters and digits", "bid 5\r\npbem ref: <x@y>\r\n", "", []string{"bid 5"}},
		{"empty", "bid 5\r\npbem ref:\r\n", "", []string{"bid 5"}},
		{"in the middle of a line", "bid 5 pbem ref: " + testRef + "\r\n", "", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := Extract(strings.NewReader(tapMail(c.body)), ExtractOptions{ServiceAddress: "game@pbem.example"})
			if err != nil {
				t.Fatal(err)
			}
			if m.Ref != c.ref {
				t.Errorf("Ref = %.80q, want %q", m.Ref, c.ref)
			}
			if c.name != "in the middle of a line" && containsFold(m.Text, RefPrefix) {
				t.Errorf("the reference line stays in the text: %.200q", m.Text)
			}
			cmds, prob, _ := ReadMessage(m, felixLang())
			var got []string
			for _, cmd := range cmds {
				got = append(got, cmd.Text)
			}
			if !slices.Equal(got, c.cmds) {
				t.Errorf("commands %q, want %q", got, c.cmds)
			}
			switch {
			case c.cmds != nil && prob != nil:
				t.Errorf("the reference line stopped the reading: %v", prob)
			case c.cmds == nil && c.name == "alone" && (prob == nil || prob.Line != 0):
				// Nothing but the ref: "no command", never a complaint
				// about the ref line itself.
				t.Errorf("problem %v, want that no command was found", prob)
			}
		})
	}
}

// takeRef's work grows with the text, not with the lines' count or
// length times anything: many and huge ref lines cost one pass.
func TestTakeRefBounded(t *testing.T) {
	t.Parallel()
	for _, n := range []int{10, 1000, 100_000} {
		text := strings.Repeat("pbem ref: "+strings.Repeat("z", 70)+"\n", n)
		rest, ref := takeRef(text)
		if rest != "" || ref != "" {
			t.Fatalf("%d lines: rest %d bytes, ref %q", n, len(rest), ref)
		}
	}
	text := fmt.Sprintf("bid 5\npbem ref: %s", strings.Repeat("q", 1<<20))
	if rest, ref := takeRef(text); rest != "bid 5" || ref != "" {
		t.Fatalf("a huge ref: rest %q, ref %.20q", rest, ref)
	}
}
