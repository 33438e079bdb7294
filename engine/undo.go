package engine

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// UndoCommand is the log line that takes back its player's last command:
// "alice: undo" in a transcript. It is not a game's command: no game may
// have a Spec of that name (games_test.go checks it), and the service
// decides who may write it and when (a vote, or an admin).
const UndoCommand = "undo"

// Reveals is implemented by a game whose log says when hidden information
// comes to light: a card turned up, a face-down card seen, a new deal.
// A command whose events hold such a kind, or a result kind (Results),
// cannot be taken back: the table would keep what it learnt. A game that
// does not implement Reveals cannot take any command back.
type Reveals interface {
	// RevealKinds lists the Kinds of the events that bring hidden
	// information to light.
	RevealKinds() []string
}

// IsReveal reports whether events of kind bring hidden information to
// light in the game r.
func IsReveal(r Rules, kind string) bool {
	rv, ok := r.(Reveals)
	return ok && slices.Contains(rv.RevealKinds(), kind)
}

// Step is one command in effect in a Log.
type Step struct {
	// Line counts the log's lines from 0: every Apply and every Undo is
	// one. A caller that feeds a stored log in order maps it back to its
	// own record of the command.
	Line    int
	Seat    int
	Command Command
	Events  []Event // what the command caused, in order
}

// Private reports whether no seat but the step's own may see anything of
// it: a standing order, say. Nobody else knows it was given.
func (s Step) Private() bool {
	for _, e := range s.Events {
		if e.To != s.Seat {
			return false
		}
	}
	return true
}

// Seen returns the step's events a seat other than its own (or a
// spectator) may see: what the table knows of it.
func (s Step) Seen() []Event {
	var seen []Event
	for _, e := range s.Events {
		if e.To != s.Seat {
			seen = append(seen, e)
		}
	}
	return seen
}

// UndoError says why a command cannot be taken back. Reason speaks to the
// player whose command it is, as IllegalError's does, and names nothing
// he may not know.
type UndoError struct {
	Player string
	Reason string
}

func (e *UndoError) Error() string {
	return fmt.Sprintf("%s, your last command cannot be taken back: %s", e.Player, e.Reason)
}

// Log is a game with the commands in effect that made it, so that the
// last of them can be taken back. It rebuilds the game from the set-up to
// take a command back: engines are deterministic, and taking back is rare.
type Log struct {
	rules Rules
	setup Setup
	game  Game
	steps []Step // the commands in effect, in order
	lines int    // lines read so far, undo lines included
}

// NewLog sets a game up. The events are those of the opening.
func NewLog(r Rules, s Setup) (*Log, []Event, error) {
	g, events, err := r.New(s)
	if err != nil {
		return nil, nil, err
	}
	return &Log{rules: r, setup: s, game: g}, events, nil
}

// Game is the game as the commands in effect made it.
func (l *Log) Game() Game { return l.game }

// Apply applies one command by one seat, as Game.Apply does, and keeps it
// in effect.
func (l *Log) Apply(seat int, c Command) ([]Event, error) {
	events, err := l.game.Apply(seat, c)
	if err != nil {
		return nil, err
	}
	l.steps = append(l.steps, Step{Line: l.lines, Seat: seat, Command: c, Events: events})
	l.lines++
	return events, nil
}

// Do reads one log line's command text and applies it: UndoCommand takes
// seat's last command back, and anything else is read with the game's
// grammar (a *ParseError when it does not read).
func (l *Log) Do(seat int, text string) ([]Event, error) {
	if strings.EqualFold(strings.TrimSpace(text), UndoCommand) {
		if _, err := l.Undo(seat); err != nil {
			return nil, err
		}
		return nil, nil
	}
	c, err := ParseCommand(l.rules.Specs(), l.game.Players(), text)
	if err != nil {
		return nil, err
	}
	return l.Apply(seat, c)
}

// Last returns seat's last command in effect, if it may be taken back
// now, or an *UndoError that says why not. It may not when:
//   - another seat has made a move the table saw since (a private one,
//     such as a standing order nobody else knows of, does not count: it
//     is kept, and made again after the undo);
//   - the command made another seat act, or told another seat something
//     only that seat may see;
//   - the command brought hidden information to light, or decided a round
//     (Reveals and Results kinds);
//   - the game does not say which of its events reveal (no Reveals).
func (l *Log) Last(seat int) (Step, error) {
	names := l.game.Players()
	refuse := func(format string, args ...any) (Step, error) {
		return Step{}, &UndoError{Player: names[seat], Reason: fmt.Sprintf(format, args...)}
	}
	if _, ok := l.rules.(Reveals); !ok {
		return refuse("%s does not say which of its events bring hidden information to light, so pbem takes none of its commands back", l.rules.Title())
	}
	at := -1
	for i := len(l.steps) - 1; i >= 0; i-- {
		if l.steps[i].Seat == seat {
			at = i
			break
		}
	}
	if at < 0 {
		return refuse("you have no command in effect to take back")
	}
	for _, later := range l.steps[at+1:] {
		if !later.Private() {
			return refuse("%s has moved since", names[later.Seat])
		}
		for _, e := range later.Events {
			if IsReveal(l.rules, e.Kind) || IsResult(l.rules, e.Kind) {
				// Another seat's private step: its words are not the
				// proposer's to read.
				return refuse("the game has moved on since")
			}
		}
	}
	step := l.steps[at]
	for _, e := range step.Events {
		switch {
		case e.To >= 0 && e.To != seat:
			return refuse("it told %s something only %s may see", names[e.To], names[e.To])
		case e.To < Public && e.To != Others(seat):
			actor := -2 - e.To
			return refuse("%s acted because of it (%s)", names[actor], strings.TrimSuffix(e.Text, "."))
		case IsReveal(l.rules, e.Kind):
			return refuse("it brought hidden information to light (%s)", strings.TrimSuffix(e.Text, "."))
		case IsResult(l.rules, e.Kind):
			return refuse("it decided a round (%s)", strings.TrimSuffix(e.Text, "."))
		}
	}
	return step, nil
}

// ErrMovedOn is returned by Undo when a private command given after the
// one taken back is no longer legal without it. The words are the same
// as for any other move since, so that they tell nothing of it.
var ErrMovedOn = errors.New("the game has moved on since")

// Undo takes seat's last command back, if Last allows it: the game is
// rebuilt from its set-up with every other command in effect, in order.
// On an error nothing changes.
func (l *Log) Undo(seat int) (Step, error) {
	step, err := l.Last(seat)
	if err != nil {
		return Step{}, err
	}
	g, _, err := l.rules.New(l.setup)
	if err != nil {
		return Step{}, fmt.Errorf("undo: set-up: %w", err)
	}
	var kept []Step
	for _, s := range l.steps {
		if s.Line == step.Line {
			continue
		}
		events, err := g.Apply(s.Seat, s.Command)
		if err != nil {
			if s.Line > step.Line {
				return Step{}, &UndoError{Player: l.game.Players()[seat], Reason: ErrMovedOn.Error()}
			}
			return Step{}, fmt.Errorf("undo: command %d (%s) does not replay: %w", s.Line, s.Command.Text, err)
		}
		s.Events = events
		kept = append(kept, s)
	}
	l.game, l.steps = g, kept
	l.lines++
	return step, nil
}
