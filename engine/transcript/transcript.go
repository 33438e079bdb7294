// Package transcript reads and writes game transcripts (see
// docs/transcripts.md) and replays them through a game's engine. It
// knows no game: the game-specific set-up lines and commands belong to the
// game's engine.Rules.
package transcript

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/pbem/pbem/engine"
)

// maxLine bounds one transcript line; a Gracias deck line is under 1 KB.
const maxLine = 64 << 10

// Transcript is a parsed game record.
type Transcript struct {
	Rules  engine.Rules
	Setup  engine.Setup
	Seeded bool // whether a seed line was given
	Moves  []Move
}

// Move is one command line: a player's command as written.
type Move struct {
	Line    int    // line number in the file; 0 when not read from one
	Player  string // the player's name
	Command string // the command text
	// Note is written after the command as a comment, for people: Read
	// skips it. Export notes which command an undo line took back.
	Note string
}

// LineError is an error at one line of a transcript.
type LineError struct {
	Line int
	Err  error
}

func (e *LineError) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }
func (e *LineError) Unwrap() error { return e.Err }

// Lookup finds a game's rules by name.
type Lookup func(name string) (engine.Rules, bool)

// Read parses a transcript. It checks the form of every line and that
// every command line names a player; whether the commands are legal is
// for Replay.
func Read(r io.Reader, lookup Lookup) (*Transcript, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 4096), maxLine)
	t := &Transcript{}
	seen := map[string]bool{}
	n := 0
	fail := func(format string, args ...any) error {
		return &LineError{Line: n, Err: fmt.Errorf(format, args...)}
	}
	for sc.Scan() {
		n++
		line := sc.Text()
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if name, cmd, ok := moveLine(line); ok {
			if t.Setup.Players == nil {
				return nil, fail("a command before the players line")
			}
			name = strings.ToLower(name)
			if !slices.Contains(t.Setup.Players, name) {
				return nil, fail("%s is not a player of this game (players: %s)", name, strings.Join(t.Setup.Players, ", "))
			}
			if cmd == "" {
				return nil, fail("%s: no command after the colon", name)
			}
			t.Moves = append(t.Moves, Move{Line: n, Player: name, Command: cmd})
			continue
		}
		fields := strings.Fields(line)
		key, args := strings.ToLower(fields[0]), fields[1:]
		if len(t.Moves) > 0 {
			return nil, fail("set-up line %q after the first command", key)
		}
		if t.Rules == nil && key != "game" {
			return nil, fail("the first line must say which game: game NAME")
		}
		if seen[key] && key != "deck" {
			return nil, fail("%s is given twice", key)
		}
		seen[key] = true
		switch key {
		case "game":
			if len(args) != 1 {
				return nil, fail("game takes one name")
			}
			rules, ok := lookup(strings.ToLower(args[0]))
			if !ok {
				return nil, fail("unknown game %q", args[0])
			}
			t.Rules = rules
		case "players":
			names := make([]string, len(args))
			for i, a := range args {
				names[i] = strings.ToLower(a)
				if !engine.ValidName(names[i]) {
					return nil, fail("%q is not a valid player name (a letter, then letters, digits, _ or -)", a)
				}
				if slices.Contains(names[:i], names[i]) {
					return nil, fail("player %s is named twice", names[i])
				}
			}
			if len(names) < t.Rules.MinPlayers() || len(names) > t.Rules.MaxPlayers() {
				return nil, fail("%s is for %d to %d players, not %d", t.Rules.Name(), t.Rules.MinPlayers(), t.Rules.MaxPlayers(), len(names))
			}
			t.Setup.Players = names
		case "seed":
			if len(args) != 1 {
				return nil, fail("seed takes one number")
			}
			s, err := strconv.ParseUint(args[0], 10, 64)
			if err != nil {
				return nil, fail("seed %q is not a whole number", args[0])
			}
			t.Setup.Seed, t.Seeded = s, true
		case "start":
			if len(args) != 1 {
				return nil, fail("start takes one player")
			}
			if t.Setup.Players == nil {
				return nil, fail("start must come after the players line")
			}
			name := strings.ToLower(args[0])
			if !slices.Contains(t.Setup.Players, name) {
				return nil, fail("start: %s is not a player", name)
			}
			t.Setup.Start = name
		default:
			if !slices.Contains(t.Rules.SetupKeys(), key) {
				return nil, fail("%s has no set-up line %q (it knows: game, players, seed, start, %s)", t.Rules.Name(), key, strings.Join(t.Rules.SetupKeys(), ", "))
			}
			if t.Setup.Players == nil {
				return nil, fail("%s must come after the players line", key)
			}
			t.Setup.Lines = append(t.Setup.Lines, engine.SetupLine{Key: key, Args: args})
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, &LineError{Line: n + 1, Err: fmt.Errorf("line longer than %d bytes", maxLine)}
		}
		return nil, fmt.Errorf("reading transcript: %w", err)
	}
	if t.Rules == nil {
		return nil, errors.New("empty transcript: no game line")
	}
	if t.Setup.Players == nil {
		return nil, errors.New("no players line")
	}
	return t, nil
}

// moveLine splits "alice: play 15".
func moveLine(line string) (name, cmd string, ok bool) {
	i := strings.IndexByte(line, ':')
	if i <= 0 {
		return "", "", false
	}
	name = strings.TrimSpace(line[:i])
	if strings.ContainsAny(name, " \t") {
		return "", "", false
	}
	return name, strings.TrimSpace(line[i+1:]), true
}

// Replay sets the game up and applies every move in order. A line
// "NAME: undo" takes NAME's last command back (engine.Log says when it
// may). The first line that cannot be read or is not legal stops it with
// a *LineError naming the line, the player and the reason. The events are
// the whole log, with one public "undo" event for each command taken
// back.
func (t *Transcript) Replay() (engine.Game, []engine.Event, error) {
	l, log, err := engine.NewLog(t.Rules, t.Setup)
	if err != nil {
		return nil, nil, fmt.Errorf("set-up: %w", err)
	}
	for _, m := range t.Moves {
		seat := slices.Index(t.Setup.Players, m.Player)
		ev, err := l.Do(seat, m.Command)
		var pe *engine.ParseError
		if errors.As(err, &pe) {
			return l.Game(), log, &LineError{Line: m.Line, Err: fmt.Errorf("%s: cannot read %q: %s", m.Player, m.Command, pe.Reason)}
		}
		if err != nil {
			return l.Game(), log, &LineError{Line: m.Line, Err: err}
		}
		if isUndo(m.Command) {
			ev = []engine.Event{{To: engine.Public, Kind: engine.UndoCommand, Text: fmt.Sprintf("%s's last move is taken back.", m.Player)}}
		}
		log = append(log, ev...)
	}
	return l.Game(), log, nil
}

// isUndo reports whether a command line takes a command back.
func isUndo(command string) bool {
	return strings.EqualFold(strings.TrimSpace(command), engine.UndoCommand)
}

// Write writes a transcript of a game: its explicit set-up and its moves.
func Write(w io.Writer, game string, setup engine.Setup, moves []Move) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "game %s\n", game)
	fmt.Fprintf(bw, "players %s\n", strings.Join(setup.Players, " "))
	if setup.Seed != 0 {
		fmt.Fprintf(bw, "seed %d\n", setup.Seed)
	}
	if setup.Start != "" {
		fmt.Fprintf(bw, "start %s\n", setup.Start)
	}
	for _, l := range setup.Lines {
		fmt.Fprintln(bw, l.String())
	}
	for _, m := range moves {
		if m.Note != "" {
			fmt.Fprintf(bw, "%s: %s  # %s\n", m.Player, m.Command, strings.ReplaceAll(m.Note, "\n", " "))
			continue
		}
		fmt.Fprintf(bw, "%s: %s\n", m.Player, m.Command)
	}
	return bw.Flush()
}
