package templates

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	_ "time/tzdata" // deadlines in Europe/Berlin on any machine

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/games"
	"github.com/pbem/pbem/engine/transcript"
)

// step is one applied move of a transcript and what it caused.
type step struct {
	seat   int
	cmd    string
	events []engine.Event
}

// play replays the first n moves of a transcript file (all when n < 0),
// relative to the repository's root. It returns the game, the opening
// events and each move's step.
func play(t testing.TB, file string, n int) (engine.Game, []engine.Event, []step) {
	t.Helper()
	f, err := os.Open(filepath.Join("..", file))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr, err := transcript.Read(f, games.Lookup)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	g, opening, err := tr.Rules.New(tr.Setup)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	moves := tr.Moves
	if n >= 0 {
		moves = moves[:n]
	}
	var steps []step
	for _, m := range moves {
		cmd, err := engine.ParseCommand(tr.Rules.Specs(), tr.Setup.Players, m.Command)
		if err != nil {
			t.Fatalf("%s:%d: %v", file, m.Line, err)
		}
		seat := engine.Seat(g, m.Player)
		ev, err := g.Apply(seat, cmd)
		if err != nil {
			t.Fatalf("%s:%d: %v", file, m.Line, err)
		}
		steps = append(steps, step{seat: seat, cmd: cmd.Text, events: ev})
	}
	return g, opening, steps
}

// visible keeps the events seat may see.
func visible(seat int, evs []engine.Event) []engine.Event {
	var out []engine.Event
	for _, e := range evs {
		if e.VisibleTo(seat) {
			out = append(out, e)
		}
	}
	return out
}

// sinceLastMove is what happened since seat's last move: the events of
// the steps after it (or of every step and the opening, if it has not
// moved yet) that seat may see.
func sinceLastMove(seat int, opening []engine.Event, steps []step) []engine.Event {
	from := -1
	for i, s := range steps {
		if s.seat == seat {
			from = i
		}
	}
	var evs []engine.Event
	if from < 0 {
		evs = append(evs, opening...)
	}
	for _, s := range steps[from+1:] {
		evs = append(evs, s.events...)
	}
	return visible(seat, evs)
}

// testReplyAddress and testRef are a seat's address and a mail's
// reference as the daemon makes them.
const (
	testReplyAddress = "pbem+k7x2qp9w@pbem.example"
	testRef          = "q3v5n2ksd7hxo4mfw6ty2lba"
)

var testDeadline = time.Date(2026, 11, 24, 17, 0, 0, 0, time.UTC)

// mailFor builds the mail the daemon would send seat now.
func mailFor(t testing.TB, g engine.Game, seat int, kind MailKind, happened []engine.Event) GameMail {
	t.Helper()
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	names := g.Players()
	m := GameMail{
		Service:  "pbem",
		Marker:   "-- pbem game 12: write your reply above this line --",
		GameID:   12,
		Game:     g.Rules().Name(),
		Title:    g.Rules().Title(),
		Reader:   names[seat],
		Happened: happened,
		View:     g.View(seat),
		Options:  g.Options(seat),
		Location: berlin,
		Kind:     kind,
	}
	if m.Game == "gracias" {
		m.GameID = 7
		m.Marker = "-- pbem game 7: write your reply above this line --"
	}
	// As the daemon sets them: the seat's address, the mail's id and its
	// reference line (daemon.refOf, parser.RefLine).
	m.ReplyAddress = testReplyAddress
	m.MessageID = "pbem." + testRef + "@pbem.example"
	m.RefLine = "pbem ref: " + testRef
	// Every game mail the daemon sends is in the game's thread.
	m.ThreadSubject = fmt.Sprintf("%s #%d with %s", shortName(m.Game, m.Title), m.GameID, strings.Join(names, ", "))
	m.WaitingSince = map[string]time.Time{}
	for _, w := range g.Waiting() {
		m.Waiting = append(m.Waiting, names[w])
		m.WaitingSince[names[w]] = testDeadline.Add(-72 * time.Hour) // as NewDecision records it
	}
	if len(m.Options) > 0 {
		m.Deadline = testDeadline
	}
	res := g.Result()
	if res.Finished {
		m.Finished = true
		m.Kind = "end"
		for i, n := range names {
			m.Scores = append(m.Scores, Score{Name: n, Score: res.Scores[i]})
		}
		for _, w := range res.Winners {
			m.Winners = append(m.Winners, names[w])
		}
	}
	return m
}
