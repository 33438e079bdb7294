package engine_test

import (
	"strings"
	"testing"
	"time"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/felix"
)

// testSpecs has the shape of Gracias's commands, to show the grammar
// handles several words, players and choices without knowing the game.
func testSpecs() []engine.Spec {
	colour := engine.ChoiceArg("COLOUR",
		engine.ChoiceVal{Value: "red"}, engine.ChoiceVal{Value: "orange"}, engine.ChoiceVal{Value: "blue"})
	return []engine.Spec{
		{Name: "take", Words: []engine.Word{engine.Kw("take"), engine.NumArg("T")}},
		{Name: "keep", Words: []engine.Word{engine.Kw("keep"), colour, engine.Kw("give"), engine.PlayerArg("PLAYER")}},
		{Name: "take-keep", Words: []engine.Word{engine.Kw("take"), engine.NumArg("T"), engine.Kw("keep"), colour, engine.Kw("give"), engine.PlayerArg("PLAYER")}},
	}
}

func TestParseCommand(t *testing.T) {
	t.Parallel()
	players := []string{"alice", "bob", "bobby", "carol"}
	felixSpecs := felix.Rules{}.Specs()
	tests := []struct {
		specs []engine.Spec
		in    string
		want  string // canonical text, or "error: substring"
	}{
		{felixSpecs, "play rabbit", "play rabbit"},
		{felixSpecs, "PLAY Rabbit", "play rabbit"},
		{felixSpecs, "  play   large   dog ", "play large-dog"},
		{felixSpecs, "play big dog", "play large-dog"},
		{felixSpecs, "play little dog", "play small-dog"},
		{felixSpecs, "play small-dog", "play small-dog"},
		{felixSpecs, "play -8", "play -8"},
		{felixSpecs, "play +15", "play 15"},
		{felixSpecs, "play rab", "play rabbit"},
		{felixSpecs, "pl 3", "play 3"},
		{felixSpecs, "bid 4", "bid 4"},
		{felixSpecs, "bid +4", "bid 4"},
		{felixSpecs, "bid 007", "bid 7"},
		{felixSpecs, "pass", "pass"},
		{felixSpecs, "pa", "pass"},
		{felixSpecs, "buy", "buy"},
		{felixSpecs, "p", "error: not a command"},
		{felixSpecs, "b 4", "error: not a command"},
		{felixSpecs, "play 12", "error: \"12\" is not a card"},
		{felixSpecs, "play 1", "error: \"1\" is not a card"},
		{felixSpecs, "play dog", "error: \"dog\" is not a card"},
		{felixSpecs, "bid", "error: N is missing"},
		{felixSpecs, "bid 99999999999", "error: N must be a whole number"},
		{felixSpecs, "pass now", "error: unexpected \"now\" at the end"},
		{felixSpecs, "", "error: no command"},
		{testSpecs(), "take 2", "take 2"},
		{testSpecs(), "take 2 keep red give bob", "take 2 keep red give bob"},
		{testSpecs(), "keep blue give CAROL", "keep blue give carol"},
		{testSpecs(), "keep blue give car", "keep blue give carol"},
		{testSpecs(), "keep blue give bob", "keep blue give bob"},
		{testSpecs(), "keep blue give bobb", "keep blue give bobby"},
		{testSpecs(), "keep bl give al", "keep blue give alice"},
		{testSpecs(), "keep blue give bo", "error: \"bo\" could be bob or bobby"},
		{testSpecs(), "keep blue give dave", "error: \"dave\" is not a player"},
		{testSpecs(), "keep green give bob", "error: \"green\" is not a colour"},
		{testSpecs(), "take 2 keep red", "error: the word \"give\" is missing"},
	}
	for _, tt := range tests {
		got, err := engine.ParseCommand(tt.specs, players, tt.in)
		if want, ok := strings.CutPrefix(tt.want, "error: "); ok {
			if err == nil {
				t.Errorf("%q: got %q, want an error with %q", tt.in, got.Text, want)
			} else if !strings.Contains(err.Error(), want) {
				t.Errorf("%q: error %q, want %q", tt.in, err, want)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tt.in, err)
			continue
		}
		if got.Text != tt.want {
			t.Errorf("%q: got %q, want %q", tt.in, got.Text, tt.want)
		}
		// Canonical text reads back as itself.
		again, err := engine.ParseCommand(tt.specs, players, got.Text)
		if err != nil || again.Text != got.Text || again.Name != got.Name {
			t.Errorf("%q: canonical %q does not read back (%v)", tt.in, got.Text, err)
		}
	}
}

func TestSpecFormat(t *testing.T) {
	t.Parallel()
	s := testSpecs()[2]
	if got := s.Usage(); got != "take T keep COLOUR give PLAYER" {
		t.Errorf("usage %q", got)
	}
	if got := s.Format("1|3", "red|blue", "alice|bob"); got != "take 1|3 keep red|blue give alice|bob" {
		t.Errorf("format %q", got)
	}
	c := s.Make("2", "red", "bob")
	if c.Text != "take 2 keep red give bob" || c.Name != "take-keep" || len(c.Args) != 3 {
		t.Errorf("make %+v", c)
	}
}

// FuzzParseCommand: any text either reads as a command whose canonical
// form reads back as itself, or gives an error; never a panic.
func FuzzParseCommand(f *testing.F) {
	for _, s := range []string{"play rabbit", "bid 4", "pass", "take 2 keep red give bob", "play large dog", "keep bl give al", "bid -99999999999999999999"} {
		f.Add(s)
	}
	specs := append(felix.Rules{}.Specs(), testSpecs()...)
	players := []string{"alice", "bob", "carol"}
	f.Fuzz(func(t *testing.T, in string) {
		defer timeLimited(t)()
		c, err := engine.ParseCommand(specs, players, in)
		if err != nil {
			return
		}
		again, err := engine.ParseCommand(specs, players, c.Text)
		if err != nil || again.Text != c.Text {
			t.Fatalf("%q read as %q, which reads back as %q (%v)", in, c.Text, again.Text, err)
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
