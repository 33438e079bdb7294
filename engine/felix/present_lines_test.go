package felix

import (
	"os"
	"testing"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/transcript"
)

// TestPlayerLineHoldsWhatItShows checks the data of a players' line,
// which the line is written from and nothing else (issue 40): a
// reader's own line and the line the others see of him are different
// data, and the others' lines of him are equal, so that they read the
// same.
func TestPlayerLineHoldsWhatItShows(t *testing.T) {
	f, err := os.Open("testdata/basics-4p.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr, err := transcript.Read(f, func(name string) (engine.Rules, bool) { return Rules{}, name == "felix" })
	if err != nil {
		t.Fatal(err)
	}
	ng, _, err := Rules{}.New(tr.Setup)
	if err != nil {
		t.Fatal(err)
	}
	g := ng.(*Game)
	for _, m := range tr.Moves[:6] { // every card placed, the auction begun
		play(t, g, engine.Seat(g, m.Player), m.Command)
	}
	names := g.Players()
	for _, who := range names {
		lines := map[PlayerLine][]string{}
		for seat, reader := range names {
			v := g.View(seat).(View)
			for _, p := range v.Players {
				if p.Name == who {
					l := playerLine(v, p, reader)
					lines[l] = append(lines[l], reader)
				}
			}
		}
		if len(lines) != 2 {
			t.Errorf("%s's line is %d different lines to the four readers, want 2 (his own, the others'): %v", who, len(lines), lines)
		}
		for l, readers := range lines {
			if l.You != (len(readers) == 1 && readers[0] == who) {
				t.Errorf("%s's line %+v is shared by %v", who, l, readers)
			}
			if l.ShowMoney {
				t.Errorf("%s's line shows his money mid-game: %+v", who, l)
			}
		}
	}
}
