package parser

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/pbem/pbem/parser/hostile"
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
	// A one-tap link's mail: the command, then its reference line.
	f.Add([]byte(tapMail("bid 5\r\n\r\n" + RefLine(testRef) + "\r\n")))
	f.Add([]byte(tapMail(RefLine(testRef) + "\r\npbem REF: " + testRef + testRef + testRef + "\r\n> " + RefLine("q") + "\r\n")))
	f.Add([]byte("Content-Type: multipart/mixed; boundary=x\n\n--x\nContent-Type: multipart/alternative; boundary=y\n\n--y\n"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		defer timeLimited(t)()
		m, err := Extract(bytes.NewReader(raw), corpusOptions)
		if err != nil {
			return
		}
		if len(m.Text) > len(m.Body) {
			t.Fatalf("Text (%d bytes) is longer than Body (%d bytes)", len(m.Text), len(m.Body))
		}
		if m.Ref != "" && (!validRef(m.Ref) || m.Ref != strings.ToLower(m.Ref)) {
			t.Fatalf("Ref %q is no reference", m.Ref)
		}
		for _, line := range strings.Split(m.Text, "\n") {
			if l := strings.TrimSpace(line); len(l) >= len(RefPrefix) && strings.EqualFold(l[:len(RefPrefix)], RefPrefix) {
				t.Fatalf("a reference line stays in the text: %q", line)
			}
		}
		Read(m.Text, felixLang())
	})
}

// fuzzLimits are small limits, so that the small inputs a fuzzer makes
// reach them.
var fuzzLimits = ExtractOptions{
	ServiceAddress: "game@pbem.example",
	MaxDepth:       4, MaxParts: 12, MaxHeaderFields: 40, MaxFieldBytes: 300,
	MaxTextBytes: 2000, MaxHTMLNodes: 60, MaxHTMLDepth: 8,
}

// FuzzExtractHostile feeds the hostile corpus and its mutations to
// Extract with small limits. Beyond not panicking, the work each input
// costs must stay within what the limits allow, counted rather than
// timed: the pre-scan looks at each byte once and compares a line with
// at most one boundary per open level; the text normalised and cut, and
// the HTML built into a tree, stay within their bounds. A refusal names
// its limit; header text holds no control character; a From that passes
// names no other address in its display name.
func FuzzExtractHostile(f *testing.F) {
	for _, m := range hostile.Corpus() {
		if len(m.Raw) <= 4<<10 {
			f.Add(m.Raw)
		}
	}
	for _, raw := range [][]byte{hostile.Nested(6), hostile.Wide(14), hostile.Unclosed(14), hostile.ManyHeaders(45),
		hostile.LongHeaderLine(400), hostile.LongBodyLine(3000), hostile.NestedHTML(12), hostile.Expanding(900)} {
		f.Add(raw)
	}
	lim := fuzzLimits.limits()
	f.Fuzz(func(t *testing.T, raw []byte) {
		defer timeLimited(t)()
		m, w, err := extract(bytes.NewReader(raw), fuzzLimits)
		if w.scanned > (lim.depth+2)*(len(raw)+1) {
			t.Fatalf("the pre-scan looked at %d bytes of %d", w.scanned, len(raw))
		}
		if w.textBytes > lim.textBytes || len(m.Body) > lim.textBytes || len(m.Text) > len(m.Body) {
			t.Fatalf("text of %d bytes, Body %d, Text %d", w.textBytes, len(m.Body), len(m.Text))
		}
		if w.htmlNodes > 4*lim.htmlNodes+16 {
			t.Fatalf("%d HTML nodes built", w.htmlNodes)
		}
		var he *HostileError
		if errors.Is(err, ErrHostile) != errors.As(err, &he) {
			t.Fatalf("err = %v", err)
		}
		if he != nil {
			switch he.Limit {
			case LimitDepth, LimitParts, LimitHeaderFields, LimitFieldBytes:
			default:
				t.Fatalf("refused for %q", he.Limit)
			}
		}
		for _, s := range []string{m.Subject, m.From, m.FromName, m.FromAddress} {
			if strings.IndexFunc(s, isControl) >= 0 {
				t.Fatalf("control character in %q", s)
			}
		}
		if m.FromProblem == "" && m.FromAddress != "" && addressIn(m.FromName, m.FromAddress) != "" {
			t.Fatalf("From %q names another address than %q", m.FromName, m.FromAddress)
		}
		if m.FromProblem != "" && m.FromName != "" {
			t.Fatalf("FromName %q with a problem %q", m.FromName, m.FromProblem)
		}
		_ = Automatic(m)
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
		"new felix with bob@x.test, carol@y.test and a strong bot deadline 48h", "new gracias with 2 bots",
		"new felix with bot:strong bob@x.test", "new felix with two easy bots and one bot:normal",
		"new felix with a@x.test clock 2d + 12h max 5d, weekends off", "new felix with a@x.test clock 2 days deadline 48h",
		"new felix with a genius bot", "new felix with 99999999999999999999 bots", "new felix with Robo Bot <r@x.test>, a bot",
		"pass 👍🏽", "1. play rabbit\n2) bid up to 7\n• pass", "I'll bid 7 this time.", "OK, thanks", "so well this time",
	} {
		f.Add(s)
	}
	langs := []Grammar{lobbyLang(), felixLang(), graciasLang()}
	f.Fuzz(func(t *testing.T, text string) {
		defer timeLimited(t)()
		for _, grammar := range langs {
			cmds, prob := Read(text, grammar)
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
					again, p := Read(c.Text, grammar)
					if p != nil || len(again) != 1 || again[0].Text != c.Text {
						t.Fatalf("Read(%q): canonical %q does not read back: %v %v", text, c.Text, again, p)
					}
				}
				if len(c.Bots) > MaxBots {
					t.Fatalf("Read(%q): %d bots", text, len(c.Bots))
				}
				if c.Clock.On() {
					// A clock is within its bounds, never with a deadline,
					// and reads back as it was.
					if !clockInBounds(c.Clock) || c.Deadline != 0 {
						t.Fatalf("Read(%q): clock %+v, deadline %v", text, c.Clock, c.Deadline)
					}
					again, p := Read(c.Text, grammar)
					if p != nil || len(again) != 1 || again[0].Text != c.Text || again[0].Clock != c.Clock {
						t.Fatalf("Read(%q): canonical %q does not read back: %v %v", text, c.Text, again, p)
					}
				}
				if c.Name == "new" && len(c.Bots) > 0 {
					// Bot seats read back as they were: canonical "bot:LEVEL".
					again, p := Read(c.Text, grammar)
					if p != nil || len(again) != 1 || again[0].Text != c.Text || !slices.Equal(again[0].Bots, c.Bots) {
						t.Fatalf("Read(%q): canonical %q does not read back: %v %v", text, c.Text, again, p)
					}
				}
			}
			if prob != nil {
				_ = prob.Explain()
				if why := toldWrong(prob); why != "" {
					t.Fatalf("Read(%q): %s", text, why)
				}
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
	langs := []Grammar{lobbyLang(), felixLang(), graciasLang()}
	f.Fuzz(func(t *testing.T, subject, text string) {
		defer timeLimited(t)()
		for _, grammar := range langs {
			want, wantProb := Read(text, grammar)
			cmds, prob, from := ReadMessage(Message{Subject: subject, Text: text}, grammar)
			if len(cmds) == 0 && prob == nil {
				t.Fatalf("ReadMessage(%q, %q): no commands and no problem", subject, text)
			}
			if from {
				if len(want) != 0 || len(cmds) == 0 || cmds[0].Line != 0 {
					t.Fatalf("ReadMessage(%q, %q): from the subject with %v (text alone: %v)", subject, text, cmds, want)
				}
				continue
			}
			if len(cmds) != len(want) || (prob == nil) != (wantProb == nil) || (prob != nil && problemText(prob) != problemText(wantProb)) {
				t.Fatalf("ReadMessage(%q, %q) = %v %v, Read = %v %v", subject, text, cmds, prob, want, wantProb)
			}
		}
	})
}

// inputTimeLimit bounds the time of one fuzz input: far above what any
// input takes (milliseconds), so that it cannot fail on a loaded machine,
// and far below the minutes a hostile input once cost. Work counts, where
// a target has them, are the exact bound; this is the backstop.
const inputTimeLimit = 5 * time.Second

// timeLimited fails t if the input it was called for took longer than
// inputTimeLimit: defer timeLimited(t)().
func timeLimited(t *testing.T) func() {
	start := time.Now()
	return func() {
		if d := time.Since(start); d > inputTimeLimit {
			t.Fatalf("one input took %s, over the limit of %s", d.Round(time.Millisecond), inputTimeLimit)
		}
	}
}
