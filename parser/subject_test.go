package parser

import (
	"slices"
	"strings"
	"testing"
)

func TestSubjectText(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"bid 5", "bid 5"},
		{"Re: bid 5", "bid 5"},
		{"RE: RE: bid 5", "bid 5"},
		{"Fwd: pass", "pass"},
		{"FW: pass", "pass"},
		{"AW: WG: pass", "pass"},
		{"SV: pass", "pass"},
		{"Antw: pass", "pass"},
		{"Re[2]: pass", "pass"},
		{"Re (3): pass", "pass"},
		{"[pbem] Re: pass", "pass"},
		{"Re: [EXTERNAL] help", "help"},
		{"回复：help", "help"},
		{"  Re:pass  ", "pass"},
		{"Re: Felix #12: your turn to bid (round 2)", "Felix #12: your turn to bid (round 2)"},
		{"Reply", "Reply"},
		{"Re:", ""},
		{strings.Repeat("Re: ", 500) + "pass", ""},
	}
	for _, tt := range tests {
		if got := subjectText(tt.in); got != tt.want {
			t.Errorf("subjectText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// pbemSubjects are the subjects of pbem's own mails (templates'
// golden files): a reply keeps them, and they must never read as
// commands.
var pbemSubjects = []string{
	"Felix #12 is created",
	"Felix #12: game over — alice and carol share the win",
	"Felix #12: game over — alice wins",
	"Felix #12: new game, your turn to place a card (round 1)",
	"Felix #12: the commands you can send",
	"Felix #12: waiting for bob (round 2)",
	"Felix #12: your mail could not be read",
	"Felix #12: your mail was not applied",
	"Felix #12: your turn to bid (round 2)",
	"Felix #12: your turn to buy the row or pass (round 1)",
	"Felix #12: your turn to place a card (round 2)",
	"Gracias #7 will not start",
	"Gracias #7: game over — alice, bob and carol share the win",
	"Gracias #7: keep one card, give the other",
	"Gracias #7: new game, waiting for alice (session 1, round 1)",
	"Gracias #7: waiting for carol@example.org to join",
	"Gracias #7: your turn (session 1, round 3)",
	"The rules of Felix: The Cat in the Sack",
	"The rules of Gracias",
	"Your games on pbem",
	"alice@example.org invites you to Felix: The Cat in the Sack (Felix #12)",
	"pbem: the commands you can send",
	"pbem: which game do you mean?",
	"pbem: your mail was too large",
	"pbem could not handle your mail",
	"pbem game g42: your turn",
}

func TestReadMessageSubject(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		grammar     Grammar
		subject     string
		text        string
		want        []string
		prob        string // substring of the problem; "" for none
		fromSubject bool
	}{
		{"subject command, empty body", felixLang(), "bid 5", "", []string{"bid 5"}, "", true},
		{"reply prefix stripped", felixLang(), "Re: bid 5", "", []string{"bid 5"}, "", true},
		{"forward prefix and tag stripped", felixLang(), "[pbem] AW: Fwd: pass", "", []string{"pass"}, "", true},
		{"help in the subject", lobbyLang(), "help", "", []string{"help"}, "", true},
		{"several commands", felixLang(), "play rabbit; bid 4", "", []string{"play rabbit", "bid 4"}, "", true},
		{"subject then greeting and sign-off", felixLang(), "bid 5", "Hi Bob,\n\nThanks!\nAlice", []string{"bid 5"}, "", true},
		{"subject then prose in body", felixLang(), "bid 5", "See the subject.", []string{"bid 5"}, `line 1, "See the subject."`, true},
		{"subject then typo in body", felixLang(), "bid 5", "bif 4", []string{"bid 5"}, `did you mean "bid 4"`, true},
		{"body command wins", felixLang(), "bid 5", "pass", []string{"pass"}, "", false},
		{"body command with problem wins", felixLang(), "bid 5", "pass\nwhat now?", []string{"pass"}, "what now", false},
		{"subject not a command", felixLang(), "Re: hello there", "", nil, "no command found", false},
		{"subject with filler is not read", felixLang(), "I bid 5", "", nil, "no command found", false},
		{"subject typo is not a problem", felixLang(), "bif 5", "", nil, "no command found", false},
		{"subject typo keeps the body's problem", felixLang(), "bif 5", "plya rabbit", nil, `"plya rabbit"`, false},
		{"half a command in the subject", felixLang(), "bid 5 bananas", "", nil, "no command found", false},
		{"game command outside a game", lobbyLang(), "bid 5", "", nil, "no command found", false},
		{"empty subject", felixLang(), "", "", nil, "no command found", false},
		{"sign-off only", felixLang(), "Thanks!", "", nil, "no command found", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmds, prob, from := ReadMessage(Message{Subject: tt.subject, Text: tt.text}, tt.grammar)
			var got []string
			for _, c := range cmds {
				got = append(got, c.Text)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("commands = %q, want %q", got, tt.want)
			}
			if from != tt.fromSubject {
				t.Errorf("fromSubject = %v, want %v", from, tt.fromSubject)
			}
			switch {
			case tt.prob == "" && prob != nil:
				t.Errorf("unexpected problem %v", prob)
			case tt.prob != "" && prob == nil:
				t.Errorf("no problem, want one with %q", tt.prob)
			case tt.prob != "" && !strings.Contains(problemText(prob), tt.prob):
				t.Errorf("problem %q lacks %q", problemText(prob), tt.prob)
			}
			if from && len(cmds) > 0 && (cmds[0].Line != 0 || cmds[0].Source == "") {
				t.Errorf("subject command %+v: want Line 0 and its Source", cmds[0])
			}
		})
	}
}

// TestReadMessageOwnSubjects: replying to any of pbem's mails with an
// empty body, or with a body that says something, gives exactly what
// reading the body alone gives, in every language, with every reply
// prefix.
func TestReadMessageOwnSubjects(t *testing.T) {
	t.Parallel()
	langs := map[string]Grammar{"lobby": lobbyLang(), "felix": felixLang(), "gracias": graciasLang()}
	bodies := []string{"", "Hello!", "bif 4", "pass", "take 2\nkeep red give bob", "what now?"}
	for _, subj := range pbemSubjects {
		for _, prefix := range []string{"", "Re: ", "RE: ", "AW: ", "Fwd: ", "SV: ", "Antw: "} {
			for name, grammar := range langs {
				for _, body := range bodies {
					wantCmds, wantProb := Read(body, grammar)
					cmds, prob, from := ReadMessage(Message{Subject: prefix + subj, Text: body}, grammar)
					if from || !slices.EqualFunc(cmds, wantCmds, func(a, b Command) bool { return a.Text == b.Text }) ||
						(prob == nil) != (wantProb == nil) || (prob != nil && problemText(prob) != problemText(wantProb)) {
						t.Errorf("%s, subject %q, body %q: got %v %v %v, want %v %v", name, prefix+subj, body, cmds, prob, from, wantCmds, wantProb)
					}
				}
			}
		}
	}
}
