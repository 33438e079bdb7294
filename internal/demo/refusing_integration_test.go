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
	queued := lastOutgoing(t, ctx, w)
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
	checkStandInMoves(t, ctx, w, gameID, xSeat.Seat, movesBefore)
	bounced := "Mail to " + xSeat.Name + " bounces"
	for _, p := range others {
		waitFor(t, wait, w, p, saying(bounced))
	}
	waitFor(t, wait, w, host, saying(fmt.Sprintf("mail to %s (seat %d) bounces", xSeat.Name, xSeat.Seat)))
	// pbem stops mailing him: only the reminder went out. (A seat on
	// autopilot is mailed results only, none of which may have come
	// yet: what is queued to him is withheld.)
	waitUntil(t, wait, "pbem's mails to "+x+" since the poke settled", func() (bool, error) {
		sent, withheld, pending, err := mailsTo(ctx, w, x, queued)
		if err == nil && pending == 0 {
			if sent != 1 {
				t.Fatalf("mails to %s since the poke: %d sent, %d withheld; want the reminder sent and no other", x, sent, withheld)
			}
			t.Logf("mails to %s since the poke: the reminder sent, %d withheld", x, withheld)
		}
		return pending == 0, err
	})

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

// lastOutgoing is the id of the last mail pbem queued, 0 for none.
func lastOutgoing(t *testing.T, ctx context.Context, w *World) int64 {
	t.Helper()
	rows, err := w.Store.AllOutgoing(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var last int64
	for _, o := range rows {
		last = max(last, o.ID)
	}
	return last
}

// mailsTo counts pbem's mails to addr queued after the mail with id
// after, by what became of them.
func mailsTo(ctx context.Context, w *World, addr string, after int64) (sent, withheld, pending int, err error) {
	rows, err := w.Store.AllOutgoing(ctx)
	if err != nil {
		return 0, 0, 0, err
	}
	for _, o := range rows {
		if o.ID <= after || o.To != store.NormalizeAddress(addr) {
			continue
		}
		switch {
		case o.State == store.OutPending:
			pending++
		case o.State == store.OutSent:
			sent++
		case strings.HasPrefix(o.LastError, "withheld"):
			withheld++
		}
	}
	return sent, withheld, pending, nil
}

// checkStandInMoves checks that the moves made in game gameID after the
// first before are the stand-in's for seat, and that there is one.
func checkStandInMoves(t *testing.T, ctx context.Context, w *World, gameID int64, seat, before int) {
	t.Helper()
	moves, err := w.Store.Moves(ctx, gameID, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(moves) <= before {
		t.Fatalf("no move since the seat went to the stand-in")
	}
	for _, m := range moves[before:] {
		if m.Seat != seat || m.Source != store.SourceDeadline {
			t.Errorf("move %d after the bounce: seat %d, %s (%q); want the stand-in's for seat %d", m.Seq, m.Seat, m.Source, m.Command, seat)
		}
	}
	t.Logf("the stand-in made %d move(s) for seat %d", len(moves)-before, seat)
}
