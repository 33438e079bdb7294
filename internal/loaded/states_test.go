package loaded

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/games"
)

// TestStatesRestoreAsDecoded plays random games of every kind and checks,
// after each move, that the state States gives for the snapshot just
// saved (a copy of the played state, kept at saving) is the state
// decoding that snapshot gives: the same snapshot, seats waited on,
// options, every seat's and the public view, result, and the same
// events for the next command. A field that a game's Clone copies but
// its snapshot does not save would make the two differ here.
func TestStatesRestoreAsDecoded(t *testing.T) {
	for name, rules := range games.All() {
		for players := rules.MinPlayers(); players <= rules.MaxPlayers(); players++ {
			for seed := uint64(1); seed <= 3; seed++ {
				t.Run(fmt.Sprintf("%s/%d/%d", name, players, seed), func(t *testing.T) {
					t.Parallel()
					playKept(t, rules, players, seed)
				})
			}
		}
	}
}

func playKept(t *testing.T, rules engine.Rules, players int, seed uint64) {
	var names []string
	for i := range players {
		names = append(names, fmt.Sprintf("p%d", i))
	}
	g, _, err := rules.New(engine.Setup{Players: names, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 7))
	s := NewStates()
	const id = 42
	for ply := 0; ply < 400 && !g.Result().Finished; ply++ {
		raw, err := g.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		s.keep(rules.Name(), id, raw, g)
		kept, err := s.decode(rules, id, raw)
		if err != nil {
			t.Fatal(err)
		}
		decoded, err := rules.Unmarshal(raw)
		if err != nil {
			t.Fatal(err)
		}
		sameGame(t, ply, kept, decoded)

		// The next command, chosen at random among the legal ones,
		// applied to all three.
		waiting := g.Waiting()
		seat := waiting[rng.IntN(len(waiting))]
		var cmds []string
		for _, o := range g.Options(seat) {
			cmds = append(cmds, o.Commands...)
		}
		text := cmds[rng.IntN(len(cmds))]
		cmd, err := engine.ParseCommand(rules.Specs(), names, text)
		if err != nil {
			t.Fatalf("ply %d: %q: %v", ply, text, err)
		}
		want, err := g.Apply(seat, cmd)
		if err != nil {
			t.Fatalf("ply %d: %q: %v", ply, text, err)
		}
		for what, c := range map[string]engine.Game{"kept": kept, "decoded": decoded} {
			got, err := c.Apply(seat, cmd)
			if err != nil || !reflect.DeepEqual(got, want) {
				t.Fatalf("ply %d: %q on the %s state: %v, %v; on the played one %v", ply, text, what, got, err, want)
			}
		}
	}
}

// sameGame fails unless a and b are the same game to every reader.
func sameGame(t *testing.T, ply int, a, b engine.Game) {
	t.Helper()
	ja, _ := a.MarshalJSON()
	jb, _ := b.MarshalJSON()
	if string(ja) != string(jb) {
		t.Fatalf("ply %d: snapshots differ:\n%s\n%s", ply, ja, jb)
	}
	if !reflect.DeepEqual(a.Waiting(), b.Waiting()) || !reflect.DeepEqual(a.Result(), b.Result()) {
		t.Fatalf("ply %d: waiting %v, %v; result %v, %v", ply, a.Waiting(), b.Waiting(), a.Result(), b.Result())
	}
	for seat := engine.Public; seat < len(a.Players()); seat++ {
		va, _ := json.Marshal(a.View(seat))
		vb, _ := json.Marshal(b.View(seat))
		if string(va) != string(vb) {
			t.Fatalf("ply %d: seat %d's views differ:\n%s\n%s", ply, seat, va, vb)
		}
		if seat >= 0 && !reflect.DeepEqual(a.Options(seat), b.Options(seat)) {
			t.Fatalf("ply %d: seat %d's options differ", ply, seat)
		}
	}
}

// TestStatesByTheirSnapshot checks that a kept state is given only for
// the very snapshot and kind it was kept with, and only as a copy: a
// change to what decode gave changes nothing kept.
func TestStatesByTheirSnapshot(t *testing.T) {
	rules, _ := games.Lookup("felix")
	g, _, err := rules.New(engine.Setup{Players: []string{"a", "b", "c"}, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	before, _ := g.MarshalJSON()
	s := NewStates()
	s.keep(rules.Name(), 1, before, g)

	// The played state moves on; the kept one does not.
	seat := g.Waiting()[0]
	cmd, _ := g.Default(seat)
	if _, err := g.Apply(seat, cmd); err != nil {
		t.Fatal(err)
	}
	got, err := s.decode(rules, 1, before)
	if err != nil {
		t.Fatal(err)
	}
	if raw, _ := got.MarshalJSON(); string(raw) != string(before) {
		t.Fatalf("the kept state changed with the played one:\n%s\n%s", raw, before)
	}
	// A copy given out moves on; the kept one does not.
	if _, err := got.Apply(seat, cmd); err != nil {
		t.Fatal(err)
	}
	again, _ := s.decode(rules, 1, before)
	if raw, _ := again.MarshalJSON(); string(raw) != string(before) {
		t.Fatal("the kept state changed with a copy given out")
	}
	// Another snapshot of the same game decodes as itself.
	after, _ := g.MarshalJSON()
	other, err := s.decode(rules, 1, after)
	if err != nil {
		t.Fatal(err)
	}
	if raw, _ := other.MarshalJSON(); string(raw) != string(after) {
		t.Fatal("a new snapshot of the game gave the state kept for the old one")
	}
	// The same bytes as another game's kind, or under another id, are
	// not the kept state: gracias refuses a Felix snapshot.
	gracias, _ := games.Lookup("gracias")
	if _, err := s.decode(gracias, 1, after); err == nil {
		t.Error("a Felix snapshot decoded as Gracias from what was kept")
	}
	if _, err := s.decode(rules, 2, []byte("{")); err == nil {
		t.Error("a broken snapshot of another game decoded")
	}
	// A nil States decodes every time.
	var none *States
	if st, err := none.decode(rules, 1, after); err != nil || st == nil {
		t.Errorf("nil States: %v, %v", st, err)
	}
	none.keep(rules.Name(), 1, after, g)
}

// TestStatesBounded checks that States never keeps more than maxStates.
func TestStatesBounded(t *testing.T) {
	rules, _ := games.Lookup("felix")
	g, _, _ := rules.New(engine.Setup{Players: []string{"a", "b", "c"}, Seed: 1})
	raw, _ := g.MarshalJSON()
	s := NewStates()
	for id := int64(1); id <= 3*maxStates; id++ {
		s.keep(rules.Name(), id, raw, g)
		if len(s.kept) > maxStates {
			t.Fatalf("%d states kept", len(s.kept))
		}
	}
}
