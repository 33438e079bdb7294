package parser

import (
	"strings"
	"testing"
)

// TestSay: say takes the rest of the mail as one sanitized paragraph,
// ends the reading, refuses an empty or too long text, and never puts
// the words in Text (which logs may show).
func TestSay(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, text string
		names      []string // the commands' names
		said       string   // the say's words
		problem    string   // in the Problem's reason, "" for none
	}{
		{"alone", "say Good luck, all!", []string{"say"}, "Good luck, all!", ""},
		{"colon", "Say: hi", []string{"say"}, "hi", ""},
		{"rest of the mail", "say first line\n\nsecond line\nbid 4", []string{"say"}, "first line second line bid 4", ""},
		{"after a move", "play rabbit\nsay sorry, bob", []string{"play", "say"}, "sorry, bob", ""},
		{"mid-line", "pass, say sorry bob\nhistory", []string{"pass", "say", "history"}, "sorry bob", ""},
		{"controls", "say a\x07b \u202ec\u200bd", []string{"say"}, "ab cd", ""},
		{"empty", "say", nil, "", "write what to tell"},
		{"500", "say " + strings.Repeat("x", MaxSayRunes), []string{"say"}, strings.Repeat("x", MaxSayRunes), ""},
		{"501", "say " + strings.Repeat("é", MaxSayRunes+1), nil, "", "at most 500 characters"},
		{"huge", "say " + strings.Repeat("word ", 200000), nil, "", "at most 500 characters"},
		{"not a prefix", "sa hello", nil, "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cmds, prob := Read(tt.text, felixLang())
			var names []string
			for _, c := range cmds {
				names = append(names, c.Name)
				if c.Name == "say" && c.Text != "say" {
					t.Errorf("Text %q holds the words", c.Text)
				}
			}
			if tt.name == "not a prefix" {
				if len(cmds) > 0 || prob == nil {
					t.Errorf("%q read as %v", tt.text, names)
				}
				return
			}
			if strings.Join(names, " ") != strings.Join(tt.names, " ") {
				t.Errorf("commands %v, want %v", names, tt.names)
			}
			switch {
			case tt.problem == "" && prob != nil:
				t.Errorf("problem: %v", prob)
			case tt.problem != "" && (prob == nil || !strings.Contains(prob.Reason, tt.problem)):
				t.Errorf("problem %v, want %q", prob, tt.problem)
			case tt.problem != "" && prob.Text != "say":
				t.Errorf("the problem quotes %q", prob.Text)
			}
			for _, c := range cmds {
				if c.Name == "say" && c.Said != tt.said {
					t.Errorf("said %q, want %q", c.Said, tt.said)
				}
			}
		})
	}
}

// TestSayInSubject: a say in the Subject takes the rest of the Subject.
func TestSayInSubject(t *testing.T) {
	t.Parallel()
	cmds, prob, fromSubject := ReadMessage(Message{Subject: "Re: say see you all", Text: ""}, felixLang())
	if prob != nil || !fromSubject || len(cmds) != 1 || cmds[0].Said != "see you all" {
		t.Errorf("cmds %+v, prob %v, from subject %v", cmds, prob, fromSubject)
	}
}
