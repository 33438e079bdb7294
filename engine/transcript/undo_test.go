package transcript_test

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/games"
	"github.com/pbem/pbem/engine/transcript"
)

const felixHead = `game felix
players alice bob carol dave
start alice
removed alice=-8 bob=large-dog carol=rabbit dave=15
`

const graciasHead = `game gracias
players alice bob carol
seed 11
start alice
deck 1 red red yellow yellow green green red yellow purple yellow purple orange red purple green purple red orange orange yellow purple green red purple orange purple red orange orange yellow purple green red orange orange purple red purple orange red green purple red red red red red red red red orange orange orange orange orange orange orange orange orange yellow yellow yellow yellow yellow yellow yellow yellow yellow yellow yellow yellow green green green green green green green green green green green green blue blue blue blue blue blue blue blue blue blue blue blue blue blue blue blue blue blue purple purple purple purple purple purple purple
`

// replay reads and replays a transcript.
func replay(t *testing.T, text string) (engine.Game, []engine.Event, error) {
	t.Helper()
	tr, err := transcript.Read(strings.NewReader(text), games.Lookup)
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	return tr.Replay()
}

// fataler is *testing.T or *rapid.T.
type fataler interface {
	Helper()
	Fatal(args ...any)
}

func state(t fataler, g engine.Game) string {
	t.Helper()
	b, err := g.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestUndoTakenBack: a transcript with "NAME: undo" gives the same game as
// the transcript without the command taken back, and goes on from there.
func TestUndoTakenBack(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name       string
		with, want string
	}{
		{"felix: a card put face down", felixHead + `
alice: play 15
bob: play rabbit
bob: undo
bob: play 5
`, felixHead + `
alice: play 15
bob: play 5
`},
		{"felix: a bid", felixHead + `
alice: play 15
bob: play rabbit
carol: play large dog
dave: play -5
alice: bid 2
alice: undo
alice: bid 3
`, felixHead + `
alice: play 15
bob: play rabbit
carol: play large dog
dave: play -5
alice: bid 3
`},
		{"felix: twice in a row", felixHead + `
alice: play 15
bob: play rabbit
bob: undo
alice: undo
alice: play 3
`, felixHead + `
alice: play 3
`},
		{"gracias: a card kept and one given", graciasHead + `
alice: take 1 keep red give carol
bob: take 2
bob: keep yellow give alice
bob: undo
bob: keep purple give carol
`, graciasHead + `
alice: take 1 keep red give carol
bob: take 2
bob: keep purple give carol
`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, log, err := replay(t, tc.with)
			if err != nil {
				t.Fatalf("with undo: %v", err)
			}
			want, _, err := replay(t, tc.want)
			if err != nil {
				t.Fatalf("without: %v", err)
			}
			if state(t, got) != state(t, want) {
				t.Errorf("the game after undo differs from the game without the command\n got %s\nwant %s", state(t, got), state(t, want))
			}
			if !slices.ContainsFunc(log, func(e engine.Event) bool { return e.Kind == engine.UndoCommand && e.To == engine.Public }) {
				t.Error("the log has no public undo event")
			}
		})
	}
}

// TestUndoRefused: what may not be taken back stops the replay with the
// reason, in the proposer's words.
func TestUndoRefused(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, text, want string
	}{
		{"felix: a card turned up since", felixHead + `
alice: play 15
bob: play rabbit
carol: play large dog
dave: play -5
alice: bid 2
bob: pass
bob: undo
`, "bob, your last command cannot be taken back: it brought hidden information to light (bob's card is turned up: rabbit)"},
		{"felix: another player moved since", felixHead + `
alice: play 15
bob: play rabbit
alice: undo
`, "alice, your last command cannot be taken back: bob has moved since"},
		{"felix: nothing to take back", felixHead + `
alice: play 15
bob: undo
`, "bob, your last command cannot be taken back: you have no command in effect to take back"},
		{"felix: a row won", felixHead + `
alice: play 15
bob: play rabbit
carol: play large dog
dave: play -5
alice: bid 2
bob: pass
carol: bid 3
dave: pass
alice: bid 5
carol: pass
carol: undo
`, "carol, your last command cannot be taken back: it"},
		{"gracias: a face-down card seen", graciasHead + `
alice: take 1 keep red give carol
bob: take 2
bob: undo
`, "bob, your last command cannot be taken back: it brought hidden information to light (You take triplet 2"},
		{"gracias: a take in one line", graciasHead + `
alice: take 1 keep red give carol
alice: undo
`, "alice, your last command cannot be taken back: it brought hidden information to light (You take triplet 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := replay(t, tc.text)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("replay error %v, want one containing %q", err, tc.want)
			}
			var le *transcript.LineError
			if !errors.As(err, &le) || le.Line != strings.Count(tc.text, "\n") {
				t.Errorf("error %v is not at the undo's line %d", err, strings.Count(tc.text, "\n"))
			}
		})
	}
}

// TestUndoWrittenAndRead: Write keeps undo lines, and what it writes
// replays to the same game.
func TestUndoWrittenAndRead(t *testing.T) {
	t.Parallel()
	text := felixHead + "alice: play 15\nbob: play rabbit\nbob: undo\nbob: play 5\n"
	tr, err := transcript.Read(strings.NewReader(text), games.Lookup)
	if err != nil {
		t.Fatal(err)
	}
	g, _, err := tr.Replay()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := transcript.Write(&buf, "felix", g.Setup(), nil, tr.Moves); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "bob: undo\n") {
		t.Fatalf("written transcript lost the undo line:\n%s", buf.String())
	}
	again, _, err := replay(t, buf.String())
	if err != nil {
		t.Fatal(err)
	}
	if state(t, again) != state(t, g) {
		t.Error("the written transcript replays to another game")
	}
}

// TestPropertyUndo plays random games of every size and, at random
// points, takes a seat's last command back. Whenever engine.Log allows
// it, the game is exactly the game replayed without that command (and
// with every other command in effect); whenever it refuses, nothing
// changed. A refusal for a reveal or a result is checked against the
// command's own events.
func TestPropertyUndo(t *testing.T) {
	t.Parallel()
	undone, played := 0, 0
	rapid.Check(t, func(rt *rapid.T) {
		played++
		names := games.Names()
		rules, _ := games.Lookup(rapid.SampledFrom(names).Draw(rt, "game"))
		n := rapid.IntRange(rules.MinPlayers(), rules.MaxPlayers()).Draw(rt, "players")
		players := []string{"alice", "bob", "carol", "dave", "erin", "frank"}[:n]
		setup := engine.Setup{Players: players, Seed: rapid.Uint64().Draw(rt, "seed")}
		l, _, err := engine.NewLog(rules, setup)
		if err != nil {
			rt.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(rt, "moves"), 1))
		type line struct {
			seat int
			text string
		}
		var lines []line
		for step := 0; step < 300 && !l.Game().Result().Finished; step++ {
			g := l.Game()
			if rng.IntN(4) == 0 {
				seat := rng.IntN(n)
				before := state(rt, g)
				last, lastErr := l.Last(seat)
				taken, err := l.Undo(seat)
				if (err == nil) != (lastErr == nil) {
					rt.Fatalf("Last says %v, Undo says %v", lastErr, err)
				}
				if err != nil {
					if state(rt, l.Game()) != before {
						rt.Fatal("a refused undo changed the game")
					}
					continue
				}
				if taken.Line != last.Line {
					rt.Fatalf("Undo took line %d, Last named %d", taken.Line, last.Line)
				}
				for _, e := range taken.Events {
					if engine.IsReveal(rules, e.Kind) || engine.IsResult(rules, e.Kind) {
						rt.Fatalf("taken back although it revealed: %+v", e)
					}
				}
				undone++
				lines = append(lines, line{seat, engine.UndoCommand})
				// The same game without the command, from scratch.
				fresh, _, err := engine.NewLog(rules, setup)
				if err != nil {
					rt.Fatal(err)
				}
				for _, ln := range lines {
					if _, err := fresh.Do(ln.seat, ln.text); err != nil {
						rt.Fatalf("the log with undo lines does not replay: %v", err)
					}
				}
				if state(rt, fresh.Game()) != state(rt, l.Game()) {
					rt.Fatal("replaying the log with its undo lines gives another game")
				}
				continue
			}
			waiting := g.Waiting()
			seat := waiting[rng.IntN(len(waiting))]
			opts := g.Options(seat)
			o := opts[rng.IntN(len(opts))]
			text := o.Commands[rng.IntN(len(o.Commands))]
			if _, err := l.Do(seat, text); err != nil {
				rt.Fatalf("%s: %s: %v", players[seat], text, err)
			}
			lines = append(lines, line{seat, text})
		}
	})
	// The property means little if nothing was ever taken back.
	if played >= 20 && undone == 0 {
		t.Fatalf("%d games and not one command taken back", played)
	}
	t.Logf("%d commands taken back in %d games", undone, played)
}

// TestUndoOfPrivateStepStaysPrivate: a standing order given before one's
// turn is told to its player alone, and so is its undo: a bot's log, which
// Replay builds, must not tell the table of a step it never saw.
func TestUndoOfPrivateStepStaysPrivate(t *testing.T) {
	t.Parallel()
	_, log, err := replay(t, felixHead+`
alice: play 15
bob: play rabbit
carol: play large dog
dave: play -5
alice: bid 2
carol: pass
carol: undo
`)
	if err != nil {
		t.Fatal(err)
	}
	var undo []engine.Event
	for _, e := range log {
		if e.Kind == engine.UndoCommand {
			undo = append(undo, e)
		}
	}
	if len(undo) != 1 {
		t.Fatalf("the log has %d undo events, want 1: %v", len(undo), undo)
	}
	const carol = 2
	for seat := range 4 {
		if undo[0].VisibleTo(seat) != (seat == carol) {
			t.Errorf("seat %d sees the undo of carol's standing pass: %v (%+v)", seat, undo[0].VisibleTo(seat), undo[0])
		}
	}
	if undo[0].VisibleTo(engine.Public) {
		t.Errorf("spectators see the undo of carol's standing pass: %+v", undo[0])
	}
}
