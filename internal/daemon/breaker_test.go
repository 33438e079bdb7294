package daemon

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/pbem/pbem/store"
)

// Tests of the loop breaker (issue 23, findings 1 and 2): it limits what
// pbem sends to a mail program that answers pbem by itself; it never drops
// a player's move, and no stranger can turn it against a player.

// breakerWorld is a world with the limits `pbem serve` runs with when
// nothing is configured (loop_per_minute 20) and an admin to tell,
// changed by override if not nil.
func breakerWorld(t *testing.T, override func(*Config)) *world {
	t.Helper()
	w := newWorldConfig(t, func(c *Config) {
		c.Admins, c.AdminToken = "boss@ops.test", "k7qpz2xw9mr4tb8vn3cj"
		if override != nil {
			override(c)
		}
	})
	if got := w.svc.cfg.Limits.LoopPerMinute; got != 20 {
		t.Fatalf("the default loop_per_minute is %d; the tests below are written for 20", got)
	}
	return w
}

// inboundFrom lists the records of the mails from addr, in order.
func (w *world) inboundFrom(addr string) []store.Inbound {
	w.t.Helper()
	all, err := w.st.AllInbound(context.Background())
	if err != nil {
		w.t.Fatal(err)
	}
	var out []store.Inbound
	for _, in := range all {
		if in.From == addr {
			out = append(out, in)
		}
	}
	return out
}

// holding counts the mails to addr that say pbem holds its answers.
func (w *world) holding(addr string) int {
	n := 0
	for _, m := range w.inbox[addr] {
		if strings.Contains(m.Headline+m.Subject, "pbem is holding its answers") {
			n++
		}
	}
	return n
}

// One person against three bots, who answer at once, plays at 30
// commands a minute: every command is applied and answered, none counts
// towards the breaker.
func TestBreakerFastPersonAgainstBots(t *testing.T) {
	t.Parallel()
	w := breakerWorld(t, nil)
	alice := "alice@x.test"
	reply, id := w.botGame("felix", "3 bots", alice)
	rng := rand.New(rand.NewPCG(23, 1))
	commands := 0
	for w.table(id).row.Status != store.StatusFinished {
		if commands > 500 {
			t.Fatal("the game does not end")
		}
		tb := w.table(id)
		waiting := tb.game.Waiting()
		if len(waiting) == 0 || waiting[0] != 0 {
			t.Fatalf("after %d commands the game is %s and waits on %v, not on alice", commands, tb.row.Status, waiting)
		}
		var cmds []string
		for _, o := range tb.game.Options(0) {
			cmds = append(cmds, o.Commands...)
		}
		w.clock = w.clock.Add(2 * time.Second) // 30 commands a minute
		before := len(w.inbox[alice])
		w.send(alice, reply[alice], cmds[rng.IntN(len(cmds))])
		commands++
		if len(w.inbox[alice]) == before {
			t.Fatalf("alice's command %d got no answer", commands)
		}
	}
	if limit := w.svc.cfg.Limits.LoopPerMinute; commands <= limit {
		t.Fatalf("alice gave only %d commands, not more than loop_per_minute (%d): the test shows nothing", commands, limit)
	}
	ins := w.inboundFrom(alice)
	if len(ins) != commands+1 { // and her `new`
		t.Fatalf("%d mails of alice recorded, want %d", len(ins), commands+1)
	}
	for i, in := range ins {
		if Outcome(in.Outcome) != OutcomeApplied {
			t.Errorf("alice's mail %d: %s (%s)", i, in.Outcome, in.Detail)
		}
	}
	if n := w.holding(alice); n != 0 {
		t.Errorf("alice was told %d times that pbem holds its answers", n)
	}
	if n := len(w.inbox["boss@ops.test"]); n != 0 {
		t.Errorf("the admins were told of a loop: %s", w.last("boss@ops.test").Text)
	}
}

// Forged mails in a player's name before his move: automatic ones (no
// answer, and never counted), and ones with no marker, with or without
// sender authentication. His move is applied and answered every time.
func TestBreakerForgedMailsDoNotLockOutAPlayer(t *testing.T) {
	t.Parallel()
	const mx = "mx.pbem.test"
	for _, tc := range []struct {
		name    string
		auth    bool     // trust_authentication_results is set
		forged  []string // the forgery's header fields
		body    string
		to      string // "" for pbem's bare address, "seat" for a token guessed wrong
		refused bool   // the forgeries are refused unread
	}{
		{name: "automatic", forged: []string{"Auto-Submitted: auto-replied"}, body: "I am away."},
		{name: "automatic to a guessed token", forged: []string{"Auto-Submitted: auto-replied"}, body: "play 1", to: "seat"},
		{name: "automatic, authentication trusted", auth: true, forged: []string{"Auto-Submitted: auto-replied"}, body: "I am away."},
		{name: "plain, authentication trusted", auth: true, body: "help", refused: true},
		{name: "plain to a guessed token, authentication trusted", auth: true, body: "play 1", to: "seat", refused: true},
		{name: "plain, no authentication", body: "help"},
		{name: "plain to a guessed token, no authentication", body: "play 1", to: "seat"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := breakerWorld(t, func(c *Config) {
				if tc.auth {
					c.TrustAuthServID = mx
				}
			})
			// genuine is what the players' own mail carries: the
			// receiving server's pass, where it is trusted.
			genuine := func(addr string) []string {
				if !tc.auth {
					return nil
				}
				_, domain, _ := strings.Cut(addr, "@")
				return []string{"Authentication-Results: " + mx + "; dmarc=pass header.from=" + domain}
			}
			players := []string{"alice@x.test", "bob@y.test", "carol@z.test", "dave@w.test"}
			w.send(players[0], "pbem@example.test", "new felix with "+strings.Join(players[1:], " "), genuine(players[0])...)
			reply := map[string]string{players[0]: w.last(players[0]).ReplyTo}
			for _, p := range players[1:] {
				reply[p] = w.last(p).ReplyTo
				w.send(p, reply[p], "join", genuine(p)...)
			}
			id := w.gameOf(reply[players[0]])
			w.confirmOn(players...) // the test reads the answer to a move
			seat := w.table(id).game.Waiting()[0]
			victim := players[seat]
			cmd := w.legal(id, seat)
			to := "pbem@example.test"
			if tc.to == "seat" {
				to = "pbem+a7k2m9x4q8w3z5r6t1yb@example.test"
			}
			mailsBefore, moves := len(w.inbox[victim]), w.moves(id)
			forgeries := 3 * w.svc.cfg.Limits.LoopPerMinute
			for range forgeries {
				w.send(victim, to, tc.body, tc.forged...)
			}
			w.clock = w.clock.Add(time.Second)
			w.send(victim, reply[victim], cmd, genuine(victim)...)
			if w.moves(id) != moves+1 {
				t.Fatalf("%s's move after %d forgeries was not applied: %+v", victim, forgeries, w.outcome())
			}
			if got := w.last(victim); !strings.Contains(got.Text, "Applied: "+cmd) {
				t.Errorf("%s's answer does not say his move was applied:\n%s\n%s", victim, got.Headline, got.Text)
			}
			ins := w.inboundFrom(victim)
			for _, in := range ins[len(ins)-forgeries-1 : len(ins)-1] {
				if tc.refused && Outcome(in.Outcome) != OutcomeRefused {
					t.Errorf("a forgery was %s (%s), not refused unread", in.Outcome, in.Detail)
				}
			}
			if tc.forged != nil || tc.refused {
				// The forgeries cost the victim nothing but the
				// refusals' own limit.
				if got, limit := len(w.inbox[victim])-mailsBefore-1, w.svc.cfg.RefusalMax; got > limit {
					t.Errorf("the forgeries got the victim %d mails, more than the %d refusals allowed", got, limit)
				}
				if n := w.holding(victim); n != 0 {
					t.Errorf("the forgeries opened the victim's breaker (%d notices)", n)
				}
			}
		})
	}
}

// A mail program with no marker that answers every mail of a game's
// thread: the breaker stops it after 20 answers and one notice, and
// tells the admins once an hour. The player's own moves in that thread
// are applied, and answered, while it is open.
func TestBreakerStopsALoopInAGameThread(t *testing.T) {
	t.Parallel()
	w := breakerWorld(t, nil)
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test", "dave@w.test"}
	reply, id := w.startGame("felix", players...)
	w.confirmOn(players...) // the test reads the answers to moves
	seat := w.table(id).game.Waiting()[0]
	p := players[seat]
	limit := w.svc.cfg.Limits.LoopPerMinute
	flood := func(n int, step time.Duration) {
		for range n {
			w.clock = w.clock.Add(step)
			// The responder answers whatever it got, and pbem's
			// answer says it read no command.
			w.send(p, reply[p], "Thank you for your mail. I will read it soon.")
		}
	}
	before := len(w.inbox[p])
	flood(200, 0)
	if got := len(w.inbox[p]) - before; got != limit+1 {
		t.Errorf("pbem sent the responder %d mails in a minute, want %d answers and one notice", got, limit)
	}
	if n := w.holding(p); n != 1 {
		t.Fatalf("%d notices that pbem holds its answers, want 1", n)
	}
	notice := w.inbox[p][before+limit]
	if notice.ReplyTo != reply[p] {
		t.Errorf("the notice is not in the game's thread: Reply-To %s", notice.ReplyTo)
	}
	text := strings.Join(strings.Fields(notice.Headline+" "+notice.Text), " ")
	for _, want := range []string{
		"pbem is holding its answers to you in this game for about 60 seconds",
		fmt.Sprintf("had to answer more than %d of your mails to this game within a minute that changed nothing in it", limit),
		"Your moves still count",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the notice does not say %q:\n%s", want, text)
		}
	}
	if n := len(w.inbox["boss@ops.test"]); n != 1 {
		t.Fatalf("the admins got %d mails about the loop, want 1", n)
	}
	if got := w.last("boss@ops.test").Text; !strings.Contains(got, p) {
		t.Errorf("the admins' mail does not name %s:\n%s", p, got)
	}
	for _, in := range w.inboundFrom(p)[1:] {
		if Outcome(in.Outcome) == OutcomeRefused {
			t.Fatalf("a mail of the flood was refused unread: %s", in.Detail)
		}
	}
	// While the breaker is open, the player's own move is applied, and
	// its game mail comes.
	cmd := w.legal(id, seat)
	n := len(w.inbox[p])
	w.send(p, reply[p], cmd)
	if in := w.outcome(); Outcome(in.Outcome) != OutcomeApplied {
		t.Fatalf("the move while the breaker is open: %s (%s)", in.Outcome, in.Detail)
	}
	if len(w.inbox[p]) != n+1 || !strings.Contains(w.last(p).Text, "Applied: "+cmd) {
		t.Errorf("the move's game mail did not come while the breaker is open")
	}
	// Another flood in the same hour: no more mail to the admins; the
	// responder gets its 20 answers and one notice again.
	w.clock = w.clock.Add(2 * time.Minute)
	before = len(w.inbox[p])
	flood(200, 0)
	if got := len(w.inbox[p]) - before; got != limit+1 {
		t.Errorf("the second flood got %d mails, want %d", got, limit+1)
	}
	if n := len(w.inbox["boss@ops.test"]); n != 1 {
		t.Errorf("the admins were told %d times within the hour, want once", n)
	}
	// An hour later, a responder that answers in a second: the notice
	// comes with the 21st mail, 20 seconds after the first; pbem answers
	// again when the second leaves the minute, 41 seconds later.
	w.clock = w.clock.Add(time.Hour)
	flood(limit+1, time.Second)
	if n := len(w.inbox["boss@ops.test"]); n != 2 {
		t.Errorf("the admins were not told again after an hour: %d mails", n)
	}
	if got := w.last(p); !strings.Contains(got.Headline, "for about 41 seconds") {
		t.Errorf("the notice says %q, want about 41 seconds", got.Headline)
	}
	// (A mail a second earlier would be held, and count, and keep the
	// breaker open: "if you send nothing more".)
	w.clock = w.clock.Add(41 * time.Second)
	n = len(w.inbox[p])
	flood(1, 0)
	if len(w.inbox[p]) != n+1 {
		t.Errorf("not answered when the notice said")
	}
}

// A forger who spends a player's daily answers (30 `help` in his name to
// pbem's own address, sender authentication off) does not silence the
// player's own game: the answer to his join, in a game still inviting,
// comes, as does the answer to a command not legal there yet. The loop
// breaker, not the daily budget, bounds the answers in a seat's thread.
func TestSeatAnswersAreNotOnTheDailyLimit(t *testing.T) {
	t.Parallel()
	w := breakerWorld(t, nil)
	w.send("alice@x.test", "pbem@example.test", "new felix with bob@y.test carol@z.test")
	carol := w.last("carol@z.test").ReplyTo
	w.confirmOn("carol@z.test") // the test reads the answer to her join
	budget := w.svc.cfg.Limits.AnswersPerDay
	for range budget + 10 {
		w.clock = w.clock.Add(8 * time.Second) // slower than the loop breaker
		w.send("carol@z.test", "pbem@example.test", "help")
	}
	if n := len(w.inbox["carol@z.test"]); n != budget {
		t.Fatalf("carol got %d mails, want her invitation and %d answers: the day's budget", n, budget-1)
	}
	w.send("carol@z.test", carol, "join")
	if got := w.last("carol@z.test"); len(w.inbox["carol@z.test"]) != budget+1 || !strings.Contains(got.Headline+got.Text, "join") {
		t.Fatalf("carol's join was not answered: %d mails, the last %q", len(w.inbox["carol@z.test"]), got.Headline)
	}
	w.send("carol@z.test", carol, "play 3")
	if len(w.inbox["carol@z.test"]) != budget+2 {
		t.Errorf("carol's command before the start was not answered")
	}
	if in := w.outcome(); strings.Contains(in.Detail, "not sent") {
		t.Errorf("the answer was dropped: %s", in.Detail)
	}
}

// A game mail the breaker holds is not counted as seen: what happened
// since the player's last mail is in his next one. (A status answer marks
// the events it tells as mailed; held, it told nothing.)
func TestBreakerHeldGameMailIsNotSeen(t *testing.T) {
	t.Parallel()
	w := breakerWorld(t, nil)
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test", "dave@w.test"}
	reply, id := w.startGame("felix", players...)
	// p hears nothing of the others' moves (notify off), and one of
	// them moves: an event p has not been mailed.
	mover := w.table(id).game.Waiting()[0]
	seat := (mover + 1) % len(players)
	p := players[seat]
	w.send(p, reply[p], "notify off")
	seen := w.seat(id, seat).LastMailedEvent
	w.send(players[mover], reply[players[mover]], w.legal(id, mover))
	evs, err := w.st.Events(context.Background(), id, seen)
	if err != nil || len(evs) == 0 {
		t.Fatalf("the move made no event p has not seen (%v)", err)
	}
	if got := w.seat(id, seat).LastMailedEvent; got != seen {
		t.Fatalf("p was mailed the move despite notify off: %d after %d", got, seen)
	}
	// p's responder opens p's breaker; p asks for the table: held.
	for range w.svc.cfg.Limits.LoopPerMinute + 1 {
		w.send(p, reply[p], "Thank you for your mail. I will read it soon.")
	}
	n := len(w.inbox[p])
	w.send(p, reply[p], "status")
	if len(w.inbox[p]) != n {
		t.Fatalf("the status answer was sent while the breaker is open")
	}
	if got := w.seat(id, seat).LastMailedEvent; got != seen {
		t.Errorf("the held status mail marked the events up to %d as mailed (were %d)", got, seen)
	}
	// Two minutes later the breaker is closed, and the status tells
	// what happened.
	w.clock = w.clock.Add(2 * time.Minute)
	w.send(p, reply[p], "status")
	if len(w.inbox[p]) != n+1 {
		t.Fatalf("status not answered after the breaker closed")
	}
	if got := w.seat(id, seat).LastMailedEvent; got != evs[len(evs)-1].ID {
		t.Errorf("after the status mail, mailed up to %d, want %d", got, evs[len(evs)-1].ID)
	}
}
