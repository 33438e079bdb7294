package daemon

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/games"
	"github.com/pbem/pbem/internal/intake"
	"github.com/pbem/pbem/internal/tries"
	"github.com/pbem/pbem/mailer"
	"github.com/pbem/pbem/store"
)

// mail makes one inbound message with the next UID, as the inbox hands
// it over, without handling it. The Message-ID is unique unless id is
// given.
func (w *world) mail(from, to, body string, id ...string) mailer.Message {
	w.t.Helper()
	w.uid++
	mid := fmt.Sprintf("m%d.%s", w.uid, from)
	if len(id) > 0 {
		mid = id[0]
	}
	raw := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: Re: pbem\r\nMessage-ID: <%s>\r\n\r\n%s\r\n", from, to, mid, body)
	return mailer.Message{Mailbox: "INBOX", UIDValidity: 1, UID: w.uid, Raw: []byte(raw)}
}

// batch hands msgs to HandleBatch as the inbox does: what is not
// committed is offered again, from the first not committed, until all
// are. It returns how many offers that took.
func (w *world) batch(msgs ...mailer.Message) int {
	w.t.Helper()
	for n := 1; n <= 20; n++ {
		done, err := w.svc.HandleBatch(context.Background(), msgs)
		if done < len(msgs) && err == nil {
			w.t.Fatalf("HandleBatch committed %d of %d mails and gave no reason", done, len(msgs))
		}
		msgs = msgs[done:]
		if len(msgs) == 0 {
			w.flush()
			return n
		}
	}
	w.t.Fatalf("a batch was offered 20 times and never taken: the inbox would stall")
	return 0
}

// TestBatchPlaysWholeGames: two games played to their end with every
// round's mail (each waiting seat's command in both games, a duplicate
// delivery and mail nobody can use among them) handed over as one batch:
// each command is applied once and in order, each answer is sent, and
// the cursor stands at the last mail.
func TestBatchPlaysWholeGames(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a := []string{"alice@x.test", "bob@x.test", "carol@x.test"}
	b := []string{"dan@y.test", "eve@y.test", "fay@y.test", "gus@y.test"}
	replyA, ga := w.startGame("felix", a...)
	replyB, gb := w.startGame("gracias", b...)
	type table struct {
		id      int64
		players []string
		reply   map[string]string
	}
	tables := []table{{ga, a, replyA}, {gb, b, replyB}}
	sent := map[int64]int{}
	before := map[int64]int{ga: w.moves(ga), gb: w.moves(gb)}
	for round := 0; ; round++ {
		if round > 500 {
			t.Fatal("the games did not end in 500 rounds")
		}
		var msgs []mailer.Message
		for _, tb := range tables {
			g := w.loaded(tb.id).State
			for _, seat := range g.Waiting() {
				p := tb.players[seat]
				m := w.mail(p, tb.reply[p], w.legal(tb.id, seat))
				msgs = append(msgs, m)
				sent[tb.id]++
				if round%5 == 0 {
					// The same mail delivered twice, under a second UID.
					w.uid++
					again := m
					again.UID = w.uid
					msgs = append(msgs, again)
				}
			}
		}
		if len(msgs) == 0 {
			break
		}
		if round%7 == 0 {
			msgs = append(msgs, w.mail("mallory@z.test", "pbem@example.test", "\x00\x01 not a command"))
		}
		if n := w.batch(msgs...); n != 1 {
			t.Fatalf("round %d: the batch took %d offers, want one", round, n)
		}
		if uv, last, err := w.svc.ResumeAt(context.Background(), "INBOX"); err != nil || uv != 1 || last != w.uid {
			t.Fatalf("round %d: the cursor is at %d/%d (%v), want the last mail's UID %d", round, uv, last, err, w.uid)
		}
	}
	for _, tb := range tables {
		// Each command sent is one move, and pbem made the moves the
		// rules left no choice in (forcedMove).
		if got, forced := w.moves(tb.id)-before[tb.id], w.eventsOf(tb.id, EventForced); got != sent[tb.id]+forced {
			t.Errorf("game %d: %d moves for %d commands sent and %d forced", tb.id, got, sent[tb.id], forced)
		}
		if r := w.loaded(tb.id).State.Result(); !r.Finished {
			t.Errorf("game %d did not end", tb.id)
		}
		for _, p := range tb.players {
			if !strings.Contains(w.last(p).Headline, "game over") {
				t.Errorf("%s's last mail does not end the game:\n%s", p, w.last(p).Text)
			}
		}
	}
}

// TestBatchFailingMailAlone: a mail that fails in a batch is undone alone.
// The mails before it commit; it is handled by itself, counted, and set
// aside after tries.Max as any mail; the mails after it wait for it and
// then keep their order.
func TestBatchFailingMailAlone(t *testing.T) {
	t.Parallel()
	w := newAdminWorld(t, 0)
	ctx := context.Background()
	broken := []string{"alice@x.test", "bob@x.test", "carol@x.test"}
	good := []string{"dan@y.test", "eve@y.test", "fay@y.test"}
	replyA, a := w.startGame("gracias", broken...)
	replyB, b := w.startGame("felix", good...)
	// A deploy that no longer knows gracias: game a does not load.
	w.svc.games = func(name string) (engine.Rules, bool) {
		if name == "gracias" {
			return nil, false
		}
		return games.Lookup(name)
	}
	w.svc.newPost()
	first := w.mail(good[0], replyB[good[0]], w.legal(b, 0))
	failing := w.mail(broken[1], replyA[broken[1]], "status")
	after := w.mail(good[1], replyB[good[1]], w.legal(b, 1))
	done, err := w.svc.HandleBatch(ctx, []mailer.Message{first, failing, after})
	if done != 1 || err == nil {
		t.Fatalf("HandleBatch = %d, %v; want the first mail committed and the failure reported", done, err)
	}
	if _, last, _ := w.svc.ResumeAt(ctx, "INBOX"); last != first.UID {
		t.Fatalf("the cursor is at %d, want the first mail's %d: it may not pass the failing one", last, first.UID)
	}
	if n := w.moves(b); n != 1 {
		t.Fatalf("game %d has %d moves after the first mail of the batch, want 1", b, n)
	}
	// The inbox offers the rest again until it is taken: the failing mail
	// is set aside after tries.Max offers in all (its first was above).
	if n := w.batch(failing, after); n != tries.Max-1 {
		t.Errorf("the rest of the batch took %d more offers, want %d", n, tries.Max-1)
	}
	if n := w.moves(b); n != 2 {
		t.Errorf("game %d has %d moves, want 2: the mail after the failing one was lost or doubled", b, n)
	}
	if row, err := w.st.Game(ctx, a); err != nil || row.Aside == "" {
		t.Errorf("game %d is not set aside (%q, %v)", a, row.Aside, err)
	}
	if _, last, _ := w.svc.ResumeAt(ctx, "INBOX"); last != after.UID {
		t.Errorf("the cursor is at %d, want the last mail's %d", last, after.UID)
	}
	if got := w.last(broken[1]); !strings.Contains(got.Text, "Your last mail was not applied") {
		t.Errorf("the failing mail's sender was not told:\n%s", got.Text)
	}
}

// TestBatchUnreadableMail: a mail whose reading panics (a parser bug), in
// a batch read on every core, neither crashes the daemon nor stalls the
// batch: the mails around it commit, and it is counted like any failing
// mail and set aside after tries.Max offers, recorded as failed with
// what the mail server said of it (its UID, its bytes).
func TestBatchUnreadableMail(t *testing.T) {
	t.Parallel()
	w := newAdminWorld(t, 0)
	ctx := context.Background()
	players := []string{"dan@y.test", "eve@y.test", "fay@y.test"}
	reply, g := w.startGame("felix", players...)
	first := w.mail(players[0], reply[players[0]], w.legal(g, 0))
	poison := w.mail(players[1], reply[players[1]], "status", "poison@y.test")
	after := w.mail(players[1], reply[players[1]], w.legal(g, 1))
	w.svc.readMail = func(cfg intake.Config, m mailer.Message) intake.Mail {
		if strings.Contains(string(m.Raw), "poison@y.test") {
			panic("the parser met a mail it cannot read")
		}
		return intake.Read(cfg, m)
	}
	done, err := w.svc.HandleBatch(ctx, []mailer.Message{first, poison, after})
	if done != 1 || err == nil || !strings.Contains(err.Error(), "panic") {
		t.Fatalf("HandleBatch = %d, %v; want the first mail committed and the panic as the error", done, err)
	}
	if n := w.batch(poison, after); n != tries.Max-1 {
		t.Errorf("the rest of the batch took %d more offers, want %d", n, tries.Max-1)
	}
	if n := w.moves(g); n != 2 {
		t.Errorf("game %d has %d moves, want 2: a mail around the unreadable one was lost or doubled", g, n)
	}
	if _, last, _ := w.svc.ResumeAt(ctx, "INBOX"); last != after.UID {
		t.Errorf("the cursor is at %d, want the last mail's %d", last, after.UID)
	}
	all, err := w.st.AllInbound(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var failed []store.Inbound
	for _, in := range all {
		if in.UID == poison.UID {
			failed = append(failed, in)
		}
	}
	if len(failed) != 1 || Outcome(failed[0].Outcome) != OutcomeFailed || failed[0].Digest == "" || !strings.Contains(failed[0].Detail, "panic") {
		t.Errorf("the unreadable mail's records are %+v, want one, failed, with its digest and the panic", failed)
	}
}
