//go:build integration

package demo

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// TestRealMailPreemptedMessageID plays issue 33's attack through Postfix
// and Dovecot, black-box: a stranger mails pbem's bare address first,
// with the Message-ID the player's move will carry. The move is applied
// and answered. Postfix then delivers the move a second time (the same
// bytes, sent again): it is applied no second time.
func TestRealMailPreemptedMessageID(t *testing.T) {
	ctx := context.Background()
	w, err := Start(ctx, Options{Seed: 33, Mail: mailSystem(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	players := []string{w.Player("xena"), w.Player("yuri"), w.Player("zoe")}
	gameID := joinedGame(t, ctx, w, players)
	mover, turn := waitTurn(t, ctx, w, gameID, players, len(w.SentMails()))
	processed := len(w.SentMails())

	id := "next" + w.Suffix + "@x"
	mail := func(from, to, body string) []byte {
		return fmt.Appendf(nil, "From: %s\r\nTo: %s\r\nSubject: Re: %s\r\nMessage-ID: <%s>\r\nDate: %s\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n",
			from, to, turn.Subject, id, time.Now().UTC().Format(time.RFC1123Z), body)
	}
	mallory := w.Player("mallory")
	if err := w.SendRaw(ctx, mallory, w.Address, mail(mallory, w.Address, "help")); err != nil {
		t.Fatal(err)
	}
	processed++
	waitProcessed(t, ctx, w, processed, 2*time.Minute)

	before := movesOf(t, ctx, w, gameID)
	answers := outgoingTo(t, ctx, w, mover)
	move := mail(mover, turn.ReplyTo, Offered(turn.Text)[0]+"\nstatus")
	for range 2 {
		if err := w.SendRaw(ctx, mover, turn.ReplyTo, move); err != nil {
			t.Fatal(err)
		}
	}
	processed += 2
	waitProcessed(t, ctx, w, processed, 2*time.Minute)
	if n := movesOf(t, ctx, w, gameID) - before; n != 1 {
		t.Errorf("%d moves made by the player's mail, sent twice, want 1", n)
	}
	if outgoingTo(t, ctx, w, mover) <= answers {
		t.Errorf("the player got no answer to his move")
	}
	all, err := w.Store.AllInbound(ctx)
	if err != nil {
		t.Fatal(err)
	}
	outcomes := map[string]string{}
	for _, in := range all {
		if in.MessageID == id {
			outcomes[in.From] += in.Outcome
		}
	}
	if len(outcomes) != 2 || outcomes[mover] != "applied" || outcomes[mallory] != "answered" {
		t.Errorf("the records of Message-ID %s by sender: %v, want the stranger's answered and the player's applied, once each", id, outcomes)
	}
}

// joinedGame has players[0] start a Gracias game with the others and the
// others join it, by mail; it returns the game.
func joinedGame(t *testing.T, ctx context.Context, w *World, players []string) int64 {
	t.Helper()
	if err := w.Send(ctx, players[0], w.Address, "new game", "", "new gracias with "+players[1]+" "+players[2]); err != nil {
		t.Fatal(err)
	}
	joined := map[string]bool{}
	deadline := time.Now().Add(2 * time.Minute)
	for len(joined) < len(players)-1 {
		if time.Now().After(deadline) {
			t.Fatal("no invitation arrived within 2 minutes")
		}
		time.Sleep(200 * time.Millisecond)
		for _, p := range players[1:] {
			mails, err := w.Inbox(ctx, p)
			if err != nil {
				t.Fatal(err)
			}
			if len(mails) == 0 || joined[p] {
				continue
			}
			// The mail that asks something of him, by the scripted
			// players' rule (follow.go), not the one with the highest UID.
			inv, ok := Current(mails)
			if !ok || !invitation(inv) {
				t.Fatalf("%s's first mail is no invitation:\n%s", p, mails[0].Text)
			}
			joined[p] = true
			if err := w.Send(ctx, p, inv.ReplyTo, "Re: "+inv.Subject, inv.MessageID, "join"); err != nil {
				t.Fatal(err)
			}
		}
	}
	gs, err := w.Store.GamesOf(ctx, players[0])
	if err != nil || len(gs) != 1 {
		t.Fatalf("games of %s: %v, %v", players[0], gs, err)
	}
	return gs[0].ID
}

// outgoingTo counts the mails pbem queued to addr.
func outgoingTo(t *testing.T, ctx context.Context, w *World, addr string) int {
	t.Helper()
	out, err := w.Store.AllOutgoing(ctx)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, o := range out {
		if o.To == addr {
			n++
		}
	}
	return n
}

// movesOf counts the game's moves.
func movesOf(t *testing.T, ctx context.Context, w *World, gameID int64) int {
	t.Helper()
	ms, err := w.Store.Moves(ctx, gameID, 0)
	if err != nil {
		t.Fatal(err)
	}
	return len(ms)
}
