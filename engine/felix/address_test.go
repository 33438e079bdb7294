package felix

import (
	"testing"

	"github.com/pbem/pbem/engine"
)

// Each game writes its events for their reader.
var _ engine.Addresser = Rules{}

// TestAddress: each kind of event that names a player as its subject
// reads in the second person for him, and as it was for everyone else.
func TestAddress(t *testing.T) {
	for _, c := range []struct{ kind, text, reader, want string }{
		{"bid", "bob bids 2.", "bob", "You bid 2."},
		{"bid", "bob bids 2.", "alice", "bob bids 2."},
		{"pass", "bob passes, takes back a stake of 3 and takes the 4-mouse card with 4 mice.", "bob",
			"You pass, take back a stake of 3 and take the 4-mouse card with 4 mice."},
		{"buy", "bob buys the row for 1 mouse.", "bob", "You buy the row for 1 mouse."},
		{"void", "bob passes too: nobody takes the row, and its cards go to the box.", "bob",
			"You pass too: nobody takes the row, and its cards go to the box."},
		{"win", "bob wins the row for 3: rabbit, large dog.", "bob", "You win the row for 3: rabbit, large dog."},
		{"won", "bob keeps rabbit.", "bob", "You keep rabbit."},
		{"won", "bob takes nothing home from this row.", "bob", "You take nothing home from this row."},
		{"reveal", "bob's card is turned up: 15.", "bob", "Your card is turned up: 15."},
		{"reveal", "The dummy's card is turned up: 15.", "bob", "The dummy's card is turned up: 15."},
		{"turn", "bob to bid.", "bob", "Your turn to bid."},
		{"turn", "The auction begins: bob bids first.", "bob", "The auction begins: you bid first."},
		{"round", "Round 2 of 9: bob is the start player. Everyone puts one card face down into the row.", "bob",
			"Round 2 of 9: you are the start player. Everyone puts one card face down into the row."},
		{"buying", "Everyone but bob passed without a bid. bob may buy the whole row for 1 mouse (buy) or pass, and then the row goes to the box.", "bob",
			"Everyone but you passed without a bid. You may buy the whole row for 1 mouse (buy) or pass, and then the row goes to the box."},
		{"winner", "alice and bob share the win.", "alice", "You and bob share the win."},
		{"score", "bob: cats 3 (3) + 4 mice = 7.", "bob", "bob: cats 3 (3) + 4 mice = 7."},
		{"dogs", "2 dogs in the row chase each other away; no cat leaves.", "bob", "2 dogs in the row chase each other away; no cat leaves."},
	} {
		e := engine.Event{To: engine.Public, Kind: c.kind, Text: c.text}
		got := Rules{}.Address(e, c.reader)
		if got.Text != c.want || got.Kind != e.Kind || got.To != e.To {
			t.Errorf("%s %q for %s: %+v, want %q", c.kind, c.text, c.reader, got, c.want)
		}
	}
}

// TestAddressPhrase: an event's phrase reads as its text does, for its
// reader and for everyone else, in the forms random games seldom reach.
func TestAddressPhrase(t *testing.T) {
	for _, c := range []struct {
		kind, format string
		args         []any
	}{
		{"winner", "%s share the win.", []any{engine.Join(" and ", "alice", "bob", "carol")}},
		{"winner", "%s share the win.", []any{engine.Join(" and ", "alice", "bob")}},
		{"winner", "%s wins.", []any{"bob"}},
		{"buying", "Everyone but %s passed without a bid. %s may buy the whole row for 1 mouse (buy) or pass, and then the row goes to the box.", []any{"bob", "bob"}},
		{"turn", "%s to bid.", []any{"bob"}},
		{"turn", "The auction begins: %s bids first.", []any{"bob"}},
		{"reveal", "The dummy's card is turned up: %s.", []any{logCard(Rabbit)}},
		{"reveal", "%s's card is turned up: %s.", []any{"bob", logCard(LargeDog)}},
		{"pass", "%s passes, takes back a stake of %d and takes the %d-mouse card with %s.", []any{"bob", 3, 4, logMice(1)}},
	} {
		rec := &engine.Recorder{}
		rec.Public(c.kind, c.format, c.args...)
		e := rec.Events[0]
		for _, reader := range []string{"alice", "bob", "bo", "carol", "dave"} {
			got := Rules{}.Address(e, reader)
			if got.Say.English() != got.Text {
				t.Errorf("%q for %s: the phrase reads %q", got.Text, reader, got.Say.English())
			}
		}
	}
}
