package engine_test

import (
	"slices"
	"testing"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/felix"
)

// TestFailureSays: a failure's message prints its Reason, in both
// configurations; for a player's mail its format is one of
// MailFormats, with the nouns and the lists of alternatives as
// arguments a translation prints in its own words; and every format of
// MailFormats is some failure's.
func TestFailureSays(t *testing.T) {
	t.Parallel()
	players := []string{"alice", "bob", "bobby", "carol"}
	felixSpecs := felix.Rules{}.Specs()
	seen := map[string]bool{}
	for _, c := range []struct {
		specs []engine.Spec
		in    string
	}{
		{felixSpecs, "bid 4 Bananas"}, {felixSpecs, "bid"}, {felixSpecs, "bid up 7"}, {felixSpecs, "bid many"},
		{felixSpecs, "play elefant"}, {felixSpecs, "play the dog"}, {testSpecs(), "keep red"}, {testSpecs(), "keep red give zed"},
		{testSpecs(), "keep red give bo"}, {testSpecs(), "keep pink give bob"},
	} {
		for _, mail := range []bool{true, false} {
			opt := engine.MatchOptions{}
			if mail {
				opt = mailOptions()
			}
			_, f := engine.Match(c.specs, players, engine.Tokens(c.in), opt)
			if f.Kind == engine.NoFailure {
				t.Errorf("%q: no failure", c.in)
				continue
			}
			if f.Says.String() != f.Reason {
				t.Errorf("%q (mail %v): the message prints %q, the reason is %q", c.in, mail, f.Says.String(), f.Reason)
			}
			if !mail {
				continue
			}
			if !slices.Contains(engine.MailFormats(), f.Says.Format) {
				t.Errorf("%q: %q is not in MailFormats", c.in, f.Says.Format)
			}
			seen[f.Says.Format] = true
			switch f.Kind {
			case engine.FailChoice:
				if n, ok := f.Says.Args[1].(engine.Message); !ok || n.Format != "card" && n.Format != "colour" {
					t.Errorf("%q: the noun is %#v, not a message", c.in, f.Says.Args[1])
				}
			case engine.FailAmbiguous:
				if _, ok := f.Says.Args[1].(engine.OrList); !ok {
					t.Errorf("%q: the alternatives are %#v, not an OrList", c.in, f.Says.Args[1])
				}
			}
		}
	}
	for _, f := range engine.MailFormats() {
		if !seen[f] {
			t.Errorf("no failure of the test says %q: add one", f)
		}
	}
}

// TestOrList: an OrList is written as JoinOr writes it.
func TestOrList(t *testing.T) {
	t.Parallel()
	for _, xs := range [][]string{nil, {"a"}, {"a", "b"}, {"a", "b", "c"}} {
		if got, want := engine.OrList(xs).String(), engine.JoinOr(xs); got != want {
			t.Errorf("%q: %q, want %q", xs, got, want)
		}
	}
	if got := engine.Msg("%q could be %s", "dog", engine.OrList{"large-dog", "small-dog"}).String(); got != `"dog" could be large-dog or small-dog` {
		t.Errorf("nested: %q", got)
	}
}
