package daemon

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// Tests of the attacks the audit reproduced against a running pbem
// (issue "Hostile mail harms no one"): each floods pbem the way the audit
// did and checks what pbem sent.

func limitedWorld(t *testing.T, l Limits) *world {
	return newWorldConfig(t, func(c *Config) { c.Limits, c.Admins, c.AdminToken = l, "boss@ops.test", "k7qpz2xw9mr4tb8vn3cj" })
}

// A thousand `rules felix` with a forged From give the victim at most a
// day's answers; two hundred nonsense mails likewise.
func TestFloodOfAnswers(t *testing.T) {
	t.Parallel()
	w := limitedWorld(t, Limits{AnswersPerDay: 30, LobbyPerHour: 1 << 20, LoopPerMinute: 1 << 20})
	for i := 0; i < 1000; i++ {
		w.send("victim@x.test", "pbem@example.test", "rules felix")
	}
	if n := len(w.inbox["victim@x.test"]); n != 30 {
		t.Errorf("the victim got %d mails for 1000 requests, want the day's 30", n)
	}
	for i := 0; i < 200; i++ {
		w.send("other@x.test", "pbem@example.test", fmt.Sprintf("gibberish %d", i))
	}
	if n := len(w.inbox["other@x.test"]); n != 30 {
		t.Errorf("200 nonsense mails got %d answers, want 30", n)
	}
	// A day later the budget is whole again.
	w.clock = w.clock.Add(24*time.Hour + time.Second)
	w.send("victim@x.test", "pbem@example.test", "rules felix")
	if n := len(w.inbox["victim@x.test"]); n != 31 {
		t.Errorf("the next day's answer did not come: %d mails", n)
	}
	// Every mail is on record, answered or not.
	all, err := w.st.AllInbound(context.Background())
	if err != nil || len(all) != 1201 {
		t.Errorf("%d mails recorded (%v), want 1201", len(all), err)
	}
}

// Game mails to the players of a running game are not limited.
func TestGameMailIsNotLimited(t *testing.T) {
	t.Parallel()
	w := limitedWorld(t, Limits{AnswersPerDay: 2, LobbyPerHour: 1 << 20, LoopPerMinute: 1 << 20})
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test"}
	reply, id := w.startGame("felix", players...)
	w.confirmOn(players...) // the test reads answers to moves or says

	before := len(w.inbox["bob@y.test"])
	for i := 0; i < 5; i++ {
		tb := w.loaded(id)
		p := tb.State.Waiting()[0]
		w.send(players[p], reply[players[p]], w.legal(id, p))
	}
	if len(w.inbox["bob@y.test"]) <= before+2 {
		t.Errorf("bob's game mails were limited: %d after %d", len(w.inbox["bob@y.test"]), before)
	}
}

// One mail of sixty `new` lines makes one game and one invitation each;
// the same inviter cannot invite an address that never played again the
// same day.
func TestOneNewPerMailAndInvitationLimits(t *testing.T) {
	t.Parallel()
	w := limitedWorld(t, Limits{AnswersPerDay: 1000, LobbyPerHour: 1000, LoopPerMinute: 1 << 20})
	body := strings.Repeat("new felix with a@third.test b@third.test\n", 60)
	w.send("mallory@evil.test", "pbem@example.test", body)
	for _, a := range []string{"a@third.test", "b@third.test"} {
		if n := len(w.inbox[a]); n != 1 {
			t.Errorf("%s got %d invitations from one mail, want 1", a, n)
		}
	}
	games, err := w.st.AllGames(context.Background())
	if err != nil || len(games) != 1 {
		t.Fatalf("%d games made (%v), want 1", len(games), err)
	}
	if got := strings.Join(strings.Fields(w.last("mallory@evil.test").Text), " "); !strings.Contains(got, "pbem starts one game per mail") {
		t.Errorf("the inviter was not told why the other lines were not done:\n%s", got)
	}
	w.send("mallory@evil.test", "pbem@example.test", "new felix with a@third.test b@third.test")
	if n := len(w.inbox["a@third.test"]); n != 1 {
		t.Errorf("a second invitation the same day: %d", n)
	}
	if got := strings.Join(strings.Fields(w.last("mallory@evil.test").Text), " "); !strings.Contains(got, "invited by you less than a day ago") {
		t.Errorf("the second invitation's refusal:\n%s", got)
	}
	// Another inviter may invite; the next day the first may again.
	w.send("carol@z.test", "pbem@example.test", "new felix with a@third.test dave@z.test")
	if n := len(w.inbox["a@third.test"]); n != 2 {
		t.Errorf("another inviter's invitation did not come: %d", n)
	}
	w.clock = w.clock.Add(25 * time.Hour)
	w.send("mallory@evil.test", "pbem@example.test", "new felix with a@third.test b@third.test")
	if n := len(w.inbox["a@third.test"]); n != 3 {
		t.Errorf("the next day's invitation did not come: %d", n)
	}
}

// `never` declines and blocks every later invitation, until the address
// starts a game itself.
func TestNever(t *testing.T) {
	t.Parallel()
	w := limitedWorld(t, Limits{AnswersPerDay: 1000, LobbyPerHour: 1000, LoopPerMinute: 1 << 20})
	w.send("alice@x.test", "pbem@example.test", "new felix with bob@y.test carol@z.test")
	w.send("bob@y.test", w.last("bob@y.test").ReplyTo, "never")
	if got := w.last("alice@x.test"); !strings.Contains(got.Headline, "will not start") {
		t.Errorf("never did not decline the invitation: %q", got.Headline)
	}
	n := len(w.inbox["bob@y.test"])
	w.clock = w.clock.Add(48 * time.Hour)
	w.send("carol@z.test", "pbem@example.test", "new felix with bob@y.test alice@x.test")
	if len(w.inbox["bob@y.test"]) != n {
		t.Error("bob was invited after never")
	}
	if got := strings.Join(strings.Fields(w.last("carol@z.test").Text), " "); !strings.Contains(got, "bob@y.test has asked pbem never to invite it") {
		t.Errorf("the inviter was not told:\n%s", got)
	}
	w.send("bob@y.test", "pbem@example.test", "new felix with alice@x.test carol@z.test")
	w.send("carol@z.test", "pbem@example.test", "new gracias with bob@y.test alice@x.test")
	if len(w.inbox["bob@y.test"]) < n+2 {
		t.Error("after starting a game himself, bob still gets no invitations")
	}
}

// An auto-responder that marks its mail in no known way: the breaker
// stops the loop after 20 answers and one notice that says so, and tells
// the admins once. (TestBreakerStopsALoopInAGameThread: the same in a
// game's thread.)
func TestLoopBreaker(t *testing.T) {
	t.Parallel()
	w := limitedWorld(t, Limits{AnswersPerDay: 1 << 20, LobbyPerHour: 1 << 20, LoopPerMinute: 20})
	for i := 0; i < 200; i++ {
		// The responder answers whatever it got; pbem answers that.
		w.send("robot@auto.test", "pbem@example.test", "Thank you for your mail. I will read it soon.")
	}
	if n := len(w.inbox["robot@auto.test"]); n != 21 {
		t.Errorf("pbem sent the responder %d mails in a minute, want 20 answers and one notice", n)
	}
	if n := w.holding("robot@auto.test"); n != 1 {
		t.Errorf("%d notices that pbem holds its answers, want 1", n)
	}
	got := w.last("robot@auto.test")
	if text := strings.Join(strings.Fields(got.Subject+" "+got.Text), " "); !strings.Contains(text, "pbem is holding its answers to you for about 60 seconds") ||
		!strings.Contains(text, "had to answer more than 20 of your mails to its own address, pbem@example.test, within a minute") {
		t.Errorf("the notice:\n%s", text)
	}
	if n := len(w.inbox["boss@ops.test"]); n != 1 {
		t.Fatalf("the admins got %d mails about the loop, want 1", n)
	}
	if got := w.last("boss@ops.test"); !strings.Contains(got.Text, "robot@auto.test") {
		t.Errorf("the admins' mail:\n%s", got.Text)
	}
	// A minute after the flood the address is answered again.
	w.clock = w.clock.Add(2 * time.Minute)
	n := len(w.inbox["robot@auto.test"])
	w.send("robot@auto.test", "pbem@example.test", "help")
	if len(w.inbox["robot@auto.test"]) != n+1 {
		t.Error("the breaker did not close after the flood")
	}
}

// The admin token: weak ones are refused at start; it is compared
// exactly; and a wrong, another seat's or the admins' token from a
// stranger all get the same answer.
func TestAdminToken(t *testing.T) {
	t.Parallel()
	for _, tok := range []string{"short", "aaaaaaaaaaaaaaaaaaaaaaaaa", "abababababababababababab", "k7qpz2xw9mr4tb8vn3c!", "K7QPZ2XW9MR4TB8VN3CJ"} {
		c := testConfig()
		c.AdminToken = tok
		if err := c.check(); err == nil {
			t.Errorf("the admin token %q was accepted", tok)
		}
	}
	c := testConfig()
	c.AdminToken = "k7qpz2xw9mr4tb8vn3cj"
	if err := c.check(); err != nil {
		t.Errorf("a strong token was refused: %v", err)
	}
	w := limitedWorld(t, Limits{AnswersPerDay: 1 << 20, LobbyPerHour: 1 << 20, LoopPerMinute: 1 << 20})
	reply, _ := w.startGame("felix", "alice@x.test", "bob@y.test", "carol@z.test")
	// One character off is no admin token, even from an admin.
	w.send("boss@ops.test", "pbem+k7qpz2xw9mr4tb8vn3ck@example.test", "1 pause")
	if got := w.last("boss@ops.test").Text; strings.Contains(got, `"1 pause": done.`) {
		t.Errorf("a wrong admin token was taken:\n%s", got)
	}
	w.send("boss@ops.test", "pbem+k7qpz2xw9mr4tb8vn3cj@example.test", "1 pause")
	if got := w.last("boss@ops.test").Text; !strings.Contains(got, `"1 pause": done.`) {
		t.Errorf("the admin token was not taken:\n%s", got)
	}
	var answers []string
	for _, to := range []string{"pbem+nosuchtoken@example.test", reply["bob@y.test"], "pbem+k7qpz2xw9mr4tb8vn3cj@example.test"} {
		w.send("mallory@evil.test", to, "pass")
		m := w.last("mallory@evil.test")
		answers = append(answers, m.Headline+"\n"+m.Text)
	}
	if answers[0] != answers[1] || answers[1] != answers[2] {
		t.Errorf("the answers to an unknown, a foreign and the admin token differ:\n%s\n---\n%s\n---\n%s", answers[0], answers[1], answers[2])
	}
}
