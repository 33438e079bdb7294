package gracias_test

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/games"
	"github.com/pbem/pbem/engine/gracias"
	"github.com/pbem/pbem/engine/transcript"
)

// header returns the set-up lines of a testdata transcript (everything
// before its first command) and how many lines they are.
func header(t *testing.T, name string) (string, int) {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	for i, l := range lines {
		if strings.Contains(strings.SplitN(l, "#", 2)[0], ":") {
			return strings.Join(lines[:i], ""), i
		}
	}
	t.Fatalf("%s has no command", name)
	return "", 0
}

// TestIllegalLines checks that replay stops at the first illegal line with
// a *transcript.LineError naming the line, the player, the reason and what
// is valid instead.
func TestIllegalLines(t *testing.T) {
	t.Parallel()
	// scoring-3p.txt's round 1: triplet 1 red+yellow, 2 yellow+purple,
	// 3 purple+orange; alice starts.
	base, n := header(t, "scoring-3p.txt")
	shared, _ := os.ReadFile("testdata/shared-3p.txt")
	sharedLines := strings.Count(string(shared), "\n")
	all := "valid now: take 1|2|3, take 1|2|3 keep COLOUR give bob|carol"
	tests := []struct {
		name, moves string
		line        int
		want        string
	}{
		{"out of turn", "bob: take 1\n", 1,
			"bob, you cannot take 1: it is alice's turn"},
		{"taken triplet", "alice: take 1 keep red give carol\nbob: take 1\n", 2,
			"bob, you cannot take 1: triplet 1 was already taken by alice (valid now: take 2|3, take 2|3 keep COLOUR give alice|carol)"},
		{"no such triplet", "alice: take 4\n", 1,
			"alice, you cannot take 4: there is no triplet 4: the triplets are numbered 1 to 3 (" + all + ")"},
		{"triplet 0", "alice: take 0 keep red give bob\n", 1,
			"alice, you cannot take 0 keep red give bob: there is no triplet 0: the triplets are numbered 1 to 3"},
		{"keep before take", "alice: keep red give bob\n", 1,
			"alice, you cannot keep red give bob: you must take a triplet first (or take, keep and give at once: take T keep COLOUR give PLAYER) (" + all + ")"},
		{"take twice", "alice: take 1\nalice: take 2\n", 2,
			"alice, you cannot take 2: you have taken triplet 1 already: now keep one of its face-up cards and give the other to an opponent (valid now: keep red|yellow give bob|carol)"},
		{"colour not in the triplet", "alice: take 1\nalice: keep blue give bob\n", 2,
			"alice, you cannot keep blue give bob: triplet 1 has no blue face-up card: its face-up cards are red and yellow (valid now: keep red|yellow give bob|carol)"},
		{"one line, colour not in the triplet", "alice: take 2 keep red give bob\n", 1,
			"alice, you cannot take 2 keep red give bob: triplet 2 has no red face-up card: its face-up cards are yellow and purple"},
		{"give to oneself", "alice: take 1 keep red give alice\n", 1,
			"alice, you cannot take 1 keep red give alice: the other card must go to an opponent, not to you"},
		{"give to oneself after a take", "alice: take 1\nalice: keep yellow give al\n", 2,
			"alice, you cannot keep yellow give alice: the other card must go to an opponent, not to you (valid now: keep red|yellow give bob|carol)"},
		{"another player during a two-step turn", "alice: take 1\nbob: take 2\n", 2,
			"bob, you cannot take 2: it is alice's turn: alice is choosing what to keep from triplet 1"},
		{"unknown player", "alice: take 1 keep red give zed\n", 1,
			`alice: cannot read "take 1 keep red give zed": "zed" is not a player; players are: alice, bob, carol`},
		{"not a colour", "alice: take 1\nalice: keep pink give bob\n", 2,
			`alice: cannot read "keep pink give bob": "pink" is not a colour; COLOUR is one of: red, orange, yellow, green, blue, purple`},
		{"missing triplet", "alice: take\n", 1,
			`alice: cannot read "take": T is missing`},
		{"not a command", "alice: pass\n", 1,
			`alice: cannot read "pass": not a command; commands are: take T, keep COLOUR give PLAYER, take T keep COLOUR give PLAYER`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := fmt.Sprintf("line %d: %s", n+tt.line, tt.want)
			checkLineError(t, base+tt.moves, want)
		})
	}
	t.Run("after the game", func(t *testing.T) {
		checkLineError(t, string(shared)+"alice: take 1\n", fmt.Sprintf("line %d: alice, you cannot take 1: the game is over", sharedLines+1))
	})
	t.Run("ambiguous prefix", func(t *testing.T) {
		src := strings.Replace(base, "players alice bob carol", "players alice amy carol", 1)
		checkLineError(t, src+"alice: take 1 keep red give a\n", fmt.Sprintf(`line %d: alice: cannot read "take 1 keep red give a": "a" could be alice or amy`, n+1))
	})
}

func checkLineError(t *testing.T, src, want string) {
	t.Helper()
	tr, err := transcript.Read(strings.NewReader(src), games.Lookup)
	if err == nil {
		_, _, err = tr.Replay()
	}
	var le *transcript.LineError
	if !errors.As(err, &le) {
		t.Fatalf("got %v, want a *transcript.LineError", err)
	}
	if !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error\n got %s\nwant %s", err, want)
	}
}

// TestSetupErrors checks the set-up lines a Gracias transcript may hold.
func TestSetupErrors(t *testing.T) {
	t.Parallel()
	full := strings.TrimSpace(strings.Repeat("red ", 18) + strings.Repeat("orange ", 18) + strings.Repeat("yellow ", 18) +
		strings.Repeat("green ", 18) + strings.Repeat("blue ", 18) + strings.Repeat("purple ", 18))
	pre := "game gracias\nplayers alice bob carol\n"
	tests := []struct{ name, src, want string }{
		{"session 4", pre + "deck 4 " + full + "\n", `set-up: deck: the first word must be the session, 1, 2 or 3, not "4"`},
		{"no session", pre + "deck red\n", `set-up: deck: the first word must be the session, 1, 2 or 3, not "red"`},
		{"short deck", pre + "deck 1 red red\n", "set-up: deck 1: 2 colours given, not 108"},
		{"not a colour", pre + "deck 2 pink" + full[3:] + "\n", `set-up: deck 2: card 1, "pink", is not a colour (colours: red, orange, yellow, green, blue, purple)`},
		{"19 red", pre + "deck 3 " + strings.Replace(full, "orange", "red", 1) + "\n", "set-up: deck 3: 19 red cards, not 18 (each colour has 18)"},
		{"twice", pre + "deck 1 " + full + "\ndeck 1 " + full + "\n", "set-up: deck 1 is given twice"},
		{"seven players", "game gracias\nplayers a b c d e f g\n", "line 2: gracias is for 3 to 6 players, not 7"},
		{"unknown line", pre + "dummy 1 2 3\n", `line 3: gracias has no set-up line "dummy" (it knows: game, players, seed, start, deck)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := transcript.Read(strings.NewReader(tt.src), games.Lookup)
			if err == nil {
				_, _, err = tr.Replay()
			}
			if err == nil || err.Error() != tt.want {
				t.Errorf("got %v\nwant %s", err, tt.want)
			}
		})
	}
	// Upper-case colours are fine.
	tr, err := transcript.Read(strings.NewReader(pre+"deck 1 "+strings.ToUpper(full)+"\n"), games.Lookup)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := tr.Replay(); err != nil {
		t.Errorf("upper-case deck: %v", err)
	}
}

// TestOptionsText checks how options read in replies and help.
func TestOptionsText(t *testing.T) {
	t.Parallel()
	tr, _, _ := replayFile(t, "scoring-3p.txt")
	g, _, err := tr.Rules.New(tr.Setup)
	if err != nil {
		t.Fatal(err)
	}
	if got := engine.OptionsText(g.Options(0)); got != "take 1|2|3, take 1|2|3 keep COLOUR give bob|carol" {
		t.Errorf("alice at the start: %q", got)
	}
	if g.Options(1) != nil || g.Options(engine.Public) != nil {
		t.Errorf("options for a seat the game does not wait on")
	}
	apply(t, g, "alice", "take 1 keep red give carol")
	opts := g.Options(1)
	if got := engine.OptionsText(opts); got != "take 2|3, take 2|3 keep COLOUR give alice|carol" {
		t.Errorf("bob: %q", got)
	}
	// take 2 and 3; 2 colours × 2 opponents for each of the two triplets.
	if len(opts) != 2 || len(opts[0].Commands) != 2 || len(opts[1].Commands) != 8 || opts[1].Commands[0] != "take 2 keep yellow give alice" {
		t.Errorf("bob's commands: %+v", opts)
	}
	apply(t, g, "bob", "take 2 keep yellow give alice")
	apply(t, g, "carol", "take 3 keep purple give alice")
	// Round 2, then round 3, where bob takes triplet 1 alone: orange and
	// orange, a single colour to keep.
	for _, c := range []struct{ p, cmd string }{
		{"bob", "take 3 keep orange give alice"}, {"carol", "take 1 keep purple give alice"}, {"alice", "take 2 keep red give carol"},
		{"carol", "take 2 keep purple give alice"}, {"alice", "take 3 keep red give carol"}, {"bob", "take 1"},
	} {
		apply(t, g, c.p, c.cmd)
	}
	if got := engine.OptionsText(g.Options(1)); got != "keep orange give alice|carol" {
		t.Errorf("bob with orange+orange: %q", got)
	}
}

// TestDefault checks the documented deadline move.
func TestDefault(t *testing.T) {
	t.Parallel()
	tr, _, _ := replayFile(t, "scoring-3p.txt")
	g, _, err := tr.Rules.New(tr.Setup)
	if err != nil {
		t.Fatal(err)
	}
	want := func(seat int, text string) {
		t.Helper()
		c, ok := g.Default(seat)
		if !ok || c.Text != text {
			t.Fatalf("default for seat %d: %q %v, want %q", seat, c.Text, ok, text)
		}
		if _, err := g.Apply(seat, c); err != nil {
			t.Fatalf("default %q is not legal: %v", text, err)
		}
	}
	if _, ok := g.Default(1); ok {
		t.Errorf("a default for bob, whom the game does not wait on")
	}
	// alice holds red 2: of red+yellow she keeps yellow and gives red to bob.
	want(0, "take 1 keep yellow give bob")
	// bob holds red 1 (the gift) and yellow 2: of yellow+purple he keeps purple.
	want(1, "take 2 keep purple give carol")
	// carol holds green 2: purple and orange tie at 0, the first face-up
	// card (purple) is kept, orange goes to alice (next clockwise).
	want(2, "take 3 keep purple give alice")
	// Round 2, bob first, alone: triplet 1 is purple+orange; bob holds
	// purple 1 and orange 0, so the default keeps orange.
	apply(t, g, "bob", "take 1")
	want(1, "keep orange give carol")
}

// TestDefaultsFinish plays whole games by the default move alone.
func TestDefaultsFinish(t *testing.T) {
	t.Parallel()
	for n := 3; n <= 6; n++ {
		g := newGame(t, engine.Setup{Players: []string{"a", "b", "c", "d", "e", "f"}[:n], Seed: uint64(n)})
		steps := 0
		for !g.Result().Finished {
			w := g.Waiting()
			c, ok := g.Default(w[0])
			if !ok {
				t.Fatalf("%d players: no default for %v", n, w)
			}
			if _, err := g.Apply(w[0], c); err != nil {
				t.Fatalf("%d players: default %q: %v", n, c.Text, err)
			}
			steps++
		}
		if steps != 3*4*n {
			t.Errorf("%d players: %d turns, want %d", n, steps, 3*4*n)
		}
		if len(g.Result().Winners) == 0 {
			t.Errorf("%d players: no winner", n)
		}
	}
}

// TestWinners checks the tie-breaks directly on session points.
func TestWinners(t *testing.T) {
	t.Parallel()
	tests := []struct {
		points [][3]int8
		want   []int
	}{
		{[][3]int8{{5, 3, 1}, {4, 4, 2}, {1, 1, 1}}, []int{1}},       // 10 beats 9
		{[][3]int8{{5, 3, 1}, {0, 5, 4}, {3, 0, 2}}, []int{1}},       // second-best 4 > 3
		{[][3]int8{{2, 3, 1}, {1, 5, 0}, {4, 0, 0}}, []int{1}},       // best 5 > 3
		{[][3]int8{{5, 3, 0}, {0, 5, 3}, {3, 0, 5}}, []int{0, 1, 2}}, // shared
		{[][3]int8{{6, 0, 0}, {3, 3, 0}, {2, 2, 2}, {0, 0, 6}}, []int{0, 3}},
	}
	for _, tt := range tests {
		var s gracias.State
		s.N = int8(len(tt.points))
		s.Phase = gracias.Over
		for p, pts := range tt.points {
			for si := range pts {
				s.Points[si][p] = pts[si]
			}
		}
		if got := s.Winners(); fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("%v: winners %v, want %v", tt.points, got, tt.want)
		}
	}
}

// TestSetupRoundTrip checks that a seeded game's explicit set-up rebuilds
// it without the seed, and that a saved game restores.
func TestSetupRoundTrip(t *testing.T) {
	t.Parallel()
	g := newGame(t, engine.Setup{Players: []string{"ann", "ben", "cat", "dan"}, Seed: 42})
	st := g.Setup()
	if st.Seed != 0 || st.Start == "" || len(st.Lines) != 3 {
		t.Fatalf("explicit set-up: %+v", st)
	}
	h := newGame(t, st)
	a, _ := g.MarshalJSON()
	b, _ := h.MarshalJSON()
	if string(a) != string(b) {
		t.Errorf("the explicit set-up builds another game")
	}
	r, err := gracias.Rules{}.Unmarshal(a)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := r.MarshalJSON()
	if string(c) != string(a) {
		t.Errorf("restore changed the game")
	}
	// A different seed gives another game.
	o, _ := newGame(t, engine.Setup{Players: []string{"ann", "ben", "cat", "dan"}, Seed: 43}).MarshalJSON()
	if string(o) == string(a) {
		t.Errorf("seeds 42 and 43 give the same game")
	}
	for _, bad := range []string{`{`, `{"players":["a","b"],"state":{"N":2}}`,
		strings.Replace(string(a), `"Turn":`, `"Turn":9`, 1)} {
		if _, err := (gracias.Rules{}).Unmarshal([]byte(bad)); err == nil {
			t.Errorf("restored a bad save: %.60s", bad)
		}
	}
}

// TestReasonsSpeakToThePlayer: an illegal command's Reason is read by the
// player who tried it, so it never names him ("you must take a triplet
// first", not "alice must take a triplet first"). Every seat tries many
// commands at every step of a game played with the deadline defaults,
// and each two-step turn is also tried halfway (after take).
func TestReasonsSpeakToThePlayer(t *testing.T) {
	t.Parallel()
	players := []string{"alice", "bob", "carol"}
	var tries []string
	for tr := 0; tr <= 4; tr++ {
		tries = append(tries, fmt.Sprintf("take %d", tr))
		for _, c := range []string{"red", "yellow", "purple"} {
			for _, p := range players {
				tries = append(tries, fmt.Sprintf("take %d keep %s give %s", tr, c, p))
				if tr == 0 {
					tries = append(tries, fmt.Sprintf("keep %s give %s", c, p))
				}
			}
		}
	}
	g, _, err := gracias.Rules{}.New(engine.Setup{Players: players, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	try := func(g engine.Game) {
		for seat, name := range players {
			word := regexp.MustCompile(`\b` + name + `\b`)
			for _, text := range tries {
				cmd, err := engine.ParseCommand(g.Rules().Specs(), players, text)
				if err != nil {
					continue // "take 0" and the like do not read
				}
				_, err = g.Clone().Apply(seat, cmd)
				var ie *engine.IllegalError
				if !errors.As(err, &ie) {
					continue
				}
				n++
				if word.MatchString(ie.Reason) {
					t.Errorf("%s tried %q and reads about himself in the third person: %q", name, text, ie.Reason)
				}
			}
		}
	}
	for !g.Result().Finished {
		try(g)
		seat := g.Waiting()[0]
		if opts := g.Options(seat); len(opts) > 0 && opts[0].Spec == "take" {
			half := g.Clone()
			c, _ := engine.ParseCommand(g.Rules().Specs(), players, opts[0].Commands[0])
			if _, err := half.Apply(seat, c); err != nil {
				t.Fatal(err)
			}
			try(half)
		}
		c, _ := g.Default(seat)
		if _, err := g.Apply(seat, c); err != nil {
			t.Fatal(err)
		}
	}
	try(g)
	if n < 1000 {
		t.Fatalf("only %d illegal commands tried: the test is vacuous", n)
	}
}
