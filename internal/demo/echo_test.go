package demo

import (
	"context"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/pbem/pbem/engine/games"
)

// startEcho starts the embedded servers and the echo on them, both
// stopped when the test ends, and returns the world and the echo's
// address.
func startEcho(t *testing.T, ctx context.Context) (*World, string) {
	t.Helper()
	w, err := Start(ctx, Options{NoService: true})
	if err != nil {
		t.Fatal(err)
	}
	echo := w.Player("echo")
	ectx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		done <- RunEcho(ectx, EchoConfig{IMAPAddr: w.Mail.IMAPAddr, SMTPAddr: w.Mail.SMTPAddr, Address: echo, Password: w.Mail.Password})
	}()
	t.Cleanup(func() {
		stop()
		if err := <-done; err != nil {
			t.Errorf("RunEcho: %v", err)
		}
		w.Close()
	})
	return w, echo
}

// TestEchoGame plays two echo games at once on the embedded servers: every
// turn's mail is answered to each of the four players, and every turn has
// its latency.
func TestEchoGame(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // a failure guard only
	defer cancel()
	w, echo := startEcho(t, ctx)
	if err := w.Probe(ctx, echo); err != nil {
		t.Fatal(err)
	}
	const turns = 6
	results := make(chan error, 2)
	for g := range 2 {
		go func() {
			var players []string
			for _, name := range []string{"alice", "bob", "carol", "dave"} {
				players = append(players, w.Player(fmt.Sprintf("%s%d", name, g)))
			}
			game, err := w.PlayEcho(ctx, echo, players, SequentialTurns(turns, len(players)), time.Minute)
			if err == nil && (game.Commands != turns || len(game.CommandLatencies) != turns) {
				t.Errorf("%d commands, %d latencies; want %d", game.Commands, len(game.CommandLatencies), turns)
			}
			for _, p := range players {
				if n := len(game.Mails[p]); err == nil && n != turns {
					t.Errorf("%s got %d mails, want one per turn: %d", p, n, turns)
				}
			}
			for _, l := range game.CommandLatencies {
				if l <= 0 {
					t.Errorf("latency %s", l)
				}
			}
			results <- err
		}()
	}
	for range 2 {
		if err := <-results; err != nil {
			t.Fatal(err)
		}
	}
}

// TestEchoSteps plays an echo game whose steps have several players
// mailing at once: every command is answered to each player, and a step
// waits for the one before it.
func TestEchoSteps(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // a failure guard only
	defer cancel()
	w, echo := startEcho(t, ctx)
	var players []string
	for _, name := range []string{"alice", "bob", "carol", "dave"} {
		players = append(players, w.Player(name))
	}
	schedule := [][]int{{0}, {1, 2, 3}, {0, 1, 2, 3}, {2}}
	game, err := w.PlayEcho(ctx, echo, players, schedule, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if game.Commands != 9 || len(game.CommandLatencies) != 9 {
		t.Errorf("%d commands, %d latencies; want 9", game.Commands, len(game.CommandLatencies))
	}
	for _, p := range players {
		if n := len(game.Mails[p]); n != 9 {
			t.Errorf("%s got %d mails, want one per command: 9", p, n)
		}
	}
}

// TestGameTurns: the echo's schedule of a Felix game has the creation,
// the joins at once, the placements at once and the bids one at a time,
// and the same seed gives the same schedule.
func TestGameTurns(t *testing.T) {
	rules, _ := games.Lookup("felix")
	a, err := GameTurns(rules, 4, 7)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := GameTurns(rules, 4, 7)
	if !reflect.DeepEqual(a, b) {
		t.Error("the same seed gave two schedules")
	}
	if !reflect.DeepEqual(a[:2], [][]int{{0}, {1, 2, 3}}) {
		t.Errorf("the schedule begins %v, want the creation and then the joins at once", a[:2])
	}
	commands, four, one := 0, 0, 0
	for _, step := range a {
		commands += len(step)
		switch len(step) {
		case 4:
			four++
		case 1:
			one++
		}
	}
	if four < 9 || one < 20 || commands < 60 || commands > 130 {
		t.Errorf("%d steps, %d commands, %d steps of four (placements), %d of one", len(a), commands, four, one)
	}
}

// TestCommandLatencies attributes mails to the pass of commands before them.
func TestCommandLatencies(t *testing.T) {
	at := func(ms int) time.Time { return time.Unix(0, int64(ms)*int64(time.Millisecond)) }
	sends := []sent{{at(0), 0}, {at(100), 1}, {at(101), 1}, {at(300), 2}}
	landed := []time.Time{at(50), at(60), at(150), at(250), at(320), at(400)}
	got := commandLatencies(sends, landed)
	want := []time.Duration{60 * time.Millisecond, 150 * time.Millisecond, 149 * time.Millisecond, 100 * time.Millisecond}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
}
