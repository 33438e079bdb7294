//go:build integration

package demo

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/pbem/pbem/store"
)

// TestMailboxStartsRefusing is the running-game half of issue 37's
// "Done when": a game waits on a player whose mailbox starts refusing
// mail (scripts/mailstack refuse); another player pokes him, and
// Postfix's own DSN of the reminder makes his address unreachable. His
// table is told once, the host is told, and the stand-in moves for his
// seat at once. Then his mailbox accepts mail again and he writes `back`
// in his game's thread: his address is reachable, the seat is his again,
// and the table and the host are told that too.
func TestMailboxStartsRefusing(t *testing.T) {
	ctx := context.Background()
	mail := mailSystem(t)
	suffix := randomSuffix()
	host := "host" + suffix + "@" + mail.Domain
	w, err := Start(ctx, Options{Seed: 371, Mail: mail, Suffix: suffix, Admins: host})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	players := []string{w.Player("xena"), w.Player("yuri"), w.Player("zoe")}
	gameID := joinedGame(t, ctx, w, players)
	x, turn := waitTurn(t, ctx, w, gameID, players, len(w.SentMails()))
	xSeat := seatOf(t, ctx, w, gameID, x)
	var others []string
	for _, p := range players {
		if p != x {
			others = append(others, p)
		}
	}
	movesBefore := movesOf(t, ctx, w, gameID)

	mailstack(t, "refuse", x)
	t.Cleanup(func() { mailstack(t, "accept", x) })

	// The poke mails x a reminder, which Postfix bounces.
	poker := others[0]
	thread := waitFor(t, ctx, w, poker, func(m Mail) bool { return m.ReplyTo != "" })
	if err := w.Send(ctx, poker, thread.ReplyTo, "Re: "+thread.Subject, thread.MessageID, "poke"); err != nil {
		t.Fatal(err)
	}
	wait, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	waitUntil(t, wait, x+" unreachable", func() (bool, error) { return w.Store.IsUnreachable(ctx, x) })

	// The stand-in plays the seat from its next decision on: the game
	// waited on x, so at once.
	waitUntil(t, wait, "the stand-in moving for "+x, func() (bool, error) {
		seat, err := w.Store.Seat(ctx, gameID, xSeat.Seat)
		return err == nil && seat.Autopilot && movesOf(t, ctx, w, gameID) > movesBefore, err
	})
	t.Logf("%s unreachable; the stand-in made %d move(s) since", x, movesOf(t, ctx, w, gameID)-movesBefore)
	bounced := "Mail to " + xSeat.Name + " bounces"
	for _, p := range others {
		waitFor(t, wait, w, p, saying(bounced))
	}
	waitFor(t, wait, w, host, saying(fmt.Sprintf("mail to %s (seat %d) bounces", xSeat.Name, xSeat.Seat)))

	// He reads his mail again and writes in his game's thread.
	mailstack(t, "accept", x)
	if err := w.Send(ctx, x, turn.ReplyTo, "Re: "+turn.Subject, turn.MessageID, "back"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, wait, w, x, saying("Welcome back: your seat is off autopilot"))
	if u, err := w.Store.IsUnreachable(ctx, x); err != nil || u {
		t.Errorf("%s unreachable %t (%v) after he wrote again", x, u, err)
	}
	if seat := seatOf(t, ctx, w, gameID, x); seat.Autopilot || seat.State == store.SeatResigned {
		t.Errorf("%s's seat after he wrote again: autopilot %t, state %s", x, seat.Autopilot, seat.State)
	}
	back := xSeat.Name + " is back and plays " + xSeat.Name + "'s seat again"
	for _, p := range others {
		waitFor(t, wait, w, p, saying(back))
	}
	waitFor(t, wait, w, host, saying(fmt.Sprintf("%s (seat %d) sent a command, so pbem no longer moves for the seat", xSeat.Name, xSeat.Seat)))

	// Told once: every mail the table got by now, the ones after the
	// bounce included, holds the bounce sentence in one mail only.
	for _, p := range others {
		mails, err := w.Inbox(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, m := range mails {
			if saying(bounced)(m) {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%s was told %d times that mail to %s bounces, want once", p, n, xSeat.Name)
		}
	}
}

// mailstack runs scripts/mailstack with args (refuse ADDRESS, accept
// ADDRESS).
func mailstack(t *testing.T, args ...string) {
	t.Helper()
	out, err := exec.Command("../../scripts/mailstack", args...).CombinedOutput()
	if err != nil {
		t.Fatalf("scripts/mailstack %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// saying matches a mail whose text holds sentence, however its lines
// are wrapped.
func saying(sentence string) func(Mail) bool {
	return func(m Mail) bool {
		return strings.Contains(strings.Join(strings.Fields(m.Text), " "), sentence)
	}
}

// seatOf is addr's seat in game gameID.
func seatOf(t *testing.T, ctx context.Context, w *World, gameID int64, addr string) store.Seat {
	t.Helper()
	seats, err := w.Store.Seats(ctx, gameID)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range seats {
		if s.Address == store.NormalizeAddress(addr) {
			return s
		}
	}
	t.Fatalf("%s has no seat in game %d", addr, gameID)
	return store.Seat{}
}

// waitUntil polls done until it says true, and fails the test when ctx
// ends first; an error is tried again (the store is busy at times).
func waitUntil(t *testing.T, ctx context.Context, what string, done func() (bool, error)) {
	t.Helper()
	var last error
	for {
		ok, err := done()
		if err == nil && ok {
			return
		}
		if err != nil {
			last = err
		}
		select {
		case <-ctx.Done():
			t.Fatalf("waiting for %s: %v (last error: %v)", what, ctx.Err(), last)
		case <-time.After(50 * time.Millisecond):
		}
	}
}
