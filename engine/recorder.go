package engine

import "fmt"

// Recorder collects the log of a step in words. Games step with a nil
// *Recorder in playouts, where nobody reads the log, so that bots pay
// nothing for words; every method checks for that.
//
// Each entry is kept twice (issue 39): as its English Text, fmt.Sprintf
// of the format and its arguments, and as a Phrase (the format as its
// key, the arguments typed: ArgOf), which each reader reads in his own
// language. An argument that is English words (a card, a colour, a list
// of them, a count with its noun) is therefore a Phrase (W, And, Join),
// never a string, so that no English reaches another language through
// it; fmt prints a Phrase as its English.
type Recorder struct {
	Names  []string // the players' names, by seat
	Events []Event
}

// Public records an entry everyone may see.
func (r *Recorder) Public(kind, format string, args ...any) {
	if r == nil {
		return
	}
	r.add(Public, kind, fmt.Sprintf(format, args...), W(format, args...))
}

// Private records an entry only seat may see.
func (r *Recorder) Private(seat int, kind, format string, args ...any) {
	if r == nil {
		return
	}
	r.add(seat, kind, fmt.Sprintf(format, args...), W(format, args...))
}

// Others records an entry every seat but seat may see: the public side of
// an act that seat is told about in a Private entry of its own.
func (r *Recorder) Others(seat int, kind, format string, args ...any) {
	if r == nil {
		return
	}
	r.add(Others(seat), kind, fmt.Sprintf(format, args...), W(format, args...))
}

// Add records say as an entry for to (Public, a seat, or Others(seat)),
// its Text say's English: for a sentence a game builds as a Phrase of
// its own.
func (r *Recorder) Add(to int, kind string, say Phrase) {
	if r == nil {
		return
	}
	r.add(to, kind, say.English(), say)
}

func (r *Recorder) add(to int, kind, text string, say Phrase) {
	r.Events = append(r.Events, Event{To: to, Kind: kind, Text: text, Say: &say})
}
