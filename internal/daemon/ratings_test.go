package daemon

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pbem/pbem/internal/mailbox"
	"github.com/pbem/pbem/internal/rating"
	"github.com/pbem/pbem/store"
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
	res := w.loaded(id).State.Result()
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

	// Every player's end mail ranks the scores and says what the game did
	// to his rating.
	for i, p := range players {
		end := ""
		for _, m := range w.inbox[p] {
			if strings.Contains(m.Text, "game over") {
				end = unwrapText(m.Text)
			}
		}
		now := rating.Rating{Mu: want[i][0].Mu, Sigma: want[i][0].Sigma}.Ordinal()
		line := fmt.Sprintf("Your rating: %+.1f, now %.1f, ", now-rating.New().Ordinal(), now)
		if !strings.Contains(end, line) || !strings.Contains(end, "of 3 among the players you have played Felix with") || !strings.Contains(end, "- 1st ") {
			t.Errorf("%s's end mail lacks %q, his place or the ranked scores:\n%s", p, line, end)
		}
	}

	// `games` tells who won the finished game, and its scores.
	w.send(alice, "pbem@example.test", "games")
	names := w.loaded(id).Names
	won := names[res.Winners[0]] + " won"
	if len(res.Winners) > 1 {
		won = "shared the win"
	}
	if text := unwrapText(w.last(alice).Text); !strings.Contains(text, "finished: ") || !strings.Contains(text, won) || !strings.Contains(text, fmt.Sprintf("%s %d", names[0], res.Scores[0])) {
		t.Errorf("games lacks the winner (%s) or the scores:\n%s", won, text)
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
	page, err := w.svc.Pages().Page(ctx, tok, -1)
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
	if err := w.adminWords(ctx, id, "unrate", nil, "root"); err != nil {
		t.Fatal(err)
	}
	if st, _ := w.st.Standings(ctx, alice); len(st) != 0 {
		t.Errorf("standings after unrate: %+v", st)
	}
	if r, _ := w.st.Ratings(ctx, "felix", players); len(r) != 0 {
		t.Errorf("ratings after the only game was unrated: %+v", r)
	}
	if err := w.adminWords(ctx, id, "unrate", nil, "root"); err == nil || !strings.Contains(err.Error(), "not rated") {
		t.Errorf("unrating twice: %v", err)
	}
}

// ratingsMailboxWorld is newWorld with the mailbox rule pbem serve runs with
// (limits.subaddress_separators "+"): newWorld's unlimited Limits has
// the zero rule, which strips no sub-address.
func ratingsMailboxWorld(t *testing.T) *world {
	return newWorldConfig(t, func(c *Config) {
		c.Limits = unlimited
		c.Limits.Mailbox = mailbox.Default()
	})
}

// finisherRanks is the finishing order rating would give a game's
// result if only the seats not in resigned had played it, and every seat
// in resigned came last, tied: written out here from rating.Ranks, so
// that the test does not take the rule it checks from the code it
// checks.
func finisherRanks(scores, winners []int, resigned map[int]bool) []int {
	var keep []int
	for i := range scores {
		if !resigned[i] {
			keep = append(keep, i)
		}
	}
	sub, won := make([]int, len(keep)), []int{}
	for k, i := range keep {
		sub[k] = scores[i]
		for _, w := range winners {
			if w == i {
				won = append(won, k)
			}
		}
	}
	r := rating.Ranks(sub, won)
	out := make([]int, len(scores))
	for i := range out {
		out[i] = len(keep) + 1
	}
	for k, i := range keep {
		out[i] = r[k]
	}
	return out
}

// TestResignerRatedLast (issue 33, finding 5): a player who resigns
// every game he is losing is rated last in each, below everyone who
// finished, and the games are rated for everyone: he loses rating, the
// others gain it. When everyone but one resigns, the one wins the
// rating; a game in which everyone resigned, or an admin aborted, is not
// rated.
func TestResignerRatedLast(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	alice, bob, carol := "alice@x.test", "bob@y.test", "carol@z.test"
	players := []string{alice, bob, carol}
	now := map[string]rating.Rating{alice: rating.New(), bob: rating.New(), carol: rating.New()}
	games := map[string]int{}
	for round, quit := range [][]string{{carol}, {carol}, {bob, carol}} {
		reply, id := w.startGame("felix", players...)
		resigned := map[int]bool{}
		for _, q := range quit {
			w.send(q, reply[q], "resign")
			resigned[slices.Index(players, q)] = true
		}
		seats := map[int]string{}
		for i, p := range players {
			if !resigned[i] {
				seats[i] = p
			}
		}
		w.playPeople(id, reply, seats, rand.New(rand.NewPCG(uint64(round), 7)))
		res := w.loaded(id).State.Result()
		ranks := finisherRanks(res.Scores, res.Winners, resigned)
		teams := make([][]rating.Rating, len(players))
		for i, p := range players {
			teams[i] = []rating.Rating{now[p]}
		}
		want := rating.Rate(teams, ranks)
		got, err := w.st.Ratings(ctx, "felix", players)
		if err != nil {
			t.Fatal(err)
		}
		for i, p := range players {
			games[p]++
			if r := got[p]; r.Games != games[p] || !near(r.Mu, want[i][0].Mu) || !near(r.Sigma, want[i][0].Sigma) {
				t.Fatalf("game %d: %s (rank %d of %v, resigned %v): %+v, want %v after %d games", round+1, p, ranks[i], res.Scores, resigned[i], r, want[i][0], games[p])
			}
			if resigned[i] && want[i][0].Mu >= now[p].Mu {
				t.Errorf("game %d: %s resigned and kept his mean skill: %v → %v", round+1, p, now[p].Mu, want[i][0].Mu)
			}
			now[p] = want[i][0]
		}
	}
	if now[carol].Mu >= rating.Mu || now[alice].Mu <= rating.Mu {
		t.Errorf("after resigning three games carol's mean skill is %v, alice's %v", now[carol].Mu, now[alice].Mu)
	}

	// Everyone resigned: nobody finished, and nothing is rated.
	reply, id := w.startGame("felix", players...)
	for _, p := range players {
		w.send(p, reply[p], "resign")
	}
	// pbem makes their moves one deadline sweep at a time.
	for n := 0; !w.loaded(id).State.Result().Finished; n++ {
		if n > 500 {
			t.Fatal("a game of three resigned players does not end")
		}
		if err := w.sweep(); err != nil {
			t.Fatal(err)
		}
	}
	// An admin's abort: not rated either.
	reply, id2 := w.startGame("felix", players...)
	w.send(carol, reply[carol], "resign")
	if err := w.adminWords(ctx, id2, "abort", nil, "root"); err != nil {
		t.Fatal(err)
	}
	got, err := w.st.Ratings(ctx, "felix", players)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range players {
		if got[p].Games != games[p] {
			t.Errorf("%s has %d rated games after a game everyone resigned and an aborted one, want %d", p, got[p].Games, games[p])
		}
	}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// TestSharedMailboxUnrated (issue 33, finding 5): a game among
// alice@x.test, alice+2@x.test and bob, where two seats reach one
// mailbox, is not rated for anyone, and its creator's start mail (his
// alone) says so, naming the two.
func TestSharedMailboxUnrated(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := ratingsMailboxWorld(t)
	alice, alice2, bob := "alice@x.test", "alice+2@x.test", "bob@y.test"
	players := []string{alice, alice2, bob}
	reply, id := w.startGame("felix", players...)
	const told = "This game is not rated: the addresses of "
	start := w.last(alice)
	if !strings.Contains(start.Text, told) || !strings.Contains(start.HTML, told) {
		t.Fatalf("the creator's start mail does not say the game is not rated:\n%s", start.Text)
	}
	names := w.loaded(id).Names
	if !strings.Contains(strings.Join(strings.Fields(start.Text), " "), told+names[0]+" and "+names[1]+" reach one mailbox") {
		t.Errorf("the start mail names other players than %v:\n%s", names[:2], start.Text)
	}
	for _, p := range []string{alice2, bob} {
		if m := w.last(p); strings.Contains(m.Text, told) {
			t.Errorf("%s, not the creator, was told:\n%s", p, m.Text)
		}
	}
	w.playOut(id, reply, players, rand.New(rand.NewPCG(5, 5)))
	got, err := w.st.Ratings(ctx, "felix", players)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 0 {
		t.Errorf("a game of one mailbox's seats was rated: %+v", got)
	}
	for _, p := range players {
		if st, _ := w.st.Standings(ctx, p); len(st) != 0 {
			t.Errorf("%s has standings: %+v", p, st)
		}
	}

	// A game with every seat its own mailbox: no such sentence.
	_, _ = w.startGame("felix", alice, bob, "carol@z.test")
	if m := w.last(alice); strings.Contains(m.Text, told) {
		t.Errorf("a game of three mailboxes is said to be unrated:\n%s", m.Text)
	}
}

// TestRatingIsTheMailbox (issue 33, finding 5): a player is rated as his
// mailbox, whatever spelling of it his seats had: games played as
// alice+games@x.test and as alice@x.test are one player's, and his
// standings, asked from a third spelling, mark his row as his.
func TestRatingIsTheMailbox(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := ratingsMailboxWorld(t)
	bob, carol := "bob@y.test", "carol@z.test"
	for i, alice := range []string{"alice+games@x.test", "alice@x.test"} {
		players := []string{alice, bob, carol}
		reply, id := w.startGame("felix", players...)
		w.playOut(id, reply, players, rand.New(rand.NewPCG(uint64(i), 9)))
	}
	got, err := w.st.Ratings(ctx, "felix", []string{"alice@x.test", "alice+games@x.test"})
	if err != nil {
		t.Fatal(err)
	}
	if got["alice@x.test"].Games != 2 || len(got) != 1 {
		t.Errorf("alice's ratings: %+v, want one mailbox's, after 2 games", got)
	}
	w.send("alice+web@x.test", "pbem@example.test", "standings")
	m := w.last("alice+web@x.test")
	if !strings.Contains(m.Text, "(you)") || !strings.Contains(m.Text, "after 2 rated games") {
		t.Errorf("standings asked from alice+web@x.test:\n%s", m.Text)
	}
	if strings.Count(m.Text, "(you)") != 1 {
		t.Errorf("alice stands twice in her standings:\n%s", m.Text)
	}
}

// TestRekeyRatings: the ratings recorded before a rated player was his
// mailbox (each address its own, as migration 00021 leaves them) are
// keyed by mailbox as pbem serve starts: a game among one mailbox's
// spellings is taken out of the ratings, and the games of one mailbox's
// spellings count as one player's. Starting again changes nothing.
func TestRekeyRatings(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := ratingsMailboxWorld(t)
	a0, a1, a2, bob := "alice@x.test", "alice+1@x.test", "alice+2@x.test", "bob@y.test"
	played := [][2]string{{a1, a0}, {a2, bob}, {bob, a0}} // winner first
	err := w.st.Tx(ctx, func(tx *store.Tx) error {
		now := map[string]store.PlayerRating{}
		for i, pair := range played {
			for _, a := range pair {
				if _, err := tx.UpsertPlayer(ctx, a, ""); err != nil {
					return err
				}
			}
			id, err := tx.CreateGame(ctx, store.NewGame{Kind: "felix", Setup: []byte(`{}`), Creator: pair[0], CreatedAt: w.clock, TurnTime: time.Hour})
			if err != nil {
				return err
			}
			g := store.RatedGame{GameID: id, Kind: "felix", At: w.clock.Add(time.Duration(i) * time.Minute), Seats: []store.RatedSeat{
				{Address: pair[0], Mailbox: pair[0], Name: "w", Rank: 1}, {Address: pair[1], Mailbox: pair[1], Name: "l", Rank: 2}}}
			rated := rateOne("felix", g, now)
			for _, p := range rated {
				now[p.Mailbox] = p
			}
			if err := tx.RateGame(ctx, g, rated); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// What the ratings are when alice is one player and the first game,
	// alice against herself, is not rated.
	n := rating.New()
	g2 := rating.Rate([][]rating.Rating{{n}, {n}}, []int{1, 2})
	g3 := rating.Rate([][]rating.Rating{{g2[1][0]}, {g2[0][0]}}, []int{1, 2})
	want := map[string]rating.Rating{a0: g3[1][0], bob: g3[0][0]}
	for run := range 2 {
		if err := w.svc.keyRatingsByMailbox(ctx); err != nil {
			t.Fatal(err)
		}
		got, err := w.st.Ratings(ctx, "felix", []string{a0, a1, a2, bob})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 {
			t.Errorf("start %d: ratings of %d mailboxes, want alice's and bob's: %+v", run+1, len(got), got)
		}
		for _, p := range []string{a0, bob} {
			if r := got[p]; r.Games != 2 || !near(r.Mu, want[p].Mu) || !near(r.Sigma, want[p].Sigma) {
				t.Errorf("start %d: %s: %+v, want %v after 2 games", run+1, p, r, want[p])
			}
		}
	}
}
