package parser

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"
)

// FuzzExtract feeds raw messages to Extract: it must never panic and
// must return text that Read can take.
func FuzzExtract(f *testing.F) {
	paths, _ := filepath.Glob("testdata/corpus/*.eml")
	for _, p := range paths {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(headerTestMail))
	f.Add([]byte("Content-Type: multipart/mixed; boundary=x\n\n--x\nContent-Type: multipart/alternative; boundary=y\n\n--y\n"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		m, err := Extract(bytes.NewReader(raw), corpusOptions)
		if err != nil {
			return
		}
		if len(m.Text) > len(m.Body) {
			t.Fatalf("Text (%d bytes) is longer than Body (%d bytes)", len(m.Text), len(m.Body))
		}
		Read(m.Text, felixLang())
	})
}

// FuzzRead feeds texts to Read in each language: no panic, commands only
// in canonical form, and a problem whenever nothing was read.
func FuzzRead(f *testing.F) {
	for _, s := range []string{
		"bid 4", "I bid 4 mice!", "play the large dog", "take 2, keep red, give bob",
		"new felix with a@x.test, Bob <b@y.test> and c@z.test", "name Bob the Bold",
		"Hi all,\n\npass\nCheers", "bif 4", "play dog", "rules gracias\nhelp\nquit",
		"keep the blue one and give it to carol", "one two three and then four, five; six.",
	} {
		f.Add(s)
	}
	langs := []Language{lobbyLang(), felixLang(), graciasLang()}
	f.Fuzz(func(t *testing.T, text string) {
		for _, lang := range langs {
			cmds, prob := Read(text, lang)
			if len(cmds) == 0 && prob == nil {
				t.Fatalf("Read(%q): no commands and no problem", text)
			}
			if len(cmds) > MaxCommands {
				t.Fatalf("Read(%q): %d commands", text, len(cmds))
			}
			for _, c := range cmds {
				if c.Text == "" || !utf8.ValidString(c.Text) && utf8.ValidString(text) {
					t.Fatalf("Read(%q): bad command %+v", text, c)
				}
				if !c.Lobby {
					again, p := Read(c.Text, lang)
					if p != nil || len(again) != 1 || again[0].Text != c.Text {
						t.Fatalf("Read(%q): canonical %q does not read back: %v %v", text, c.Text, again, p)
					}
				}
			}
			if prob != nil {
				_ = prob.Explain()
			}
		}
	})
}

// FuzzReadMessage feeds subjects and texts to ReadMessage: the Subject
// counts only when the text has no command, and then only with commands
// of its own; otherwise the result is exactly Read's.
func FuzzReadMessage(f *testing.F) {
	for _, s := range append([]string{"bid 5", "Re: [pbem] AW: pass", "Re[2]: help", "I bid 5", "Re: Felix #12: your turn to bid (round 2)"}, pbemSubjects...) {
		f.Add(s, "")
		f.Add(s, "Hi,\nbif 4\nThanks")
	}
	langs := []Language{lobbyLang(), felixLang(), graciasLang()}
	f.Fuzz(func(t *testing.T, subject, text string) {
		for _, lang := range langs {
			want, wantProb := Read(text, lang)
			cmds, prob, from := ReadMessage(Message{Subject: subject, Text: text}, lang)
			if len(cmds) == 0 && prob == nil {
				t.Fatalf("ReadMessage(%q, %q): no commands and no problem", subject, text)
			}
			if from {
				if len(want) != 0 || len(cmds) == 0 || cmds[0].Line != 0 {
					t.Fatalf("ReadMessage(%q, %q): from the subject with %v (text alone: %v)", subject, text, cmds, want)
				}
				continue
			}
			if len(cmds) != len(want) || (prob == nil) != (wantProb == nil) || (prob != nil && prob.Error() != wantProb.Error()) {
				t.Fatalf("ReadMessage(%q, %q) = %v %v, Read = %v %v", subject, text, cmds, prob, want, wantProb)
			}
		}
	})
}
