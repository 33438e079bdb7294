package engine

import "testing"

func TestYouAt(t *testing.T) {
	v := Verbs{"bids": "bid", "passes": "pass", "takes": "take", "is": "are", "mouse": "MOUSE"}
	for _, c := range []struct {
		text, lead, name, want string
		ok                     bool
	}{
		{"bob bids 2.", "", "bob", "You bid 2.", true},
		{"bob passes, takes back a stake of 3 and takes the 4-mouse card. bob takes.", "", "bob", "You pass, take back a stake of 3 and take the 4-mouse card. bob takes.", true},
		{"bob's card is turned up: rabbit.", "", "bob", "Your card is turned up: rabbit.", true},
		{"bobby bids 2.", "", "bob", "bobby bids 2.", false},
		{"alice bids 2.", "", "bob", "alice bids 2.", false},
		{"bob: cats 3 + 4 mice = 7.", "", "bob", "bob: cats 3 + 4 mice = 7.", false},
		{"The auction begins: bob bids first.", ": ", "bob", "The auction begins: you bid first.", true},
		{"Round 3 of 9: bob is the start player. Everyone puts", ": ", "bob", "Round 3 of 9: you are the start player. Everyone puts", true},
		{"Everyone passed. bob takes it: bob takes.", ". ", "bob", "Everyone passed. You take it: bob takes.", true},
		{"alice and bob tie.", "", "alice", "You and bob tie.", true},
		{"no lead here", ": ", "bob", "no lead here", false},
	} {
		var got string
		var ok bool
		if c.lead == "" {
			got, ok = YouFirst(c.text, c.name, v)
		} else {
			got, ok = YouAfter(c.text, c.lead, c.name, v)
		}
		if got != c.want || ok != c.ok {
			t.Errorf("%q for %s: got %q, %v; want %q, %v", c.text, c.name, got, ok, c.want, c.ok)
		}
	}
}
