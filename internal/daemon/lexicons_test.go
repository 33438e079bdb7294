package daemon

import (
	"slices"
	"testing"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/felix"
	"github.com/pbem/pbem/engine/gracias"
)

// unkeyedRules are rules that cannot be a map key: their grammar is
// made for each mail.
type unkeyedRules struct {
	felix.Rules
	options []string
}

// TestLexiconsKeepOnePerRules checks that the grammar of a game's rules
// is made once and kept, one for each rules, that it is the rules' own,
// and that rules that cannot be a key are asked each time rather than
// crash the daemon.
func TestLexiconsKeepOnePerRules(t *testing.T) {
	t.Parallel()
	var c lexicons
	f1, f2, g := c.of(felix.Rules{}), c.of(felix.Rules{}), c.of(gracias.Rules{})
	if f1.lexicon != f2.lexicon {
		t.Error("Felix's words were made twice")
	}
	if f1.lexicon == g.lexicon {
		t.Error("Felix and Gracias share words")
	}
	for _, w := range []struct {
		got   gameWords
		rules engine.Rules
	}{{f1, felix.Rules{}}, {g, gracias.Rules{}}} {
		var want, got []string
		for _, s := range w.rules.Specs() {
			want = append(want, s.Name)
		}
		for _, s := range w.got.specs {
			got = append(got, s.Name)
		}
		if !slices.Equal(got, want) || !slices.Equal(w.got.nouns, engine.NounsOf(w.rules)) {
			t.Errorf("%s: kept specs %v and nouns %v, want %v and %v", w.rules.Name(), got, w.got.nouns, want, engine.NounsOf(w.rules))
		}
	}
	u1, u2 := c.of(unkeyedRules{options: []string{"a"}}), c.of(unkeyedRules{options: []string{"a"}})
	if u1.lexicon == nil || u1.lexicon == u2.lexicon {
		t.Error("rules that cannot be a key: want fresh words for each mail")
	}
	if len(c.m) != 2 {
		t.Errorf("kept %d rules, want 2", len(c.m))
	}
}
