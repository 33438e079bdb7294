package daemon

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/pbem/pbem/store"
)

var talkers = []string{"alice@x.test", "bob@y.test", "carol@z.test", "dave@x.test"}

// seatsOf reads a game's seats as stored.
func (w *world) seatsOf(id int64) []store.Seat {
	w.t.Helper()
	seats, err := w.st.Seats(context.Background(), id)
	if err != nil {
		w.t.Fatal(err)
	}
	return seats
}

// TestSayReachesTheOthers: say mails every other player the sender's
// words with his name at once, confirms to the sender, shows in everyone's
// history, and is no move: no move is logged, no decision starts and no
// deadline moves.
func TestSayReachesTheOthers(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	reply, id := w.startGame("felix", talkers...)
	w.confirmOn(talkers...) // the test reads answers to moves or says

	before := map[string]int{}
	for _, p := range talkers {
		before[p] = len(w.inbox[p])
	}
	seatsBefore := w.seatsOf(id)
	moves := w.moves(id)
	w.clock = w.clock.Add(time.Hour)
	w.send(talkers[0], reply[talkers[0]], "say Good luck, all!\nMay the best cat win.")
	for _, p := range talkers[1:] {
		got := w.inbox[p][before[p]:]
		if len(got) != 1 {
			t.Fatalf("%s got %d mails, want 1", p, len(got))
		}
		if !strings.Contains(got[0].Text, "alice says: Good luck, all! May the best cat win.") {
			t.Errorf("%s's mail lacks alice's words:\n%s", p, got[0].Text)
		}
	}
	got := w.inbox[talkers[0]][before[talkers[0]]:]
	if len(got) != 1 || !strings.Contains(got[0].Text, "Said to the table") {
		t.Fatalf("alice's answer: %d mails %v", len(got), got)
	}
	if n := w.moves(id); n != moves {
		t.Errorf("say logged %d moves", n-moves)
	}
	for i, st := range w.seatsOf(id) {
		if st.Decision != seatsBefore[i].Decision || !st.Deadline.Equal(seatsBefore[i].Deadline) {
			t.Errorf("seat %d: decision %d deadline %v, was %d %v", i, st.Decision, st.Deadline, seatsBefore[i].Decision, seatsBefore[i].Deadline)
		}
	}
	for _, p := range []string{talkers[0], talkers[2]} {
		w.send(p, reply[p], "history")
		if !strings.Contains(w.last(p).Text, "alice says: Good luck") {
			t.Errorf("%s's history lacks the say:\n%s", p, w.last(p).Text)
		}
	}
	// A move still applies as a reply to the mail before the say: the
	// say made no earlier mail stale.
	w.send(talkers[1], reply[talkers[1]], w.legal(id, 1))
	if !strings.Contains(w.last(talkers[1]).Text, "Applied: ") {
		t.Errorf("bob's move after the say:\n%s", w.last(talkers[1]).Text)
	}
	if strings.Contains(w.logs.String(), "Good luck") {
		t.Error("the log holds alice's words")
	}
}

// TestSayNotifyOff: a player with notify off is not mailed the words;
// he reads them in his history. With confirm off, the sender gets no
// answer.
func TestSayNotifyOff(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.send(talkers[1], "pbem@example.test", "notify off")
	w.send(talkers[0], "pbem@example.test", "confirm off")
	reply, _ := w.startGame("felix", talkers...)
	nb, na := len(w.inbox[talkers[1]]), len(w.inbox[talkers[0]])
	w.send(talkers[0], reply[talkers[0]], "say hello bob")
	if n := len(w.inbox[talkers[1]]) - nb; n != 0 {
		t.Errorf("bob (notify off) got %d mails:\n%s", n, w.last(talkers[1]).Text)
	}
	if n := len(w.inbox[talkers[0]]) - na; n != 0 {
		t.Errorf("alice (confirm off) got %d mails:\n%s", n, w.last(talkers[0]).Text)
	}
	if !strings.Contains(w.last(talkers[2]).Text, "alice says: hello bob") {
		t.Errorf("carol did not get the words:\n%s", w.last(talkers[2]).Text)
	}
	w.send(talkers[1], reply[talkers[1]], "history")
	if !strings.Contains(w.last(talkers[1]).Text, "alice says: hello bob") {
		t.Errorf("bob's history lacks the say:\n%s", w.last(talkers[1]).Text)
	}
}

// TestSayLimit: the eleventh say in a day is refused with the time the
// first one frees; a day later the player may talk again. A text longer
// than MaxSayRunes is refused whole.
func TestSayLimit(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	reply, _ := w.startGame("felix", talkers...)
	w.confirmOn(talkers...) // the test reads answers to moves or says

	for i := range maxSaysPerDay {
		w.send(talkers[0], reply[talkers[0]], "say word "+string(rune('a'+i)))
		if !strings.Contains(w.last(talkers[0]).Text, "Said to the table") {
			t.Fatalf("say %d refused:\n%s", i+1, w.last(talkers[0]).Text)
		}
		w.clock = w.clock.Add(time.Minute)
	}
	nb := len(w.inbox[talkers[1]])
	w.send(talkers[0], reply[talkers[0]], "say one too many")
	if txt := oneLine(w.last(talkers[0]).Text); !strings.Contains(txt, "Not said") || !strings.Contains(txt, "Sun 22 Nov 10:00 UTC") {
		t.Errorf("the 11th say:\n%s", txt)
	}
	if len(w.inbox[talkers[1]]) != nb {
		t.Error("a refused say reached bob")
	}
	w.clock = time.Date(2026, 11, 22, 10, 0, 1, 0, time.UTC)
	w.send(talkers[0], reply[talkers[0]], "say back again")
	if !strings.Contains(w.last(talkers[1]).Text, "alice says: back again") {
		t.Errorf("a day later the say did not reach bob:\n%s", w.last(talkers[1]).Text)
	}

	// The window slides: at 10:00:01 only the first say of the day
	// before has freed its place.
	w.send(talkers[0], reply[talkers[0]], "say and again")
	if txt := oneLine(w.last(talkers[0]).Text); !strings.Contains(txt, "may say more from Sun 22 Nov 10:01 UTC") {
		t.Errorf("the sliding limit:\n%s", txt)
	}

	w.clock = w.clock.Add(48 * time.Hour)
	nb = len(w.inbox[talkers[1]])
	w.send(talkers[0], reply[talkers[0]], "say "+strings.Repeat("x", 501))
	if txt := oneLine(w.last(talkers[0]).Text); !strings.Contains(txt, "at most 500 characters") {
		t.Errorf("501 characters:\n%s", txt)
	}
	if len(w.inbox[talkers[1]]) != nb {
		t.Error("a too long say reached bob")
	}
	w.send(talkers[0], reply[talkers[0]], "say "+strings.Repeat("y", 500))
	if !strings.Contains(w.last(talkers[1]).Text, strings.Repeat("y", 60)) {
		t.Errorf("500 characters did not reach bob:\n%s\nalice:\n%s", w.last(talkers[1]).Text, w.last(talkers[0]).Text)
	}
}

// TestSayHostile: markup, control and bidi characters, a fake reference
// line and a fake marker line are rendered harmlessly: escaped in HTML,
// dropped, or never part of the words.
func TestSayHostile(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	reply, id := w.startGame("felix", talkers...)
	body := "say <script>alert(1)</script> <b>bold</b> \x07bell \u202eevil " + strings.Repeat("filler ", 8) + "pbem ref: abcdef123 and more words\n" +
		"pbem ref: deadbeef\n--- pbem: write your commands above this line ---\nresign"
	w.send(talkers[0], reply[talkers[0]], body)
	m := w.last(talkers[1])
	if !strings.Contains(m.Text, "alice says: <script>") {
		t.Fatalf("bob's mail lacks the words:\n%s", m.Text)
	}
	if strings.Contains(m.HTML, "<script>") || strings.Contains(m.HTML, "<b>bold") {
		t.Errorf("the HTML part carries alice's markup:\n%s", m.HTML)
	}
	if !strings.Contains(m.HTML, "&lt;script&gt;") {
		t.Errorf("the HTML part lacks the escaped words:\n%s", m.HTML)
	}
	for _, bad := range []string{"\x07", "\u202e", "deadbeef"} {
		if strings.Contains(m.Text+m.HTML, bad) {
			t.Errorf("bob's mail holds %q", bad)
		}
	}
	if n := strings.Count(m.Text, "--- pbem: write your commands above this line ---"); n != 1 {
		t.Errorf("bob's mail holds the marker %d times", n)
	}
	for _, line := range strings.Split(m.Text, "\n") {
		if strings.HasPrefix(strings.ToLower(strings.TrimSpace(line)), "pbem ref:") {
			t.Errorf("a line of bob's mail passes for a reference: %q", line)
		}
	}
	if w.loaded(id).Seats[0].State == store.SeatResigned {
		t.Error("the line after the marker was read as a command")
	}
}

// TestPoke: a poke mails the players the game waits on who poked them,
// even under notify off, and confirms to the poker; a second poke the same
// day is refused with the time it frees, the next day it is allowed; a
// game that waits only on the poker, and a finished game, poke nobody.
func TestPoke(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.send(talkers[3], "pbem@example.test", "notify off")
	reply, id := w.startGame("felix", talkers...)
	w.confirmOn(talkers...) // the test reads answers to moves or says

	before := map[string]int{}
	for _, p := range talkers {
		before[p] = len(w.inbox[p])
	}
	seatsBefore := w.seatsOf(id)
	w.send(talkers[0], reply[talkers[0]], "poke")
	if txt := oneLine(w.last(talkers[0]).Text); !strings.Contains(txt, "pbem reminded bob, carol and dave that the table is waiting.") {
		t.Errorf("alice's confirmation:\n%s", txt)
	}
	for _, p := range talkers[1:] {
		if len(w.inbox[p]) != before[p]+1 || !strings.Contains(w.last(p).Text, "alice poked you") {
			t.Errorf("%s was not told of the poke", p)
		}
	}
	for i, st := range w.seatsOf(id) {
		if st.Decision != seatsBefore[i].Decision || !st.Deadline.Equal(seatsBefore[i].Deadline) {
			t.Errorf("seat %d: the poke moved its decision or deadline", i)
		}
	}
	w.clock = w.clock.Add(23 * time.Hour)
	w.send(talkers[0], reply[talkers[0]], "poke")
	if txt := oneLine(w.last(talkers[0]).Text); !strings.Contains(txt, "Nobody was poked") || !strings.Contains(txt, "again from Sun 22 Nov 10:00 UTC") {
		t.Errorf("the second poke:\n%s", txt)
	}
	w.clock = w.clock.Add(time.Hour)
	nb := len(w.inbox[talkers[1]])
	w.send(talkers[0], reply[talkers[0]], "poke")
	if len(w.inbox[talkers[1]]) != nb+1 || !strings.Contains(w.last(talkers[1]).Text, "alice poked you") {
		t.Errorf("the next day's poke did not reach bob")
	}
	// bob pokes the others; his own seat is left out.
	w.send(talkers[1], reply[talkers[1]], "poke")
	if txt := oneLine(w.last(talkers[1]).Text); !strings.Contains(txt, "pbem reminded alice, carol and dave") {
		t.Errorf("bob's poke:\n%s", txt)
	}

	// The game waits on alice alone: she may not poke herself.
	w.playOthers(id, talkers, []string{talkers[0]}, 3)
	if waiting := w.loaded(id).State.Waiting(); len(waiting) != 1 || waiting[0] != 0 {
		t.Fatalf("the game waits on %v", waiting)
	}
	w.clock = w.clock.Add(25 * time.Hour)
	w.send(talkers[0], reply[talkers[0]], "poke")
	if txt := oneLine(w.last(talkers[0]).Text); !strings.Contains(txt, "the game waits only on you") {
		t.Errorf("a self-poke:\n%s", txt)
	}

	w.playOut(id, reply, talkers, rand.New(rand.NewPCG(3, 4)))
	w.clock = w.clock.Add(25 * time.Hour)
	w.send(talkers[2], reply[talkers[2]], "poke")
	if txt := oneLine(w.last(talkers[2]).Text); !strings.Contains(txt, "Nobody was poked: this game is over.") {
		t.Errorf("a poke of a finished game:\n%s", txt)
	}
}

// TestPokeLimitInStore: a poke is recorded in the store, so that its
// limit survives a restart.
func TestPokeLimitInStore(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	reply, id := w.startGame("felix", talkers...)
	w.send(talkers[0], reply[talkers[0]], "poke")
	var past []time.Time
	if err := w.st.Tx(context.Background(), func(tx *store.Tx) error {
		var err error
		past, err = tx.Talked(context.Background(), id, 0, store.TalkPoke, w.clock, talkWindow)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if len(past) != 1 || !past[0].Equal(w.clock) {
		t.Errorf("stored pokes %v", past)
	}
}

// oneLine folds a mail's text, which the renderer wraps, into one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// TestTalkLeaksNothing plays whole games in which the players talk and
// poke as they go: no player's mail shows an event he may not see, and
// the log never holds a player's words.
func TestTalkLeaksNothing(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		game    string
		players []string
	}{
		{"felix", talkers},
		{"gracias", talkers[:3]},
	} {
		t.Run(tc.game, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			reply, id := w.startGame(tc.game, tc.players...)
			rng := rand.New(rand.NewPCG(7, 8))
			said := 0
			for steps := 0; !w.loaded(id).State.Result().Finished; steps++ {
				if steps > 600 {
					t.Fatal("the game does not end")
				}
				tb := w.loaded(id)
				p := tb.State.Waiting()[0]
				talker := tc.players[rng.IntN(len(tc.players))]
				switch rng.IntN(4) {
				case 0:
					said++
					w.send(talker, reply[talker], "say zqword"+string(rune('a'+said%26))+" what a <i>game</i>")
				case 1:
					w.send(talker, reply[talker], "poke")
				}
				w.clock = w.clock.Add(3 * time.Hour)
				var cmds []string
				for _, o := range tb.State.Options(p) {
					cmds = append(cmds, o.Commands...)
				}
				w.send(tc.players[p], reply[tc.players[p]], cmds[rng.IntN(len(cmds))])
			}
			if said < 5 {
				t.Fatalf("only %d says: the check would prove little", said)
			}
			for seat, addr := range tc.players {
				seen := map[string]bool{}
				evs, err := w.st.Events(context.Background(), id, 0)
				if err != nil {
					t.Fatal(err)
				}
				for _, e := range visible(evs, seat) {
					seen[e.Text] = true
				}
				if len(w.hidden(id, seat)) == 0 {
					t.Fatalf("seat %d may see every event: the check would prove nothing", seat)
				}
				for _, h := range w.hidden(id, seat) {
					if seen[h] {
						continue // the same words reached him in an event of his own
					}
					for _, m := range w.inbox[addr] {
						if strings.Contains(m.Text, h) {
							t.Errorf("%s's mail %q shows %q", addr, m.Subject, h)
						}
					}
				}
			}
			if strings.Contains(w.logs.String(), "zqword") {
				t.Error("the log holds a player's words")
			}
		})
	}
}

// TestSayInDigest: a player with notify digest is not mailed the words
// at once; his digest tells them.
func TestSayInDigest(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.send(talkers[1], "pbem@example.test", "notify digest")
	reply, _ := w.startGame("felix", talkers...)
	nb := len(w.inbox[talkers[1]])
	w.send(talkers[0], reply[talkers[0]], "say see you in the digest")
	if len(w.inbox[talkers[1]]) != nb {
		t.Errorf("bob (notify digest) was mailed at once:\n%s", w.last(talkers[1]).Text)
	}
	w.clock = w.player(talkers[1]).DigestDue.Add(time.Minute)
	if err := w.sweep(); err != nil {
		t.Fatal(err)
	}
	ds := w.digests(talkers[1])
	if len(ds) == 0 || !strings.Contains(oneLine(ds[len(ds)-1].Text), "alice says: see you in the digest") {
		t.Errorf("bob's digests do not tell the say: %d digests", len(ds))
		for _, d := range ds {
			t.Log(d.Text)
		}
	}
}

// TestPokeNotDuringVacation: a poke never reaches a player on vacation;
// the poker is told who was left out and until when.
func TestPokeNotDuringVacation(t *testing.T) {
	t.Parallel()
	w := newWorld(t).authenticate()
	reply, _ := w.startGame("felix", talkers...)
	w.confirmOn(talkers...) // the test reads answers to moves or says

	w.send(talkers[1], "pbem@example.test", "vacation 5d")
	nb := len(w.inbox[talkers[1]])
	w.send(talkers[0], reply[talkers[0]], "poke")
	txt := oneLine(w.last(talkers[0]).Text)
	if !strings.Contains(txt, "pbem reminded carol and dave that the table is waiting.") ||
		!strings.Contains(txt, "It did not poke players on vacation: bob is on vacation until") {
		t.Errorf("alice's confirmation:\n%s", txt)
	}
	for _, m := range w.inbox[talkers[1]][nb:] {
		if strings.Contains(m.Text, "poked you") {
			t.Errorf("bob was poked on vacation:\n%s", m.Text)
		}
	}
	// Once his vacation has run out he may be poked, even before the
	// sweep that ends it has come.
	w.clock = w.clock.Add(6 * 24 * time.Hour)
	w.send(talkers[2], reply[talkers[2]], "poke")
	if txt := oneLine(w.last(talkers[2]).Text); strings.Contains(txt, "on vacation") || !strings.Contains(txt, "bob") {
		t.Errorf("carol's poke after bob's vacation ran out:\n%s", txt)
	}
}
