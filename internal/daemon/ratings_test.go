package daemon

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/pbem/pbem/internal/rating"
)

// TestStandings: a finished game among people is rated from its
// finishing order; `standings` answers with the players' names and
// ratings, never an address, at the bare address and in the game's
// thread; the seat's page has the same table; a new name keeps the
// rating; a game with a bot is not rated; an admin's unrate takes the
// game out and computes the ratings again without it.
func TestStandings(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := webWorld(t)
	alice, bob, carol := "alice@x.test", "bob@y.test", "carol@z.test"
	players := []string{alice, bob, carol}
	reply, id := w.startGame("felix", players...)
	w.playOut(id, reply, players, rand.New(rand.NewPCG(8, 1)))
	res := w.table(id).game.Result()
	ranks := rating.Ranks(res.Scores, res.Winners)
	want := rating.Rate([][]rating.Rating{{rating.New()}, {rating.New()}, {rating.New()}}, ranks)
	got, err := w.st.Ratings(ctx, "felix", players)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range players {
		if r := got[p]; r.Games != 1 || r.Mu != want[i][0].Mu || r.Sigma != want[i][0].Sigma {
			t.Errorf("%s (rank %d): %+v, want %v", p, ranks[i], r, want[i][0])
		}
	}

	w.send(alice, "pbem@example.test", "standings")
	m := w.last(alice)
	if m.Subject != "Your standings on pbem" || !strings.Contains(m.HTML, "<b>alice (you)</b>") {
		t.Errorf("standings: %q\n%s", m.Subject, m.HTML)
	}
	for _, s := range []string{"alice (you)", "bob", "carol", "Your rating:"} {
		if !strings.Contains(m.Text, s) {
			t.Errorf("standings lacks %q:\n%s", s, m.Text)
		}
	}
	for _, p := range players {
		if strings.Contains(m.Text, p) || strings.Contains(m.HTML, p) {
			t.Errorf("standings shows the address %s", p)
		}
	}
	w.send(bob, reply[bob], "name robert")
	w.send(bob, reply[bob], "standings")
	m = w.last(bob)
	if !strings.Contains(m.Text, "robert (you)") || !strings.Contains(m.Text, "after 1 rated game") {
		t.Errorf("bob's standings after his new name:\n%s", m.Text)
	}
	if r, _ := w.st.Ratings(ctx, "felix", []string{bob}); r[bob].Mu != want[1][0].Mu {
		t.Errorf("the new name lost the rating: %+v", r)
	}
	tok, err := w.st.LinkToken(ctx, id, 0)
	if err != nil {
		t.Fatal(err)
	}
	page, err := w.svc.Page(ctx, tok, -1)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(page, "<b>alice (you)</b>") || !strings.Contains(page, "robert") {
		t.Errorf("alice's page has no standings")
	}

	// A game with a bot is not rated.
	bw := newWorld(t)
	breply, bid := bw.botGame("felix", "2 bots", alice)
	bw.playPeople(bid, breply, map[int]string{0: alice}, rand.New(rand.NewPCG(3, 3)))
	if r, _ := bw.st.Ratings(ctx, "felix", []string{alice}); len(r) != 0 {
		t.Errorf("a game with bots was rated: %+v", r)
	}

	// The admin takes the game out of the ratings.
	if err := w.svc.Admin(ctx, id, "unrate", nil, "root"); err != nil {
		t.Fatal(err)
	}
	if st, _ := w.st.Standings(ctx, alice); len(st) != 0 {
		t.Errorf("standings after unrate: %+v", st)
	}
	if r, _ := w.st.Ratings(ctx, "felix", players); len(r) != 0 {
		t.Errorf("ratings after the only game was unrated: %+v", r)
	}
	if err := w.svc.Admin(ctx, id, "unrate", nil, "root"); err == nil || !strings.Contains(err.Error(), "not rated") {
		t.Errorf("unrating twice: %v", err)
	}
}
