package engine

import (
	"encoding/json"
	"testing"
)

func TestOthers(t *testing.T) {
	t.Parallel()
	for seat, want := range map[int]int{0: -2, 1: -3, 4: -6, Public: Public} {
		if got := Others(seat); got != want {
			t.Errorf("Others(%d) = %d, want %d", seat, got, want)
		}
	}
}

// TestVisibleTo is the contract the daemon and the store rely on: an
// event is seen by everyone (Public), by one seat, or by every seat but
// one (Others), and a spectator sees what is not private.
func TestVisibleTo(t *testing.T) {
	t.Parallel()
	const seats = 4
	tests := []struct {
		to   int
		want [seats]bool
		spec bool // what a spectator (Public) sees
	}{
		{Public, [seats]bool{true, true, true, true}, true},
		{0, [seats]bool{true, false, false, false}, false},
		{2, [seats]bool{false, false, true, false}, false},
		{Others(0), [seats]bool{false, true, true, true}, true},
		{Others(2), [seats]bool{true, true, false, true}, true},
		{Others(3), [seats]bool{true, true, true, false}, true},
	}
	for _, tt := range tests {
		e := Event{To: tt.to, Text: "x"}
		for seat := 0; seat < seats; seat++ {
			if got := e.VisibleTo(seat); got != tt.want[seat] {
				t.Errorf("Event{To: %d}.VisibleTo(%d) = %v, want %v", tt.to, seat, got, tt.want[seat])
			}
		}
		if got := e.VisibleTo(Public); got != tt.spec {
			t.Errorf("Event{To: %d}.VisibleTo(Public) = %v, want %v", tt.to, got, tt.spec)
		}
	}
}

func TestRecorderOthers(t *testing.T) {
	t.Parallel()
	r := &Recorder{Names: []string{"alice", "bob", "carol"}}
	r.Others(1, "place", "%s puts a card face down.", "bob")
	r.Private(1, "place", "You put your rabbit face down.")
	if len(r.Events) != 2 || r.Events[0].To != -3 || r.Events[0].Text != "bob puts a card face down." {
		t.Fatalf("events: %+v", r.Events)
	}
	for seat := 0; seat < 3; seat++ {
		n := 0
		for _, e := range r.Events {
			if e.VisibleTo(seat) {
				n++
			}
		}
		if n != 1 {
			t.Errorf("seat %d sees %d entries of bob's placement, want exactly 1", seat, n)
		}
	}
	// The JSON field names stay as they were; the phrase is beside the
	// text.
	b, _ := json.Marshal(r.Events[0])
	if string(b) != `{"to":-3,"kind":"place","text":"bob puts a card face down.","say":{"k":"%s puts a card face down.","a":[{"s":"bob"}]}}` {
		t.Errorf("JSON: %s", b)
	}
	var nilRec *Recorder
	nilRec.Others(0, "k", "x") // playouts record nothing and must not panic
}
