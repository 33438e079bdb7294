package felix_test

import (
	"strings"
	"testing"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/felix"
)

// TestSetAsideRevealedAtTheEnd plays a 3-player game to its end with the
// deadline defaults: the last move tells everyone, in one public entry,
// the card set aside from each set, the dummy's included; no entry before
// the end names them.
func TestSetAsideRevealedAtTheEnd(t *testing.T) {
	t.Parallel()
	g, log, err := felix.Rules{}.New(engine.Setup{
		Players: []string{"alice", "bob", "carol"},
		Start:   "alice",
		Lines: []engine.SetupLine{
			{Key: "removed", Args: []string{"alice=-8", "bob=large-dog", "carol=rabbit"}},
			{Key: "dummy", Args: strings.Fields("11 -5 3 rabbit small-dog 8 large-dog -8 5")},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	const want = "Set aside at the start: alice -8, bob large dog, carol rabbit, the dummy 15."
	var last []engine.Event
	for !g.Result().Finished {
		for _, e := range log {
			if strings.Contains(e.Text, "Set aside at the start") {
				t.Fatalf("before the end: %q", e.Text)
			}
		}
		seat := g.Waiting()[0]
		c, _ := g.Default(seat)
		last, err = g.Apply(seat, c)
		if err != nil {
			t.Fatal(err)
		}
		log = append(log, last...)
	}
	found := false
	for _, e := range last {
		if e.Text == want {
			found = true
			if e.To != engine.Public || e.Kind != "setaside" {
				t.Errorf("the reveal is addressed to %d, kind %q: want a public setaside entry", e.To, e.Kind)
			}
		}
	}
	if !found {
		t.Errorf("the last move's log lacks %q:\n%v", want, last)
	}
}
