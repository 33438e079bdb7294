package templates

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/felix"
	"github.com/pbem/pbem/engine/games"
	"github.com/pbem/pbem/engine/gracias"
	"github.com/pbem/pbem/parser"
)

// offeredLines are the lines of a game mail's text that offer commands:
// those under "Your move" and under "you may send these now" (indented
// by two spaces), and the footer's. An offered line is a command, the
// words of several commands with the values that set them apart
// ("play -8 · 3 · rabbit", "bid 2 · 3 · 4 · … · 17"), or a pattern with an
// example ("take T keep COLOUR give PLAYER, e.g. take 4 keep red give
// bob").
func offeredLines(text string) (options, footer []string) {
	lines := strings.Split(text, "\n")
	in := false
	for i, l := range lines {
		switch {
		case strings.HasPrefix(l, "Your move:"), strings.HasSuffix(l, "you may send these now:"),
			strings.HasSuffix(l, "You may send these now:"), strings.HasSuffix(l, "You may send this now:"):
			in = true
		case in && strings.HasPrefix(l, "  "):
			options = append(options, strings.TrimSpace(l))
		default:
			in = false
		}
		if l == sigSep && i+1 < len(lines) {
			rest, _ := strings.CutPrefix(lines[i+1], "Any time: ")
			footer = strings.Split(rest, " · ")
		}
	}
	return options, footer
}

// commandsOf spells out the commands an offered line stands for.
func commandsOf(t *testing.T, line string) []string {
	t.Helper()
	if _, ex, ok := strings.Cut(line, ", e.g. "); ok {
		return []string{ex}
	}
	parts := strings.Split(line, " · ")
	if len(parts) == 1 {
		return parts
	}
	i := strings.LastIndexByte(parts[0], ' ')
	if i < 0 {
		t.Fatalf("the offered line %q has no words before its values", line)
	}
	prefix := parts[0][:i]
	vals := append([]string{parts[0][i+1:]}, parts[1:]...)
	var out []string
	for j, v := range vals {
		if v != "…" {
			out = append(out, prefix+" "+v)
			continue
		}
		// "3 · 4 · … · 17": every whole number between.
		lo, err1 := strconv.Atoi(vals[j-1])
		hi, err2 := strconv.Atoi(vals[j+1])
		if j == 0 || j == len(vals)-1 || err1 != nil || err2 != nil {
			t.Fatalf("the offered line %q has a … not between numbers", line)
		}
		for n := lo + 1; n < hi; n++ {
			out = append(out, fmt.Sprintf("%s %d", prefix, n))
		}
	}
	return out
}

// TestEveryOfferedLineReads copies every line a game mail offers, in
// every mail of whole games of every game and size, and sends it back as
// that seat would at that moment: the parser must read each command it
// stands for as exactly one command, and the game must take it (a move,
// or an order ahead of the seat's turn); the footer's must read as the
// commands that may be sent at any time.
func TestEveryOfferedLineReads(t *testing.T) {
	r := newRenderer(t)
	anyTime := map[string]bool{"help": true, "status": true, "history": true, "rules": true, "notify": true}
	sizes := map[string][]int{"felix": {3, 4, 5}, "gracias": {3, 4, 5, 6}}
	for _, rules := range []engine.Rules{felix.Rules{}, gracias.Rules{}} {
		for _, n := range sizes[rules.Name()] {
			t.Run(fmt.Sprintf("%s-%dp", rules.Name(), n), func(t *testing.T) {
				t.Parallel()
				lang := parser.Grammar{Games: games.Names(), Specs: rules.Specs(), Nouns: engine.NounsOf(rules)}
				mails, cmds := 0, 0
				randomGame(t, rules, n, uint64(300+n), func(g engine.Game, seat int, kind MailKind, happened, _ []engine.Event) {
					m := mailFor(t, g, seat, kind, happened)
					mail, err := r.Game(m)
					if err != nil {
						t.Fatal(err)
					}
					mails++
					lang.Players = g.Players()
					options, footer := offeredLines(mail.Text)
					if len(m.Options) > 0 && !m.Finished && len(options) == 0 {
						t.Fatalf("the mail to %s offers no line to copy:\n%s", m.Reader, mail.Text)
					}
					for _, line := range options {
						if strings.Contains(line, "|") {
							t.Errorf("the offered line %q has a pattern of choices", line)
						}
						for _, c := range commandsOf(t, line) {
							cmds++
							read, prob := parser.Read(c, lang)
							if prob != nil || len(read) != 1 || read[0].Lobby {
								t.Fatalf("the mail to %s offers %q (from %q), which reads as %v, %v:\n%s", m.Reader, c, line, read, prob, mail.Text)
							}
							if _, err := g.Clone().Apply(seat, read[0].Move); err != nil {
								t.Fatalf("the mail to %s offers %q (from %q), which the game refuses: %v\n%s", m.Reader, c, line, err, mail.Text)
							}
						}
					}
					if len(footer) == 0 {
						t.Fatalf("the mail to %s has no footer of commands:\n%s", m.Reader, mail.Text)
					}
					for _, c := range footer {
						read, prob := parser.Read(c, lang)
						if prob != nil || len(read) != 1 || !read[0].Lobby || !anyTime[read[0].Name] {
							t.Fatalf("the footer offers %q, which reads as %v, %v", c, read, prob)
						}
					}
				})
				t.Logf("%d mails, %d commands offered and read", mails, cmds)
			})
		}
	}
}
