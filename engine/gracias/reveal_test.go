package gracias_test

import (
	"os"
	"regexp"
	"testing"

	"github.com/pbem/pbem/engine/games"
	"github.com/pbem/pbem/engine/transcript"
)

// TestEverySessionRevealNamesTheCards: each session's scoring names the
// face-down cards it turns up, the last session's included.
func TestEverySessionRevealNamesTheCards(t *testing.T) {
	t.Parallel()
	f, err := os.Open("testdata/shared-3p.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr, err := transcript.Read(f, games.Lookup)
	if err != nil {
		t.Fatal(err)
	}
	_, log, err := tr.Replay()
	if err != nil {
		t.Fatal(err)
	}
	named := regexp.MustCompile(`face-down cards are (red|orange|yellow|green|blue|purple)`)
	empty := regexp.MustCompile(`face-down cards are :`)
	n := 0
	for _, e := range log {
		if empty.MatchString(e.Text) {
			t.Errorf("a reveal names no card: %q", e.Text)
		}
		if named.MatchString(e.Text) {
			n++
		}
	}
	if n != 3*3 {
		t.Errorf("%d reveals naming cards, want 9 (3 players, 3 sessions)", n)
	}
}
