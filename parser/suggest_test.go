package parser

import (
	"slices"
	"testing"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/felix"
)

// felixBidding and felixPlacing are Felix's options as the engine lists
// them while bidding (5 to 12) and while placing (a hand of four cards).
func felixBidding() []engine.Option {
	bid := engine.Option{Spec: "bid", Text: "bid 5..12"}
	bid.Commands = []string{"bid 5", "bid 6", "bid 7", "bid 8", "bid 9", "bid 10", "bid 11", "bid 12"}
	return []engine.Option{bid, {Spec: "pass", Text: "pass", Commands: []string{"pass"}}}
}

func felixPlacing() []engine.Option {
	return []engine.Option{{Spec: "play", Text: "play -8|3|rabbit|small-dog",
		Commands: []string{"play -8", "play 3", "play rabbit", "play small-dog"}}}
}

func felixLegal(opts []engine.Option) Grammar {
	l := felixLang()
	l.Legal = func() []engine.Option { return opts }
	return l
}

func TestLegalSuggestions(t *testing.T) {
	t.Parallel()
	none := felixLegal(nil)
	none.Legal = func() []engine.Option { return []engine.Option{} }
	gracias := graciasLang()
	gracias.Legal = func() []engine.Option {
		return []engine.Option{{Spec: "take", Text: "take 1|3", Commands: []string{"take 1", "take 3"}}}
	}
	graciasTK := graciasLang()
	graciasTK.Legal = func() []engine.Option {
		return []engine.Option{{Spec: "takekeep", Text: "take 1 keep red give bob"}} // no Commands: every takekeep is legal
	}
	tests := []struct {
		name    string
		grammar Grammar
		text    string
		want    []string // DidYouMean
	}{
		// Without Legal, every command that reads is suggested.
		{"no limit: typo", felixLang(), "bif 6", []string{"bid 6"}},
		{"no limit: missing keyword", felixLang(), "rabbit", []string{"play rabbit"}},
		{"no limit: ambiguous", felixLang(), "play dog", []string{"play large-dog", "play small-dog"}},
		// While bidding: bids and pass only.
		{"bidding: legal typo", felixLegal(felixBidding()), "bif 6", []string{"bid 6"}},
		{"bidding: bid too low", felixLegal(felixBidding()), "bif 3", nil},
		{"bidding: card is not legal", felixLegal(felixBidding()), "plya rabbit", nil},
		{"bidding: missing keyword", felixLegal(felixBidding()), "rabbit", nil},
		{"bidding: number alone", felixLegal(felixBidding()), "7", []string{"bid 7"}},
		{"bidding: lobby typo", felixLegal(felixBidding()), "hepl", []string{"help"}},
		// While placing: the cards in hand.
		{"placing: card typo", felixLegal(felixPlacing()), "play rabit", []string{"play rabbit"}},
		{"placing: ambiguous dog", felixLegal(felixPlacing()), "play dog", []string{"play small-dog"}},
		{"placing: card not in hand", felixLegal(felixPlacing()), "play 51", nil},
		{"placing: bid is not legal", felixLegal(felixPlacing()), "bif 4", nil},
		{"placing: missing keyword", felixLegal(felixPlacing()), "rabbit", []string{"play rabbit"}},
		// No game command is legal now.
		{"none: typo", none, "bif 6", nil},
		{"none: lobby still suggested", none, "statsu", []string{"status"}},
		// Keywords inside a command: only legal commands' usages.
		{"gracias: give outside keep", gracias, "give bob", nil},
		{"gracias: take typo", gracias, "tkae 3", []string{"take 3"}},
		{"gracias: take not free", gracias, "tkae 2", nil},
		{"gracias: option without commands", graciasTK, "give bob", []string{"take T keep COLOUR give PLAYER"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, prob := Read(tt.text, tt.grammar)
			if prob == nil {
				t.Fatalf("Read(%q): no problem", tt.text)
			}
			if !slices.Equal(prob.DidYouMean, tt.want) {
				t.Errorf("Read(%q): did you mean %q, want %q (%v)", tt.text, prob.DidYouMean, tt.want, prob)
			}
		})
	}
}

// TestLegalFromEngine: the suggestions follow a real Felix game's
// options, and Legal is not called when the text reads.
func TestLegalFromEngine(t *testing.T) {
	t.Parallel()
	g, _, err := felix.Rules{}.New(engine.Setup{Players: []string{"alice", "bob", "carol", "dave"}, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	seat := g.Waiting()[0]
	calls := 0
	grammar := felixLang()
	grammar.Legal = func() []engine.Option { calls++; return g.Options(seat) }
	if _, prob := Read("bid 4", grammar); prob != nil {
		t.Fatal(prob)
	}
	if calls != 0 {
		t.Errorf("Legal called %d times for a text that reads", calls)
	}
	_, prob := Read("bif 4", grammar)
	if prob == nil || len(prob.DidYouMean) != 0 {
		t.Errorf("placing: bif 4 suggests %v", prob)
	}
	if calls != 1 {
		t.Errorf("Legal called %d times, want 1", calls)
	}
	var legal []string
	for _, o := range g.Options(seat) {
		legal = append(legal, o.Commands...)
	}
	_, prob = Read("plya", grammar)
	for _, s := range prob.DidYouMean {
		if s != "play" && !slices.Contains(legal, s) {
			t.Errorf("plya: %q is not legal (%v)", s, legal)
		}
	}
}
