package gracias_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/games"
	"github.com/pbem/pbem/engine/gracias"
	"github.com/pbem/pbem/engine/transcript"
)

const numColours = 6

var playerNames = []string{"alice", "bob", "carol", "dave", "erin", "frank"}

// randomState deals a game for n players from rng, as New would from a
// seed, without the words.
func randomState(n int, rng *rand.Rand) gracias.State {
	var decks [3][108]gracias.Colour
	for i := range decks {
		gracias.Shuffle(&decks[i], rng.IntN)
	}
	return gracias.NewState(n, rng.IntN(n), &decks)
}

// score is the rules' session scoring written once more, plainly, to check
// the engine's against.
func score(cards [6]int8, others [][6]int8) (points int, stacks, discarded, kept [6]int) {
	for c := 0; c < numColours; c++ {
		up := int(cards[c]) % 5
		stacks[c] = int(cards[c]) / 5
		most := up
		for _, o := range others {
			most = max(most, int(o[c])%5)
		}
		if up > 0 && up == most {
			discarded[c] = up
		} else {
			kept[c] = up
		}
		points += stacks[c] + kept[c]
	}
	return
}

// checkCards checks that every card of the current session's deck is in
// exactly one place: still in the deck, in a triplet, face up or face down
// in an area, or (after the last session) in a stack or discarded.
func checkCards(s *gracias.State) error {
	n := int(s.N)
	si := int(s.Session) - 1
	deck := &s.Deck[si]
	var perColour [numColours]int
	for _, c := range deck {
		perColour[c]++
	}
	for c, k := range perColour {
		if k != 18 {
			return fmt.Errorf("session %d's deck has %d %v cards", si+1, k, gracias.Colour(c))
		}
	}
	var where [108]string
	var placed [numColours]int
	put := func(pos int8, place string) error {
		if pos < 0 || int(pos) >= int(s.Pos) {
			return fmt.Errorf("%s holds card %d, which is not dealt (%d dealt)", place, pos, s.Pos)
		}
		if where[pos] != "" {
			return fmt.Errorf("card %d is both in %s and in %s", pos, where[pos], place)
		}
		where[pos] = place
		placed[deck[pos]]++
		return nil
	}
	if s.Phase != gracias.Over {
		for t := 0; t < n; t++ {
			tr := s.Trip[t]
			place := fmt.Sprintf("triplet %d", t+1)
			switch {
			case tr.Taker < 0:
				for _, pos := range []int8{tr.Up[0], tr.Up[1], tr.Down} {
					if err := put(pos, place); err != nil {
						return err
					}
				}
			case s.Phase == gracias.Keeping && int(s.Pending) == t:
				if int(tr.Taker) != int(s.Turn) {
					return fmt.Errorf("pending triplet %d was taken by seat %d, not by seat %d", t+1, tr.Taker, s.Turn)
				}
				for _, pos := range tr.Up {
					if err := put(pos, place); err != nil {
						return err
					}
				}
			}
		}
	}
	for p := 0; p < n; p++ {
		for i := 0; i < int(s.NDown[p]); i++ {
			if err := put(s.Down[p][i], fmt.Sprintf("seat %d's face-down cards", p)); err != nil {
				return err
			}
		}
		for c := 0; c < numColours; c++ {
			if s.Up[p][c] < 0 {
				return fmt.Errorf("seat %d has %d face-up %v", p, s.Up[p][c], gracias.Colour(c))
			}
			placed[c] += int(s.Up[p][c])
		}
	}
	if s.Phase == gracias.Over {
		// The areas hold what scored face up; the rest is stacked or
		// discarded.
		for p := 0; p < n; p++ {
			var others [][6]int8
			for q := 0; q < n; q++ {
				if q != p {
					others = append(others, s.Cards[2][q])
				}
			}
			_, stacks, discarded, kept := score(s.Cards[2][p], others)
			for c := 0; c < numColours; c++ {
				if int(s.Up[p][c]) != kept[c] {
					return fmt.Errorf("seat %d keeps %d %v face up after scoring, want %d", p, s.Up[p][c], gracias.Colour(c), kept[c])
				}
				placed[c] += 5*stacks[c] + discarded[c]
			}
		}
	}
	var dealt [numColours]int
	for _, c := range deck[:s.Pos] {
		dealt[c]++
	}
	if placed != dealt {
		return fmt.Errorf("cards dealt by colour %v, found in play %v", dealt, placed)
	}
	return nil
}

// tally follows what each player took, kept and was given in a session.
type tally struct{ took, kept, given [6]int }

// checkStep checks one move's effect on the areas, and a session's totals
// when the move ends it: each player takes one face-down card and keeps one
// face-up card per round; gifts make the totals differ.
func checkStep(b, a *gracias.State, p int, m gracias.Move, tl *tally) error {
	n := int(b.N)
	if m.Op != gracias.OpKeep {
		tl.took[p]++
	}
	if m.Op != gracias.OpTake {
		tl.kept[p]++
		tl.given[m.Give]++
	}
	ended := a.Phase == gracias.Over || a.Session != b.Session
	if ended {
		si := int(b.Session) - 1
		total := 0
		for q := 0; q < n; q++ {
			k := 0
			for _, x := range a.Cards[si][q] {
				k += int(x)
			}
			total += k
			if tl.took[q] != 4 || tl.kept[q] != 4 {
				return fmt.Errorf("session %d: seat %d took %d face-down cards and kept %d face-up, want 4 and 4", si+1, q, tl.took[q], tl.kept[q])
			}
			if want := 2 + 4 + 4 + tl.given[q]; k != want {
				return fmt.Errorf("session %d: seat %d has %d cards, want %d", si+1, q, k, want)
			}
			var others [][6]int8
			for o := 0; o < n; o++ {
				if o != q {
					others = append(others, a.Cards[si][o])
				}
			}
			if pts, _, _, _ := score(a.Cards[si][q], others); int(a.Points[si][q]) != pts {
				return fmt.Errorf("session %d: seat %d scores %d, want %d", si+1, q, a.Points[si][q], pts)
			}
		}
		if total != 14*n {
			return fmt.Errorf("session %d: %d cards left the deck, want %d", si+1, total, 14*n)
		}
		*tl = tally{}
		return nil
	}
	for q := 0; q < n; q++ {
		up := 0
		for _, x := range a.Up[q] {
			up += int(x)
		}
		if up != 2+tl.kept[q]+tl.given[q] || int(a.NDown[q]) != tl.took[q] {
			return fmt.Errorf("seat %d: %d face up and %d face down, want %d and %d", q, up, a.NDown[q], 2+tl.kept[q]+tl.given[q], tl.took[q])
		}
		// Whoever has finished this round's turn took and kept once more.
		done := int(a.Round) - 1
		if tl.kept[q] != done && tl.kept[q] != done+1 || tl.took[q] < tl.kept[q] || tl.took[q] > tl.kept[q]+1 {
			return fmt.Errorf("seat %d in round %d: took %d, kept %d", q, a.Round, tl.took[q], tl.kept[q])
		}
	}
	if m.Op != gracias.OpTake && a.Up[p][m.Keep] != b.Up[p][m.Keep]+1 {
		return fmt.Errorf("seat %d kept %v but has %d of it, not %d", p, m.Keep, a.Up[p][m.Keep], b.Up[p][m.Keep]+1)
	}
	if a.Round == b.Round && a.Pos != b.Pos || a.Round != b.Round && a.Pos != b.Pos+int8(3*n) {
		return fmt.Errorf("%d cards dealt, before %d, in round %d (before %d)", a.Pos, b.Pos, a.Round, b.Round)
	}
	return nil
}

// TestPropCards plays thousands of random games (3 to 6 players) through
// the fast path and checks every card's place and every turn's accounting
// at every step.
func TestPropCards(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(3, 6).Draw(t, "players")
		seed := rapid.Uint64().Draw(t, "seed")
		rng := rand.New(rand.NewPCG(seed, 1))
		var buf []gracias.Move
		for game := 0; game < 30; game++ {
			s := randomState(n, rng)
			if err := checkCards(&s); err != nil {
				t.Fatalf("game %d at the start: %v", game, err)
			}
			var tl tally
			turns := 0
			for s.Phase != gracias.Over {
				p := int(s.Turn)
				buf = s.Legal(p, buf[:0])
				if len(buf) == 0 {
					t.Fatalf("game %d: no legal move for seat %d", game, p)
				}
				if other := s.Legal((p+1)%n, nil); len(other) != 0 {
					t.Fatalf("game %d: seat %d may move out of turn", game, (p+1)%n)
				}
				m := buf[rng.IntN(len(buf))]
				before := s
				if !s.Step(p, m) {
					t.Fatalf("game %d: legal move %+v refused", game, m)
				}
				if m.Op != gracias.OpTake {
					turns++
				}
				if err := checkCards(&s); err != nil {
					t.Fatalf("game %d after %+v by seat %d: %v", game, m, p, err)
				}
				if err := checkStep(&before, &s, p, m, &tl); err != nil {
					t.Fatalf("game %d after %+v by seat %d: %v", game, m, p, err)
				}
			}
			if turns != 3*4*n {
				t.Fatalf("game %d: %d turns, want %d", game, turns, 3*4*n)
			}
		}
	})
}

// hide recolours at random every card position viewer may not know: the
// undealt cards, the face-down cards of the triplets, other players'
// face-down cards this session, and the other sessions' decks.
func hide(s *gracias.State, viewer int, rng *rand.Rand) {
	n := int(s.N)
	si := int(s.Session) - 1
	recolour := func(d, pos int) { s.Deck[d][pos] = gracias.Colour(rng.IntN(numColours)) }
	for d := range s.Deck {
		for pos := range s.Deck[d] {
			if d != si || pos >= int(s.Pos) {
				recolour(d, pos)
			}
		}
	}
	if s.Phase == gracias.Over {
		return
	}
	for t := 0; t < n; t++ {
		if s.Trip[t].Taker < 0 {
			recolour(si, int(s.Trip[t].Down))
		}
	}
	for p := 0; p < n; p++ {
		if p == viewer {
			continue
		}
		for i := 0; i < int(s.NDown[p]); i++ {
			recolour(si, int(s.Down[p][i]))
		}
	}
}

func viewJSON(t *rapid.T, g engine.Game, seat int) []byte {
	b, err := json.Marshal(g.View(seat))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestPropViews checks on the serialized views of random games that no
// viewer can tell apart two states that differ only in what he may not
// know, and that he does see his own face-down cards; and that the public
// log of a move does not depend on hidden cards either.
func TestPropViews(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(3, 6).Draw(t, "players")
		seed := rapid.Uint64().Draw(t, "seed")
		rng := rand.New(rand.NewPCG(seed, 2))
		stop := rapid.IntRange(0, 3*4*n*2).Draw(t, "steps")
		g0, _, err := gracias.Rules{}.New(engine.Setup{Players: playerNames[:n], Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		g := g0.(*gracias.Game)
		var buf []gracias.Move
		for step := 0; step < stop && g.S.Phase != gracias.Over; step++ {
			p := int(g.S.Turn)
			buf = g.S.Legal(p, buf[:0])
			g.S.Step(p, buf[rng.IntN(len(buf))])
		}
		for viewer := engine.Public; viewer < n; viewer++ {
			want := viewJSON(t, g, viewer)
			for k := 0; k < 3; k++ {
				h := g.Clone().(*gracias.Game)
				hide(&h.S, viewer, rng)
				if got := viewJSON(t, h, viewer); !bytes.Equal(got, want) {
					t.Fatalf("seat %d's view depends on hidden cards:\n%s\n%s", viewer, want, got)
				}
			}
			if viewer < 0 {
				continue
			}
			v := g.View(viewer).(gracias.View)
			if len(v.FaceDown) != int(g.S.NDown[viewer]) {
				t.Fatalf("seat %d sees %d face-down cards of its own, holds %d", viewer, len(v.FaceDown), g.S.NDown[viewer])
			}
			for i, c := range v.FaceDown {
				if want := g.S.Deck[g.S.Session-1][g.S.Down[viewer][i]].String(); c != want {
					t.Fatalf("seat %d sees its face-down card %d as %s, not %s", viewer, i, c, want)
				}
			}
			if pending := g.S.Phase == gracias.Keeping && int(g.S.Turn) == viewer; pending != (v.Pending != nil) {
				t.Fatalf("seat %d: pending triplet shown %v, want %v", viewer, v.Pending != nil, pending)
			}
		}
		if g.S.Phase == gracias.Over {
			return
		}
		// The public words of a move that does not end the round are the
		// same whatever the hidden cards.
		p := int(g.S.Turn)
		opts := g.Options(p)
		o := opts[rng.IntN(len(opts))]
		text := o.Commands[rng.IntN(len(o.Commands))]
		c, err := engine.ParseCommand(g.Rules().Specs(), g.Players(), text)
		if err != nil {
			t.Fatalf("option %q does not parse: %v", text, err)
		}
		h := g.Clone().(*gracias.Game)
		hide(&h.S, engine.Public, rng)
		ev1, err1 := g.Apply(p, c)
		ev2, err2 := h.Apply(p, c)
		if err1 != nil || err2 != nil {
			t.Fatalf("option %q: %v %v", text, err1, err2)
		}
		if g.S.Moved == 0 || g.S.Phase == gracias.Over {
			return // the round ended: new triplets are dealt and shown
		}
		if pub(ev1) != pub(ev2) {
			t.Fatalf("public events depend on hidden cards:\n%s\n%s", pub(ev1), pub(ev2))
		}
	})
}

// pub is what the others read of a move: public entries and those for
// every seat but the actor.
func pub(ev []engine.Event) string {
	var b strings.Builder
	for _, e := range ev {
		if e.VisibleTo(engine.Public) {
			b.WriteString(e.Text + "\n")
		}
	}
	return b.String()
}

// TestPropExportReplay plays random games through the words players use
// (every command drawn from the options), exports each as a transcript
// with its explicit set-up, and replays it to the same state.
func TestPropExportReplay(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(3, 6).Draw(t, "players")
		seed := rapid.Uint64().Draw(t, "seed")
		rng := rand.New(rand.NewPCG(seed, 3))
		stop := rapid.IntRange(0, 3*4*n*2).Draw(t, "steps")
		g, _, err := gracias.Rules{}.New(engine.Setup{Players: playerNames[:n], Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		var moves []transcript.Move
		for step := 0; step < stop && !g.Result().Finished; step++ {
			p := g.Waiting()[0]
			var text string
			if rng.IntN(8) == 0 {
				c, _ := g.Default(p)
				text = c.Text
			} else {
				opts := g.Options(p)
				o := opts[rng.IntN(len(opts))]
				text = o.Commands[rng.IntN(len(o.Commands))]
			}
			c, err := engine.ParseCommand(g.Rules().Specs(), g.Players(), text)
			if err != nil {
				t.Fatalf("option %q does not parse: %v", text, err)
			}
			if c.Text != text {
				t.Fatalf("option %q reads back as %q", text, c.Text)
			}
			if _, err := g.Apply(p, c); err != nil {
				t.Fatalf("option %q: %v", text, err)
			}
			moves = append(moves, transcript.Move{Player: g.Players()[p], Command: text})
		}
		var out bytes.Buffer
		if err := transcript.Write(&out, "gracias", g.Setup(), nil, moves); err != nil {
			t.Fatal(err)
		}
		tr, err := transcript.Read(&out, games.Lookup)
		if err != nil {
			t.Fatalf("exported transcript: %v", err)
		}
		if tr.Seeded {
			t.Fatalf("the exported transcript needs a seed")
		}
		h, _, err := tr.Replay()
		if err != nil {
			t.Fatalf("replay: %v", err)
		}
		a, _ := g.MarshalJSON()
		b, _ := h.MarshalJSON()
		if !bytes.Equal(a, b) {
			t.Fatalf("replay gives another state")
		}
		// A saved game restores to the same state too.
		r, err := gracias.Rules{}.Unmarshal(a)
		if err != nil {
			t.Fatal(err)
		}
		if c, _ := r.MarshalJSON(); !bytes.Equal(a, c) {
			t.Fatalf("restore gives another state")
		}
	})
}

// FuzzCommand feeds arbitrary text to the Gracias command reader and, when
// it reads, to the game: nothing may panic, a command must read back from
// its canonical text, an illegal one must be an *engine.IllegalError that
// changes nothing, and a legal one must keep every card in one place.
func FuzzCommand(f *testing.F) {
	for _, s := range []string{"take 1", "take 3 keep red give bob", "keep purple give CA", "TAKE 02 KEEP Or GIVE b",
		"ke re gi al", "take -1", "take 99999999999", "keep  blue   give carol extra", "", "take 1 keep", "give bob"} {
		for _, steps := range []uint8{0, 1, 5, 40} {
			f.Add(steps, s)
		}
	}
	f.Fuzz(func(t *testing.T, steps uint8, text string) {
		defer timeLimited(t)()
		g0, _, err := gracias.Rules{}.New(engine.Setup{Players: []string{"alice", "bob", "carol", "dave"}, Seed: 7})
		if err != nil {
			t.Fatal(err)
		}
		g := g0.(*gracias.Game)
		for i := 0; i < int(steps)%60 && !g.Result().Finished; i++ {
			p := g.Waiting()[0]
			c, _ := g.Default(p)
			if i%3 == 0 { // a two-step turn now and then
				if take, _ := engine.FindSpec(g.Rules().Specs(), "take"); c.Name == "take-keep" {
					c = take.Make(c.Args[0])
				}
			}
			if _, err := g.Apply(p, c); err != nil {
				t.Fatalf("default %q: %v", c.Text, err)
			}
		}
		specs := g.Rules().Specs()
		c, err := engine.ParseCommand(specs, g.Players(), text)
		if err != nil {
			var pe *engine.ParseError
			if !errors.As(err, &pe) || pe.Reason == "" {
				t.Fatalf("%q: error %v is not a ParseError with a reason", text, err)
			}
			return
		}
		again, err := engine.ParseCommand(specs, g.Players(), c.Text)
		if err != nil || again.Text != c.Text || again.Name != c.Name {
			t.Fatalf("%q reads as %q, which reads as %q (%v)", text, c.Text, again.Text, err)
		}
		for seat := 0; seat < 4; seat++ {
			h := g.Clone().(*gracias.Game)
			before, _ := h.MarshalJSON()
			_, err := h.Apply(seat, c)
			if err != nil {
				var ie *engine.IllegalError
				if !errors.As(err, &ie) || ie.Reason == "" {
					t.Fatalf("%q by seat %d: %v is not an IllegalError with a reason", c.Text, seat, err)
				}
				if after, _ := h.MarshalJSON(); !bytes.Equal(before, after) {
					t.Fatalf("illegal %q by seat %d changed the game", c.Text, seat)
				}
				continue
			}
			if err := checkCards(&h.S); err != nil {
				t.Fatalf("%q by seat %d: %v", c.Text, seat, err)
			}
		}
	})
}

// FuzzTranscript reads arbitrary Gracias transcripts: nothing may panic,
// and a failure is an error with a message.
func FuzzTranscript(f *testing.F) {
	f.Add("start bob\nalice: take 1\n")
	f.Add("seed 3\nbob: take 2 keep red give carol\n")
	f.Add("deck 1 red\n")
	f.Add("deck 2 " + strings.Repeat("blue ", 108) + "\n")
	f.Add("start carol\ncarol: take 1\ncarol: keep red give alice\n")
	f.Fuzz(func(t *testing.T, body string) {
		defer timeLimited(t)()
		src := "game gracias\nplayers alice bob carol\n" + body
		tr, err := transcript.Read(strings.NewReader(src), games.Lookup)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("an error without a message")
			}
			return
		}
		g, _, err := tr.Replay()
		if err != nil {
			if err.Error() == "" {
				t.Fatal("an error without a message")
			}
			return
		}
		if err := checkCards(&g.(*gracias.Game).S); err != nil {
			t.Fatal(err)
		}
	})
}

// inputTimeLimit bounds the time of one fuzz input: far above what any
// input takes (milliseconds), so that it cannot fail on a loaded machine,
// and far below the minutes a hostile input once cost. Work counts, where
// a target has them, are the exact bound; this is the backstop.
const inputTimeLimit = 5 * time.Second

// timeLimited fails t if the input it was called for took longer than
// inputTimeLimit: defer timeLimited(t)().
func timeLimited(t *testing.T) func() {
	start := time.Now()
	return func() {
		if d := time.Since(start); d > inputTimeLimit {
			t.Fatalf("one input took %s, over the limit of %s", d.Round(time.Millisecond), inputTimeLimit)
		}
	}
}
