package templates

import "github.com/pbem/pbem/engine"

// Event writes an event of a game's log in the words' language: its
// phrase (engine.Event.Say) through the words' printer, each nested
// phrase in turn, a name as written, a number as a number; e.Text, which
// is the phrase's English, for an event without a phrase (the service's
// own, and one stored before phrases) and for Say, whose catalog holds
// no game's words. The words must be a Renderer's (Renderer.Words), whose
// catalog holds the games' (engine.Localizer). In English it is e.Text.
func (e Words) Event(ev engine.Event) string {
	if ev.Say == nil || e.p == nil {
		return ev.Text
	}
	return ev.Say.In(e.sayTimes)
}

// sayTimes is f with each engine.Time argument written as a date in the
// words' language (Date), in the layout its key translates to.
func (e Words) sayTimes(key string, args ...any) string {
	for i, a := range args {
		if t, ok := a.(engine.Time); ok {
			args[i] = e.Date(t.In(), e.f(t.Layout))
		}
	}
	return e.f(key, args...)
}

// events are evs with each Text in the words' language (Event), for the
// templates, which print an event's Text.
func (e Words) events(evs []engine.Event) []engine.Event {
	if len(evs) == 0 {
		return evs
	}
	out := make([]engine.Event, len(evs))
	for i, ev := range evs {
		ev.Text = e.Event(ev)
		out[i] = ev
	}
	return out
}
