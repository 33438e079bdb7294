package webpage

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/games"
	"github.com/pbem/pbem/internal/loaded"
	"github.com/pbem/pbem/store"
)

// TestReplayIsToPoint: the replay kept for all seats gives every seat,
// at every point, what loaded.History.ToPoint gives it (its points, its
// words, the events, the game's view and options, whether it is now),
// on random games with commands taken back, some told to the whole
// table and some to their player alone; and a point past the last is
// ErrNoPoint for both.
func TestReplayIsToPoint(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		kind    string
		players []string
	}{
		{"felix", []string{"alice", "bob", "carol", "dave"}},
		{"gracias", []string{"alice", "bob", "carol"}},
	} {
		for seed := uint64(1); seed <= 3; seed++ {
			t.Run(fmt.Sprintf("%s-%d", c.kind, seed), func(t *testing.T) {
				t.Parallel()
				h := randomHistory(t, c.kind, c.players, seed)
				rp, err := newReplay(h)
				if err != nil {
					t.Fatal(err)
				}
				for seat := engine.Public; seat < len(c.players); seat++ {
					h.Seat = seat
					for at := -1; ; at++ {
						want, werr := h.ToPoint(at)
						got, gerr := rp.toPoint(seat, at)
						if werr != nil || gerr != nil {
							if !errors.Is(werr, loaded.ErrNoPoint) || !errors.Is(gerr, loaded.ErrNoPoint) {
								t.Fatalf("seat %d at %d: %v, want %v", seat, at, gerr, werr)
							}
							break
						}
						n, now, err := rp.point(at)
						if err != nil || n != want.At || now != want.Now {
							t.Errorf("seat %d at %d: point %d now %v (%v), want %d %v", seat, at, n, now, err, want.At, want.Now)
						}
						if !reflect.DeepEqual(got.Points, want.Points) || got.At != want.At || got.Now != want.Now {
							t.Fatalf("seat %d at %d: the points differ", seat, at)
						}
						if !reflect.DeepEqual(got.State.View(seat), want.State.View(seat)) || !reflect.DeepEqual(got.State.Options(seat), want.State.Options(seat)) {
							t.Fatalf("seat %d at %d: the game differs", seat, at)
						}
					}
				}
			})
		}
	}
}

// randomHistory plays a game at random in its engine, taking a command
// back now and then, and returns it as a page would read it from the
// store: the moves, and for each undo line the events the service told,
// to the whole table or to the seat alone.
func randomHistory(t *testing.T, kind string, players []string, seed uint64) loaded.History {
	t.Helper()
	rules, ok := games.Lookup(kind)
	if !ok {
		t.Fatalf("no game %s", kind)
	}
	h := loaded.History{GameID: 1, Rules: rules, Setup: engine.Setup{Players: players, Seed: seed}, Undone: map[int64][]engine.Event{}}
	l, _, err := engine.NewLog(rules, h.Setup)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 40))
	for seq := int64(1); !l.Game().Result().Finished; seq++ {
		if seq > 2000 {
			t.Fatal("the game does not end")
		}
		waiting := l.Game().Waiting()
		seat := waiting[rng.IntN(len(waiting))]
		command := engine.UndoCommand
		if rng.IntN(6) != 0 {
			opts := l.Game().Options(seat)
			o := opts[rng.IntN(len(opts))]
			command = o.Commands[rng.IntN(len(o.Commands))]
		}
		if _, err := l.Do(seat, command); err != nil {
			continue // nothing of the seat's to take back
		}
		if command == engine.UndoCommand {
			to := engine.Public
			if rng.IntN(2) == 0 {
				to = seat
			}
			h.Undone[seq] = []engine.Event{{Kind: "undone", To: to, Text: fmt.Sprintf("%s's command %d is taken back.", players[seat], seq)}}
		}
		h.Moves = append(h.Moves, store.Move{Seq: seq, Seat: seat, Command: command})
	}
	return h
}
