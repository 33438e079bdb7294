package loaded

import (
	"errors"
	"fmt"
	"strings"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// ErrNoPoint is the answer for a point of the history a game does not
// have.
var ErrNoPoint = errors.New("loaded: no such point of the game")

// History is what a game's replay for one seat is made from: its set-up
// and moves as stored, the events the service stored for each undo line
// (Undone, by the line's seq: whom it told that a command was taken back,
// in the words it used; a command only its player knew of is taken back
// telling him alone), and the seat it is replayed for (engine.Public for
// a spectator).
type History struct {
	GameID int64
	Rules  engine.Rules
	Setup  engine.Setup
	Moves  []store.Move
	Undone map[int64][]engine.Event
	Seat   int
}

// Point is one public moment of a game's replay: the moves applied so
// far, what the whole table saw happen, and the events since the
// previous point.
type Point struct {
	Moves int
	Text  string
	// Told are the events Text is made of: what the seat was told of
	// the point's line, for a page that writes them in its reader's
	// language. The first point's is empty: it is the game's beginning.
	Told   []engine.Event
	Events []engine.Event
}

// AtPoint is a game replayed to a point: its public points, the game at
// the point (At), and whether that point is now (the last one).
type AtPoint struct {
	Points []Point
	State  engine.Game
	At     int
	Now    bool
}

// ToPoint replays the game's moves and keeps the game at point at (at < 0
// is now); a point the game does not have is ErrNoPoint.
func (h History) ToPoint(at int) (AtPoint, error) {
	l, opening, err := engine.NewLog(h.Rules, h.Setup)
	if err != nil {
		return AtPoint{}, fmt.Errorf("daemon: page of game %d: %w", h.GameID, err)
	}
	points := []Point{{Moves: 0, Text: templates.Say.GameBegins(), Events: opening}}
	game := l.Game().Clone()
	var since []engine.Event
	for i, m := range h.Moves {
		evs, err := l.Do(m.Seat, m.Command)
		if err != nil {
			return AtPoint{}, fmt.Errorf("daemon: page of game %d: move %d does not replay", h.GameID, m.Seq)
		}
		if IsUndoLine(m.Command) {
			evs = h.Undone[m.Seq]
		}
		since = append(since, evs...)
		text, told, public := pointText(evs, h.Seat)
		if !public {
			continue
		}
		points = append(points, Point{Moves: i + 1, Text: text, Told: told, Events: since})
		since = nil
		if at == len(points)-1 {
			game = l.Game().Clone()
		}
	}
	// Now is the last public point, with the moves no one else saw since
	// (the seat's own, told to it alone): the page does not show that a
	// private move was made, not even by a point more.
	last := len(points) - 1
	if at < 0 {
		at = last
	}
	if at > last {
		return AtPoint{}, ErrNoPoint
	}
	if at == last {
		game = l.Game()
		points[last].Events = append(points[last].Events, since...)
	}
	return AtPoint{Points: points, State: game, At: at, Now: at == last}, nil
}

// IsUndoLine reports whether a line of the move log takes its seat's
// last command back (engine.Log.Do reads it so).
func IsUndoLine(command string) bool {
	return strings.EqualFold(strings.TrimSpace(command), engine.UndoCommand)
}

// pointText is what seat was told of a line of the log, evs being the
// events it caused, in the words it was told (its own, for its own act),
// and whether the whole table was told of it: only such a line is a
// point of the history, so that the points tell no one of a move he did
// not see. That holds for an undo as for a command: a command its player
// alone knew of (a standing order) is taken back telling him alone, and
// is no point of anyone's history, nor is its undo.
func pointText(evs []engine.Event, seat int) (string, []engine.Event, bool) {
	public := false
	var parts []string
	var told []engine.Event
	for _, e := range evs {
		public = public || e.VisibleTo(engine.Public)
		if e.VisibleTo(seat) {
			parts = append(parts, e.Text)
			told = append(told, e)
		}
	}
	return strings.Join(parts, " "), told, public
}
