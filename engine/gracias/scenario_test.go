package gracias_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/games"
	"github.com/pbem/pbem/engine/gracias"
	"github.com/pbem/pbem/engine/transcript"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// replayFile reads and replays one transcript of testdata.
func replayFile(t *testing.T, name string) (*transcript.Transcript, *gracias.Game, []engine.Event) {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr, err := transcript.Read(f, games.Lookup)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	g, log, err := tr.Replay()
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return tr, g.(*gracias.Game), log
}

func summaryJSON(t *testing.T, g engine.Game) string {
	t.Helper()
	b, err := json.Marshal(g.Summary())
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestScenarios replays every hand-computed transcript and compares its
// summary with the result worked out by hand in the transcript's comments.
func TestScenarios(t *testing.T) {
	t.Parallel()
	want := map[string]string{
		// Session 1 only: alice 5 (3 stacks + 2 purple), bob 0, carol 3;
		// session 2 has begun with bob holding both start cards.
		"scoring-3p.txt": `{"game":"gracias","finished":false,"round":1,"session":2,"to_move":["bob"],"players":[` +
			`{"name":"alice","score":5,"sessions":[5]},{"name":"bob","score":0,"sessions":[0]},{"name":"carol","score":3,"sessions":[3]}],"winners":[]}`,
		// alice 5+3+1 = 9 and bob 0+5+4 = 9 tie, and tie on the best session
		// (5); bob's second-best 4 beats alice's 3.
		"second-best-3p.txt": `{"game":"gracias","finished":true,"round":4,"session":3,"to_move":[],"players":[` +
			`{"name":"alice","score":9,"sessions":[5,3,1]},{"name":"bob","score":9,"sessions":[0,5,4]},{"name":"carol","score":5,"sessions":[3,0,2]}],"winners":["bob"]}`,
		// alice 2+3+1 = 6 and bob 1+5+0 = 6 tie; bob's best session 5 beats 3.
		"best-session-3p.txt": `{"game":"gracias","finished":true,"round":4,"session":3,"to_move":[],"players":[` +
			`{"name":"alice","score":6,"sessions":[2,3,1]},{"name":"bob","score":6,"sessions":[1,5,0]},{"name":"carol","score":4,"sessions":[4,0,0]}],"winners":["bob"]}`,
		// All 8, all with sessions 5, 3 and 0: a shared win.
		"shared-3p.txt": `{"game":"gracias","finished":true,"round":4,"session":3,"to_move":[],"players":[` +
			`{"name":"alice","score":8,"sessions":[5,3,0]},{"name":"bob","score":8,"sessions":[0,5,3]},{"name":"carol","score":8,"sessions":[3,0,5]}],"winners":["alice","bob","carol"]}`,
		// Every colour is a six-way tie each session: all discard, all 0.
		"sorted-6p.txt": `{"game":"gracias","finished":true,"round":4,"session":3,"to_move":[],"players":[` +
			`{"name":"alice","score":0,"sessions":[0,0,0]},{"name":"bob","score":0,"sessions":[0,0,0]},{"name":"carol","score":0,"sessions":[0,0,0]},` +
			`{"name":"dave","score":0,"sessions":[0,0,0]},{"name":"erin","score":0,"sessions":[0,0,0]},{"name":"frank","score":0,"sessions":[0,0,0]}],` +
			`"winners":["alice","bob","carol","dave","erin","frank"]}`,
	}
	files, err := filepath.Glob("testdata/*.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != len(want) {
		t.Errorf("testdata has %d transcripts, the test knows %d", len(files), len(want))
	}
	for _, path := range files {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			w, ok := want[name]
			if !ok {
				t.Fatalf("no expected result for %s", name)
			}
			_, g, _ := replayFile(t, name)
			if got := summaryJSON(t, g); got != w {
				t.Errorf("summary\n got %s\nwant %s", got, w)
			}
		})
	}
}

// TestScoringDetails checks the scored session of scoring-3p.txt colour by
// colour, as its comments work it out.
func TestScoringDetails(t *testing.T) {
	t.Parallel()
	_, g, log := replayFile(t, "scoring-3p.txt")
	v := g.View(engine.Public).(gracias.View)
	if len(v.History) != 1 {
		t.Fatalf("history has %d sessions, want 1", len(v.History))
	}
	type row struct{ cards, stacks, discarded, kept gracias.Counts }
	//                    red orange yellow green blue purple
	want := map[string]row{
		"alice": {cards: gracias.Counts{10, 5, 0, 0, 0, 2}, stacks: gracias.Counts{2, 1, 0, 0, 0, 0}, kept: gracias.Counts{0, 0, 0, 0, 0, 2}},
		"bob":   {cards: gracias.Counts{0, 3, 3, 0, 0, 4}, discarded: gracias.Counts{0, 3, 3, 0, 0, 4}},
		"carol": {cards: gracias.Counts{0, 1, 3, 6, 0, 5}, stacks: gracias.Counts{0, 0, 0, 1, 0, 1}, discarded: gracias.Counts{0, 0, 3, 1, 0, 0}, kept: gracias.Counts{0, 1, 0, 0, 0, 0}},
	}
	points := map[string]int{"alice": 5, "bob": 0, "carol": 3}
	for _, p := range v.History[0].Players {
		got := row{p.Cards, p.Stacks, p.Discarded, p.Kept}
		if got != want[p.Name] {
			t.Errorf("%s: got %+v, want %+v", p.Name, got, want[p.Name])
		}
		if p.Points != points[p.Name] {
			t.Errorf("%s: %d points, want %d", p.Name, p.Points, points[p.Name])
		}
	}
	for _, text := range []string{
		"Red: nobody has a face-up red card.",
		"Blue: nobody has a face-up blue card.",
		"Yellow: bob and carol tie (3 face up each) and discard them.",
		"Green: carol has the most face up and discards it.",
		"Orange: bob has the most face up and discards all 3.",
		"Stacked face down: 10 red (2 stacks) and 5 orange (1 stack).",
		"Session 2 of 3: bob holds both start cards",
	} {
		if !logHas(log, engine.Public, text) {
			t.Errorf("the public log lacks %q", text)
		}
	}
	// bob gave to each opponent; the one-line and two-step turns both ran.
	for _, text := range []string{"bob keeps yellow and gives purple to alice.", "bob keeps orange and gives purple to carol."} {
		if !logHas(log, engine.Public, text) {
			t.Errorf("the public log lacks %q", text)
		}
	}
}

func logHas(log []engine.Event, to int, text string) bool {
	for _, e := range log {
		if e.To == to && strings.Contains(e.Text, text) {
			return true
		}
	}
	return false
}

// TestStartCards follows the start cards through whole games for 3 and 6
// players: the large one moves one seat left each session and its holder
// takes the small one; the small one moves left each round; each round
// begins with the small start player.
func TestStartCards(t *testing.T) {
	t.Parallel()
	tests := []struct {
		file string
		want []string // per session and round: "large/small"
	}{
		{"shared-3p.txt", []string{
			"alice/alice", "alice/bob", "alice/carol", "alice/alice",
			"bob/bob", "bob/carol", "bob/alice", "bob/bob",
			"carol/carol", "carol/alice", "carol/bob", "carol/carol",
		}},
		{"sorted-6p.txt", []string{
			"carol/carol", "carol/dave", "carol/erin", "carol/frank",
			"dave/dave", "dave/erin", "dave/frank", "dave/alice",
			"erin/erin", "erin/frank", "erin/alice", "erin/bob",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			tr, _, _ := replayFile(t, tt.file)
			g, _, err := tr.Rules.New(tr.Setup)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			seen := ""
			note := func() {
				v := g.View(engine.Public).(gracias.View)
				if v.Finished {
					return
				}
				key := fmt.Sprintf("%d.%d", v.Session, v.Round)
				if key == seen {
					return
				}
				seen = key
				got = append(got, v.Large+"/"+v.Small)
				if v.Turn != v.Small {
					t.Errorf("session %d round %d begins with %s, not the small start player %s", v.Session, v.Round, v.Turn, v.Small)
				}
			}
			note()
			for _, m := range tr.Moves {
				c, err := engine.ParseCommand(tr.Rules.Specs(), tr.Setup.Players, m.Command)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := g.Apply(engine.Seat(g, m.Player), c); err != nil {
					t.Fatalf("line %d: %v", m.Line, err)
				}
				note()
			}
			if strings.Join(got, " ") != strings.Join(tt.want, " ") {
				t.Errorf("start cards\n got %v\nwant %v", got, tt.want)
			}
		})
	}
}

// TestTwoStepTurn checks the private information of a two-step turn: the
// taker alone is told the hidden card, in the log and in his view.
func TestTwoStepTurn(t *testing.T) {
	t.Parallel()
	g := newGame(t, sortedSetup(3, "alice"))
	// Round 1 of a sorted deck: triplets are red+red with red face down.
	ev := apply(t, g, "alice", "take 2")
	if !logHas(ev, 0, "You take triplet 2 (red and red face up). Its face-down card is red;") {
		t.Errorf("alice is not told her take and hidden card: %v", ev)
	}
	for _, e := range ev {
		if e.To != engine.Others(0) && e.To != 0 {
			t.Errorf("event for %d on alice's take: %v", e.To, e)
		}
		if e.To != 0 && strings.Contains(e.Text, "card is") {
			t.Errorf("an event others see names the hidden card: %q", e.Text)
		}
	}
	// Everyone reads of the take once: alice in her own words, the
	// others and spectators in the third person.
	for _, seat := range []int{engine.Public, 0, 1, 2} {
		var seen []string
		for _, e := range ev {
			if e.VisibleTo(seat) {
				seen = append(seen, e.Text)
			}
		}
		if len(seen) != 1 {
			t.Errorf("seat %d reads %d entries of alice's take: %q", seat, len(seen), seen)
		}
	}
	v := g.View(0).(gracias.View)
	if v.Pending == nil || v.Pending.Number != 2 || v.Pending.FaceDown != "red" {
		t.Errorf("alice's view of her pending triplet: %+v", v.Pending)
	}
	if len(v.FaceDown) != 1 || v.FaceDown[0] != "red" {
		t.Errorf("alice's face-down cards: %v", v.FaceDown)
	}
	if got := engine.OptionsText(v.Options); got != "keep red give bob|carol" {
		t.Errorf("alice's options: %q", got)
	}
	for _, seat := range []int{engine.Public, 1, 2} {
		v := g.View(seat).(gracias.View)
		if v.Pending != nil || v.FaceDown != nil {
			t.Errorf("seat %d sees alice's hidden card: %+v %v", seat, v.Pending, v.FaceDown)
		}
		if v.Players[0].FaceDown != 1 || !v.Triplets[1].Taken || v.Triplets[1].TakenBy != "alice" {
			t.Errorf("seat %d: alice's area or triplet 2 wrong: %+v %+v", seat, v.Players[0], v.Triplets[1])
		}
	}
	// Still alice's turn; others cannot act.
	if w := g.Waiting(); len(w) != 1 || w[0] != 0 {
		t.Errorf("waiting on %v, want alice", w)
	}
	apply(t, g, "alice", "keep red give CA") // case and prefix
	v = g.View(engine.Public).(gracias.View)
	if v.Players[0].FaceUp != (gracias.Counts{3, 0, 0, 0, 0, 0}) || v.Players[2].FaceUp != (gracias.Counts{3, 0, 0, 0, 0, 0}) {
		t.Errorf("after alice's gift to carol: %+v", v.Players)
	}
	if v.Turn != "bob" {
		t.Errorf("turn: %s, want bob", v.Turn)
	}
	// One-line turn: bob takes, keeps and gives at once.
	apply(t, g, "bob", "take 1 keep red give alice")
	v = g.View(engine.Public).(gracias.View)
	if v.Players[0].FaceUp[gracias.Red] != 4 || v.Players[1].FaceUp[gracias.Red] != 3 || v.Players[1].FaceDown != 1 {
		t.Errorf("after bob's one-line turn: %+v", v.Players)
	}
}

// sortedSetup is a game whose three decks are in colour order.
func sortedSetup(n int, start string) engine.Setup {
	names := []string{"alice", "bob", "carol", "dave", "erin", "frank"}[:n]
	var cols []string
	for _, c := range []string{"red", "orange", "yellow", "green", "blue", "purple"} {
		for i := 0; i < 18; i++ {
			cols = append(cols, c)
		}
	}
	s := engine.Setup{Players: names, Start: start}
	for si := 1; si <= 3; si++ {
		s.Lines = append(s.Lines, engine.SetupLine{Key: "deck", Args: append([]string{fmt.Sprint(si)}, cols...)})
	}
	return s
}

func newGame(t *testing.T, s engine.Setup) engine.Game {
	t.Helper()
	g, _, err := gracias.Rules{}.New(s)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func apply(t *testing.T, g engine.Game, player, text string) []engine.Event {
	t.Helper()
	c, err := engine.ParseCommand(g.Rules().Specs(), g.Players(), text)
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	ev, err := g.Apply(engine.Seat(g, player), c)
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	return ev
}

// TestViewGolden pins the serialized views: in the middle of a two-step
// turn for the player who took (he sees the hidden card), another player
// and a spectator; and a finished game with its scored sessions. Run with
// -update to rewrite testdata/view-*.golden after a deliberate change, and
// check the diff by hand.
func TestViewGolden(t *testing.T) {
	tr, _, _ := replayFile(t, "scoring-3p.txt")
	mid, _, err := tr.Rules.New(tr.Setup)
	if err != nil {
		t.Fatal(err)
	}
	apply(t, mid, "alice", tr.Moves[0].Command)
	apply(t, mid, "bob", tr.Moves[1].Command) // take 2, alone
	_, end, _ := replayFile(t, "second-best-3p.txt")
	for _, c := range []struct {
		name string
		g    engine.Game
		seat int
	}{
		{"two-step-bob", mid, 1}, {"two-step-alice", mid, 0}, {"two-step-public", mid, engine.Public},
		{"finished-public", end, engine.Public},
	} {
		got, err := json.MarshalIndent(c.g.View(c.seat), "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, '\n')
		path := filepath.Join("testdata", "view-"+c.name+".golden")
		if *update {
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test -update to create it)", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("view %s differs from %s:\n%s", c.name, path, got)
		}
	}
}

// TestExample replays the commented example of the repository.
func TestExample(t *testing.T) {
	t.Parallel()
	f, err := os.Open("../../examples/gracias-3p.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr, err := transcript.Read(f, games.Lookup)
	if err != nil {
		t.Fatal(err)
	}
	g, _, err := tr.Replay()
	if err != nil {
		t.Fatal(err)
	}
	want := `{"game":"gracias","finished":false,"round":3,"session":1,"to_move":["carol"],"players":[` +
		`{"name":"alice","score":0,"sessions":[]},{"name":"bob","score":0,"sessions":[]},{"name":"carol","score":0,"sessions":[]}],"winners":[]}`
	if got := summaryJSON(t, g); got != want {
		t.Errorf("summary\n got %s\nwant %s", got, want)
	}
	v := g.View(engine.Public).(gracias.View)
	// alice: red 2 + kept red 2; orange 2 (from carol, bob), purple 2 (bob, carol).
	if v.Players[0].FaceUp != (gracias.Counts{4, 2, 0, 0, 0, 2}) || v.Players[0].FaceDown != 2 {
		t.Errorf("alice's area: %+v", v.Players[0])
	}
}
