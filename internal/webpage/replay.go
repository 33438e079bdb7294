package webpage

import (
	"fmt"
	"strings"
	"sync"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/internal/loaded"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// replay is a game's log replayed once for every seat: what each line
// told, and the game at each public point. A line is a point of the
// history when the whole table was told of it, which does not depend on
// who reads; only the words of each point do, and those are cheap to
// pick (toPoint). It is what loaded.History.ToPoint makes, kept, so
// that a page at any point costs that point, not a replay of the game
// (TestReplayIsToPoint holds the two to the same answers).
type replay struct {
	gameID int64
	// stamp is the log's the replay is of (cache).
	stamp   logStamp
	opening []engine.Event
	lines   []replayLine
	// states are the game at each public point: [0] at the beginning,
	// then after each public line; last is the game after every line,
	// the private ones after the last point included (now).
	states []engine.Game
	last   engine.Game
	// moves are the log's lines as stored, for the seat's own last move
	// (happenedPoints).
	moves []store.Move
	// mu serialises the use of the states: an engine.Game makes no
	// promise to many goroutines at once, even to read.
	mu sync.Mutex
}

// replayLine is one line of the log as replayed: the events it caused
// (for an undo line, those the service stored when it took the command
// back), and whether the whole table was told of it.
type replayLine struct {
	events []engine.Event
	public bool
}

// newReplay replays a game's log once, as loaded.History.ToPoint does
// for one seat.
func newReplay(h loaded.History) (*replay, error) {
	l, opening, err := engine.NewLog(h.Rules, h.Setup)
	if err != nil {
		return nil, fmt.Errorf("daemon: page of game %d: %w", h.GameID, err)
	}
	rp := &replay{gameID: h.GameID, opening: opening, moves: h.Moves, states: []engine.Game{l.Game().Clone()}}
	for _, m := range h.Moves {
		evs, err := l.Do(m.Seat, m.Command)
		if err != nil {
			return nil, fmt.Errorf("daemon: page of game %d: move %d does not replay", h.GameID, m.Seq)
		}
		if loaded.IsUndoLine(m.Command) {
			evs = h.Undone[m.Seq]
		}
		ln := replayLine{events: evs}
		for _, e := range evs {
			ln.public = ln.public || e.VisibleTo(engine.Public)
		}
		rp.lines = append(rp.lines, ln)
		if ln.public {
			rp.states = append(rp.states, l.Game().Clone())
		}
	}
	rp.last = l.Game()
	return rp, nil
}

// point is which point at is (at < 0 is now, the last), and whether it
// is now, without the points' words: what a page kept is looked up by.
// A point the game does not have is loaded.ErrNoPoint.
func (rp *replay) point(at int) (int, bool, error) {
	last := len(rp.states) - 1
	if at < 0 {
		at = last
	}
	if at > last {
		return 0, false, loaded.ErrNoPoint
	}
	return at, at == last, nil
}

// toPoint is loaded.History.ToPoint for seat from the replay: the
// seat's points, and the game at point at (at < 0 is now); a point the
// game does not have is loaded.ErrNoPoint. The game it returns is the
// replay's own: it is only read, under rp.mu (readState).
func (rp *replay) toPoint(seat, at int) (loaded.AtPoint, error) {
	points := make([]loaded.Point, 1, len(rp.states))
	points[0] = loaded.Point{Moves: 0, Text: templates.Say.GameBegins(), Events: rp.opening}
	var since []engine.Event
	for i, ln := range rp.lines {
		since = append(since, ln.events...)
		if !ln.public {
			continue
		}
		text, told := toldOf(ln.events, seat)
		points = append(points, loaded.Point{Moves: i + 1, Text: text, Told: told, Events: since})
		since = nil
	}
	last := len(points) - 1
	if at < 0 {
		at = last
	}
	if at > last {
		return loaded.AtPoint{}, loaded.ErrNoPoint
	}
	game := rp.states[at]
	if at == last {
		game = rp.last
		// Now is the last public point with the moves no one else saw
		// since (the seat's own): appended to a copy, as the points'
		// events are the replay's.
		points[last].Events = append(points[last].Events[:len(points[last].Events):len(points[last].Events)], since...)
	}
	return loaded.AtPoint{Points: points, State: game, At: at, Now: at == last}, nil
}

// toldOf is what seat was told of a public line, evs being the events
// it caused, in the words it was told (loaded's pointText).
func toldOf(evs []engine.Event, seat int) (string, []engine.Event) {
	var parts []string
	var told []engine.Event
	for _, e := range evs {
		if e.VisibleTo(seat) {
			parts = append(parts, e.Text)
			told = append(told, e)
		}
	}
	return strings.Join(parts, " "), told
}
