package daemon

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pbem/pbem/internal/admin"
	"github.com/pbem/pbem/store"
)

func TestAdminActs(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test"}
	reply, id := w.startGame("felix", players...)
	w.confirmOn(players...) // the test reads answers to moves or says

	// Extend.
	before, _ := w.st.Seat(ctx, id, 1)
	if err := w.svc.Admin(ctx, id, admin.ExtendAct{Who: "bob", By: 24 * time.Hour}, "root"); err != nil {
		t.Fatal(err)
	}
	after, _ := w.st.Seat(ctx, id, 1)
	if !after.Deadline.Equal(before.Deadline.Add(24 * time.Hour)) {
		t.Errorf("deadline %v, want %v", after.Deadline, before.Deadline.Add(24*time.Hour))
	}
	w.flush()
	if got := strings.Join(strings.Fields(w.last("carol@z.test").Text), " "); !strings.Contains(got, "The host extended bob's deadline by 24 hours.") {
		t.Errorf("the extension was not announced:\n%s", got)
	}

	// A move for a player: only he learns which card.
	if err := w.svc.Admin(ctx, id, admin.MoveAct{Who: "bob", Command: "play rabbit"}, "root"); err != nil {
		t.Fatal(err)
	}
	w.flush()
	if got := w.last("bob@y.test").Text; !strings.Contains(got, "made this move for you: play rabbit") {
		t.Errorf("bob was not told his move:\n%s", got)
	}
	for _, p := range []string{"alice@x.test", "carol@z.test"} {
		if got := w.last(p).Text; strings.Contains(got, "made this move for you") || !strings.Contains(got, "made a move for bob") {
			t.Errorf("%s's mail about the admin move:\n%s", p, got)
		}
	}
	moves, _ := w.st.Moves(ctx, id, 0)
	if len(moves) != 1 || moves[0].Source != store.SourceAdmin("root") {
		t.Fatalf("moves %+v", moves)
	}
	if err := w.svc.Admin(ctx, id, admin.MoveAct{Who: "bob", Command: "play 3"}, "root"); !errors.Is(err, admin.ErrRefused) {
		t.Errorf("a second placement for bob: %v", err)
	}

	// Replace: the old address's token stops working, the new one plays.
	if err := w.svc.Admin(ctx, id, admin.ReplaceAct{Who: "carol", Address: "carol2@z.test"}, "root"); err != nil {
		t.Fatal(err)
	}
	w.flush()
	newMail := w.last("carol2@z.test")
	if !strings.Contains(newMail.Text, "How the game began") && !strings.Contains(newMail.Text, "Earlier since your last mail") && !strings.Contains(newMail.Text, "\n- ") {
		t.Errorf("the new player's first mail:\n%s", newMail.Text)
	}
	play := w.loaded(id).State.Options(2)[0].Commands[0]
	w.send("carol@z.test", reply["carol@z.test"], play)
	if got := w.last("carol@z.test").Text; !strings.Contains(got, "is not one of yours") {
		t.Errorf("the old token still works:\n%s", got)
	}
	w.confirmOn("carol2@z.test")
	w.send("carol2@z.test", newMail.ReplyTo, play)
	if got := w.last("carol2@z.test").Text; !strings.Contains(got, "Applied: "+play) {
		t.Errorf("the new player cannot play:\n%s", got)
	}

	// Pause stops deadlines and moves; resume gives fresh deadlines.
	if err := w.svc.Admin(ctx, id, admin.StatusAct{To: admin.Pause, Reason: "holiday"}, "root"); err != nil {
		t.Fatal(err)
	}
	w.send("alice@x.test", reply["alice@x.test"], "play 5")
	if got := w.last("alice@x.test").Text; !strings.Contains(got, "paused") {
		t.Errorf("a move in a paused game:\n%s", got)
	}
	w.clock = w.clock.Add(1000 * time.Hour)
	if n, _ := w.svc.Sweeper().SweepDeadlines(ctx); n != 0 {
		t.Errorf("%d default moves in a paused game", n)
	}
	if err := w.svc.Admin(ctx, id, admin.StatusAct{To: admin.Resume}, "root"); err != nil {
		t.Fatal(err)
	}
	if n, _ := w.svc.Sweeper().SweepDeadlines(ctx); n != 0 {
		t.Errorf("%d default moves right after resuming", n)
	}
	if err := w.svc.Admin(ctx, id, admin.StatusAct{To: admin.Resume}, "root"); !errors.Is(err, admin.ErrRefused) {
		t.Errorf("resuming an active game: %v", err)
	}
	if err := w.svc.Admin(ctx, id, admin.StatusAct{To: admin.Abort, Reason: "cheating"}, "root"); err != nil {
		t.Fatal(err)
	}
	w.flush()
	if got := strings.Join(strings.Fields(w.last("bob@y.test").Text), " "); !strings.Contains(got, "ended the game before its end; it takes no more moves (cheating).") {
		t.Errorf("abort not announced:\n%s", got)
	}
	// The mail says the game is over, in its headline and its body, and
	// names the host, never the admin's login name.
	ended := w.last("bob@y.test")
	if !strings.Contains(ended.Subject+ended.Text, "ended by the host") || !strings.Contains(ended.Text, "The game is over: the host ended it") {
		t.Errorf("the mail of an aborted game does not say it is over:\n%s", ended.Text)
	}
	for _, wrong := range []string{"waiting for", "Waiting for", "Nothing to send for now", "root", "Admin"} {
		// (the HTML part's style sheet has a ":root")
		if strings.Contains(ended.Text, wrong) || strings.Contains(strings.ReplaceAll(ended.HTML, ":root", ""), wrong) {
			t.Errorf("the mail of an aborted game says %q:\n%s", wrong, ended.Text)
		}
	}
	audit, err := w.st.Audit(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	var acts []string
	for _, a := range audit {
		acts = append(acts, a.Action)
	}
	if got := strings.Join(acts, ","); !strings.Contains(got, "extend,move,replace,pause,resume,abort") {
		t.Errorf("audit log %s", got)
	}
	if err := w.svc.Admin(ctx, 99, admin.ExtendAct{Who: "bob", By: time.Hour}, "root"); !errors.Is(err, admin.ErrRefused) {
		t.Errorf("unknown game: %v", err)
	}
}

func TestAdminByMail(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	w.svc.cfg.Admins = "root@ops.test, Boss@Ops.Test"
	w.svc.cfg.AdminToken = "k7qpz2xw9mr4tb8vn3cj"
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test"}
	_, id := w.startGame("felix", players...)
	admin := "pbem+k7qpz2xw9mr4tb8vn3cj@example.test"

	// Not an admin: refused like an unknown game address, nothing done.
	w.send("alice@x.test", admin, "1 pause")
	if got := w.last("alice@x.test").Text; !strings.Contains(got, "is not one of yours") {
		t.Fatalf("a player at the admin address:\n%s", got)
	}
	if g, _ := w.st.Game(ctx, id); g.Status != store.StatusActive {
		t.Fatalf("status %s", g.Status)
	}
	// An admin: each line is done, the answer says so, line by line.
	w.send("boss@ops.test", admin, "1 extend bob 2h\n1 dance\n#1 pause back soon\nnonsense here\n1 resume")
	got := strings.Join(strings.Fields(w.last("boss@ops.test").Text), " ")
	for _, want := range []string{`"1 extend bob 2h": done.`, `"1 dance": not done: "dance" is not an admin act`, `"#1 pause back soon": done.`, `"nonsense here": not read`} {
		if !strings.Contains(got, want) {
			t.Errorf("answer lacks %q:\n%s", want, got)
		}
	}
	if g, _ := w.st.Game(ctx, id); g.Status != store.StatusPaused {
		t.Fatalf("status %s: the line after the unreadable one was applied, or pause was not", g.Status)
	}
	audit, _ := w.st.Audit(ctx, id)
	if len(audit) < 2 || audit[len(audit)-1].Actor != "boss@ops.test" {
		t.Fatalf("audit %+v", audit)
	}
}

// An admin's move reads the player's language, as his mail would: filler,
// nouns and numbers in words ("12 move bob bid four mice").
func TestAdminMoveInPlayersWords(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	_, id := w.startGame("felix", "alice@x.test", "bob@y.test", "carol@z.test")
	for _, who := range []string{"alice", "bob", "carol"} {
		if err := w.adminWords(ctx, id, "move", strings.Fields(who+" play the rabbit card please"), "root"); err != nil {
			t.Fatalf("%s: %v", who, err)
		}
	}
	tb := w.loaded(id)
	seat := tb.State.Waiting()[0]
	if !slices.Contains(tb.State.Options(seat)[0].Commands, "bid 4") {
		t.Fatalf("bid 4 is not legal now: %+v", tb.State.Options(seat))
	}
	if err := w.adminWords(ctx, id, "move", []string{tb.Names[seat], "bid", "four", "mice"}, "root"); err != nil {
		t.Fatal(err)
	}
	moves, _ := w.st.Moves(ctx, id, 0)
	if n := len(moves); n != 4 || moves[n-1].Command != "bid 4" || moves[n-1].Seat != seat {
		t.Fatalf("moves %+v, want bid 4 last", moves)
	}
	// What a mail could not read, the admin cannot either.
	err := w.adminWords(ctx, id, "move", []string{tb.Names[(seat+1)%3], "bid", "lots"}, "root")
	if !errors.Is(err, admin.ErrRefused) || !strings.Contains(err.Error(), "N must be a whole number") {
		t.Errorf("bid lots: %v", err)
	}
}

// adminWords runs an admin act given as its words, as pbem admin reads
// them.
func (w *world) adminWords(ctx context.Context, gameID int64, word string, params []string, actor string) error {
	act, err := admin.Parse(word, params)
	if err != nil {
		return err
	}
	return w.svc.Admin(ctx, gameID, act, actor)
}
