package engine

import "fmt"

// Recorder collects the log of a step in words. Games step with a nil
// *Recorder in playouts, where nobody reads the log, so that bots pay
// nothing for words; every method checks for that.
type Recorder struct {
	Names  []string // the players' names, by seat
	Events []Event
}

// Public records an entry everyone may see.
func (r *Recorder) Public(kind, format string, args ...any) {
	if r == nil {
		return
	}
	r.Events = append(r.Events, Event{To: Public, Kind: kind, Text: fmt.Sprintf(format, args...)})
}

// Private records an entry only seat may see.
func (r *Recorder) Private(seat int, kind, format string, args ...any) {
	if r == nil {
		return
	}
	r.Events = append(r.Events, Event{To: seat, Kind: kind, Text: fmt.Sprintf(format, args...)})
}

// Others records an entry every seat but seat may see: the public side of
// an act that seat is told about in a Private entry of its own.
func (r *Recorder) Others(seat int, kind, format string, args ...any) {
	if r == nil {
		return
	}
	r.Events = append(r.Events, Event{To: Others(seat), Kind: kind, Text: fmt.Sprintf(format, args...)})
}
