package parser

import (
	"strings"
	"testing"

	"github.com/pbem/pbem/engine"
)

// TestProblemErrorNamesTheKind: what is logged and stored of a line
// that does not read is its kind and line, never the player's words,
// the reason in full, the options or the suggestions; the player's
// explanation still has them all.
func TestProblemErrorNamesTheKind(t *testing.T) {
	grammar := felixLang()
	grammar.Legal = func() []engine.Option { // the hand: 15 and the rabbit
		return []engine.Option{{Commands: []string{"play 15", "play rabbit"}}}
	}
	tests := []struct {
		line string
		want string
		told []string // what the player is told
	}{
		{"I hold 15 and still the rabbit, what now", "line 1: unknown command", []string{"I hold 15 and still the rabbit, what now", `"hold" is not a command`}},
		{"15", "line 1: unknown command", []string{`"play 15"`}},
		{"play dog", "line 1: ambiguous value", []string{"large-dog", "small-dog"}},
		{"play", "line 1: incomplete command", []string{"CARD is missing"}},
		{"bid lots", "line 1: not a number", []string{`"lots"`}},
		{"bid 4 wombat", "line 1: words after a command", []string{"wombat"}},
		{"say", "line 1: say refused", []string{"say TEXT"}},
		{"name", "line 1: bad argument", []string{"name NAME"}},
		{"pass\n" + strings.Repeat("x", 2000), "line 2: line too long", []string{"too long"}},
		{"", "no command found", []string{"found no command"}},
	}
	for _, tt := range tests {
		_, p := Read(tt.line, grammar)
		if p == nil {
			t.Errorf("Read(%.40q): no problem", tt.line)
			continue
		}
		if got := p.Error(); got != tt.want {
			t.Errorf("Read(%.40q): Error() = %q, want %q", tt.line, got, tt.want)
		}
		explained := strings.Join(strings.Fields(p.Explain()), " ")
		for _, s := range tt.told {
			if !strings.Contains(explained, s) {
				t.Errorf("Read(%.40q): the player is not told %q:\n%s", tt.line, s, p.Explain())
			}
		}
	}
}
