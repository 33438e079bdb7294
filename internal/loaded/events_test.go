package loaded

import (
	"reflect"
	"testing"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/store"
)

// TestEventsStoreAndReadBack: an engine event is stored with its phrase
// as JSON and reads back as it was; an event without a phrase (the
// service's own) is stored without one and reads back as its text; a
// phrase that does not read leaves the text.
func TestEventsStoreAndReadBack(t *testing.T) {
	t.Parallel()
	rec := &engine.Recorder{}
	rec.Public("win", "%s wins the row for %d: %s.", "bob", 3, engine.Join(", ", engine.W("rabbit"), "-8"))
	rec.Private(1, "order", "pbem bids %d for you (your limit: %d).", 3, 6)
	evs := append(rec.Events, engine.Event{To: engine.Others(2), Kind: "say", Text: "carol says: hi"})
	stored := StoreEvents(evs)
	if stored[0].Say != `{"k":"%s wins the row for %d: %s.","a":[{"s":"bob"},{"n":3},{"p":{"a":[{"p":{"k":"rabbit"}},{"s":"-8"}],"l":", "}}]}` {
		t.Errorf("stored phrase %s", stored[0].Say)
	}
	if stored[2].Say != "" {
		t.Errorf("an event without a phrase is stored with %q", stored[2].Say)
	}
	for i, e := range stored {
		if got := EngineEvent(e); !reflect.DeepEqual(got, evs[i]) {
			t.Errorf("event %d reads back as %+v, want %+v", i, got, evs[i])
		}
	}
	bad := EngineEvent(store.Event{To: engine.Public, Kind: "bid", Text: "bob bids 3.", Say: "{not json"})
	if bad.Say != nil || bad.Text != "bob bids 3." {
		t.Errorf("a phrase that does not read: %+v", bad)
	}
}
