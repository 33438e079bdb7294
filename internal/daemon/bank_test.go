package daemon

import (
	"context"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pbem/pbem/internal/playclock"
	"github.com/pbem/pbem/store"
)

var (
	// yourClock is the reader's clock line in a game mail (one line).
	yourClock = regexp.MustCompile(`Your clock: ([0-9a-z ]+?)[,.]`)
	// exportClock is the note on an export's line that ended a decision.
	exportClock = regexp.MustCompile(`# (?:.*; )?clock: ([0-9a-z ]+?) left, ([0-9a-z ]+?) after the move`)
)

// bankWorld serves a game with reminders a day and an hour before each
// deadline and at half the decision's time.
func bankWorld(t *testing.T) *world {
	return newWorldConfig(t, func(c *Config) {
		c.Limits, c.Admins = unlimited, "root@ops.test"
		c.Reminders = []Reminder{{Before: 24 * time.Hour}, {Before: time.Hour}, {Percent: 50}}
	})
}

// startBankGame starts `new felix ... clock 2d+12h max 5d` of players,
// the first the creator.
func (w *world) startBankGame(players ...string) (map[string]string, int64) {
	w.t.Helper()
	w.send(players[0], "pbem@example.test", "new felix with "+strings.Join(players[1:], " ")+" clock 2d+12h max 5d")
	reply := map[string]string{players[0]: w.last(players[0]).ReplyTo}
	for _, p := range players[1:] {
		reply[p] = w.last(p).ReplyTo
	}
	for _, p := range players[1:] {
		w.send(p, reply[p], "join")
	}
	return reply, w.gameOf(reply[players[0]])
}

// TestTimeBankWholeGame: a whole Felix game with `clock 2d+12h max 5d`.
// alice, in Auckland, always answers in the last hour before her deadline;
// bob never answers; carol, in Los Angeles, answers at once. The game
// ends; bob's bank runs out at his first deadline and pbem plays his
// seat from then on, as the table is told; alice never misses one, her
// deadlines never end inside her quiet hours, her bank never holds more
// than 5 days, and each of her moves leaves her what was left plus 12
// hours; carol's bank fills up to 5 days and stays there. The clock each
// mail shows alice after her move is the one the export records for it.
func TestTimeBankWholeGame(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := bankWorld(t)
	alice, bob, carol := "alice@x.test", "bob@y.test", "carol@z.test"
	w.send(alice, "pbem@example.test", "timezone Pacific/Auckland")
	// She reads the answer to each move of hers.
	w.send(alice, "pbem@example.test", "confirm on")
	w.send(carol, "pbem@example.test", "timezone America/Los_Angeles")
	reply, id := w.startBankGame(alice, bob, carol)
	start := oneLine(w.last(alice).Text)
	for _, s := range []string{"Each player has a clock of 2 days; it gains 12 hours after each of his moves, up to 5 days.", "Your clock: 2 days"} {
		if !strings.Contains(start, s) {
			t.Fatalf("the first mail does not say %q:\n%s", s, start)
		}
	}

	auckland, _ := time.LoadLocation("Pacific/Auckland")
	aliceClock := playclock.Clock{Zone: auckland, Quiet: playclock.DefaultQuiet}
	var shown []string // the clock alice's mail shows after each of her moves
	rng := rand.New(rand.NewPCG(38, 2))
	for steps := 0; ; steps++ {
		if steps > 400 {
			t.Fatal("the game does not end")
		}
		tb := w.loaded(id)
		if tb.State.Result().Finished {
			break
		}
		waiting := tb.State.Waiting()
		switch {
		case slices.Contains(waiting, 2):
			w.send(carol, reply[carol], w.legal(id, 2))
		case slices.Contains(waiting, 0):
			st := w.seat(id, 0)
			if st.Deadline.IsZero() {
				t.Fatal("the game waits on alice, who has no deadline")
			}
			if aliceClock.IsQuiet(st.Deadline) {
				t.Fatalf("alice's deadline %s is inside her quiet hours", st.Deadline.In(auckland))
			}
			if st.Bank > 5*24*time.Hour {
				t.Fatalf("alice's bank holds %v, more than 5 days", st.Bank)
			}
			// In the last hour, at a minute that varies from decision
			// to decision.
			if last := st.Deadline.Add(-time.Duration(5+rng.IntN(55)) * time.Minute); last.After(w.clock) {
				w.clock = last
				if err := w.sweep(); err != nil {
					t.Fatal(err)
				}
			}
			before := len(w.inbox[alice])
			w.send(alice, reply[alice], w.legal(id, 0))
			if len(w.inbox[alice]) == before {
				t.Fatal("alice's move got no mail")
			}
			if w.loaded(id).State.Result().Finished {
				shown = append(shown, "over") // the game's last mail shows no clock
				continue
			}
			m := yourClock.FindStringSubmatch(oneLine(w.last(alice).Text))
			if m == nil {
				t.Fatalf("alice's mail after her move shows no clock:\n%s", w.last(alice).Text)
			}
			shown = append(shown, m[1])
		case slices.Contains(waiting, 1):
			st := w.seat(id, 1)
			if st.Deadline.IsZero() {
				t.Fatalf("the game waits on bob, who has no deadline: %+v", st)
			}
			if st.Deadline.After(w.clock) {
				w.clock = st.Deadline
			}
			if err := w.sweep(); err != nil {
				t.Fatal(err)
			}
		}
	}
	seats := []store.Seat{w.seat(id, 0), w.seat(id, 1), w.seat(id, 2)}
	if seats[0].Autopilot || seats[0].Missed != 0 {
		t.Errorf("alice, who always answered, is on autopilot or missed a deadline: %+v", seats[0])
	}
	if !seats[1].Autopilot || seats[1].Bank != 0 {
		t.Errorf("bob, who never answered, is not on autopilot with an empty bank: %+v", seats[1])
	}
	if seats[2].Bank != 5*24*time.Hour {
		t.Errorf("carol, who answered at once, has %v, want the cap of 5 days", seats[2].Bank)
	}
	if n := w.mailsWith(carol, "bob's clock ran out, so pbem's bot plays for bob"); n != 1 {
		t.Errorf("carol was told %d times that bob's clock ran out, want once", n)
	}
	if n := w.mailsWith(bob, "Your clock ran out"); n != 1 {
		t.Errorf("bob was told %d times that his clock ran out, want once", n)
	}

	// The export: its header names the clock, and each of alice's moves
	// says what it left her, which her mails showed.
	text := w.replayedExport(id)
	if !strings.Contains(text, "# clock: 2d+12h max 5d") {
		t.Errorf("the export does not name the clock:\n%s", text)
	}
	firstBob := regexp.MustCompile(`(?m)^bob: .*$`).FindString(text)
	if n := strings.Count(text, "# clock ran out"); n != 1 || !strings.HasSuffix(firstBob, "# clock ran out") {
		t.Errorf("the export records %d clocks that ran out, want bob's first move only", n)
	}
	var recorded []string
	for _, line := range strings.Split(text, "\n") {
		if !strings.HasPrefix(line, "alice: ") || strings.Contains(line, "the only move the rules left") {
			continue // a forced move, made at once, ends no decision
		}
		m := exportClock.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("alice's line records no clock: %s", line)
		}
		recorded = append(recorded, m[2])
	}
	if n := len(shown); n > 0 && shown[n-1] == "over" && len(recorded) == n {
		recorded[n-1] = "over"
	}
	if len(shown) < 10 || !slices.Equal(shown, recorded) {
		t.Errorf("alice's mails showed her clocks\n%q\nthe export records\n%q", shown, recorded)
	}
	moves, err := w.st.Moves(ctx, id, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range moves {
		switch {
		case m.Seat != 0:
		case m.Source == store.SourceMail && (!m.HasClock || m.ClockLeft > time.Hour || m.ClockLeft <= 0):
			t.Errorf("alice's move %d: %v left (%v), want at most an hour", m.Seq, m.ClockLeft, m.HasClock)
		case m.Source != store.SourceMail && m.HasClock:
			t.Errorf("alice's move %d, pbem's (%s), ended a decision of hers with %v left", m.Seq, m.Source, m.ClockLeft)
		}
	}
}
