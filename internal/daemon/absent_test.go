package daemon

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pbem/pbem/store"
)

// nextDue is the earliest time after which a sweep has something to do
// for the game: a seat's deadline or its next reminder step. It is the
// zero time when nothing is due ever.
func (w *world) nextDue(id int64) time.Time {
	w.t.Helper()
	seats, err := w.st.Seats(context.Background(), id)
	if err != nil {
		w.t.Fatal(err)
	}
	var next time.Time
	for _, st := range seats {
		for _, at := range []time.Time{st.Deadline, st.RemindAt} {
			if !at.IsZero() && (next.IsZero() || at.Before(next)) {
				next = at
			}
		}
	}
	return next
}

// Issue 14's first "done when": a game in which one player vanishes
// after joining finishes on its own, in a time the rules bound.
//
// The others answer at once whenever the game waits on them, and the
// clock moves only to the next reminder step or deadline. So the game's
// simulated time is spent only waiting on the vanished seat: each of his
// missed deadlines costs one turn time (72 hours, the default), and the
// reminders before it none. After autopilot_after (2) misses in a row his
// seat is on autopilot and moved for at once, at no time. The whole game
// thus takes at most autopilot_after × turn_time = 144 hours, six days,
// however long it is; a month's absence is far more than enough.
func TestVanishedPlayerGameFinishes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		game    string
		players []string
	}{
		{"felix", []string{"alice@x.test", "bob@y.test", "carol@z.test", "dave@w.test"}},
		{"gracias", []string{"alice@x.test", "bob@y.test", "carol@z.test"}},
	} {
		t.Run(tc.game, func(t *testing.T) {
			t.Parallel()
			w := newWorldConfig(t, func(c *Config) { c.Limits = unlimited; c.Admins = autopilotAdmin })
			after, turn := w.svc.cfg.AutopilotAfter, w.svc.cfg.TurnTime
			if after != 2 || turn != 72*time.Hour {
				t.Fatalf("autopilot_after %d and turn_time %s: the bound below is for the defaults, 2 and 72h", after, turn)
			}
			players := tc.players
			const gone = 1 // bob joins, and is never heard of again
			_, id := w.startGame(tc.game, players...)
			start := w.clock
			for step := 0; ; step++ {
				if step > 2000 {
					t.Fatal("the game does not end")
				}
				w.playOthers(id, players, []string{players[gone]}, 500)
				tb := w.loaded(id)
				if tb.State.Result().Finished {
					break
				}
				if !slices.Equal(tb.State.Waiting(), []int{gone}) {
					t.Fatalf("the others have played, and the game waits on %v", tb.State.Waiting())
				}
				next := w.nextDue(id)
				if next.IsZero() {
					t.Fatal("the game waits on bob, and nothing is ever due")
				}
				if next.After(w.clock) {
					w.clock = next
				}
				if err := w.sweep(); err != nil {
					t.Fatal(err)
				}
			}
			took := w.clock.Sub(start)
			t.Logf("%s with bob gone finished after %s of simulated time", tc.game, took)
			if bound := time.Duration(after) * turn; took > bound {
				t.Errorf("the game took %s; the rules bound it by %d missed deadlines of %s: %s", took, after, turn, bound)
			}

			// All of bob's moves were pbem's: autopilot_after from his
			// missed deadlines, each told him once, then autopilot's.
			var mine int
			for _, m := range w.movesOf(id) {
				if m.Seat != gone {
					continue
				}
				mine++
				if m.Source != store.SourceDeadline {
					t.Errorf("a move of bob's from %s: %+v", m.Source, m)
				}
			}
			if missed := w.eventsTo(id, EventDefault, gone); missed != after {
				t.Errorf("bob missed %d deadlines, want %d before autopilot took his seat", missed, after)
			}
			// (and the moves the rules left him no choice in, which pbem
			// makes for anyone at once: forcedMove).
			forced := w.eventsTo(id, EventForced, gone)
			if notes := w.eventsTo(id, EventAutoplay, gone); notes != mine-after-forced {
				t.Errorf("bob has %d moves, %d of them autopilot's and %d forced; want all but his %d missed deadlines'", mine, notes, forced, after)
			}
			if n := w.mailsWith(players[gone], "Your deadline passed, so pbem's bot played for you"); n != after {
				t.Errorf("bob was told %d times that pbem moved for him, want %d", n, after)
			}
			// Put on autopilot once: one announcement to the others, one
			// to him, one notice to the admin.
			if n := w.eventsOf(id, EventAutopilot); n != 2 {
				t.Errorf("%d autopilot events, want 2", n)
			}
			if n := w.mailsWith(autopilotAdmin, "missed 2 deadlines in a row"); n != 1 {
				t.Errorf("the admin was told %d times of bob's autopilot, want once", n)
			}
			for i, p := range players {
				if i == gone {
					continue
				}
				if n := w.mailsWith(p, "bob missed 2 deadlines in a row"); n != 1 {
					t.Errorf("%s was told %d times that bob is on autopilot, want once", p, n)
				}
			}
			// Two reminder steps (halfway, 12 hours before) for each
			// missed deadline, and none once on autopilot.
			if n := len(w.reminders(players[gone])); n != 2*after {
				t.Errorf("bob got %d reminders, want %d", n, 2*after)
			}
			if !strings.Contains(w.last(players[gone]).Headline, "game over") {
				t.Errorf("bob's last mail is not the result: %q", w.last(players[gone]).Headline)
			}
		})
	}
}

// Issue 14's second "done when": a player who goes on holiday in the
// middle of a game is waited for fairly. No default move is made for him
// while he is away; his deadline is pushed by the vacation's length, so
// that it keeps the time it had left (pushed, not reset); the table is
// told; and once he is back and plays, the game goes on and ends as any
// other.
func TestHolidayWaitsFairly(t *testing.T) {
	t.Parallel()
	w := newWorld(t).authenticate()
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test"}
	alice, bob, carol := players[0], players[1], players[2]
	reply, id := w.startGame("felix", players...)
	// Play a while, every one at once, until the game waits on bob alone.
	for range 200 {
		w.playOthers(id, players, []string{bob}, 500)
		if tb := w.loaded(id); tb.State.Result().Finished || w.moves(id) >= 6 && slices.Equal(tb.State.Waiting(), []int{1}) {
			break
		}
		w.send(bob, reply[bob], w.legal(id, 1))
	}
	tb := w.loaded(id)
	if tb.State.Result().Finished || !slices.Equal(tb.State.Waiting(), []int{1}) {
		t.Fatal("the game never waited on bob alone in its middle: the test would prove nothing")
	}

	// Thirty hours into his decision, bob leaves for ten days.
	w.clock = w.clock.Add(30 * time.Hour)
	before := w.deadline(id, 1)
	left := before.Sub(w.clock)
	told := map[string]int{alice: len(w.inbox[alice]), carol: len(w.inbox[carol])}
	bobMails := len(w.inbox[bob])
	w.send(bob, "pbem@example.test", "vacation 10d")
	away, until, err := w.onVacation(bob)
	if err != nil || !away || !until.Equal(w.clock.Add(10*day)) {
		t.Fatalf("bob's vacation: away %v until %s, %v", away, until, err)
	}
	if got := w.deadline(id, 1); !got.Equal(before.Add(10 * day)) {
		t.Fatalf("bob's deadline %s, want %s pushed by 10 days", got, before)
	}
	if got := w.deadline(id, 1).Sub(until); got != left {
		t.Errorf("bob will have %s when he is back, want the %s he had left", got, left)
	}
	for _, p := range []string{alice, carol} {
		if !w.said(p, told[p], "bob is away until") {
			t.Errorf("%s was not told that bob is away", p)
		}
	}

	// Sweep at every reminder step and deadline while he is away, and
	// twice a day besides: nothing falls due for him.
	moves := w.moves(id)
	for w.clock.Before(until) {
		next := w.clock.Add(12 * time.Hour)
		if due := w.nextDue(id); !due.IsZero() && due.After(w.clock) && due.Before(next) {
			next = due
		}
		if !next.Before(until) {
			next = until.Add(-time.Second) // the return is swept below
			if !next.After(w.clock) {
				break
			}
		}
		w.clock = next
		if err := w.sweep(); err != nil {
			t.Fatal(err)
		}
	}
	if n := w.moves(id); n != moves {
		t.Fatalf("%d moves while bob was away, want none: %+v", n-moves, w.movesOf(id)[moves:])
	}
	for _, m := range w.inbox[bob][bobMails+1:] { // after the answer to his vacation
		if strings.HasPrefix(m.Headline, "Reminder") || strings.Contains(oneLine(m.Text), "bot played for you") {
			t.Errorf("bob was reminded or moved for while away: %s", m.Headline)
		}
	}

	// The vacation runs out: the table is told, his deadline runs again
	// with the time it had left.
	w.clock = until
	for _, p := range []string{alice, carol} {
		told[p] = len(w.inbox[p])
	}
	if err := w.sweep(); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{alice, carol} {
		if !w.said(p, told[p], "bob is back from vacation") {
			t.Errorf("%s was not told that bob is back", p)
		}
	}
	if got := w.deadline(id, 1).Sub(w.clock); got != left {
		t.Errorf("back, bob has %s, want the %s he had left", got, left)
	}

	// He plays, and so does everyone, at once: the game ends as any other.
	w.clock = w.clock.Add(time.Hour)
	for range 500 {
		tb := w.loaded(id)
		if tb.State.Result().Finished {
			break
		}
		p := tb.State.Waiting()[0]
		w.send(players[p], reply[players[p]], w.legal(id, p))
	}
	if !w.loaded(id).State.Result().Finished {
		t.Fatal("the game did not end")
	}
	// Every move was sent by mail, but those the rules left no choice
	// in, which pbem makes at once (forcedMove).
	notMail := 0
	for _, m := range w.movesOf(id) {
		if m.Source != store.SourceMail {
			notMail++
		}
	}
	if forced := w.eventsOf(id, EventForced); notMail != forced {
		t.Errorf("%d moves not by mail, of which %d were forced", notMail, forced)
	}
	if n := w.eventsOf(id, EventVacation); n != 2 {
		t.Errorf("%d vacation events, want 2 (away, back)", n)
	}
	if n := w.eventsOf(id, EventDefault); n != 0 {
		t.Errorf("%d default-move events in a game everyone played", n)
	}
}
