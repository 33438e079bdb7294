package daemon

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/internal/admin"
	"github.com/pbem/pbem/internal/tries"
	"github.com/pbem/pbem/store"
)

// unwrap joins a mail's wrapped lines.
func unwrap(s string) string { return strings.Join(strings.Fields(s), " ") }

func mustZone(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

// nextDigest is the next hour:00 in the player's zone, strictly after
// now, also across a change of daylight-saving time.
func TestNextDigest(t *testing.T) {
	t.Parallel()
	ny, tokyo := mustZone(t, "America/New_York"), mustZone(t, "Asia/Tokyo")
	utc := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, tc := range []struct {
		name string
		now  string
		loc  *time.Location
		hour int
		want string
	}{
		{"later today", "2026-11-21T10:00:00Z", tokyo, 20, "2026-11-21T11:00:00Z"},
		{"at the hour: tomorrow", "2026-11-21T10:00:00Z", tokyo, 19, "2026-11-22T10:00:00Z"},
		{"past the hour: tomorrow", "2026-11-21T10:30:00Z", tokyo, 19, "2026-11-22T10:00:00Z"},
		{"midnight", "2026-11-21T10:00:00Z", tokyo, 0, "2026-11-21T15:00:00Z"},
		{"new york, today", "2026-11-21T10:00:00Z", ny, 8, "2026-11-21T13:00:00Z"},
		// 1 November 2026: EDT (UTC-4) ends at 2:00; 8:00 is EST (UTC-5).
		{"autumn change: a 25-hour day", "2026-10-31T12:00:00Z", ny, 8, "2026-11-01T13:00:00Z"},
		{"the day after the change", "2026-11-01T13:00:00Z", ny, 8, "2026-11-02T13:00:00Z"},
		// 8 March 2026: EST ends at 2:00, EDT begins; 8:00 is EDT.
		{"spring change: a 23-hour day", "2026-03-07T13:00:00Z", ny, 8, "2026-03-08T12:00:00Z"},
		// 2:00 does not exist on 8 March: the digest still goes out that
		// day, at the hour time.Date makes of it ("" below: any hour of
		// that day after now will do; Go does not promise which).
		{"spring change: the hour skipped", "2026-03-07T08:00:00Z", ny, 2, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := nextDigest(utc(tc.now), tc.loc, tc.hour)
			if tc.want == "" {
				if l := got.In(tc.loc); !got.After(utc(tc.now)) || l.Month() != time.March || l.Day() != 8 {
					t.Errorf("nextDigest(%s, %s, %d) = %s, want a time on 8 March", tc.now, tc.loc, tc.hour, l)
				}
				return
			}
			if !got.Equal(utc(tc.want)) {
				t.Errorf("nextDigest(%s, %s, %d) = %s, want %s", tc.now, tc.loc, tc.hour, got.UTC().Format(time.RFC3339), tc.want)
			}
		})
	}
}

// digests are the digests in addr's inbox.
func (w *world) digests(addr string) []received {
	var out []received
	for _, m := range w.inbox[addr] {
		if strings.HasPrefix(m.Subject, "pbem digest: ") {
			out = append(out, m)
		}
	}
	return out
}

// sweep runs the deadline sweep (default moves, reminders, digests) and
// sends what it queued.
func (w *world) sweep() error {
	w.t.Helper()
	_, err := w.svc.Sweeper().SweepDeadlines(context.Background())
	w.flush()
	return err
}

// playOthers has the players other than skip make moves while a game
// waits on one of them, at most n moves.
func (w *world) playOthers(id int64, addrs []string, skip []string, n int) {
	w.t.Helper()
	reply := map[string]string{}
	for _, st := range w.loaded(id).Seats {
		reply[st.Address] = w.seatAddress(st.Token)
	}
	for range n {
		tb := w.loaded(id)
		moved := false
		for _, p := range tb.State.Waiting() {
			if slices.Contains(skip, addrs[p]) {
				continue
			}
			w.send(addrs[p], reply[addrs[p]], w.legal(id, p))
			moved = true
			break
		}
		if !moved {
			return
		}
	}
}

func (w *world) seatAddress(token string) string { return w.svc.post.SeatAddress(token) }

func (w *world) player(addr string) store.Player {
	w.t.Helper()
	p, err := w.st.Player(context.Background(), addr)
	if err != nil {
		w.t.Fatal(err)
	}
	return p
}

// hidden are the texts of the events of a game that seat may not see.
func (w *world) hidden(id int64, seat int) []string {
	w.t.Helper()
	evs, err := w.st.Events(context.Background(), id, 0)
	if err != nil {
		w.t.Fatal(err)
	}
	var out []string
	for _, e := range evs {
		if !(engine.Event{To: e.To}).VisibleTo(seat) {
			out = append(out, e.Text)
		}
	}
	return out
}

// A player with notify digest gets no game mail while the others play,
// then one digest a day at his hour in his zone, naming all his games and
// what he may see of them, and nothing he may not.
func TestDigest(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t).authenticate() // 2026-11-21 10:00 UTC: 19:00 in Tokyo, 5:00 in New York
	felix := []string{"alice@x.test", "bob@y.test", "carol@z.test", "dave@x.test"}
	gracias := []string{"bob@y.test", "alice@x.test", "carol@z.test"}
	replyF, f := w.startGame("felix", felix...)
	w.confirmOn(felix...) // the test reads answers to moves or says

	replyG, g := w.startGame("gracias", gracias...)
	w.confirmOn(gracias...) // the test reads answers to moves or says

	for slices.Contains(w.loaded(g).State.Waiting(), 1) {
		w.send("alice@x.test", replyG["alice@x.test"], w.legal(g, 1)) // so that the others have moves to make
	}
	w.send("alice@x.test", "pbem@example.test", "timezone Asia/Tokyo\nnotify digest 19")
	w.send("dave@x.test", "pbem@example.test", "timezone America/New_York\nnotify digest")
	if got := unwrap(w.last("alice@x.test").Text); !strings.Contains(got, "at 19:00 Asia/Tokyo (the first on Sun 22 Nov)") {
		t.Fatalf("alice's setting answer:\n%s", got)
	}
	if due := w.player("alice@x.test").DigestDue; !due.Equal(time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)) {
		t.Fatalf("alice's digest is due %s", due.UTC())
	}
	if due := w.player("dave@x.test").DigestDue; !due.Equal(time.Date(2026, 11, 21, 13, 0, 0, 0, time.UTC)) {
		t.Fatalf("dave's digest is due %s", due.UTC())
	}
	before := len(w.inbox["alice@x.test"])
	digesters := []string{"alice@x.test", "dave@x.test"}
	w.playOthers(f, felix, digesters, 10)
	w.playOthers(g, gracias, digesters, 10)
	if w.moves(f) == 0 || w.moves(g) == 0 {
		t.Fatalf("the others made no move: %d and %d", w.moves(f), w.moves(g))
	}
	if got := len(w.inbox["alice@x.test"]) - before; got != 0 {
		t.Fatalf("alice got %d game mails while the others played; want none", got)
	}

	// 13:00 UTC is 8:00 in New York: dave's digest, not alice's.
	w.clock = time.Date(2026, 11, 21, 13, 0, 0, 0, time.UTC)
	if err := w.sweep(); err != nil {
		t.Fatal(err)
	}
	if n := len(w.digests("dave@x.test")); n != 1 {
		t.Fatalf("dave got %d digests at 8:00 his time, want 1", n)
	}
	if n := len(w.digests("alice@x.test")); n != 0 {
		t.Fatalf("alice got %d digests at 22:00 her time, want 0", n)
	}
	if due := w.player("dave@x.test").DigestDue; !due.Equal(time.Date(2026, 11, 22, 13, 0, 0, 0, time.UTC)) {
		t.Fatalf("dave's next digest is due %s, want a day later", due.UTC())
	}

	// 19:00 in Tokyo: alice's digest, once however many sweeps run.
	since := map[int64]int64{}
	for id, seat := range map[int64]int{f: 0, g: 1} {
		st, err := w.st.Seat(ctx, id, seat)
		if err != nil {
			t.Fatal(err)
		}
		since[id] = st.LastMailedEvent
	}
	w.clock = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	for range 3 {
		if err := w.sweep(); err != nil {
			t.Fatal(err)
		}
		w.clock = w.clock.Add(time.Minute)
	}
	ds := w.digests("alice@x.test")
	if len(ds) != 1 {
		t.Fatalf("alice got %d digests, want 1", len(ds))
	}
	d := ds[0]
	text := unwrap(d.Text)
	for _, want := range []string{
		"Felix: The Cat in the Sack, game #1", "Gracias, game #2",
		"Write your commands to " + replyF["alice@x.test"], replyG["alice@x.test"],
		"It waits for you", "JST",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("alice's digest lacks %q:\n%s", want, d.Text)
		}
	}
	if d.Subject != "pbem digest: 1 game waits for you" && d.Subject != "pbem digest: 2 games wait for you" {
		t.Errorf("subject %q", d.Subject)
	}
	if d.ReplyTo != "" {
		t.Errorf("a digest of two games has Reply-To %s: a reply would go to one game", d.ReplyTo)
	}
	// What the others did, as alice may see it, and nothing else.
	for _, c := range []struct {
		id   int64
		seat int
	}{{f, 0}, {g, 1}} {
		evs, _ := w.st.Events(ctx, c.id, since[c.id])
		if len(visible(evs, c.seat)) == 0 {
			t.Fatalf("nothing happened in game %d that alice may see", c.id)
		}
		lg := w.loaded(c.id)
		for _, e := range visible(evs, c.seat) {
			// As alice reads it: her own acts in the second person.
			if a, ok := lg.Rules.(engine.Addresser); ok {
				e = a.Address(e, lg.Names[c.seat])
			}
			if !strings.Contains(text, unwrap(e.Text)) {
				t.Errorf("alice's digest lacks the event %q of game %d", e.Text, c.id)
			}
		}
		if len(w.hidden(c.id, c.seat)) == 0 {
			t.Fatalf("game %d has no event hidden from alice: the check below checks nothing", c.id)
		}
		for _, h := range w.hidden(c.id, c.seat) {
			if strings.Contains(text, unwrap(h)) {
				t.Errorf("alice's digest shows %q, which she may not see", h)
			}
		}
		st, err := w.st.Seat(ctx, c.id, c.seat)
		if err != nil {
			t.Fatal(err)
		}
		if last := evs[len(evs)-1].ID; st.LastMailedEvent != last {
			t.Errorf("game %d: alice's last mailed event is %d, want %d: her next mail would repeat the digest", c.id, st.LastMailedEvent, last)
		}
	}
	if due := w.player("alice@x.test").DigestDue; !due.Equal(time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)) {
		t.Fatalf("alice's next digest is due %s, want a day later", due.UTC())
	}

	// She acts from the digest: a mail to the address it gives is
	// applied (it answers no mail of this game's seat: it is fresh for
	// the stale rule), and so is a reply to the digest itself.
	n := w.moves(f)
	w.reply("alice@x.test", replyF["alice@x.test"], w.legal(f, 0), d.MessageID)
	if w.moves(f) != n+1 {
		t.Fatalf("alice's reply to her digest was not applied:\n%s", w.last("alice@x.test").Text)
	}
	if got := w.last("alice@x.test"); !strings.Contains(got.Text, "Applied: ") {
		t.Errorf("the answer to alice's move:\n%s", got.Text)
	}
}

// A reply to a digest of one game goes to that game, and is applied.
func TestDigestOfOneGame(t *testing.T) {
	t.Parallel()
	w := newWorld(t).authenticate()
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test"}
	reply, id := w.startGame("felix", players...)
	w.send("alice@x.test", "pbem@example.test", "notify digest 11")
	w.playOthers(id, players, []string{"alice@x.test"}, 5)
	w.clock = w.clock.Add(time.Hour)
	if err := w.sweep(); err != nil {
		t.Fatal(err)
	}
	ds := w.digests("alice@x.test")
	if len(ds) != 1 {
		t.Fatalf("%d digests", len(ds))
	}
	if ds[0].ReplyTo != reply["alice@x.test"] {
		t.Fatalf("the digest of one game has Reply-To %q, want the game's %q", ds[0].ReplyTo, reply["alice@x.test"])
	}
	n := w.moves(id)
	w.reply("alice@x.test", ds[0].ReplyTo, w.legal(id, 0), ds[0].MessageID)
	if w.moves(id) != n+1 {
		t.Fatalf("the reply to the digest was not applied:\n%s", w.last("alice@x.test").Text)
	}
}

// No digest when nothing happened in his games and none waits on him;
// the next day's is due all the same, and comes once something happens.
func TestNoDigestWhenNothingHappened(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	players := []string{"bob@y.test", "alice@x.test", "carol@z.test"}
	reply, id := w.startGame("gracias", players...)
	// Until the game waits on bob, alone.
	for range 20 {
		if wt := w.loaded(id).State.Waiting(); len(wt) == 1 && wt[0] == 0 {
			break
		}
		p := w.loaded(id).State.Waiting()[0]
		w.send(players[p], reply[players[p]], w.legal(id, p))
	}
	if wt := w.loaded(id).State.Waiting(); len(wt) != 1 || wt[0] != 0 {
		t.Fatalf("the game waits on %v", wt)
	}
	w.send("alice@x.test", reply["alice@x.test"], "status\nnotify digest 11") // all she may see is mailed
	w.clock = w.clock.Add(time.Hour)
	if err := w.sweep(); err != nil {
		t.Fatal(err)
	}
	if n := len(w.digests("alice@x.test")); n != 0 {
		t.Fatalf("alice got %d digests though nothing happened and nothing waits on her", n)
	}
	if due := w.player("alice@x.test").DigestDue; !due.Equal(time.Date(2026, 11, 22, 11, 0, 0, 0, time.UTC)) {
		t.Fatalf("the next digest is due %s", due.UTC())
	}
	w.send("bob@y.test", reply["bob@y.test"], w.legal(id, 0))
	w.clock = w.clock.Add(24 * time.Hour)
	if err := w.sweep(); err != nil {
		t.Fatal(err)
	}
	if n := len(w.digests("alice@x.test")); n != 1 {
		t.Fatalf("alice got %d digests after bob moved, want 1", n)
	}
}

// Work redone after a crash sends no second digest: a transaction that
// did not commit left nothing, and one that did is not written again
// even if the player were found due once more.
func TestDigestRedo(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t).authenticate()
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test"}
	reply, id := w.startGame("felix", players...)
	w.send("alice@x.test", "pbem@example.test", "notify digest 11")
	w.playOthers(id, players, []string{"alice@x.test"}, 5)
	w.clock = w.clock.Add(time.Hour)
	due, err := w.st.DueDigests(ctx, w.clock)
	if err != nil || len(due) != 1 {
		t.Fatalf("due digests %v %v", due, err)
	}
	// A crash before the commit: everything rolls back.
	crash := errors.New("killed")
	err = w.st.Tx(ctx, func(tx *store.Tx) error {
		if err := (&work{Service: w.svc, key: fmt.Sprintf("digest:%s:%d", due[0].Address, due[0].Due.Unix())}).in(ctx, tx).digest(due[0]); err != nil {
			return err
		}
		return crash
	})
	if !errors.Is(err, crash) {
		t.Fatal(err)
	}
	if !w.player("alice@x.test").DigestDue.Equal(due[0].Due) {
		t.Fatal("a rolled-back digest moved the due time")
	}
	// The redo.
	if err := w.sweep(); err != nil {
		t.Fatal(err)
	}
	if n := len(w.digests("alice@x.test")); n != 1 {
		t.Fatalf("%d digests after the redo, want 1", n)
	}
	// Found due again with the same due time (as if its move were lost):
	// the digest queued under that time is not written again.
	err = w.st.Tx(ctx, func(tx *store.Tx) error { return tx.SetPlayerDigest(ctx, "alice@x.test", 11, due[0].Due) })
	if err != nil {
		t.Fatal(err)
	}
	w.send("alice@x.test", reply["alice@x.test"], w.legal(id, 0))
	w.playOthers(id, players, []string{"alice@x.test"}, 5)
	seen, err := w.st.Seat(ctx, id, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.sweep(); err != nil {
		t.Fatal(err)
	}
	if n := len(w.digests("alice@x.test")); n != 1 {
		t.Fatalf("%d digests after the same digest was due again, want 1", n)
	}
	// Nor are the events since marked mailed: her next mail tells them.
	if evs, _ := w.st.Events(ctx, id, seen.LastMailedEvent); len(visible(evs, 0)) == 0 {
		t.Fatal("nothing happened since alice's last mail: the check below checks nothing")
	}
	if st, err := w.st.Seat(ctx, id, 0); err != nil || st.LastMailedEvent != seen.LastMailedEvent {
		t.Fatalf("alice's last mailed event moved from %d to %d (%v) with no mail", seen.LastMailedEvent, st.LastMailedEvent, err)
	}
	if w.player("alice@x.test").DigestDue.Equal(due[0].Due) {
		t.Fatal("the due time did not move")
	}
}

// One player whose digest fails stops no other's; after tries.Max his
// digest is skipped for the day.
func TestDigestFailureIsIsolated(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t).authenticate()
	_, bad := w.startGame("felix", "alice@x.test", "bob@y.test", "carol@z.test")
	_, good := w.startGame("gracias", "dave@x.test", "erin@y.test", "frank@z.test")
	w.send("alice@x.test", "pbem@example.test", "notify digest 11")
	w.send("dave@x.test", "pbem@example.test", "notify digest 11")
	w.playOthers(good, []string{"dave@x.test", "erin@y.test", "frank@z.test"}, []string{"dave@x.test"}, 3)
	// alice's game no longer loads.
	row, err := w.st.Game(ctx, bad)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.st.Tx(ctx, func(tx *store.Tx) error { return tx.SaveSnapshot(ctx, bad, row.LastSeq, []byte("not json")) }); err != nil {
		t.Fatal(err)
	}
	w.clock = w.clock.Add(time.Hour)
	for i := 1; i <= tries.Max; i++ {
		err := w.sweep()
		if err == nil || !strings.Contains(err.Error(), "digest of alice@x.test") {
			t.Fatalf("sweep %d: %v, want alice's digest's failure", i, err)
		}
		w.clock = w.clock.Add(time.Minute)
	}
	if n := len(w.digests("dave@x.test")); n != 1 {
		t.Fatalf("dave got %d digests, want 1", n)
	}
	if n := len(w.digests("alice@x.test")); n != 0 {
		t.Fatalf("alice got %d digests", n)
	}
	if due := w.player("alice@x.test").DigestDue; !due.Equal(time.Date(2026, 11, 22, 11, 0, 0, 0, time.UTC)) {
		t.Fatalf("after %d failures alice's digest is due %s, want tomorrow's", tries.Max, due.UTC())
	}
	if err := w.sweep(); err != nil {
		t.Fatalf("the sweep after the skipped digest: %v", err)
	}
}

// The last reminder before a deadline still comes to a digest player.
func TestDigestPlayerIsReminded(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.svc.cfg.Reminders = remindBefore(24 * time.Hour)
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test"}
	w.startGame("felix", players...)
	w.send("alice@x.test", "pbem@example.test", "notify digest 11")
	w.clock = w.clock.Add(49 * time.Hour) // 23 h before the 72 h deadline
	for range 3 {
		if err := w.sweep(); err != nil {
			t.Fatal(err)
		}
	}
	n := 0
	for _, m := range w.inbox["alice@x.test"] {
		if strings.HasPrefix(m.Headline, "Reminder: ") {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("alice got %d reminders, want 1", n)
	}
}

// A digest is a game mail for the limits: it comes even when the
// player's daily budget of answers is spent.
func TestDigestIsNotBudgeted(t *testing.T) {
	t.Parallel()
	w := newWorldConfig(t, func(c *Config) {
		c.Limits = unlimited
		c.Limits.AnswersPerDay = 3
	}).authenticate()
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test"}
	_, id := w.startGame("felix", players...)
	w.send("alice@x.test", "pbem@example.test", "notify digest 11")
	for range 3 {
		w.send("alice@x.test", "pbem@example.test", "games")
	}
	n := len(w.inbox["alice@x.test"])
	w.send("alice@x.test", "pbem@example.test", "games")
	if len(w.inbox["alice@x.test"]) != n {
		t.Fatal("alice's budget of answers is not spent: the test tests nothing")
	}
	w.playOthers(id, players, []string{"alice@x.test"}, 5)
	w.clock = w.clock.Add(time.Hour)
	if err := w.sweep(); err != nil {
		t.Fatal(err)
	}
	if n := len(w.digests("alice@x.test")); n != 1 {
		t.Fatalf("alice got %d digests with her budget spent, want 1", n)
	}
}

// A digest player learns the end of a game from his next digest, not
// from a mail of its own; the digest after that leaves the game out.
func TestDigestTellsTheEnd(t *testing.T) {
	t.Parallel()
	w := newWorld(t).authenticate()
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test"}
	reply, id := w.startGame("felix", players...)
	w.send("alice@x.test", "pbem@example.test", "notify digest 11")
	n := len(w.inbox["alice@x.test"])
	if err := w.svc.Admin(context.Background(), id, admin.StatusAct{To: admin.Abort}, "ops"); err != nil {
		t.Fatal(err)
	}
	w.flush()
	if got := len(w.inbox["alice@x.test"]) - n; got != 0 {
		t.Fatalf("alice got %d mails at the end; want it in her digest", got)
	}
	w.clock = w.clock.Add(time.Hour)
	if err := w.sweep(); err != nil {
		t.Fatal(err)
	}
	ds := w.digests("alice@x.test")
	if len(ds) != 1 {
		t.Fatalf("%d digests", len(ds))
	}
	text := unwrap(ds[0].Text)
	for _, want := range []string{"The host ended the game before its end", "The host ended the game before its end; it takes no more moves.", "Write `status` to " + reply["alice@x.test"]} {
		if !strings.Contains(text, want) {
			t.Errorf("the digest lacks %q:\n%s", want, ds[0].Text)
		}
	}
	if strings.Contains(text, "rematch") {
		t.Errorf("the digest offers a rematch of a game an admin ended (rematch follows only a game over by the rules):\n%s", ds[0].Text)
	}
	w.clock = w.clock.Add(24 * time.Hour)
	if err := w.sweep(); err != nil {
		t.Fatal(err)
	}
	if n := len(w.digests("alice@x.test")); n != 1 {
		t.Fatalf("%d digests: the game that ended was told again", n)
	}
}

// TestNoDigestOnVacation: a digest player on vacation gets no digest
// while away; the first after his return tells what happened meanwhile.
// back brings it forward to his next hour.
func TestNoDigestOnVacation(t *testing.T) {
	t.Parallel()
	w := newWorld(t).authenticate()
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test"}
	_, id := w.startGame("felix", players...)
	w.send("alice@x.test", "pbem@example.test", "notify digest 11")
	w.send("alice@x.test", "pbem@example.test", "vacation 3d") // until 24 Nov 10:00 UTC
	day := func() {
		w.t.Helper()
		w.playOthers(id, players, []string{"alice@x.test"}, 3)
		w.clock = w.clock.Add(24 * time.Hour)
		if err := w.sweep(); err != nil {
			t.Fatal(err)
		}
	}
	w.clock = w.clock.Add(time.Hour) // 21 Nov 11:00
	if err := w.sweep(); err != nil {
		t.Fatal(err)
	}
	day() // 22 Nov
	day() // 23 Nov
	if n := len(w.digests("alice@x.test")); n != 0 {
		t.Fatalf("alice got %d digests on vacation", n)
	}
	if due := w.player("alice@x.test").DigestDue; !due.Equal(time.Date(2026, 11, 24, 11, 0, 0, 0, time.UTC)) {
		t.Errorf("her next digest is due %s, want her hour after the vacation", due.UTC())
	}
	day() // 24 Nov 11:00: back since 10:00
	ds := w.digests("alice@x.test")
	if len(ds) != 1 {
		t.Fatalf("alice got %d digests on the day she came back, want 1", len(ds))
	}
	if !strings.Contains(oneLine(ds[0].Text), "bob") {
		t.Errorf("her digest does not tell what happened while she was away:\n%s", ds[0].Text)
	}

	// back, early: the digest comes at her next hour, not after the
	// vacation's planned end.
	w.send("alice@x.test", "pbem@example.test", "vacation 5d")
	w.clock = w.clock.Add(24 * time.Hour) // 25 Nov 11:00
	if err := w.sweep(); err != nil {
		t.Fatal(err)
	}
	w.send("alice@x.test", "pbem@example.test", "back")
	if due := w.player("alice@x.test").DigestDue; !due.Equal(time.Date(2026, 11, 26, 11, 0, 0, 0, time.UTC)) {
		t.Errorf("after back her next digest is due %s, want 26 Nov 11:00", due.UTC())
	}
}
