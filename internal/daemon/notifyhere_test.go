package daemon

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pbem/pbem/internal/outgoing"
	"github.com/pbem/pbem/parser"
	"github.com/pbem/pbem/store"
)

// TestNotifyHere: `notify SETTING here` gives one game its own setting,
// which wins over the player's for that game only: alice, on digest,
// sets her Gracias game to normal; its moves are mailed to her at once
// and her digest leaves it out, while her Felix game stays in the digest
// and mails her nothing meanwhile. At pbem's own address `here` is no
// game's, and is answered so.
func TestNotifyHere(t *testing.T) {
	t.Parallel()
	w := newWorld(t).authenticate() // 2026-11-21 10:00 UTC
	felix := []string{"alice@x.test", "bob@y.test", "carol@z.test"}
	gracias := []string{"bob@y.test", "alice@x.test", "carol@z.test"}
	replyF, f := w.startGame("felix", felix...)
	replyG, g := w.startGame("gracias", gracias...)

	w.send("alice@x.test", replyF["alice@x.test"], "notify digest 19")
	w.send("alice@x.test", replyG["alice@x.test"], "notify normal here")
	if got := unwrap(w.last("alice@x.test").Text); !strings.Contains(got, "From now on you get mail about this game when you must decide") ||
		!strings.Contains(got, "Your other games keep your own setting, `notify digest`.") {
		t.Fatalf("the answer to notify normal here:\n%s", got)
	}
	if p := w.player("alice@x.test"); p.Notify != store.NotifyDigest {
		t.Fatalf("alice's own setting is %q", p.Notify)
	}
	if n := seatNotifyOf(t, w, g, 1); n != store.NotifyNormal {
		t.Fatalf("alice's Gracias setting is %q", n)
	}

	for slices.Contains(w.loaded(g).State.Waiting(), 1) {
		w.send("alice@x.test", replyG["alice@x.test"], w.legal(g, 1)) // so that the others have moves to make
	}
	before := len(w.inbox["alice@x.test"])
	w.playOthers(f, felix, []string{"alice@x.test"}, 6)
	if got := len(w.inbox["alice@x.test"]); got != before {
		t.Fatalf("alice (digest) got %d Felix mails while the others played", got-before)
	}
	w.playOthers(g, gracias, []string{"alice@x.test"}, 6)
	if w.moves(g) < 2 {
		t.Fatalf("the others made %d Gracias moves: too few to prove anything", w.moves(g))
	}
	// notify normal mails another player's say at once; digest does not.
	w.send("bob@y.test", replyF["bob@y.test"], "say hello alice")
	if got := len(w.inbox["alice@x.test"]); got != before {
		t.Fatalf("alice (digest) was mailed bob's words in Felix")
	}
	w.send("bob@y.test", replyG["bob@y.test"], "say hello alice")
	if got := len(w.inbox["alice@x.test"]); got != before+1 || w.gameOf(w.last("alice@x.test").ReplyTo) != g {
		t.Fatalf("alice (Gracias: normal) got %d mails, not bob's words in Gracias", got-before)
	}

	w.clock = time.Date(2026, 11, 21, 19, 0, 0, 0, time.UTC)
	if err := w.sweep(); err != nil {
		t.Fatal(err)
	}
	ds := w.digests("alice@x.test")
	if len(ds) != 1 {
		t.Fatalf("alice got %d digests, want 1", len(ds))
	}
	if text := unwrap(ds[0].Text); !strings.Contains(text, "game #1") || strings.Contains(text, "Gracias") {
		t.Errorf("alice's digest should hold Felix and not Gracias:\n%s", text)
	}

	w.send("alice@x.test", "pbem@example.test", "notify off here")
	if got := unwrap(w.last("alice@x.test").Text); !strings.Contains(got, "here means the game of the thread you reply in") {
		t.Errorf("notify off here at pbem's own address:\n%s", got)
	}
	if p := w.player("alice@x.test"); p.Notify != store.NotifyDigest {
		t.Errorf("notify off here at pbem's own address set alice's own setting to %q", p.Notify)
	}
}

// TestUnsubscribeCommandIsTheAct: what a mail's List-Unsubscribe mailto:
// sends (outgoing.UnsubscribeCommand) is, read by the parser, what its
// one-click address does (unsubscribeActOf), in every state of a seat.
func TestUnsubscribeCommandIsTheAct(t *testing.T) {
	t.Parallel()
	for _, state := range []store.SeatState{store.SeatInvited, store.SeatJoined, store.SeatDeclined, store.SeatResigned} {
		st := store.Seat{State: state}
		cmds, prob := parser.Read(outgoing.UnsubscribeCommand(st), parser.Grammar{})
		if prob != nil || len(cmds) != 1 {
			t.Fatalf("%s: %q reads as %v, %v", state, outgoing.UnsubscribeCommand(st), cmds, prob)
		}
		c := cmds[0]
		var act unsubscribeAct
		switch {
		case c.Kind == parser.KindNever:
			act = unsubscribeInvitations
		case c.Kind == parser.KindNotify && c.ThisGame && c.Args[0] == string(store.NotifyOff):
			act = unsubscribeGameMail
		default:
			t.Fatalf("%s: the mailto: sends %q", state, c.Text)
		}
		if act != unsubscribeActOf(st) {
			t.Errorf("%s: the mailto: sends %q, the one-click does act %d", state, c.Text, unsubscribeActOf(st))
		}
	}
}
