package daemon

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/pbem/pbem/internal/admin"
	"github.com/pbem/pbem/store"
)

// confirmOf is the reply address of the last confirmation mailed to
// addr, failing the test if its last mail is none.
func (w *world) confirmOf(addr string) string {
	w.t.Helper()
	m := w.last(addr)
	if m.Subject != "Confirm this address for pbem" || !strings.HasPrefix(m.ReplyTo, "pbem+"+addressTokenPrefix) {
		w.t.Fatalf("the last mail to %s is no confirmation: %q, Reply-To %q\n%s", addr, m.Subject, m.ReplyTo, m.Text)
	}
	return m.ReplyTo
}

// TestAddressMovesEverything is issue 37's "Done when": a player with two
// running games, a finished rated game and a vacation moves to a new
// address with `address NEW` and a reply from NEW; his seats, settings,
// vacation, rating and standings follow, he plays on from NEW, mail from
// the old address is his no more, the old address gets one notice, and
// no mail of the change names a game's hidden state.
func TestAddressMovesEverything(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	alice, bob, carol := "alice@x.test", "bob@y.test", "carol@z.test"
	const next = "alice@new.test"
	players := []string{alice, bob, carol}

	// A finished, rated game.
	reply0, done := w.startGame("felix", players...)
	w.playOut(done, reply0, players, rand.New(rand.NewPCG(8, 1)))
	before, err := w.st.Ratings(ctx, "felix", []string{alice})
	if err != nil || before[alice].Games != 1 {
		t.Fatalf("alice's rating before: %+v, %v", before, err)
	}
	// Two running games, a setting and a vacation.
	reply1, g1 := w.startGame("felix", players...)
	reply2, g2 := w.startGame("gracias", bob, alice, carol)
	w.send(alice, reply1[alice], "timezone Europe/Paris")
	w.send(alice, reply1[alice], "vacation 4d")
	if !strings.Contains(w.last(alice).Text, "You are away until") {
		t.Fatalf("vacation not taken:\n%s", w.last(alice).Text)
	}
	deadline := w.deadline(g1, 0)

	// The move, asked in a game's thread.
	w.send(alice, reply2[alice], "address "+next)
	if got := unwrapText(w.last(alice).Text); !strings.Contains(got, "A confirmation was mailed to "+next) {
		t.Fatalf("answer to address:\n%s", got)
	}
	confirm := w.confirmOf(next)
	if text := w.last(next).Text; strings.Contains(text, "felix") || strings.Contains(text, "gracias") || strings.Contains(text, "#") {
		t.Errorf("the confirmation speaks of a game:\n%s", text)
	}
	// Nothing moved yet: alice still plays from her old address.
	if seats, _ := w.st.GamesOf(ctx, next); len(seats) != 0 {
		t.Fatalf("seats moved before the confirmation: %v", seats)
	}
	oldMails := len(w.inbox[alice])
	w.send(next, confirm, "yes")

	if got := w.last(next); got.Subject != "Your pbem address has changed" || !strings.Contains(unwrapText(got.Text), "are yours at this address now") {
		t.Fatalf("the new address was told:\n%s %s", got.Subject, got.Text)
	}
	if n := len(w.inbox[alice]) - oldMails; n != 1 {
		t.Errorf("the old address got %d mails for the move, want 1", n)
	}
	if got := unwrapText(w.last(alice).Text); !strings.Contains(got, "have moved to "+next) {
		t.Errorf("the old address's notice:\n%s", got)
	}
	for _, id := range []int64{done, g1, g2} {
		var addrs []string
		for _, st := range w.loaded(id).Seats {
			addrs = append(addrs, st.Address)
		}
		if !strings.Contains(strings.Join(addrs, " "), next) || strings.Contains(strings.Join(addrs, " "), alice) {
			t.Errorf("game %d's seats: %v", id, addrs)
		}
	}
	p, err := w.st.Player(ctx, next)
	if err != nil || p.TimeZone != "Europe/Paris" {
		t.Errorf("settings at the new address: %+v, %v", p, err)
	}
	if v, err := w.st.CurrentVacation(ctx, next); err != nil || !v.Until.After(w.clock) {
		t.Errorf("vacation at the new address: %+v, %v", v, err)
	}
	if got := w.deadline(g1, 0); !got.Equal(deadline) {
		t.Errorf("the deadline changed with the move: %s, was %s", got, deadline)
	}
	after, err := w.st.Ratings(ctx, "felix", []string{next, alice})
	if err != nil || after[next] != (store.PlayerRating{Kind: "felix", Mailbox: next, Mu: before[alice].Mu, Sigma: before[alice].Sigma, Games: 1, Name: after[next].Name}) || len(after) != 1 {
		t.Errorf("ratings after the move: %+v, %v (before %+v)", after, err, before)
	}
	if st, err := w.st.Standings(ctx, next); err != nil || len(st) == 0 {
		t.Errorf("standings at the new address: %v, %v", st, err)
	}

	// She plays on from the new address, in the same threads; the old
	// address is a stranger to them now.
	w.send(next, reply1[alice], "status")
	if got := w.last(next); got.ReplyTo != reply1[alice] {
		t.Errorf("status from the new address answered at %q, want the seat's thread %q", got.ReplyTo, reply1[alice])
	}
	w.send(alice, reply1[alice], "status")
	if got := w.last(alice); got.ReplyTo == reply1[alice] || strings.Contains(got.Text, "Hand:") {
		t.Errorf("the old address was answered as the player:\n%s", got.Text)
	}
	// The confirmation does nothing a second time.
	w.send(next, confirm, "yes")
	if got := w.last(next).Subject; got == "Your pbem address has changed" {
		t.Errorf("a second confirmation was taken")
	}
}

// TestAddressRefusals: each refusal is one true sentence, and changes
// nothing.
func TestAddressRefusals(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	alice, bob, carol := "alice@x.test", "bob@y.test", "carol@z.test"
	reply, _ := w.startGame("felix", alice, bob, carol)
	ask := func(cmd, want string) {
		t.Helper()
		w.send(alice, reply[alice], cmd)
		if got := unwrapText(w.last(alice).Text); !strings.Contains(got, want) {
			t.Errorf("%q answered:\n%s\nwant %q", cmd, got, want)
		}
	}
	ask("address "+alice, "Not done: "+alice+" is already your address.")
	ask("address "+bob, "Not done: "+bob+" has games or ratings of its own at pbem, and pbem does not merge two players.")
	// pbem's own addresses: the reader drops a line naming them (a
	// quoted header), so the refusal is asked of the daemon directly.
	for _, own := range []string{"pbem@example.test", "pbem+games@example.test", "x@bot.pbem.invalid"} {
		err := w.st.Tx(context.Background(), func(tx *store.Tx) error {
			why, err := w.svc.workIn(context.Background(), tx).addressRefusal(alice, own, false)
			if want := "Not done: " + own + " is one of pbem's own addresses."; why != want {
				t.Errorf("address %s: %q, want %q", own, why, want)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	ask("address nobody", "is not a mail address")

	// At pbem's own address, without authenticated senders: anyone may
	// write alice's From.
	w.send(alice, "pbem@example.test", "address alice@new.test")
	if got := unwrapText(w.last(alice).Text); !strings.Contains(got, "send address in reply to a mail of one of your games") {
		t.Errorf("address at the bare address:\n%s", got)
	}
	if len(w.inbox["alice@new.test"]) != 0 {
		t.Error("a confirmation went out for a mail anyone could have written")
	}

	// A confirmation from another address, and one too late.
	w.send(alice, reply[alice], "address alice@new.test")
	confirm := w.confirmOf("alice@new.test")
	w.send("mallory@evil.test", confirm, "yes")
	if got := unwrapText(w.last("mallory@evil.test").Text); !strings.Contains(got, "a confirmation counts only when it is answered from the address it was mailed to") {
		t.Errorf("confirmation from another address:\n%s", got)
	}
	w.clock = w.clock.Add(25 * time.Hour)
	w.send("alice@new.test", confirm, "yes")
	if got := unwrapText(w.last("alice@new.test").Text); !strings.Contains(got, "this confirmation was more than 24 hours old") {
		t.Errorf("late confirmation:\n%s", got)
	}
	if seats, _ := w.st.GamesOf(context.Background(), alice); len(seats) != 1 {
		t.Errorf("alice's seats after the refusals: %v", seats)
	}
	// A token that is no one's is answered as any other.
	w.send("alice@new.test", "pbem+"+addressTokenPrefix+"nosuchtoken@example.test", "yes")
	if got := w.last("alice@new.test").Text; strings.Contains(got, "confirmation") {
		t.Errorf("an unknown confirmation token was told apart:\n%s", got)
	}
}

// TestAddressAdd: a second address, confirmed from there, is read as
// the player in his games' threads; mail still goes to his address; it
// spends his budget.
func TestAddressAdd(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	alice, bob, carol := "alice@x.test", "bob@y.test", "carol@z.test"
	const work = "alice@work.test"
	reply, _ := w.startGame("felix", alice, bob, carol)
	w.send(alice, reply[alice], "address add "+work)
	confirm := w.confirmOf(work)
	w.send(work, confirm, "ok")
	if got := unwrapText(w.last(alice).Text); !strings.Contains(got, "mail from "+work+" is read as yours") {
		t.Fatalf("the player was told:\n%s", got)
	}
	if p, err := w.st.PlayerOf(ctx, work); err != nil || p != alice {
		t.Fatalf("PlayerOf(%s) = %q, %v", work, p, err)
	}
	workMails := len(w.inbox[work])
	w.send(work, reply[alice], "status")
	if len(w.inbox[work]) != workMails {
		t.Errorf("mail went to the added address: %s", w.last(work).Text)
	}
	if got := w.last(alice); got.ReplyTo != reply[alice] {
		t.Errorf("status from the added address was not answered in alice's thread: %q", got.ReplyTo)
	}
	// An invitation to the added address seats the player, at his own
	// address.
	w.send(bob, "pbem@example.test", "new felix with "+carol+" "+work)
	if got := w.last(alice); !strings.Contains(got.Text, "join") || got.ReplyTo == reply[alice] {
		t.Errorf("the invitation to %s did not reach alice:\n%s", work, got.Text)
	}
	if len(w.inbox[work]) != workMails {
		t.Errorf("the invitation went to the added address")
	}
	// Adding it again is refused.
	w.send(alice, reply[alice], "address add "+work)
	if got := unwrapText(w.last(alice).Text); !strings.Contains(got, "Not done: "+work+" is already an address of yours.") {
		t.Errorf("adding again:\n%s", got)
	}
}

// TestAdminAddress: the host moves a player without a confirmation; the
// act is audited, both addresses are told, and what the player could not
// do the host cannot either.
func TestAdminAddress(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	alice, bob, carol := "alice@x.test", "bob@y.test", "carol@z.test"
	reply, id := w.startGame("felix", alice, bob, carol)
	if err := w.svc.AdminAddress(ctx, alice, bob, "host"); !errors.Is(err, admin.ErrRefused) || !strings.Contains(err.Error(), "does not merge two players") {
		t.Errorf("a move onto another player: %v", err)
	}
	if err := w.svc.AdminAddress(ctx, "nobody@x.test", "n@y.test", "host"); !errors.Is(err, admin.ErrRefused) {
		t.Errorf("a move of no player: %v", err)
	}
	if err := w.svc.AdminAddress(ctx, alice, "Alice <a@new.test>", "host"); !errors.Is(err, admin.ErrRefused) {
		t.Errorf("a move to a named address: %v", err)
	}
	if err := w.svc.AdminAddress(ctx, alice, "alice@new.test", "host"); err != nil {
		t.Fatal(err)
	}
	w.flush()
	if got := unwrapText(w.last(alice).Text); !strings.Contains(got, "the host of this pbem moved them") {
		t.Errorf("the old address was told:\n%s", got)
	}
	if got := w.last("alice@new.test").Subject; got != "Your pbem address has changed" {
		t.Errorf("the new address was told: %q", got)
	}
	found := false
	for _, st := range w.loaded(id).Seats {
		found = found || st.Address == "alice@new.test"
	}
	if !found {
		t.Error("the seat did not move")
	}
	log, err := w.st.Audit(ctx, 0)
	if err != nil || len(log) != 1 || log[0].Action != "address" || log[0].Actor != "host" {
		t.Errorf("audit: %+v, %v", log, err)
	}
	w.send("alice@new.test", reply[alice], "status")
	if got := w.last("alice@new.test"); got.ReplyTo != reply[alice] {
		t.Errorf("the new address does not play the seat: %q", got.ReplyTo)
	}
}
