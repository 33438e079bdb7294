package daemon

import (
	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/internal/admin"
	"github.com/pbem/pbem/internal/loaded"
	"github.com/pbem/pbem/store"
)

// EventKind is the kind of an event the service itself adds to a game's
// log, beside the engine's: a replay of the game's transcript yields the
// engine's events only, so a check that compares the two leaves these out
// (IsServiceEvent).
type EventKind string

const (
	EventStart   EventKind = "start"         // everyone has joined
	EventResign  EventKind = "resign"        // a player left; pbem plays his seat
	EventDefault EventKind = "default"       // a deadline passed; pbem moved for the seat
	EventRename  EventKind = "rename"        // a player chose another name
	EventAdmin   EventKind = admin.EventKind // an admin's act, announced
	// EventAutopilot: a player missed autopilot_after deadlines in a row;
	// pbem plays his seat with the default moves at once from now on.
	EventAutopilot EventKind = "autopilot"
	// EventAutopilotOff: the player's own command took his seat back.
	EventAutopilotOff EventKind = "autopilot-off"
	// EventAutoplay tells a seat on autopilot, and only it, which default
	// move pbem made for it (it may be a hidden card).
	EventAutoplay EventKind = "autoplay"
	EventSay      EventKind = "say"  // a player's words to the table (say), for everyone
	EventPoke     EventKind = "poke" // a player reminded the seat it is addressed to (poke)
	// EventVacation tells a table that a player is away, until when, and
	// that he is back (vacation.go).
	EventVacation EventKind = "vacation"
	// EventForced tells a seat, and only it, which move pbem made for it
	// because the rules left it one and the table knew it
	// (engine.Forcing): the move may be a card placed face down.
	EventForced EventKind = "forced"
)

// IsServiceEvent reports whether kind is one of the service's own events.
func IsServiceEvent(kind string) bool {
	switch EventKind(kind) {
	case EventStart, EventResign, EventDefault, EventRename, EventAdmin, EventAutopilot, EventAutopilotOff, EventAutoplay, EventSay, EventPoke, EventVacation, EventForced,
		EventUndoAsked, EventUndone, EventUndoEnded:
		return true
	}
	return false
}

// said is the service's event with its English text and its phrase, for
// each reader to read in his language (templates.Phrases); the text is
// the phrase's English.
func said(to int, kind EventKind, text string, p engine.Phrase) engine.Event {
	return engine.Event{To: to, Kind: string(kind), Text: text, Say: &p}
}

// storeSaid is said as the store keeps it.
func storeSaid(to int, kind EventKind, text string, p engine.Phrase) store.Event {
	return loaded.StoreEvents([]engine.Event{said(to, kind, text, p)})[0]
}

// seenPhrase is what the table saw of step, as seenText writes it: each
// seen event's phrase (its text when it has none), joined by spaces.
func seenPhrase(step engine.Step) engine.Phrase {
	var parts []any
	for _, e := range step.Seen() {
		if e.Say != nil {
			parts = append(parts, *e.Say)
		} else {
			parts = append(parts, e.Text)
		}
	}
	return engine.Join(" ", parts...)
}
