package gracias

import (
	"os"
	"testing"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/transcript"
)

// TestAreaLineHoldsWhatItShows checks the data of an areas' line, which
// the renderer keeps its rendering by (issue 40): a reader's own line
// and the line the others see of his area are different data, and the
// others' are equal, so that they share one rendering.
func TestAreaLineHoldsWhatItShows(t *testing.T) {
	f, err := os.Open("../../examples/gracias-3p.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr, err := transcript.Read(f, func(name string) (engine.Rules, bool) { return Rules{}, name == "gracias" })
	if err != nil {
		t.Fatal(err)
	}
	g, _, err := Rules{}.New(tr.Setup)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range tr.Moves[:5] {
		cmd, err := engine.ParseCommand(Rules{}.Specs(), tr.Setup.Players, m.Command)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := g.Apply(engine.Seat(g, m.Player), cmd); err != nil {
			t.Fatal(err)
		}
	}
	names := g.Players()
	for _, who := range names {
		lines := map[AreaLine][]string{}
		for seat, reader := range names {
			for _, p := range g.View(seat).(View).Players {
				if p.Name == who {
					l := areaLine(p, reader)
					lines[l] = append(lines[l], reader)
				}
			}
		}
		if len(lines) != 2 {
			t.Errorf("%s's line is %d different lines to the readers, want 2 (his own, the others'): %v", who, len(lines), lines)
		}
		for l, readers := range lines {
			if l.You != (len(readers) == 1 && readers[0] == who) {
				t.Errorf("%s's line %+v is shared by %v", who, l, readers)
			}
		}
	}
}
