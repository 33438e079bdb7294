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
	"github.com/pbem/pbem/engine/bot"
)

// maxLine bounds one transcript line; a Gracias deck line is under 1 KB.
const maxLine = 64 << 10

// Transcript is a parsed game record.
type Transcript struct {
	Rules  engine.Rules
	Setup  engine.Setup
	Seeded bool // whether a seed line was given
	// Bots holds the bot seats: seat index to level; nil when every
	// seat is a person's. A bot's name is in Setup.Players like anyone's.
	Bots  map[int]bot.Level
	Moves []Move
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
// for Replay, and whether the bots' lines are their moves for CheckBots.
// An entry "bot", "bot:LEVEL" or "NAME=bot:LEVEL" of the players line is
// a bot seat (Bots); the seats without a name are named by
// bot.SeatNames, in seat order, around every name the line gives.
func Read(r io.Reader, lookup Lookup) (*Transcript, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 4096), maxLine)
	t := &Transcript{}
	seen := map[string]bool{}
	n := 0
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
		var err error
		if name, cmd, ok := moveLine(line); ok {
			err = t.addMove(n, name, cmd)
		} else {
			err = t.addSetup(line, seen, lookup)
		}
		if err != nil {
			return nil, &LineError{Line: n, Err: err}
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

// addMove adds the command line n gives player name.
func (t *Transcript) addMove(n int, name, cmd string) error {
	if t.Setup.Players == nil {
		return errors.New("a command before the players line")
	}
	name = strings.ToLower(name)
	if !slices.Contains(t.Setup.Players, name) {
		return fmt.Errorf("%s is not a player of this game (players: %s)", name, strings.Join(t.Setup.Players, ", "))
	}
	if cmd == "" {
		return fmt.Errorf("%s: no command after the colon", name)
	}
	t.Moves = append(t.Moves, Move{Line: n, Player: name, Command: cmd})
	return nil
}

// addSetup reads a set-up line, given before the first command, after
// the game line, and each but deck once (seen holds the keys given).
func (t *Transcript) addSetup(line string, seen map[string]bool, lookup Lookup) error {
	fields := strings.Fields(line)
	key, args := strings.ToLower(fields[0]), fields[1:]
	if len(t.Moves) > 0 {
		return fmt.Errorf("set-up line %q after the first command", key)
	}
	if t.Rules == nil && key != "game" {
		return errors.New("the first line must say which game: game NAME")
	}
	if seen[key] && key != "deck" {
		return fmt.Errorf("%s is given twice", key)
	}
	seen[key] = true
	return t.setKey(key, args, lookup)
}

// setKey reads the arguments of the set-up line key.
func (t *Transcript) setKey(key string, args []string, lookup Lookup) error {
	switch key {
	case "game":
		if len(args) != 1 {
			return errors.New("game takes one name")
		}
		rules, ok := lookup(strings.ToLower(args[0]))
		if !ok {
			return fmt.Errorf("unknown game %q", args[0])
		}
		t.Rules = rules
	case "players":
		names, bots, err := readPlayers(args)
		if err != nil {
			return fmt.Errorf("%w", err)
		}
		if len(names) < t.Rules.MinPlayers() || len(names) > t.Rules.MaxPlayers() {
			return fmt.Errorf("%s is for %d to %d players, not %d", t.Rules.Name(), t.Rules.MinPlayers(), t.Rules.MaxPlayers(), len(names))
		}
		t.Setup.Players, t.Bots = names, bots
	case "seed":
		if len(args) != 1 {
			return errors.New("seed takes one number")
		}
		s, err := strconv.ParseUint(args[0], 10, 64)
		if err != nil {
			return fmt.Errorf("seed %q is not a whole number", args[0])
		}
		t.Setup.Seed, t.Seeded = s, true
	case "start":
		if len(args) != 1 {
			return errors.New("start takes one player")
		}
		if t.Setup.Players == nil {
			return errors.New("start must come after the players line")
		}
		name := strings.ToLower(args[0])
		if !slices.Contains(t.Setup.Players, name) {
			return fmt.Errorf("start: %s is not a player", name)
		}
		t.Setup.Start = name
	default:
		if !slices.Contains(t.Rules.SetupKeys(), key) {
			return fmt.Errorf("%s has no set-up line %q (it knows: game, players, seed, start, %s)", t.Rules.Name(), key, strings.Join(t.Rules.SetupKeys(), ", "))
		}
		if t.Setup.Players == nil {
			return fmt.Errorf("%s must come after the players line", key)
		}
		t.Setup.Lines = append(t.Setup.Lines, engine.SetupLine{Key: key, Args: args})
	}
	return nil
}

// readPlayers reads the players line's entries: a person's name, a bot
// seat named by the standard rule ("bot", "bot:LEVEL"), or a bot seat
// with its name given ("NAME=bot:LEVEL"). The bot seats without a name
// are named in seat order with bot.SeatNames of every name the line
// gives, so that the names depend on the line alone. bots is nil when
// there is no bot seat.
func readPlayers(args []string) (names []string, bots map[int]bot.Level, err error) {
	names = make([]string, len(args))
	var explicit []string
	unnamed := 0
	for i, a := range args {
		low := strings.ToLower(a)
		name, seat, named := strings.Cut(low, "=")
		if !named {
			name, seat = low, low
		}
		if named || seat == "bot" || strings.HasPrefix(seat, "bot:") {
			level, ok := bot.ParseSeat(seat)
			switch {
			case !ok && named && seat != "bot" && !strings.HasPrefix(seat, "bot:"):
				return nil, nil, fmt.Errorf("%s: only a bot seat is written NAME=..., as %s=%s", a, name, bot.SeatSpec(bot.Normal))
			case !ok:
				return nil, nil, fmt.Errorf("%s is not a bot level (%s)", seat, levelList())
			}
			if bots == nil {
				bots = map[int]bot.Level{}
			}
			bots[i] = level
			if !named {
				unnamed++
				continue
			}
		}
		if !engine.ValidName(name) {
			written, _, _ := strings.Cut(a, "=")
			return nil, nil, fmt.Errorf("%q is not a valid player name (a letter, then letters, digits, _ or -)", written)
		}
		if slices.Contains(explicit, name) {
			return nil, nil, fmt.Errorf("player %s is named twice", name)
		}
		names[i] = name
		explicit = append(explicit, name)
	}
	standard := bot.SeatNames(explicit, unnamed)
	for i := range names {
		if names[i] == "" {
			names[i], standard = standard[0], standard[1:]
		}
	}
	return names, bots, nil
}

// levelList is the bot levels for an error: "easy, normal, strong".
func levelList() string {
	var ls []string
	for _, l := range bot.Levels() {
		ls = append(ls, string(l))
	}
	return strings.Join(ls, ", ")
}

// playersLine writes the players line's entries for players, of whom the
// seats in bots are bots: a person's name as it is, a bot as "bot:LEVEL"
// where reading the line back names it as it is named, else as
// "NAME=bot:LEVEL". A bot written without its name would be named by
// bot.SeatNames over the other names, so the bots that must carry their
// name are found by trying: each round writes out the names of the bots
// the standard rule would misname, which can only take more names out of
// the rule, until it names every other bot right.
func playersLine(players []string, bots map[int]bot.Level) ([]string, error) {
	for seat, l := range bots {
		if seat < 0 || seat >= len(players) {
			return nil, fmt.Errorf("bot seat %d: the game has %d seats", seat, len(players))
		}
		if _, err := bot.ParseLevel(string(l)); err != nil {
			return nil, fmt.Errorf("bot seat %d: %w", seat, err)
		}
	}
	for seat, p := range players {
		if !engine.ValidName(p) {
			return nil, fmt.Errorf("%q is not a valid player name", p)
		}
		if _, isBot := bots[seat]; !isBot {
			if _, ok := bot.ParseSeat(p); ok {
				return nil, fmt.Errorf("player %s: a person of that name would read back as a bot seat", p)
			}
		}
	}
	named := map[int]bool{} // bot seats written with their names
	for {
		var explicit []string
		var unnamed []int
		for seat, p := range players {
			if _, isBot := bots[seat]; isBot && !named[seat] {
				unnamed = append(unnamed, seat)
				continue
			}
			explicit = append(explicit, p)
		}
		wrong := false
		for i, n := range bot.SeatNames(explicit, len(unnamed)) {
			if seat := unnamed[i]; players[seat] != n {
				named[seat], wrong = true, true
			}
		}
		if !wrong {
			break
		}
	}
	out := make([]string, len(players))
	for seat, p := range players {
		l, isBot := bots[seat]
		switch {
		case !isBot:
			out[seat] = p
		case named[seat]:
			out[seat] = p + "=" + bot.SeatSpec(l)
		default:
			out[seat] = bot.SeatSpec(l)
		}
	}
	return out, nil
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
// the whole log, with one event (UndoEvent) for each command taken
// back, told to whom the command was told.
func (t *Transcript) Replay() (engine.Game, []engine.Event, error) {
	r, err := t.start()
	if err != nil {
		return nil, nil, err
	}
	for _, m := range t.Moves {
		if err := r.step(m); err != nil {
			return r.l.Game(), r.log, err
		}
	}
	return r.l.Game(), r.log, nil
}

// CheckBots replays the transcript and checks that every move line of a
// bot seat is the move the bot makes there: for the line at index i of
// Moves, bot.Move on the game and the log (as Replay builds them) before
// that line, with the seat's level and the seed bot.SeedAt(Setup.Seed,
// i). A bot's move depends on nothing else, so a transcript of a game
// pbem played with bots replays to the very same bot moves: that is what
// makes a game with bots deterministic to replay, and a line edited or
// made up for a bot is caught. The first line that differs gives a
// *LineError naming it, with the bot's move and the line's; an undo line
// by a bot (which no bot writes) is one too. A transcript that does not
// replay gives Replay's error; one without bots is only replayed.
func (t *Transcript) CheckBots() error {
	r, err := t.start()
	if err != nil {
		return err
	}
	for i, m := range t.Moves {
		seat := slices.Index(t.Setup.Players, m.Player)
		if level, isBot := t.Bots[seat]; isBot {
			if err := r.checkBot(m, seat, level, bot.SeedAt(t.Setup.Seed, i)); err != nil {
				return err
			}
		}
		if err := r.step(m); err != nil {
			return err
		}
	}
	return nil
}

// UndoEvent is the log's entry for taken, a command of player's taken
// back: the event Replay adds for a "NAME: undo" line. Whoever keeps a
// game's log for a bot (the daemon) adds the same one, so that the bot
// sees the log a replay rebuilds. It is told to whom the command was
// told: the table when it saw the command, else the player alone, so
// that a standing order nobody else knew of (a private step) is not
// brought to light by its undo, in a bot's log (engine.KnowledgeOf) as
// in the mails and pages.
func UndoEvent(player string, taken engine.Step) engine.Event {
	to := engine.Public
	if taken.Private() {
		to = taken.Seat
	}
	return engine.Event{To: to, Kind: engine.UndoCommand, Text: fmt.Sprintf("%s's last move is taken back.", player)}
}

// replayer is a transcript's game part-way through: the one path by which
// Replay and CheckBots apply lines, so that the log a bot is checked
// against is the log Replay gives.
type replayer struct {
	t   *Transcript
	l   *engine.Log
	log []engine.Event // the opening and every line's events so far
}

// start sets the transcript's game up.
func (t *Transcript) start() (*replayer, error) {
	l, log, err := engine.NewLog(t.Rules, t.Setup)
	if err != nil {
		return nil, fmt.Errorf("set-up: %w", err)
	}
	return &replayer{t: t, l: l, log: log}, nil
}

// step applies one move line and adds its events to the log.
func (r *replayer) step(m Move) error {
	seat := slices.Index(r.t.Setup.Players, m.Player)
	if isUndo(m.Command) {
		taken, err := r.l.Undo(seat)
		if err != nil {
			return &LineError{Line: m.Line, Err: err}
		}
		r.log = append(r.log, UndoEvent(m.Player, taken))
		return nil
	}
	ev, err := r.l.Do(seat, m.Command)
	var pe *engine.ParseError
	if errors.As(err, &pe) {
		return &LineError{Line: m.Line, Err: fmt.Errorf("%s: cannot read %q: %s", m.Player, m.Command, pe.Reason)}
	}
	if err != nil {
		return &LineError{Line: m.Line, Err: err}
	}
	r.log = append(r.log, ev...)
	return nil
}

// isUndo reports whether a command line takes a command back.
func isUndo(command string) bool {
	return strings.EqualFold(strings.TrimSpace(command), engine.UndoCommand)
}

// checkBot checks that line m, by the bot at seat, is the bot's move now.
// Both commands are compared in canonical form (Command.Text, as the
// game's parser reads them), so that a line in other words of the same
// command ("play big dog") still matches.
func (r *replayer) checkBot(m Move, seat int, level bot.Level, seed uint64) error {
	fail := func(format string, args ...any) error {
		return &LineError{Line: m.Line, Err: fmt.Errorf("%s is a bot (%s): "+format, append([]any{m.Player, level}, args...)...)}
	}
	if isUndo(m.Command) {
		return fail("a bot takes nothing back, but the line says %q", m.Command)
	}
	g := r.l.Game()
	want, err := bot.Move(g, seat, r.log, level, seed)
	if err != nil {
		return fail("it has no move here (%v), but the line says %q", err, m.Command)
	}
	canon := func(text string) string {
		c, err := engine.ParseCommand(g.Rules().Specs(), g.Players(), text)
		if err != nil {
			return text
		}
		return c.Text
	}
	if got := canon(m.Command); got != canon(want.Text) {
		return fail("it plays %q here, but the line says %q", want.Text, m.Command)
	}
	return nil
}

// Write writes a transcript of a game: its explicit set-up, its bot
// seats (seat index to level; nil when there is none) and its moves. A
// bot seat is written "bot:LEVEL" where Read names it as it is named, and
// "NAME=bot:LEVEL" where not (a name the standard names skip, after a
// person took one of them). A person named like a bot seat ("bot") cannot
// be written: the line would read back as a bot.
func Write(w io.Writer, game string, setup engine.Setup, bots map[int]bot.Level, moves []Move) error {
	players, err := playersLine(setup.Players, bots)
	if err != nil {
		return fmt.Errorf("transcript: %w", err)
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "game %s\n", game)
	fmt.Fprintf(bw, "players %s\n", strings.Join(players, " "))
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
