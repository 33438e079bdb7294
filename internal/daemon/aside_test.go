package daemon

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/games"
	"github.com/pbem/pbem/internal/admin"
	"github.com/pbem/pbem/internal/loaded"
	"github.com/pbem/pbem/internal/tries"
	"github.com/pbem/pbem/mailer"
	"github.com/pbem/pbem/store"
)

const adminAddr = "root@admin.test"

// newAdminWorld is a world with an admin to tell.
func newAdminWorld(t *testing.T, reminder time.Duration) *world {
	return newWorldConfig(t, func(c *Config) { c.Limits, c.Admins, c.Reminders = unlimited, adminAddr, remindBefore(reminder) })
}

// offer hands one mail to HandleMail as the inbox does: again after each
// error, until it is taken. It returns how many offers that took.
func (w *world) offer(from, to, body string) int {
	w.t.Helper()
	w.uid++
	raw := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: Re: pbem\r\nMessage-ID: <m%d.%s>\r\n\r\n%s\r\n", from, to, w.uid, from, body)
	msg := mailer.Message{Mailbox: "INBOX", UIDValidity: 1, UID: w.uid, Raw: []byte(raw)}
	for n := 1; n <= 10; n++ {
		if err := w.svc.HandleMail(context.Background(), msg); err == nil {
			w.flush()
			return n
		}
	}
	w.t.Fatalf("a mail from %s was offered 10 times and never taken: the inbox would stall", from)
	return 0
}

// count counts the mails in addr's inbox whose subject contains s.
func (w *world) count(addr, s string) int {
	n := 0
	for _, m := range w.inbox[addr] {
		if strings.Contains(m.Headline, s) {
			n++
		}
	}
	return n
}

// A breakage makes one stored game unloadable, and repair undoes it.
type breakage struct {
	name         string
	brk, repair  func(t *testing.T, w *world, id int64)
	wantAsideWhy string
}

func breakages() []breakage {
	var good []byte
	var goodSeq int64
	var goodCmd string
	snapshot := func(t *testing.T, w *world, id int64) {
		g, err := w.st.Game(context.Background(), id)
		if err != nil || g.Snapshot == nil {
			t.Fatalf("game %d has no snapshot: %v", id, err)
		}
		good, goodSeq = g.Snapshot, g.SnapshotSeq
	}
	tx := func(t *testing.T, w *world, f func(tx *store.Tx) error) {
		if err := w.st.Tx(context.Background(), f); err != nil {
			t.Fatal(err)
		}
	}
	restore := func(t *testing.T, w *world, id int64) {
		tx(t, w, func(tx *store.Tx) error { return tx.SaveSnapshot(context.Background(), id, goodSeq, good) })
	}
	return []breakage{{
		name:         "unreadable snapshot",
		wantAsideWhy: "its saved state does not load",
		brk: func(t *testing.T, w *world, id int64) {
			snapshot(t, w, id)
			tx(t, w, func(tx *store.Tx) error {
				return tx.SaveSnapshot(context.Background(), id, goodSeq, []byte(`{"round": "garbage`))
			})
		},
		repair: restore,
	}, {
		name:         "unknown kind",
		wantAsideWhy: "of a kind this pbem does not know",
		brk: func(t *testing.T, w *world, id int64) {
			// A deploy that no longer knows the game.
			w.svc.games = func(name string) (engine.Rules, bool) {
				if name == "felix" {
					return nil, false
				}
				return games.Lookup(name)
			}
			w.svc.newPost()
		},
		repair: func(t *testing.T, w *world, id int64) { w.svc.games = games.Lookup; w.svc.newPost() },
	}, {
		name:         "move log that does not replay",
		wantAsideWhy: "its move log does not replay: move 1",
		brk: func(t *testing.T, w *world, id int64) {
			snapshot(t, w, id)
			moves, err := w.st.Moves(context.Background(), id, 0)
			if err != nil || len(moves) == 0 {
				t.Fatalf("moves %v %v", moves, err)
			}
			goodCmd = moves[0].Command
			tx(t, w, func(tx *store.Tx) error {
				if err := tx.SetMoveCommand(context.Background(), id, 1, "bid 99"); err != nil {
					return err
				}
				// An outdated snapshot: the game is rebuilt from its log.
				return tx.SaveSnapshot(context.Background(), id, 0, []byte("{}"))
			})
		},
		repair: func(t *testing.T, w *world, id int64) {
			tx(t, w, func(tx *store.Tx) error { return tx.SetMoveCommand(context.Background(), id, 1, goodCmd) })
			restore(t, w, id)
		},
	}}
}

// TestGameThatCannotGoOnIsSetAside: a game that no longer loads stalls nothing.
// The mail that meets it is tried tries.Max times and set aside; the game
// is set aside as broken and its players told once; mail to the other
// game and its deadlines go on; later mail to the broken game is answered
// at once; and `retry` after the repair brings it back.
func TestGameThatCannotGoOnIsSetAside(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, b := range breakages() {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			w := newAdminWorld(t, 0)
			broken := []string{"alice@x.test", "bob@x.test", "carol@x.test"}
			healthy := []string{"dan@y.test", "erin@y.test", "fay@y.test"}
			replyA, a := w.startGame("felix", broken...)
			w.send(broken[0], replyA[broken[0]], w.legal(a, 0)) // a first move, so the log has one
			replyB, bID := w.startGame("gracias", healthy...)
			b.brk(t, w, a)

			if n := w.offer(broken[1], replyA[broken[1]], "status"); n != tries.Max {
				t.Fatalf("the mail to the broken game was taken after %d offers, want %d", n, tries.Max)
			}
			row, err := w.st.Game(ctx, a)
			if err != nil || !strings.Contains(row.Aside, b.wantAsideWhy) {
				t.Fatalf("game %d broken = %q (%v), want it to say %q", a, row.Aside, err, b.wantAsideWhy)
			}
			in, err := w.st.InboundByMessageID(ctx, fmt.Sprintf("m%d.%s", w.uid, broken[1]))
			if err != nil || Outcome(in.Outcome) != OutcomeFailed {
				t.Fatalf("the mail's record: %+v %v", in, err)
			}
			for _, p := range broken {
				if n := w.count(p, "is being repaired"); n != 1 {
					t.Errorf("%s was told %d times that the game is being repaired, want once", p, n)
				}
			}
			if got := w.last(broken[1]); !strings.Contains(got.Text, "Your last mail was not applied") {
				t.Errorf("the sender was not told his mail was not applied:\n%s", got.Text)
			}
			if got := w.last(adminAddr); !strings.Contains(got.Headline, fmt.Sprintf("game %d is set aside", a)) && !strings.Contains(got.Headline, "a mail was set aside") {
				t.Errorf("the admin was told %q", got.Headline)
			}
			// What is logged, stored and told the admin names no command
			// of the log: it may be a hidden card (here it is bid 99).
			var told strings.Builder
			for _, m := range w.inbox[adminAddr] {
				told.WriteString(m.Text)
			}
			for where, text := range map[string]string{"log": w.logs.String(), "detail": in.Detail, "admin mail": told.String(), "broken": row.Aside} {
				if strings.Contains(text, "bid 99") || strings.Contains(strings.ToLower(text), "you cannot") {
					t.Errorf("the %s quotes the refused command or the engine's reason:\n%s", where, text)
				}
			}
			if w.count(adminAddr, "set aside as broken") != 1 || w.count(adminAddr, "a mail was set aside") != 1 {
				t.Errorf("the admin's mail: %d about the game, %d about the mail; want 1 each", w.count(adminAddr, "set aside as broken"), w.count(adminAddr, "a mail was set aside"))
			}

			// The other game goes on, by mail and by deadline.
			before := w.moves(bID)
			tb := w.loaded(bID)
			p := tb.State.Waiting()[0]
			if n := w.offer(healthy[p], replyB[healthy[p]], w.legal(bID, p)); n != 1 {
				t.Fatalf("a move in the healthy game took %d offers", n)
			}
			if w.moves(bID) != before+1 {
				t.Fatal("the healthy game's move was not applied")
			}
			w.clock = w.clock.Add(100 * time.Hour)
			made, err := w.svc.Sweeper().SweepDeadlines(ctx)
			if err != nil || made == 0 {
				t.Fatalf("sweep: %d default moves, %v; the healthy game's deadline passed", made, err)
			}
			w.flush()

			// Mail to the broken game is answered at once, to its sender
			// alone.
			if n := w.offer(broken[2], replyA[broken[2]], "status"); n != 1 {
				t.Fatalf("mail to the broken game took %d offers, want an answer at once", n)
			}
			if n := w.count(broken[2], "is being repaired"); n != 2 {
				t.Errorf("the sender has %d repair mails, want 2", n)
			}
			if got := w.last(broken[2]); !strings.Contains(got.Text, repairLine[:40]) {
				t.Errorf("answer to mail while broken:\n%s", got.Text)
			}
			for _, p := range broken[:2] {
				if n := w.count(p, "is being repaired"); n != 1 {
					t.Errorf("%s has %d repair mails, want 1", p, n)
				}
			}
			// A rename cannot leave the broken game behind. (Sent to the
			// bare address, which takes a name from authenticated mail
			// only: the world authenticates for this one mail.)
			w.authenticate()
			w.send(broken[0], "pbem@example.test", "name alicia")
			w.authserv, w.svc.cfg.TrustAuthServID = "", ""
			if got := w.last(broken[0]); !strings.Contains(got.Text, "is being repaired") {
				t.Errorf("rename while a game is broken:\n%s", got.Text)
			}

			// retry before the repair is refused, with the reason; after it,
			// the game goes on.
			if err := w.svc.Admin(ctx, a, admin.RetryAct{}, "root"); !errors.Is(err, admin.ErrRefused) || !strings.Contains(err.Error(), "still cannot be taken up") {
				t.Fatalf("retry before the repair: %v", err)
			}
			b.repair(t, w, a)
			if err := w.svc.Admin(ctx, a, admin.RetryAct{}, "root"); err != nil {
				t.Fatalf("retry after the repair: %v", err)
			}
			w.flush()
			if row, _ := w.st.Game(ctx, a); row.Aside != "" {
				t.Fatalf("still broken after retry: %q", row.Aside)
			}
			for _, p := range broken {
				if got := w.last(p); !strings.Contains(got.Text, "repaired the game") {
					t.Errorf("%s was not told the game goes on:\n%s", p, got.Text)
				}
			}
			tb = w.loaded(a)
			p = tb.State.Waiting()[0]
			before = w.moves(a)
			if n := w.offer(broken[p], replyA[broken[p]], w.legal(a, p)); n != 1 || w.moves(a) != before+1 {
				t.Fatalf("a move after the repair: %d offers, moves %d → %d", n, before, w.moves(a))
			}
		})
	}
}

// TestDeadlineThatCannotGoOnDoesNotStopTheSweep: a game whose deadline cannot be
// handled costs the other games nothing: their default moves are made and
// their reminders sent in the same sweep, and after tries.Max sweeps the
// game is set aside, its players told once.
func TestDeadlineThatCannotGoOnDoesNotStopTheSweep(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newAdminWorld(t, 24*time.Hour)
	broken := []string{"alice@x.test", "bob@x.test", "carol@x.test"}
	late := []string{"dan@y.test", "erin@y.test", "fay@y.test"}
	soon := []string{"gus@z.test", "hal@z.test", "ida@z.test"}
	_, a := w.startGame("felix", broken...)
	_, lateID := w.startGame("gracias", late...)
	w.clock = w.clock.Add(50 * time.Hour)
	_, soonID := w.startGame("gracias", soon...)
	b := breakages()[0]
	b.brk(t, w, a)
	// soon's deadlines are 72 h away: after 50 more hours, within the
	// reminder's 24 h. a's and late's passed 28 h ago; a's falls due first.
	w.clock = w.clock.Add(50 * time.Hour)
	if err := w.st.Tx(ctx, func(tx *store.Tx) error {
		return tx.SetDeadline(ctx, a, 0, w.clock.Add(-60*time.Hour))
	}); err != nil {
		t.Fatal(err)
	}
	for sweep := 1; sweep <= tries.Max; sweep++ {
		made, err := w.svc.Sweeper().SweepDeadlines(ctx)
		w.flush()
		if err == nil {
			t.Fatalf("sweep %d: no error, but game %d does not load", sweep, a)
		}
		if sweep == 1 && made == 0 {
			t.Fatal("the first sweep made no default move: the broken game stopped it")
		}
		row, _ := w.st.Game(ctx, a)
		if (row.Aside != "") != (sweep == tries.Max) {
			t.Fatalf("after sweep %d the game's broken is %q", sweep, row.Aside)
		}
	}
	if w.moves(lateID) == 0 {
		t.Error("the healthy game's passed deadlines got no default move")
	}
	reminded := 0
	for i, p := range soon {
		st, err := w.st.Seat(ctx, soonID, i)
		if err != nil {
			t.Fatal(err)
		}
		want := 0
		if !st.Deadline.IsZero() {
			want = 1 // the game waits on this seat
		}
		if n := w.count(p, "Reminder"); n != want {
			t.Errorf("%s got %d reminders, want %d", p, n, want)
		}
		reminded += want
	}
	if reminded == 0 {
		t.Fatal("the game waits on no one: the reminder check proves nothing")
	}
	for _, p := range broken {
		if n := w.count(p, "is being repaired"); n != 1 {
			t.Errorf("%s was told %d times, want once", p, n)
		}
	}
	// Once set aside, its deadlines no longer fall due: the sweep is clean.
	if _, err := w.svc.Sweeper().SweepDeadlines(ctx); err != nil {
		t.Fatalf("a sweep after the game was set aside: %v", err)
	}
}

// TestAbortGameSetAside: a game that cannot be repaired can be ended, and
// exported, though it does not load.
func TestAbortGameSetAside(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newAdminWorld(t, 0)
	players := []string{"alice@x.test", "bob@x.test", "carol@x.test"}
	reply, id := w.startGame("felix", players...)
	w.send(players[0], reply[players[0]], w.legal(id, 0))
	breakages()[2].brk(t, w, id)
	w.offer(players[1], reply[players[1]], "status")
	var out strings.Builder
	if err := loaded.Export(ctx, w.st, games.Lookup, id, &out); err != nil || !strings.Contains(out.String(), "bid 99") {
		t.Fatalf("export of a broken game: %v\n%s", err, out.String())
	}
	if err := w.adminWords(ctx, id, "extend", []string{"bob", "24h"}, "root"); !errors.Is(err, admin.ErrRefused) || !strings.Contains(err.Error(), "set aside as broken") {
		t.Fatalf("extend on a broken game: %v", err)
	}
	if err := w.adminWords(ctx, id, "abort", []string{"lost", "beyond", "repair"}, "root"); err != nil {
		t.Fatalf("abort: %v", err)
	}
	w.flush()
	row, _ := w.st.Game(ctx, id)
	if row.Status != store.StatusAborted || row.Aside != "" {
		t.Fatalf("after abort: status %s, broken %q", row.Status, row.Aside)
	}
	for _, p := range players {
		if got := w.last(p); !strings.Contains(got.Text, "ended the game before its end") || !strings.Contains(got.Text, "lost beyond repair") {
			t.Errorf("%s was told:\n%s", p, got.Text)
		}
	}
	if err := w.svc.Admin(ctx, id, admin.RetryAct{}, "root"); !errors.Is(err, admin.ErrRefused) {
		t.Fatalf("retry of a healthy game: %v", err)
	}
}

// TestRepeatedErrorSetsMailAside: any error that repeats for one mail —
// not only a panic — sets it aside after tries.Max, and the mail behind it
// is handled; an error of the database itself never does.
func TestRepeatedErrorSetsMailAside(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newAdminWorld(t, 0)
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test"}
	reply, _ := w.startGame("felix", players...)

	// The database is unavailable: the mail is offered again and again,
	// and never set aside.
	w.st.FailWrites(store.ErrUnavailable)
	w.uid++
	raw := fmt.Sprintf("From: %s\r\nTo: %s\r\nMessage-ID: <full@x.test>\r\n\r\nstatus\r\n", players[0], reply[players[0]])
	msg := mailer.Message{Mailbox: "INBOX", UIDValidity: 1, UID: w.uid, Raw: []byte(raw)}
	for i := 0; i < 2*tries.Max; i++ {
		if err := w.svc.HandleMail(ctx, msg); err == nil {
			t.Fatalf("offer %d: taken while the database cannot write", i+1)
		}
	}
	w.st.FailWrites(nil)
	if err := w.svc.HandleMail(ctx, msg); err != nil {
		t.Fatalf("once the database is back: %v", err)
	}
	if in, err := w.st.InboundByMessageID(ctx, "full@x.test"); err != nil || Outcome(in.Outcome) != OutcomeAnswered {
		t.Fatalf("the mail's record: %+v %v; want it answered, not set aside", in, err)
	}
}

// TestStopFinishesTheMailInHand: a stop (a cancelled context) does not cut
// the mail in hand short: its transaction runs to the end, so that it is
// answered once and not offered again.
func TestStopFinishesTheMailInHand(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	raw := "From: alice@x.test\r\nTo: pbem@example.test\r\nMessage-ID: <late@x.test>\r\n\r\nhelp\r\n"
	if err := w.svc.HandleMail(ctx, mailMessage(1, raw)); err != nil {
		t.Fatalf("a mail handed over as pbem stops: %v", err)
	}
	if in, err := w.st.InboundByMessageID(context.Background(), "late@x.test"); err != nil || Outcome(in.Outcome) != OutcomeAnswered {
		t.Fatalf("its record: %+v %v", in, err)
	}
}
