package gracias

import (
	"testing"

	"github.com/pbem/pbem/engine"
)

// Each game writes its events for their reader.
var _ engine.Addresser = Rules{}

// TestAddress: each kind of event that names a player as its subject,
// or as whom a card is given to, reads in the second person for him, and
// as it was for everyone else.
func TestAddress(t *testing.T) {
	for _, c := range []struct{ kind, text, reader, want string }{
		{"keep", "bob keeps red and gives blue to carol. Gracias!", "bob", "You keep red and give blue to carol. Gracias!"},
		{"keep", "bob keeps red and gives blue to carol. Gracias!", "carol", "bob keeps red and gives blue to you. Gracias!"},
		{"keep", "bob keeps red and gives blue to carol. Gracias!", "alice", "bob keeps red and gives blue to carol. Gracias!"},
		{"turn", "bob chooses next.", "bob", "You choose next."},
		{"setup", "Gracias for alice, bob and carol: three sessions of four rounds. bob holds both start cards.", "bob",
			"Gracias for alice, bob and carol: three sessions of four rounds. You hold both start cards."},
		{"session", "Session 2 of 3: bob holds both start cards, shuffles all 108 cards and deals two face up to each player: bob red and blue.", "bob",
			"Session 2 of 3: you hold both start cards, shuffle all 108 cards and deal two face up to each player: bob red and blue."},
		{"round", "Session 1, round 2 of 4: bob, with the small start card, lays out 3 triplets, each with a card face down (red), and chooses first.", "bob",
			"Session 1, round 2 of 4: you, with the small start card, lay out 3 triplets, each with a card face down (red), and choose first."},
		{"colour", "Red: bob has the most face up and discards all 3.", "bob", "Red: you have the most face up and discard all 3."},
		{"colour", "Red: alice and bob tie (2 face up each) and discard them.", "alice", "Red: you and bob tie (2 face up each) and discard them."},
		{"colour", "Red: nobody has a face-up red card.", "nobody", "Red: nobody has a face-up red card."},
		{"reveal", "bob's face-down cards are red and red: with them bob has 4 red.", "bob", "Your face-down cards are red and red: with them you have 4 red."},
		{"winner", "bob wins: several players have 40 points, and bob is ahead on the best, then the second-best session.", "bob",
			"You win: several players have 40 points, and you are ahead on the best, then the second-best session."},
		{"winner", "bob wins with 40 points.", "bob", "You win with 40 points."},
		{"score", "Session 1 points: bob 5 (1 stack, 0 cards).", "bob", "Session 1 points: bob 5 (1 stack, 0 cards)."},
	} {
		e := engine.Event{To: engine.Public, Kind: c.kind, Text: c.text}
		got := Rules{}.Address(e, c.reader)
		if got.Text != c.want || got.Kind != e.Kind || got.To != e.To {
			t.Errorf("%s %q for %s: %+v, want %q", c.kind, c.text, c.reader, got, c.want)
		}
	}
}

// TestAddressPhrase: an event's phrase reads as its text does, for its
// reader and for everyone else, in the forms random games seldom reach
// (a three-way tie, a shared win).
func TestAddressPhrase(t *testing.T) {
	abc := engine.And("alice", "bob", "carol")
	ab := engine.And("alice", "bob")
	points := engine.W(pointsKey, 40)
	rounds := engine.Join("; ", engine.W("%d: %s and %s", 1, logColour(Red), logColour(Blue)), engine.W("%d: %s and %s", 2, logColour(Red), logColour(Red)))
	for _, c := range []struct {
		kind, format string
		args         []any
	}{
		{"winner", shareEqualKey, []any{abc}},
		{"winner", shareEqualKey, []any{ab}},
		{"winner", shareWithKey, []any{abc, points}},
		{"winner", shareWithKey, []any{ab, points}},
		{"winner", "%s wins: several players have %s, and %s is ahead on the best, then the second-best session.", []any{"bob", points, "bob"}},
		{"winner", "%s wins with %s.", []any{"bob", engine.W(pointsKey, 1)}},
		{"colour", tieKey, []any{logCapital(Purple), abc, 2}},
		{"colour", tieKey, []any{logCapital(Purple), ab, 2}},
		{"colour", "%s: %s has the most face up and discards it.", []any{logCapital(Red), "bob"}},
		{"colour", "%s: nobody has a face-up %s card.", []any{logCapital(Red), logColour(Red)}},
		{"keep", "%s keeps %s and gives %s to %s. Gracias!", []any{"bob", logColour(Red), logColour(Blue), "carol"}},
		{"round", "Session %d, round %d of %d: %s, with the small start card, lays out %d triplets, each with a card face down (%s), and chooses first.", []any{1, 2, 4, "bob", 2, rounds}},
		{"reveal", "%s's face-down cards are %s: with them %s has %s. Stacked face down: %s.", []any{"bob", logColours([]Colour{Red, Red}), "bob", logCounts(Counts{5, 0, 0, 1}), engine.And(engine.W("%d %s (%s)", 5, logColour(Red), engine.W(stacksKey, 1)))}},
		{"setup", "Gracias for %s: three sessions of four rounds. %s holds both start cards.", []any{abc, "bob"}},
	} {
		rec := &engine.Recorder{}
		rec.Public(c.kind, c.format, c.args...)
		e := rec.Events[0]
		for _, reader := range []string{"alice", "bob", "carol", "dave"} {
			got := Rules{}.Address(e, reader)
			if got.Say.English() != got.Text {
				t.Errorf("%q for %s: the phrase reads %q", got.Text, reader, got.Say.English())
			}
		}
	}
}
