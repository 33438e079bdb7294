package loaded

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/store"
)

// TestPhrasesReadAsJSON checks that an event's phrase Phrases gives is
// the phrase its JSON reads as, the first time and from what it kept;
// that a phrase that does not read is left out and not kept; and that
// addressing a kept phrase to a reader leaves it as it was.
func TestPhrasesReadAsJSON(t *testing.T) {
	bids := engine.W("%s bids %d.", "alice", 3)
	list := engine.W("%s share the win.", engine.And("alice", "bob"))
	events := []store.Event{
		StoreEvents([]engine.Event{{To: engine.Public, Kind: "bid", Text: "alice bids 3.", Say: &bids}})[0],
		StoreEvents([]engine.Event{{To: 2, Kind: "win", Text: "alice and bob share the win.", Say: &list}})[0],
		{To: engine.Public, Kind: "note", Text: "no phrase"},
		{To: engine.Public, Kind: "broken", Text: "a phrase that does not read", Say: `{"k":`},
	}
	p := NewPhrases()
	for round := 0; round < 2; round++ { // the second reads what the first kept
		for _, e := range events {
			want, got := EngineEvent(e), p.Event(e)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("round %d, %s: %+v, want %+v", round, e.Kind, got, want)
			}
		}
	}
	if len(p.kept) != 2 {
		t.Errorf("%d phrases kept, want the 2 that read", len(p.kept))
	}
	if a, b := p.Event(events[0]).Say, p.Event(events[0]).Say; a != b {
		t.Error("a kept phrase was read again")
	}

	// Addressed to alice, the kept phrase is a new one; the kept stays.
	before, _ := json.Marshal(p.Event(events[0]).Say)
	yous := engine.Yous{"%s bids %d.": {{Key: "You bid %d.", Names: []int{0}}}}
	out, ok := yous.Address(p.Event(events[0]).Say, "alice")
	if !ok || out.Key != "You bid %d." {
		t.Fatalf("addressed: %+v, %v", out, ok)
	}
	if after, _ := json.Marshal(p.Event(events[0]).Say); string(after) != string(before) {
		t.Errorf("addressing changed the kept phrase: %s, was %s", after, before)
	}

	// A nil Phrases reads every time.
	var none *Phrases
	if got := none.Event(events[1]); !reflect.DeepEqual(got, EngineEvent(events[1])) {
		t.Errorf("nil Phrases: %+v", got)
	}
}

// TestPhrasesBounded checks that Phrases never keeps more than
// maxPhrases.
func TestPhrasesBounded(t *testing.T) {
	p := NewPhrases()
	for i := range 3 * maxPhrases {
		ph := engine.W("%d", i)
		p.Event(StoreEvents([]engine.Event{{Say: &ph}})[0])
		if len(p.kept) > maxPhrases {
			t.Fatalf("%d phrases kept", len(p.kept))
		}
	}
}
