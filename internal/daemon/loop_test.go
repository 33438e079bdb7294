package daemon

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/internal/loaded"
	"github.com/pbem/pbem/internal/tries"
	"github.com/pbem/pbem/mailer"
	"github.com/pbem/pbem/store"
)

func TestWholeGamesByMail(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		game    string
		players []string
	}{
		{"felix", []string{"alice@x.test", "bob@y.test", "carol@z.test", "dave@x.test"}},
		{"gracias", []string{"alice@x.test", "bob@y.test", "carol@z.test"}},
		{"felix", []string{"a@x.test", "b@x.test", "c@x.test", "d@x.test", "e@x.test"}},
		{"gracias", []string{"a@x.test", "b@x.test", "c@x.test", "d@x.test", "e@x.test", "f@x.test"}},
	} {
		t.Run(fmt.Sprintf("%s-%dp", tc.game, len(tc.players)), func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			reply, id := w.startGame(tc.game, tc.players...)
			for _, p := range tc.players {
				if first := w.last(p); !strings.Contains(first.Subject, "#") {
					t.Errorf("%s's first summary has subject %q", p, first.Subject)
				}
			}
			w.playOut(id, reply, tc.players, rand.New(rand.NewPCG(5, 6)))
			tb := w.loaded(id)
			if tb.Row.Status != store.StatusFinished {
				t.Fatalf("status %s", tb.Row.Status)
			}
			for _, p := range tc.players {
				end := w.last(p)
				if !strings.Contains(strings.ToLower(end.Text+end.Headline), "over") && !strings.Contains(strings.ToLower(end.Text+end.Headline), "win") {
					t.Errorf("%s's last mail does not tell the end:\n%s\n%s", p, end.Headline, end.Text)
				}
				for _, m := range w.inbox[p] {
					if m.Auto != "auto-generated" {
						t.Fatalf("a mail without Auto-Submitted: %q", m.Subject)
					}
				}
			}
			checkThreads(t, w, tc.players)
			checkReplay(t, w, id)
		})
	}
}

// checkThreads: after the invitation, each player's game mails form one
// thread.
func checkThreads(t *testing.T, w *world, players []string) {
	for _, p := range players {
		ids := map[string]bool{}
		for i, m := range w.inbox[p] {
			if ids[m.MessageID] {
				t.Fatalf("%s got message %s twice", p, m.MessageID)
			}
			ids[m.MessageID] = true
			if i > 0 && m.ReplyTo == w.inbox[p][0].ReplyTo && m.InReplyTo == "" {
				t.Errorf("%s's mail %d (%q) is not in the thread", p, i, m.Subject)
			}
		}
	}
}

// checkReplay: the stored command log replays through the engine to the
// state the service holds.
func checkReplay(t *testing.T, w *world, id int64) {
	ctx := context.Background()
	g, err := w.st.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	g.Snapshot = nil // force a rebuild from the log
	snap := w.loaded(id)
	var rebuilt *loaded.Game
	err = w.st.Tx(ctx, func(tx *store.Tx) error {
		if err := tx.SaveSnapshot(ctx, id, 0, []byte("{}")); err != nil {
			return err
		}
		var err error
		rebuilt, err = w.svc.workIn(ctx, tx).loadGame(id)
		if err != nil {
			return err
		}
		return fmt.Errorf("roll back") // leave the snapshot as it was
	})
	if rebuilt == nil {
		t.Fatal(err)
	}
	a, _ := snap.State.MarshalJSON()
	b, _ := rebuilt.State.MarshalJSON()
	if !bytes.Equal(a, b) {
		t.Fatalf("the log does not replay to the saved state")
	}
}

func TestIllegalAndForeignMail(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test", "dave@x.test"}
	reply, id := w.startGame("felix", players...)
	before, _ := w.loaded(id).State.MarshalJSON()

	// A command from the wrong address on a valid token.
	w.send("mallory@evil.test", reply["alice@x.test"], "play rabbit")
	if !strings.Contains(w.last("mallory@evil.test").Text, "is not one of yours") {
		t.Errorf("forged From not refused:\n%s", w.last("mallory@evil.test").Text)
	}
	// A valid sender on another seat's token.
	w.send("bob@y.test", reply["alice@x.test"], "play rabbit")
	// An auto-reply and a bounce.
	w.send("alice@x.test", reply["alice@x.test"], "I am on holiday.", "Auto-Submitted: auto-replied")
	w.send("MAILER-DAEMON@x.test", reply["alice@x.test"], "delivery failed")
	w.send("alice@x.test", reply["alice@x.test"], "play rabbit", "Return-Path: <>")
	// An unknown token.
	w.send("alice@x.test", "pbem+nosuchtoken@example.test", "pass")
	after, _ := w.loaded(id).State.MarshalJSON()
	if !bytes.Equal(before, after) {
		t.Fatal("foreign or automatic mail changed the game")
	}
	if n := len(w.inbox["MAILER-DAEMON@x.test"]); n != 0 {
		t.Fatalf("a bounce was answered %d times", n)
	}

	// An illegal command is answered with the reason and what is valid.
	w.send("alice@x.test", reply["alice@x.test"], "bid 3")
	got := w.last("alice@x.test").Text
	if !strings.Contains(got, "Not applied: bid 3") || !strings.Contains(got, "play") {
		t.Errorf("illegal command answer:\n%s", got)
	}

	// A replayed message (same Message-ID) is applied once.
	tb := w.loaded(id)
	p := tb.State.Waiting()[0]
	cmd := tb.State.Options(p)[0].Commands[0]
	raw := fmt.Sprintf("From: %s\r\nTo: %s\r\nMessage-ID: <same@x.test>\r\n\r\n%s\r\n", players[p], reply[players[p]], cmd)
	for uid := uint32(100); uid < 103; uid++ {
		if err := w.svc.HandleMail(context.Background(), mailer.Message{Mailbox: "INBOX", UIDValidity: 1, UID: uid, Raw: []byte(raw)}); err != nil {
			t.Fatal(err)
		}
	}
	moves, err := w.st.Moves(context.Background(), id, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(moves) != 1 {
		t.Fatalf("%d moves after one command sent three times", len(moves))
	}
	w.flush()
}

func TestDeadlineMakesDefaultMove(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test"}
	_, id := w.startGame("felix", players...)
	if n, err := w.svc.Sweeper().SweepDeadlines(context.Background()); err != nil || n != 0 {
		t.Fatalf("sweep before the deadline: %d, %v", n, err)
	}
	w.clock = w.clock.Add(73 * time.Hour)
	n, err := w.svc.Sweeper().SweepDeadlines(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if n != 3 {
		t.Fatalf("%d default moves, want 3 (everyone places at once)", n)
	}
	w.flush()
	tb := w.loaded(id)
	if tb.State.View(engine.Public) == nil {
		t.Fatal("no view")
	}
	moves, _ := w.st.Moves(context.Background(), id, 0)
	for _, m := range moves {
		if m.Source != store.SourceDeadline {
			t.Errorf("move %q has source %q", m.Command, m.Source)
		}
	}
	for _, p := range players {
		var all strings.Builder
		for _, m := range w.inbox[p] {
			all.WriteString(m.Text)
		}
		if !strings.Contains(oneLine(all.String()), "bot played for") {
			t.Errorf("%s was not told about the move pbem's bot made", p)
		}
	}
	// Nobody else learns which card the default placed.
	for _, p := range players {
		for _, m := range w.inbox[p] {
			for _, q := range players {
				if q != p && strings.Contains(m.Text, "played for you: play") && !strings.Contains(m.Text, "Your deadline") {
					t.Errorf("%s learned a default placement", p)
				}
			}
		}
	}
}

// TestRunDeadlinesSweepsAtStart: a daemon started after a deadline
// passed makes the default moves at once, not at the first tick of its
// schedule (an hour away here), so a daemon that was down, or is
// restarted often, still keeps its deadlines.
//
// The test runs in a synctest bubble: its clock moves only when every
// goroutine in it waits. synctest.Wait returns once RunDeadlines waits
// for its first tick with the clock not moved at all, so the moves
// found then were made at the start, not at a tick.
func TestRunDeadlinesSweepsAtStart(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		w := newWorld(t)
		_, id := w.startGame("felix", "alice@x.test", "bob@y.test", "carol@z.test")
		w.clock = w.clock.Add(73 * time.Hour)
		start := time.Now()
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error, 1)
		go func() { done <- w.svc.Sweeper().RunDeadlines(ctx, "@every 1h") }()
		synctest.Wait()
		if waited := time.Since(start); waited != 0 {
			t.Fatalf("the bubble's clock moved %v before RunDeadlines waited", waited)
		}
		moves, err := w.st.Moves(t.Context(), id, 0)
		if err != nil {
			t.Fatal(err)
		}
		cancel()
		if err := <-done; err != context.Canceled {
			t.Errorf("RunDeadlines ended with %v", err)
		}
		if len(moves) != 3 {
			t.Fatalf("%d default moves after the daemon started, want 3 at once", len(moves))
		}
	})
}

func TestResign(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test"}
	reply, id := w.startGame("felix", players...)
	w.send("bob@y.test", reply["bob@y.test"], "resign")
	if got := w.last("bob@y.test").Text; !strings.Contains(got, "You have resigned") {
		t.Fatalf("resign answer:\n%s", got)
	}
	before := len(w.inbox["bob@y.test"])
	w.send("bob@y.test", reply["bob@y.test"], "play rabbit")
	if got := w.last("bob@y.test").Text; !strings.Contains(got, "no longer count") {
		t.Fatalf("a resigned player's command was not refused:\n%s", got)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	for steps := 0; steps < 500; steps++ {
		if _, err := w.svc.Sweeper().SweepDeadlines(context.Background()); err != nil {
			t.Fatal(err)
		}
		w.flush()
		tb := w.loaded(id)
		if tb.State.Result().Finished {
			break
		}
		var human []int
		for _, p := range tb.State.Waiting() {
			if p != 1 {
				human = append(human, p)
			}
		}
		if len(human) == 0 {
			t.Fatalf("the game waits only on the resigned seat after a sweep")
		}
		p := human[0]
		var cmds []string
		for _, o := range tb.State.Options(p) {
			cmds = append(cmds, o.Commands...)
		}
		w.send(players[p], reply[players[p]], cmds[rng.IntN(len(cmds))])
	}
	if !w.loaded(id).State.Result().Finished {
		t.Fatal("the game with a resigned player did not finish")
	}
	// Bob got the refusal, then nothing until the final result.
	after := w.inbox["bob@y.test"][before+1:]
	if len(after) != 1 || !strings.Contains(after[0].Headline, "game over") {
		var subjects []string
		for _, m := range after {
			subjects = append(subjects, m.Headline)
		}
		t.Fatalf("after resigning bob got %v", subjects)
	}
}

func TestSettingsAndRematch(t *testing.T) {
	t.Parallel()
	w := newWorld(t).authenticate()
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test"}
	reply, id := w.startGame("felix", players...)
	w.send("bob@y.test", reply["bob@y.test"], "timezone Asia/Tokyo\nnotify off")
	got := w.last("bob@y.test").Text
	if !strings.Contains(got, "Asia/Tokyo") || !strings.Contains(got, "only in answer to your own mail") {
		t.Fatalf("settings answer:\n%s", got)
	}
	w.send("carol@z.test", "pbem@example.test", "timezone Mars/Olympus")
	if got := w.last("carol@z.test").Text; !strings.Contains(got, "not a time zone") {
		t.Fatalf("bad zone answer:\n%s", got)
	}
	p, err := w.st.Player(context.Background(), "bob@y.test")
	if err != nil || p.TimeZone != "Asia/Tokyo" || p.Notify != store.NotifyOff {
		t.Fatalf("bob's settings %+v %v", p, err)
	}
	// With notify off, bob hears nothing of the others' moves.
	n := len(w.inbox["bob@y.test"])
	w.send("alice@x.test", reply["alice@x.test"], "play rabbit")
	if len(w.inbox["bob@y.test"]) != n {
		t.Fatal("bob was mailed though notify is off")
	}
	w.send("alice@x.test", reply["alice@x.test"], "rematch")
	if got := w.last("alice@x.test").Text; !strings.Contains(got, "once this one is over") {
		t.Fatalf("early rematch answer:\n%s", got)
	}
	w.playOut(id, reply, players, rand.New(rand.NewPCG(2, 3)))
	w.send("carol@z.test", reply["carol@z.test"], "rematch")
	inv := w.last("alice@x.test")
	if !strings.Contains(inv.Headline, "#2") || !strings.Contains(inv.Text, "join") {
		t.Fatalf("no invitation to the rematch: %q\n%s", inv.Headline, inv.Text)
	}
	// It says it is a rematch, and names the players by their names.
	names := w.loaded(id).Names
	want := fmt.Sprintf("A rematch of game #%d: %s asks %s and %s to play again.", id, names[2], names[0], names[1])
	if text := unwrap(inv.Text); !strings.Contains(text, want) || !strings.Contains(text, names[2]+" invites you") || strings.Contains(text, "carol@z.test") {
		t.Errorf("the rematch's invitation lacks %q or names an address:\n%s", want, inv.Text)
	}
}

func TestReminders(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.svc.cfg.Reminders = remindBefore(24 * time.Hour)
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test"}
	reply, _ := w.startGame("felix", players...)
	w.send("alice@x.test", reply["alice@x.test"], "status")
	n := map[string]int{}
	for _, p := range players {
		n[p] = len(w.inbox[p])
	}
	w.clock = w.clock.Add(49 * time.Hour) // 23 h before the 72 h deadline
	for range 3 {                         // several sweeps remind once
		if _, err := w.svc.Sweeper().SweepDeadlines(context.Background()); err != nil {
			t.Fatal(err)
		}
		w.flush()
	}
	for _, p := range players {
		if got := len(w.inbox[p]) - n[p]; got != 1 {
			t.Fatalf("%s got %d reminders, want 1", p, got)
		}
		if !strings.Contains(w.last(p).Text, "Reminder:") {
			t.Errorf("%s's reminder:\n%s", p, w.last(p).Text)
		}
	}
}

// TestMovesNameTheirMail: every move a mail made names that mail's record,
// whose outcome says it was applied.
func TestMovesNameTheirMail(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test"}
	reply, id := w.startGame("gracias", players...)
	tb := w.loaded(id)
	p := tb.State.Waiting()[0]
	w.send(players[p], reply[players[p]], tb.State.Options(p)[0].Commands[0])
	moves, err := w.st.Moves(ctx, id, 0)
	if err != nil || len(moves) != 1 {
		t.Fatalf("moves %v %v", moves, err)
	}
	in, err := w.st.InboundByMessageID(ctx, fmt.Sprintf("m%d.%s", w.uid, players[p]))
	if err != nil {
		t.Fatal(err)
	}
	if moves[0].InboundID != in.ID || Outcome(in.Outcome) != OutcomeApplied || in.GameID != id {
		t.Fatalf("move names inbound %d; the mail's record is %+v", moves[0].InboundID, in)
	}
}

// TestPanicSetsTheMailAside: a bug that makes pbem panic on a mail neither
// crashes the daemon nor blocks the inbox: after a few tries the mail is
// recorded as failed, nothing is applied, and its sender is told.
func TestPanicSetsTheMailAside(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test"}
	reply, id := w.startGame("felix", players...)
	render := w.svc.render
	w.svc.render = nil // every mail pbem writes now panics
	w.svc.newPost()
	raw := []byte("From: alice@x.test\r\nTo: " + reply["alice@x.test"] + "\r\nMessage-ID: <boom@x.test>\r\n\r\nstatus\r\n")
	msg := mailer.Message{Mailbox: "INBOX", UIDValidity: 1, UID: 900, Raw: raw}
	for i := 1; i < tries.Max; i++ {
		if err := w.svc.HandleMail(ctx, msg); err == nil || !strings.Contains(err.Error(), "panic") {
			t.Fatalf("attempt %d: %v, want the panic as an error", i, err)
		}
	}
	if err := w.svc.HandleMail(ctx, msg); err != nil {
		t.Fatalf("the last attempt: %v, want the mail set aside", err)
	}
	w.svc.render = render
	w.svc.newPost()
	in, err := w.st.InboundByMessageID(ctx, "boom@x.test")
	if err != nil || Outcome(in.Outcome) != OutcomeFailed {
		t.Fatalf("inbound %+v %v", in, err)
	}
	if uv, last, _ := w.st.Cursor(ctx, "INBOX"); uv != 1 || last != 900 {
		t.Fatalf("cursor %d/%d: the inbox would offer the mail again", uv, last)
	}
	w.flush()
	if got := w.last("alice@x.test"); got.Subject != "pbem could not handle your mail" || !strings.Contains(got.Text, "nothing in it") {
		t.Fatalf("alice was told %q:\n%s", got.Subject, got.Text)
	}
	if moves, _ := w.st.Moves(ctx, id, 0); len(moves) != 0 {
		t.Fatalf("moves %v", moves)
	}
	// The service goes on: the next mail is handled as usual.
	w.send("alice@x.test", reply["alice@x.test"], "status")
	if got := w.last("alice@x.test"); !strings.Contains(got.Headline, "Felix #") {
		t.Fatalf("after the panic: %q", got.Headline)
	}
}
