package parser

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/pbem/pbem/engine"
)

// felixCards are the values of Felix's play command.
var felixCards = []string{"-8", "-5", "3", "5", "8", "11", "15", "rabbit", "large-dog", "small-dog"}

// typo spoils a word the way fingers do: a letter doubled, dropped or
// swapped with the next.
func typo(rng *rand.Rand, w string) string {
	if len(w) < 3 {
		return w + w[len(w)-1:]
	}
	i := rng.IntN(len(w) - 1)
	switch rng.IntN(3) {
	case 0:
		return w[:i] + w[i:i+1] + w[i:]
	case 1:
		return w[:i] + w[i+1:]
	}
	return w[:i] + w[i+1:i+2] + w[i:i+1] + w[i+2:]
}

// TestDidYouMeanOnlyLegal: over random hands, a misspelt or unknown card
// in "play ..." is answered with suggestions drawn only from the hand
// (what is legal now), a reason that names no card out of the hand, and
// a logged Error that names no card at all.
func TestDidYouMeanOnlyLegal(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(35, 7))
	for range 500 {
		hand := slices.Clone(felixCards)
		rng.Shuffle(len(hand), func(i, j int) { hand[i], hand[j] = hand[j], hand[i] })
		hand = hand[:1+rng.IntN(len(hand))]
		var cmds []string
		for _, c := range hand {
			cmds = append(cmds, "play "+c)
		}
		grammar := felixLang()
		grammar.Legal = func() []engine.Option { return []engine.Option{{Spec: "play", Text: "play CARD", Commands: cmds}} }
		word := typo(rng, felixCards[rng.IntN(len(felixCards))])
		if rng.IntN(4) == 0 {
			word = "elefant"
		}
		line := "play " + word
		got, prob := Read(line, grammar)
		if prob == nil {
			// A typo the matcher reads as a card ("rabit" for rabbit):
			// the move's legality is the engine's to judge.
			if len(got) != 1 {
				t.Fatalf("%q: %d commands, no problem", line, len(got))
			}
			continue
		}
		for _, s := range prob.DidYouMean {
			if !slices.Contains(cmds, s) {
				t.Errorf("hand %v, %q: suggests %q, not in the hand", hand, line, s)
			}
		}
		told := prob.Told()
		for _, c := range felixCards {
			if !slices.Contains(hand, c) && strings.Contains(told, " "+c+",") || !slices.Contains(hand, c) && strings.HasSuffix(told, " "+c) {
				t.Errorf("hand %v, %q: the reason names %s, not in the hand: %s", hand, line, c, told)
			}
		}
		if strings.Contains(prob.Error(), word) || strings.Contains(prob.Error(), "mean") {
			t.Errorf("the logged problem holds the player's words or suggestions: %s", prob.Error())
		}
	}
}

// TestUnknownCardReason: with legality known, an unknown card is not
// answered with every card of the game; without it (the lobby, an
// admin's move), the game's values are the help.
func TestUnknownCardReason(t *testing.T) {
	t.Parallel()
	grammar := felixLang()
	grammar.Legal = func() []engine.Option {
		return []engine.Option{{Spec: "play", Text: "play CARD", Commands: []string{"play rabbit", "play 8"}}}
	}
	_, prob := Read("play elefant", grammar)
	if prob == nil || prob.Told() != `"elefant" is not a card you can choose now` || len(prob.DidYouMean) != 0 {
		t.Errorf("legal known: %+v", prob)
	}
	_, prob = Read("play rabbbit", grammar)
	if prob != nil && !slices.Equal(prob.DidYouMean, []string{"play rabbit"}) {
		t.Errorf("a typo of a card in the hand: %+v", prob)
	}
	_, prob = Read("play elefant", felixLang())
	if prob == nil || !strings.Contains(prob.Told(), "-5") {
		t.Errorf("no legality known: %+v", prob)
	}
}
