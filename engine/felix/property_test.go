package felix

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/transcript"
)

// TestMain runs each property test over a thousand games unless
// -rapid.checks says otherwise; under the race detector, which makes them
// ten times slower, over 200 (scripts/test runs them again without it).
func TestMain(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "rapid.checks" })
	if !set {
		checks := "1000"
		if raceEnabled {
			checks = "200"
		}
		flag.Set("rapid.checks", checks)
	}
	os.Exit(m.Run())
}

var testNames = []string{"alice", "bob", "carol", "dave", "erin"}

// randomGame plays a random legal game through the public interface,
// calling check after set-up and after every command.
func randomGame(t *rapid.T, check func(g *Game, moves []transcript.Move, ev []engine.Event)) (*Game, []transcript.Move, []engine.Event) {
	n := rapid.IntRange(minPlayers, maxPlayers).Draw(t, "players")
	seed := rapid.Uint64().Draw(t, "seed")
	gi, log, err := Rules{}.New(engine.Setup{Players: testNames[:n], Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	g := gi.(*Game)
	specs := Rules{}.Specs()
	var moves []transcript.Move
	check(g, moves, log)
	for steps := 0; g.S.Phase != Over; steps++ {
		if steps > 2000 {
			t.Fatal("the game does not end")
		}
		waiting := g.Waiting()
		if len(waiting) == 0 {
			t.Fatal("nobody to move in a game that is not over")
		}
		p := waiting[rapid.IntRange(0, len(waiting)-1).Draw(t, "who")]
		var all []string
		for _, o := range g.Options(p) {
			all = append(all, o.Commands...)
		}
		if len(all) == 0 {
			t.Fatalf("%s is waited on but has no options", g.names[p])
		}
		// Pass half the time when it is possible, so auctions end in
		// every way (won, bought, voided).
		text := all[rapid.IntRange(0, len(all)-1).Draw(t, "command")]
		if slices.Contains(all, "pass") && rapid.Bool().Draw(t, "pass") {
			text = "pass"
		}
		cmd, err := engine.ParseCommand(specs, g.names, text)
		if err != nil {
			t.Fatalf("option %q does not parse: %v", text, err)
		}
		ev, err := g.Apply(p, cmd)
		if err != nil {
			t.Fatalf("option %q of %s is illegal: %v", text, g.names[p], err)
		}
		moves = append(moves, transcript.Move{Player: g.names[p], Command: cmd.Text})
		log = append(log, ev...)
		check(g, moves, ev)
	}
	return g, moves, log
}

func TestPropertyMoneyCardsAndEnd(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		total := -1
		g, moves, log := randomGame(t, func(g *Game, _ []transcript.Move, _ []engine.Event) {
			if total < 0 {
				total = g.S.TotalMoney()
				want := int(bankFor(int(g.S.N))) + startMoney*int(g.S.N)
				if total != want {
					t.Fatalf("money at set-up = %d, want %d", total, want)
				}
			}
			if got := g.S.TotalMoney(); got != total {
				t.Fatalf("money is not conserved: %d, want %d", got, total)
			}
			for p := 0; p < int(g.S.N); p++ {
				if g.S.Money[p] < 0 || g.S.Stake[p] < 0 {
					t.Fatalf("%s has money %d, stake %d", g.names[p], g.S.Money[p], g.S.Stake[p])
				}
			}
			if g.S.Bank < 0 {
				t.Fatalf("bank %d", g.S.Bank)
			}
			checkCardPlaces(t, &g.S)
		})
		if g.S.Round != rounds {
			t.Fatalf("game ended in round %d", g.S.Round)
		}
		auctions := 0
		for _, e := range log {
			if e.Kind == "win" || e.Kind == "void" {
				auctions++
			}
		}
		if auctions != rounds {
			t.Fatalf("%d auctions, want %d", auctions, rounds)
		}
		for p := 0; p < int(g.S.N); p++ {
			if g.S.Hand[p] != 0 {
				t.Fatalf("%s still holds cards at the end", g.names[p])
			}
		}
		if len(g.Result().Winners) == 0 {
			t.Fatal("a finished game has no winner")
		}
		checkExportReplay(t, g, moves, log)
	})
}

// checkCardPlaces asserts that every card of every set in play is in
// exactly one place: a hand, the row, someone's won cards, the box, or the
// dummy pile.
func checkCardPlaces(t *rapid.T, s *State) {
	colours := int(s.N)
	if s.N == 3 {
		colours = dummyColour + 1
	}
	for col := 0; col < colours; col++ {
		if col >= int(s.N) && col != dummyColour {
			continue
		}
		for k := Kind(0); k < numKinds; k++ {
			id := mkCard(col, k)
			places := []string{}
			if col < int(s.N) && s.Hand[col]&(1<<uint(k)) != 0 {
				places = append(places, "hand")
			}
			for slot := 0; slot < int(s.RowLen); slot++ {
				if s.Filled&(1<<uint(slot)) != 0 && s.Row[slot] == id {
					places = append(places, "row")
				}
			}
			for p := 0; p < int(s.N); p++ {
				if s.Won[p]&id.bit() != 0 {
					places = append(places, "won")
				}
			}
			if s.Box&id.bit() != 0 {
				places = append(places, "box")
			}
			if col == dummyColour {
				for i := int(s.Round); i < rounds; i++ {
					if s.Dummy[i] == k {
						places = append(places, "pile")
					}
				}
			}
			if len(places) != 1 {
				t.Fatalf("card %s of colour %d is in %v", k, col, places)
			}
		}
	}
}

// checkExportReplay writes the game as a transcript with its explicit
// set-up (no seed), replays it and compares the states and logs.
func checkExportReplay(t *rapid.T, g *Game, moves []transcript.Move, log []engine.Event) {
	var buf bytes.Buffer
	if err := transcript.Write(&buf, "felix", g.Setup(), nil, moves); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "seed") {
		t.Fatal("the export depends on a seed")
	}
	tr, err := transcript.Read(&buf, func(name string) (engine.Rules, bool) { return Rules{}, name == "felix" })
	if err != nil {
		t.Fatalf("exported transcript does not read: %v\n%s", err, buf.String())
	}
	g2, log2, err := tr.Replay()
	if err != nil {
		t.Fatalf("exported transcript does not replay: %v", err)
	}
	a, _ := g.MarshalJSON()
	b, _ := g2.MarshalJSON()
	if !bytes.Equal(a, b) {
		t.Fatalf("replayed state differs:\n%s\n%s", a, b)
	}
	if !reflect.DeepEqual(log, log2) {
		t.Fatal("replayed log differs")
	}
	g3, err := Rules{}.Unmarshal(a)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := g3.MarshalJSON()
	if !bytes.Equal(a, c) {
		t.Fatal("state does not survive MarshalJSON and Unmarshal")
	}
}

// TestPropertyViewsHideSecrets changes, at every step, everything a viewer
// cannot know (opponents' hands, face-down cards, set-aside cards, money,
// the dummy pile) and requires the viewer's serialized view to be
// byte-identical. It also checks that placing one card or another gives
// the same public log.
func TestPropertyViewsHideSecrets(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "perturb"), 7))
		changed := 0
		randomGame(t, func(g *Game, moves []transcript.Move, _ []engine.Event) {
			// One viewer per step (every viewer is checked many times over
			// a game) keeps thousands of games affordable.
			v := rng.IntN(int(g.S.N)+1) - 1
			before := viewJSON(t, g, v)
			g2 := g.Clone().(*Game)
			if perturb(&g2.S, v, rng) {
				changed++
			}
			if after := viewJSON(t, g2, v); before != after {
				t.Fatalf("viewer %d's view depends on hidden information:\n%s\n%s", v, before, after)
			}
			checkOwnInfo(t, g, v, before)
			if rng.IntN(4) == 0 {
				checkPlacementLogs(t, g)
			}
		})
		if changed == 0 {
			t.Fatal("no perturbation changed anything: the test is vacuous")
		}
	})
}

func viewJSON(t *rapid.T, g *Game, seat int) string {
	b, err := json.Marshal(g.View(seat))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// perturb changes hidden information that viewer v cannot see, keeping the
// state consistent. It reports whether it changed anything.
func perturb(s *State, v int, rng *rand.Rand) bool {
	changed := false
	n := int(s.N)
	over := s.Phase == Over
	for q := 0; q < n; q++ {
		if q == v {
			continue
		}
		hand := kindsOf(uint64(s.Hand[q]))
		// Swap q's face-down row card with a card of q's hand.
		slot := s.slotOf(q)
		if len(hand) > 0 && s.Filled&(1<<uint(slot)) != 0 && s.Up&(1<<uint(slot)) == 0 {
			k := hand[rng.IntN(len(hand))]
			old := s.Row[slot].kind()
			s.Hand[q] = s.Hand[q]&^(1<<uint(k)) | 1<<uint(old)
			s.Row[slot] = mkCard(q, k)
			changed = changed || k != old
			hand = kindsOf(uint64(s.Hand[q]))
		}
		// Swap q's set-aside card with a card of q's hand.
		if len(hand) > 0 {
			k := hand[rng.IntN(len(hand))]
			old := s.Removed[q]
			s.Hand[q] = s.Hand[q]&^(1<<uint(k)) | 1<<uint(old)
			s.Box = s.Box&^mkCard(q, old).bit() | mkCard(q, k).bit()
			s.Removed[q] = k
			changed = true
		}
	}
	// Opponents' standing orders for the auction (orders.go): a limit, a
	// standing pass, or none.
	if s.Phase == Bidding {
		for q := 0; q < n; q++ {
			if q != v && s.Passed&(1<<uint(q)) == 0 && rng.IntN(2) == 0 {
				s.Orders ^= 1 << uint(q)
				s.Limit[q] = int16(rng.IntN(16))
				changed = true
			}
		}
	}
	// Move money between two opponents of v.
	if !over {
		var opp []int
		for q := 0; q < n; q++ {
			if q != v {
				opp = append(opp, q)
			}
		}
		a, b := opp[rng.IntN(len(opp))], opp[rng.IntN(len(opp))]
		if a != b && s.Money[b] > 0 {
			s.Money[a]++
			s.Money[b]--
			changed = true
		}
	}
	// The dummy's unseen cards: its pile below the top, its face-down top
	// card, its set-aside card.
	if n == 3 {
		var unseen []*Kind
		for i := int(s.Round); i < rounds; i++ {
			unseen = append(unseen, &s.Dummy[i])
		}
		if !over && s.Up&1 == 0 {
			unseen = append(unseen, &s.Dummy[s.Round-1])
		}
		if len(unseen) > 0 {
			p := unseen[rng.IntN(len(unseen))]
			old := s.Removed[dummyColour]
			s.Box = s.Box&^mkCard(dummyColour, old).bit() | mkCard(dummyColour, *p).bit()
			s.Removed[dummyColour], *p = *p, old
			if !over && s.Up&1 == 0 {
				s.Row[0] = mkCard(dummyColour, s.Dummy[s.Round-1])
			}
			changed = true
		}
	}
	return changed
}

// checkOwnInfo makes sure the view is not vacuous: the viewer's own hand
// and money are there, and opponents' money is not.
func checkOwnInfo(t *rapid.T, g *Game, v int, view string) {
	var parsed View
	if err := json.Unmarshal([]byte(view), &parsed); err != nil {
		t.Fatal(err)
	}
	over := g.S.Phase == Over
	for p, pv := range parsed.Players {
		if (pv.Money != nil) != (p == v || over) {
			t.Fatalf("viewer %d: money of %s shown=%v", v, pv.Name, pv.Money != nil)
		}
	}
	if v < 0 {
		if parsed.Hand != nil || parsed.Money != nil || parsed.SetAside != "" {
			t.Fatal("the public view shows a hand or money")
		}
		return
	}
	if len(parsed.Hand) != handCount(&g.S, v) || parsed.Money == nil || *parsed.Money != int(g.S.Money[v]) {
		t.Fatalf("viewer %d does not see own hand and money", v)
	}
}

// checkPlacementLogs: whichever card a waiting player places, what the
// others read of that placement is the same, in its text and in its
// phrase, which every language is written from (reveals aside, which
// only show cards that are turned up for everyone); and the player
// himself is told of it once, his card in his phrase.
func checkPlacementLogs(t *rapid.T, g *Game) {
	if g.S.Phase != Placing {
		return
	}
	for _, p := range g.Waiting() {
		hand := kindsOf(uint64(g.S.Hand[p]))
		if len(hand) < 2 {
			continue
		}
		var logs, own []string
		for _, k := range hand[:2] {
			c := g.Clone()
			ev, err := c.Apply(p, spec("play").Make(k.String()))
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			placed := 0
			for _, e := range ev {
				// What the others (and spectators) read, in words and
				// as the phrase their language is written from.
				if e.VisibleTo(engine.Public) && e.Kind != "reveal" {
					say, err := json.Marshal(e.Say)
					if err != nil {
						t.Fatal(err)
					}
					fmt.Fprintln(&b, e.Text, string(say))
				}
				if e.Say == nil {
					t.Fatalf("%q has no phrase", e.Text)
				}
				if e.To != engine.Public && e.To != p && e.To != engine.Others(p) {
					t.Fatalf("an entry for %d when %d placed", e.To, p)
				}
				if e.Kind == "place" && e.VisibleTo(p) {
					placed++
					say, _ := json.Marshal(e.Say)
					own = append(own, string(say))
				}
			}
			if placed != 1 {
				t.Fatalf("seat %d is told of its placement %d times", p, placed)
			}
			logs = append(logs, b.String())
		}
		if logs[0] != logs[1] {
			t.Fatalf("the public log of a placement shows the card:\n%s\n%s", logs[0], logs[1])
		}
		if own[0] == own[1] {
			t.Fatalf("the placer's own phrase does not name his card: %s", own[0])
		}
	}
}
