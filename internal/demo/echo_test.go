package demo

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// TestEchoGame plays two echo games at once on the embedded servers: every
// turn's mail is answered to each of the four players, and every turn has
// its latency.
func TestEchoGame(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // a failure guard only
	defer cancel()
	w, err := Start(ctx, Options{NoService: true})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	echo := w.Player("echo")
	ectx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		done <- RunEcho(ectx, EchoConfig{IMAPAddr: w.Mail.IMAPAddr, SMTPAddr: w.Mail.SMTPAddr, Address: echo, Password: w.Mail.Password})
	}()
	defer func() {
		stop()
		if err := <-done; err != nil {
			t.Errorf("RunEcho: %v", err)
		}
	}()
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
			game, err := w.PlayEcho(ctx, echo, players, turns, time.Minute)
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
