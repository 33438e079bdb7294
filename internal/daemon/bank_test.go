package daemon

import (
	"context"
	"html"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pbem/pbem/internal/playclock"
	"github.com/pbem/pbem/internal/timebank"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
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
// bob never answers; carol, in Los Angeles, answers at once: both sides
// of the date line, over Los Angeles' end of summer time. The game
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
	// A week before Los Angeles leaves summer time (1 November 2026):
	// the game runs across it.
	w.clock = time.Date(2026, 10, 25, 17, 0, 0, 0, time.UTC)
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
	t.Logf("the game ran %v of simulated time; alice answered %d decisions in their last hour", w.clock.Sub(time.Date(2026, 10, 25, 17, 0, 0, 0, time.UTC)).Round(time.Hour), len(shown))
	if end := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC); !w.clock.After(end) {
		t.Errorf("the game ended at %v, before Los Angeles left summer time", w.clock)
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

// bankLeft is what the seat's bank holds now, as the mails show it.
func (w *world) bankLeft(id int64, seat int) time.Duration {
	w.t.Helper()
	g, err := w.st.Game(context.Background(), id)
	if err != nil {
		w.t.Fatal(err)
	}
	left, err := timebank.SeatLeft(context.Background(), w.st, g, w.seat(id, seat), w.clock)
	if err != nil {
		w.t.Fatal(err)
	}
	return left
}

// waitOnAlone has the other players move until the game waits on seat
// alone (players in seat order).
func (w *world) waitOnAlone(id int64, players []string, seat int) {
	w.t.Helper()
	w.playOthers(id, players, []string{players[seat]}, 50)
	if got := w.loaded(id).State.Waiting(); !slices.Equal(got, []int{seat}) {
		w.t.Fatalf("the game waits on %v, want seat %d alone", got, seat)
	}
}

// TestTimeBankRules walks one player's clock through every rule that
// moves it (docs/commands.md, "clock"): the reminder steps divide the
// bank; a move leaves what was left plus the increment; quiet hours do
// not count; a vacation stops the clock and back starts it again with
// what it held; an admin's extend adds to it; an undo gives back the
// clock the move was made with; an empty bank puts the seat on autopilot
// and back restarts it with one increment; a new player in a replaced
// seat starts with the whole clock.
func TestTimeBankRules(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := bankWorld(t)
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test"}
	alice := players[0]
	for _, p := range players {
		w.send(p, "pbem@example.test", "quiet off")
	}
	w.confirmOn(players...)
	reply, id := w.startBankGame(players...)
	const day = 24 * time.Hour

	// The first decision: the whole bank, reminders a day before (the
	// day before, and half of 2 days, are one step) and an hour before.
	st := w.seat(id, 0)
	if !st.Deadline.Equal(w.clock.Add(2*day)) || st.Bank != 2*day {
		t.Fatalf("alice's first decision: deadline %v, bank %v; want %v, 2 days", st.Deadline, st.Bank, w.clock.Add(2*day))
	}
	if st.RemindLead != day || !st.RemindAt.Equal(st.Deadline.Add(-day)) {
		t.Errorf("alice's first reminder step %v before, at %v", st.RemindLead, st.RemindAt)
	}

	// A move 10 hours in leaves 38 hours, and 12 more.
	w.clock = w.clock.Add(10 * time.Hour)
	w.send(alice, reply[alice], w.legal(id, 0))
	if got := w.seat(id, 0).Bank; got != 50*time.Hour {
		t.Fatalf("after her move alice's bank holds %v, want 50h", got)
	}
	if a := w.answer(alice); !strings.Contains(a, "Your clock: 2 days 2 hours.") {
		t.Errorf("her answer does not show her clock:\n%s", a)
	}

	// Quiet hours do not count against it: her next decision ends when
	// 50 hours outside 22-8 have passed.
	w.send(alice, reply[alice], "quiet 22-8")
	w.waitOnAlone(id, players, 0)
	st = w.seat(id, 0)
	night := playclock.Clock{Zone: time.UTC, Quiet: playclock.Quiet{On: true, Start: 22, End: 8}}
	if want := night.BankEnd(st.WaitingSince, 50*time.Hour); !st.Deadline.Equal(want) {
		t.Fatalf("alice's deadline %v, want %v: 50 hours of her days", st.Deadline, want)
	}
	if left := w.bankLeft(id, 0); left != 50*time.Hour {
		t.Errorf("her clock shows %v at the decision's start, want 50h", left)
	}

	// A vacation stops it; back starts it again with what it held.
	w.clock = w.clock.Add(3 * time.Hour)
	left := w.bankLeft(id, 0)
	w.send(alice, reply[alice], "vacation 2d")
	w.clock = w.clock.Add(day)
	if got := w.bankLeft(id, 0); got != left {
		t.Errorf("a day into her vacation her clock holds %v, want %v", got, left)
	}
	w.send(alice, reply[alice], "back")
	if got := w.bankLeft(id, 0); got != left {
		t.Errorf("back from vacation her clock holds %v, want %v", got, left)
	}

	// A change of her quiet hours or her zone moves where her time
	// counts, not how much of it she has.
	for _, change := range []string{"quiet off", "timezone Asia/Kolkata", "quiet 23-7", "timezone UTC", "quiet 22-8"} {
		w.send(alice, reply[alice], change)
		if got := w.bankLeft(id, 0); got != left {
			t.Errorf("after %s her clock holds %v, want %v", change, got, left)
		}
	}

	// An admin's extend adds to it.
	if err := w.adminWords(ctx, id, "extend", []string{"alice", "24h"}, "root@ops.test"); err != nil {
		t.Fatal(err)
	}
	w.flush()
	if got := w.bankLeft(id, 0); got != left+day {
		t.Errorf("after extend by 24h her clock holds %v, want %v", got, left+day)
	}
	left += day

	// An undo gives back the clock she made the move with.
	w.clock = w.clock.Add(10 * time.Hour) // 23:00 plus a day and 10 hours: 1 hour of her day
	if got := w.bankLeft(id, 0); got != left-time.Hour {
		t.Errorf("10 hours on, 9 of them her night, her clock holds %v, want %v", got, left-time.Hour)
	}
	left -= time.Hour
	w.send(alice, reply[alice], w.legal(id, 0))
	if got := w.seat(id, 0).Bank; got != min(left+12*time.Hour, 5*day) {
		t.Fatalf("after her move her bank holds %v, want %v", got, min(left+12*time.Hour, 5*day))
	}
	w.send(alice, reply[alice], "undo")
	for _, p := range players[1:] {
		w.send(p, reply[p], "agree")
	}
	if got := w.bankLeft(id, 0); got != left {
		t.Errorf("after the undo her clock holds %v, want %v, as when she moved", got, left)
	}
	if !w.said(alice, 0, "Your clock is back to "+templates.Say.ClockDuration(left)+", as it was when you made that move.") {
		t.Errorf("alice was not told her clock is back")
	}

	// It runs out: pbem moves for her from then on, and back restarts
	// it with one increment.
	w.clock = w.seat(id, 0).Deadline
	if err := w.sweep(); err != nil {
		t.Fatal(err)
	}
	if st := w.seat(id, 0); !st.Autopilot || st.Bank != 0 {
		t.Fatalf("after her clock ran out: autopilot %v, bank %v", st.Autopilot, st.Bank)
	}
	w.send(alice, reply[alice], "back")
	if st := w.seat(id, 0); st.Autopilot || st.Bank != 12*time.Hour {
		t.Errorf("after back: autopilot %v, bank %v, want 12h", st.Autopilot, st.Bank)
	}
	if !w.said(alice, 0, "Your clock starts again with 12 hours.") {
		t.Error("alice was not told her clock starts again")
	}

	// A new player in bob's seat starts with the whole clock.
	if err := w.adminWords(ctx, id, "replace", []string{"bob", "dave@x.test"}, "root@ops.test"); err != nil {
		t.Fatal(err)
	}
	w.flush()
	if st := w.seat(id, 1); st.Bank != 2*day {
		t.Errorf("dave, in bob's seat, starts with %v, want 2 days", st.Bank)
	}
}

// TestTimeBankOnThePage: the seat's page shows its reader's clock and
// the table's, as his mail does, and follows the service's clock.
func TestTimeBankOnThePage(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := webWorld(t)
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test"}
	reply, id := w.startBankGame(players...)
	w.send(players[1], reply[players[1]], w.legal(id, 1))
	tok := linkIn(t, w.last(players[1]))
	w.clock = w.clock.Add(5 * time.Hour) // 10:00 to 15:00: none of it their night
	page, err := w.svc.Pages().Page(ctx, tok, -1)
	if err != nil {
		t.Fatal(err)
	}
	text := oneLine(html.UnescapeString(regexp.MustCompile(`<[^>]*>`).ReplaceAllString(page, " ")))
	for _, want := range []string{
		"Your clock: 2 days 12 hours.",
		"Clocks: alice 1 day 19 hours (running) · you 2 days 12 hours · carol 1 day 19 hours (running).",
	} {
		if !strings.Contains(text, oneLine(want)) {
			t.Errorf("bob's page does not say %q:\n%s", want, text)
		}
	}
}
