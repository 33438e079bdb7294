package daemon

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/pbem/pbem/engine"
)

// Tests that what pbem answers is true: each one was seen false in a real
// game (issue "Every real client's reply read right, and every answer pbem
// sends true").

// reply sends body as a reply to the mail with Message-ID id.
func (w *world) reply(from, to, body, id string) {
	w.t.Helper()
	w.send(from, to, body, "In-Reply-To: <"+id+">", "References: <"+id+">")
}

// legal is a command seat may give now.
func (w *world) legal(id int64, seat int) string {
	w.t.Helper()
	opts := w.loaded(id).State.Options(seat)
	if len(opts) == 0 {
		w.t.Fatalf("seat %d has nothing to do", seat)
	}
	return opts[0].Commands[0]
}

func (w *world) moves(id int64) int {
	w.t.Helper()
	ms, err := w.st.Moves(context.Background(), id, 0)
	if err != nil {
		w.t.Fatal(err)
	}
	return len(ms)
}

// A mail whose commands were applied and whose reading then stopped gets
// one answer, which says both; never "could not be read".
func TestAppliedThenStoppedIsOneAnswer(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test"}
	reply, id := w.startGame("felix", players...)
	cmd := w.legal(id, 0)
	before := len(w.inbox["alice@x.test"])
	w.send("alice@x.test", reply["alice@x.test"], cmd+"\nhello there, how are you all")
	got := w.inbox["alice@x.test"][before:]
	if len(got) != 1 {
		t.Fatalf("alice got %d answers, want 1", len(got))
	}
	text := strings.Join(strings.Fields(got[0].Text), " ")
	for _, want := range []string{"Applied: " + cmd + ".", `pbem stopped reading at "hello there, how are you all"`, "The rest of your mail was ignored."} {
		if !strings.Contains(text, want) {
			t.Errorf("the answer lacks %q:\n%s", want, got[0].Text)
		}
	}
	if strings.Contains(strings.ToLower(got[0].Text+got[0].Headline), "could not be read") {
		t.Errorf("the answer says the mail could not be read:\n%s\n%s", got[0].Headline, got[0].Text)
	}
	if applied := strings.Index(text, "Applied:"); applied < 0 || applied > strings.Index(text, "stopped reading") {
		t.Errorf("the answer does not start with what was applied:\n%s", got[0].Text)
	}
}

// The same for settings in the lobby: one answer.
func TestLobbySettingThenStoppedIsOneAnswer(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.send("alice@x.test", "pbem@example.test", "timezone Europe/Berlin\nblah blah")
	if n := len(w.inbox["alice@x.test"]); n != 1 {
		t.Fatalf("alice got %d answers, want 1", n)
	}
	text := strings.Join(strings.Fields(w.last("alice@x.test").Text), " ")
	if !strings.Contains(text, "Europe/Berlin") || !strings.Contains(text, `stopped reading at "blah blah"`) {
		t.Errorf("answer:\n%s", text)
	}
}

// A reply to a mail about an earlier decision is not applied once the
// table has changed; the answer says why and shows the table; a reply to
// the answer is applied. A reply to the start mail during a simultaneous
// placement is not stale: the player's decision is the same one.
func TestStaleReply(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test", "dave@x.test"}
	reply, id := w.startGame("felix", players...)
	start := w.last("dave@x.test")
	// Everyone but dave places; dave then answers his start mail.
	for p := 0; p < 3; p++ {
		w.send(players[p], reply[players[p]], w.legal(id, p))
	}
	n := w.moves(id)
	w.reply("dave@x.test", reply["dave@x.test"], w.legal(id, 3), start.MessageID)
	if w.moves(id) != n+1 {
		t.Fatalf("a reply to the start mail during the placement was not applied:\n%s", w.last("dave@x.test").Text)
	}

	// The auction: the first bidder's mail now; he bids, the others
	// answer until he must decide again.
	tb := w.loaded(id)
	p := tb.State.Waiting()[0]
	old := w.last(players[p])
	w.send(players[p], reply[players[p]], w.legal(id, p))
	for steps := 0; ; steps++ {
		if steps > 100 {
			t.Fatal("the bidder never had to decide again")
		}
		tb = w.loaded(id)
		if slices.Contains(tb.State.Waiting(), p) {
			break
		}
		q := tb.State.Waiting()[0]
		w.send(players[q], reply[players[q]], w.legal(id, q))
	}
	n = w.moves(id)
	cmd := w.legal(id, p)
	w.reply(players[p], reply[players[p]], cmd, old.MessageID)
	if w.moves(id) != n {
		t.Fatalf("a reply to an older decision's mail was applied")
	}
	answer := w.last(players[p])
	text := strings.Join(strings.Fields(answer.Text), " ")
	if !strings.Contains(text, "Not applied: "+cmd+": your mail answers an older mail of this game") {
		t.Errorf("the stale reply's answer does not say why:\n%s", answer.Text)
	}
	if !strings.Contains(text, "Your move:") {
		t.Errorf("the stale reply's answer does not show the table as it is now:\n%s", answer.Text)
	}
	w.reply(players[p], reply[players[p]], cmd, answer.MessageID)
	if w.moves(id) != n+1 {
		t.Fatalf("a reply to the current mail was not applied:\n%s", w.last(players[p]).Text)
	}
}

// A fresh mail (a reply to nothing of pbem's) is applied as it stands.
func TestFreshMailIsNotStale(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test"}
	reply, id := w.startGame("felix", players...)
	w.reply("alice@x.test", reply["alice@x.test"], w.legal(id, 0), "someone-elses-mail@x.test")
	if w.moves(id) != 1 {
		t.Fatalf("a mail answering no mail of pbem's was not applied")
	}
}

// `name` changes what the others see, in running games too, and in the
// game's record; clashes and command words are refused.
func TestRename(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test"}
	reply, id := w.startGame("gracias", players...)
	w.send("bob@y.test", reply["bob@y.test"], "name Robert")
	if got := w.last("bob@y.test").Text; !strings.Contains(got, "Your name is now robert") {
		t.Fatalf("rename answer:\n%s", got)
	}
	tb := w.loaded(id)
	if tb.Names[1] != "robert" || tb.State.Players()[1] != "robert" {
		t.Fatalf("after the rename the game has %v, the engine %v", tb.Names, tb.State.Players())
	}
	g, err := w.st.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	var setup engine.Setup
	if err := json.Unmarshal(g.Setup, &setup); err != nil || setup.Players[1] != "robert" {
		t.Fatalf("the set-up still has %v (%v)", setup.Players, err)
	}
	// The table is told, and sees the new name from now on.
	p := tb.State.Waiting()[0]
	w.send(players[p], reply[players[p]], w.legal(id, p))
	other := w.last("alice@x.test")
	if p == 0 {
		other = w.last("carol@z.test")
	}
	if !strings.Contains(other.Text, "bob is now called robert.") || !strings.Contains(other.Text, "robert") {
		t.Errorf("the table was not told of the rename:\n%s", other.Text)
	}
	checkReplay(t, w, id)

	for _, tc := range []struct{ who, name, want string }{
		{"carol@z.test", "name alice", "alice is the name of another player"},
		{"carol@z.test", "name robert", "robert is the name of another player"},
		{"carol@z.test", "name pass", "is a word of pbem's commands"},
		{"carol@z.test", "name red", "is a word of pbem's commands"},
		{"carol@z.test", "name rot", "is a word of pbem's commands"},
		{"carol@z.test", "name nimm", "is a word of pbem's commands"},
		{"carol@z.test", "name Zurueck", "is a word of pbem's commands"},
		{"carol@z.test", "name Carol the Great", "one word"},
		{"carol@z.test", "name 9lives", "a letter, then"},
	} {
		w.send(tc.who, reply[tc.who], tc.name)
		if got := strings.Join(strings.Fields(w.last(tc.who).Text), " "); !strings.Contains(got, "Your name was not changed: ") || !strings.Contains(got, tc.want) {
			t.Errorf("%s: answer lacks %q:\n%s", tc.name, tc.want, got)
		}
	}
	if w.loaded(id).Names[2] != "carol" {
		t.Fatalf("a refused rename changed the game: %v", w.loaded(id).Names)
	}

	// A new game uses the chosen name.
	w.send("bob@y.test", "pbem@example.test", "new felix with alice@x.test carol@z.test")
	if names := w.loaded(id + 1).Names; names[0] != "robert" {
		t.Errorf("the new game names its creator %q", names[0])
	}
}

// Every player gets the start mail, also one who had a game mail while
// the game waited for the others.
func TestEveryoneGetsTheStartMail(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.send("alice@x.test", "pbem@example.test", "new felix with bob@y.test carol@z.test")
	bob, carol := w.last("bob@y.test").ReplyTo, w.last("carol@z.test").ReplyTo
	alice := w.last("alice@x.test").ReplyTo
	w.send("alice@x.test", alice, "status")
	w.send("bob@y.test", bob, "join")
	w.send("bob@y.test", bob, "status")
	w.send("carol@z.test", carol, "join")
	for _, p := range []string{"alice@x.test", "bob@y.test", "carol@z.test"} {
		m := w.last(p)
		if !strings.Contains(m.Text, "- Felix: The Cat in the Sack for") || !strings.Contains(m.Text, "Everyone has joined: the game begins.") {
			t.Errorf("%s's last mail is not the start mail: %q\n%s", p, m.Headline, m.Text)
		}
	}
}

// Resigned seats move at once, in the resignation's own transaction; the
// others are told once that pbem plays the seat, and never that its
// deadline passed.
func TestResignMovesAtOnce(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test"}
	reply, id := w.startGame("felix", players...)
	w.send("carol@z.test", reply["carol@z.test"], "resign")
	if slices.Contains(w.loaded(id).State.Waiting(), 2) {
		t.Fatal("the game still waits on the resigned seat")
	}
	if w.moves(id) != 1 {
		t.Fatalf("%d moves after the resignation, want carol's default placement", w.moves(id))
	}
	got := w.last("carol@z.test")
	if strings.Contains(strings.ToLower(got.Headline), "your turn") || !strings.Contains(got.Text, "You have resigned") {
		t.Errorf("the goodbye mail: %q\n%s", got.Headline, got.Text)
	}
	told := w.last("alice@x.test").Text
	if !strings.Contains(strings.Join(strings.Fields(told), " "), "carol resigned; pbem's bot plays for carol from now on.") {
		t.Errorf("alice was not told of the resignation:\n%s", told)
	}
	w.playOut(id, reply, players, rand.New(rand.NewPCG(3, 4)))
	var after []string
	for _, m := range w.inbox["carol@z.test"] {
		if strings.Contains(m.Text, "You have resigned") || len(after) > 0 {
			after = append(after, m.Headline)
		}
	}
	if len(after) != 2 || !strings.Contains(after[1], "game over") {
		t.Errorf("after resigning carol got %q, want the goodbye and the final result", after)
	}
	for _, p := range players {
		for _, m := range w.inbox[p] {
			if strings.Contains(m.Text, "deadline passed") {
				t.Errorf("%s was told a deadline passed:\n%s", p, m.Text)
			}
		}
	}
}

// history sends the whole history, with what the player can do now.
func TestHistoryOnYourTurn(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test"}
	reply, _ := w.startGame("felix", players...)
	w.send("alice@x.test", reply["alice@x.test"], "history")
	m := w.last("alice@x.test")
	if strings.Contains(m.Text, "Not your turn") || strings.Contains(strings.ToLower(m.Headline), "waiting for") {
		t.Errorf("history on alice's turn says it is not her turn: %q\n%s", m.Headline, m.Text)
	}
	if !strings.Contains(m.Text, "Your move:") || !strings.Contains(m.Text, "The whole game so far") {
		t.Errorf("history:\n%s", m.Text)
	}
}

// The admin's help by mail shows game numbers where a game's number
// belongs (admin.Usage; internal/admin tests its every line).
func TestAdminUsageShowsGameNumbers(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.svc.cfg.Admins, w.svc.cfg.AdminToken = "boss@ops.test", "k7qpz2xw9mr4tb8vn3cj"
	w.svc.newPost()
	w.send("boss@ops.test", "pbem+k7qpz2xw9mr4tb8vn3cj@example.test", "help")
	got := w.last("boss@ops.test").Text
	if strings.Contains(got, "felix extend") || !strings.Contains(got, "12 extend bob 24h") {
		t.Errorf("admin help:\n%s", got)
	}
}

// A wrong player count is not "could not be read".
func TestWrongCountIsNotUnreadable(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.send("alice@x.test", "pbem@example.test", "new felix with bob@y.test")
	m := w.last("alice@x.test")
	if strings.Contains(strings.ToLower(m.Headline+m.Text), "could not be read") {
		t.Errorf("answer: %q\n%s", m.Headline, m.Text)
	}
	if !strings.Contains(m.Text, "3 to 5 players") {
		t.Errorf("answer does not say the count:\n%s", m.Text)
	}
}

// A command in the Subject of a mail whose text has none is read, and the
// answer says so.
func TestCommandInSubject(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test"}
	reply, id := w.startGame("felix", players...)
	w.confirmOn(players...) // the test reads answers to moves or says

	cmd := w.legal(id, 1)
	w.send("bob@y.test", reply["bob@y.test"], "", "Subject: Re: "+cmd)
	if w.moves(id) != 1 {
		t.Fatalf("the Subject's command was not applied:\n%s", w.last("bob@y.test").Text)
	}
	got := strings.Join(strings.Fields(w.last("bob@y.test").Text), " ")
	if !strings.Contains(got, "pbem read your command from the Subject line") || !strings.Contains(got, "Applied: "+cmd+".") {
		t.Errorf("the answer does not say the command came from the Subject:\n%s", got)
	}
	// pbem's own subject is not a command: the body's problem is told.
	w.send("carol@z.test", reply["carol@z.test"], "", "Subject: Re: Felix #1: your turn to place a card (round 1)")
	if w.moves(id) != 1 {
		t.Fatal("pbem's own subject was read as a command")
	}
}
