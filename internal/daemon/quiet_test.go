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

// quietAt reports, without internal/playclock, whether t lies inside the
// quiet hours from start to end (whole hours, wrapping midnight; equal:
// off) of a player in loc, or on a weekend day of his when weekendsOff.
func quietAt(t time.Time, loc *time.Location, start, end int, weekendsOff bool) bool {
	l := t.In(loc)
	if weekendsOff && (l.Weekday() == time.Saturday || l.Weekday() == time.Sunday) {
		return true
	}
	h := l.Hour()
	switch {
	case start == end:
		return false
	case start < end:
		return h >= start && h < end
	}
	return h >= start || h < end
}

// `quiet` is answered with what it does, stored, and shown in the first
// mail of a game; `quiet off` turns them off.
func TestQuietCommand(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.send("alice@x.test", "pbem@example.test", "timezone Europe/Berlin")
	if p := w.player("alice@x.test"); p.QuietStart != 22 || p.QuietEnd != 8 {
		t.Fatalf("a new player's quiet hours %d-%d, want 22-8", p.QuietStart, p.QuietEnd)
	}
	w.send("alice@x.test", "pbem@example.test", "quiet 23-7")
	if got := w.lastText("alice@x.test"); !strings.Contains(got, "Your quiet hours are now 23:00 to 07:00, Europe/Berlin time") {
		t.Fatalf("answer to quiet 23-7:\n%s", got)
	}
	if p := w.player("alice@x.test"); p.QuietStart != 23 || p.QuietEnd != 7 {
		t.Fatalf("quiet hours stored %d-%d, want 23-7", p.QuietStart, p.QuietEnd)
	}
	w.send("alice@x.test", "pbem@example.test", "quiet off")
	if got := w.lastText("alice@x.test"); !strings.Contains(got, "Your quiet hours are off") {
		t.Fatalf("answer to quiet off:\n%s", got)
	}
	if p := w.player("alice@x.test"); p.QuietStart != p.QuietEnd {
		t.Fatalf("quiet off stored %d-%d", p.QuietStart, p.QuietEnd)
	}
	w.send("alice@x.test", "pbem@example.test", "quiet 22-8")
	_, id := w.startGame("felix", "alice@x.test", "bob@y.test", "carol@z.test")
	if got := w.mailsWith("alice@x.test", "Your quiet hours are 22:00 to 08:00, Europe/Berlin time"); got != 1 {
		t.Errorf("alice's first mail of game %d tells her quiet hours %d times, want once", id, got)
	}
	if got := w.mailsWith("bob@y.test", "Your quiet hours are 22:00 to 08:00, UTC time"); got != 1 {
		t.Errorf("bob, who set no zone, is told his quiet hours in UTC %d times, want once", got)
	}
}

// A game started at 23:00 gives a 48-hour deadline at 08:00 two days on,
// not at 23:00, and the mail says why; started at 10:00 it is 48 hours
// exactly.
func TestDeadlineMovedOutOfQuietHours(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name  string
		start time.Time
		want  time.Time
		note  bool
	}{
		{"in the day", time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC), time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC), false},
		{"at night", time.Date(2026, 11, 21, 23, 0, 0, 0, time.UTC), time.Date(2026, 11, 24, 8, 0, 0, 0, time.UTC), true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			w.clock = tt.start
			w.send("alice@x.test", "pbem@example.test", "new felix with bob@y.test carol@z.test deadline 48h")
			for _, p := range []string{"bob@y.test", "carol@z.test"} {
				w.send(p, w.last(p).ReplyTo, "join")
			}
			id := w.gameOf(w.last("alice@x.test").ReplyTo)
			for _, i := range w.loaded(id).State.Waiting() {
				if st := w.seat(id, i); !st.Deadline.Equal(tt.want) {
					t.Errorf("seat %d's deadline %v, want %v", i, st.Deadline, tt.want)
				}
				addr := w.seat(id, i).Address
				says := w.mailsWith(addr, "Your deadline is at 08:00, when your quiet hours end") > 0
				if says != tt.note {
					t.Errorf("%s's mail says the deadline is at the end of his quiet hours: %v, want %v", addr, says, tt.note)
				}
			}
		})
	}
}

// A deadline found due inside the player's quiet hours (they changed
// after it was set, in the store, where `quiet` would have moved it) is
// moved to their end: no default move in his night, one when they end.
func TestNoDefaultMoveInQuietHours(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorldConfig(t, func(c *Config) {
		c.Limits, c.Invitations, c.AutopilotAfter = unlimited, unlimitedInvitations, 0
	})
	w.clock = time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	_, id := w.startGame("felix", "alice@x.test", "bob@y.test", "carol@z.test")
	waiting := w.loaded(id).State.Waiting()
	st := w.seat(id, waiting[0])
	// His night now covers his deadline (10:00 UTC): 9-12.
	if err := w.st.Tx(ctx, func(tx *store.Tx) error { return tx.SetPlayerQuiet(ctx, st.Address, 9, 12) }); err != nil {
		t.Fatal(err)
	}
	before := w.moves(id)
	w.clock = st.Deadline.Add(time.Minute)
	if err := w.sweep(); err != nil {
		t.Fatal(err)
	}
	if got := w.seat(id, st.Seat).Deadline; !got.Equal(time.Date(st.Deadline.Year(), st.Deadline.Month(), st.Deadline.Day(), 12, 0, 0, 0, time.UTC)) {
		t.Fatalf("the deadline due in quiet hours moved to %v, want 12:00 that day", got)
	}
	w.clock = w.clock.Add(time.Hour)
	if err := w.sweep(); err != nil {
		t.Fatal(err)
	}
	if n := w.eventsOfSeat(id, EventDefault, st.Seat); n != 0 {
		t.Fatalf("%d default moves for seat %d inside his quiet hours (%d moves before, %d now)", n, st.Seat, before, w.moves(id))
	}
	w.clock = time.Date(st.Deadline.Year(), st.Deadline.Month(), st.Deadline.Day(), 12, 0, 0, 0, time.UTC)
	if err := w.sweep(); err != nil {
		t.Fatal(err)
	}
	if n := w.eventsOfSeat(id, EventDefault, st.Seat); n != 1 {
		t.Fatalf("%d default moves for seat %d when his quiet hours ended, want 1", n, st.Seat)
	}
}

// A deadline that passed outside quiet hours is a default move, whatever
// the fraction of a second the sweep's clock reads (the service's clock
// is not whole seconds).
func TestDefaultMoveAtAFractionOfASecond(t *testing.T) {
	t.Parallel()
	w := newWorldConfig(t, func(c *Config) {
		c.Limits, c.Invitations, c.AutopilotAfter = unlimited, unlimitedInvitations, 0
	})
	w.clock = time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	_, id := w.startGame("felix", "alice@x.test", "bob@y.test", "carol@z.test")
	st := w.seat(id, w.loaded(id).State.Waiting()[0])
	w.clock = st.Deadline.Add(250 * time.Millisecond)
	if err := w.sweep(); err != nil {
		t.Fatal(err)
	}
	if n := w.eventsOfSeat(id, EventDefault, st.Seat); n != 1 {
		t.Fatalf("%d default moves for seat %d after its deadline passed, want 1 (deadline now %v)", n, st.Seat, w.seat(id, st.Seat).Deadline)
	}
}

// eventsOfSeat counts the game's events of kind that only seat sees.
func (w *world) eventsOfSeat(id int64, kind EventKind, seat int) int {
	w.t.Helper()
	evs, err := w.st.Events(context.Background(), id, 0)
	if err != nil {
		w.t.Fatal(err)
	}
	n := 0
	for _, e := range evs {
		if e.Kind == string(kind) && e.To == seat {
			n++
		}
	}
	return n
}

// `weekends off`: a game started on Friday noon with 24 hours per
// decision waits until Monday noon, and its first mails say the clocks
// stop on weekends.
func TestWeekendsOff(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.clock = time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC) // a Friday
	w.send("alice@x.test", "pbem@example.test", "new felix with bob@y.test carol@z.test deadline 24h weekends off")
	for _, p := range []string{"bob@y.test", "carol@z.test"} {
		if w.mailsWith(p, "The clocks stop on Saturday and Sunday, each player's in his own time zone.") != 1 {
			t.Errorf("%s's invitation does not say the clocks stop on weekends:\n%s", p, w.last(p).Text)
		}
		w.send(p, w.last(p).ReplyTo, "join")
	}
	id := w.gameOf(w.last("alice@x.test").ReplyTo)
	if g, err := w.st.Game(context.Background(), id); err != nil || !g.WeekendsOff {
		t.Fatalf("game stored with weekends off %v, %v", g.WeekendsOff, err)
	}
	monday := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	for _, i := range w.loaded(id).State.Waiting() {
		if st := w.seat(id, i); !st.Deadline.Equal(monday) {
			t.Errorf("seat %d's deadline %v, want Monday noon %v", i, st.Deadline, monday)
		}
	}
}

// quietZones are zones on both sides of the date line, at quarter and
// half hours from UTC, with and without summer time.
var quietZones = []string{
	"Pacific/Kiritimati", "Pacific/Pago_Pago", "Pacific/Chatham", "America/St_Johns", "Asia/Kolkata",
	"Europe/London", "America/New_York", "Australia/Lord_Howe", "UTC",
}

// quietStarts are days around changes to and from summer time in 2026.
var quietStarts = []time.Time{
	time.Date(2026, 3, 6, 0, 0, 0, 0, time.UTC),   // America, 8 March
	time.Date(2026, 3, 27, 0, 0, 0, 0, time.UTC),  // Europe, 29 March
	time.Date(2026, 4, 3, 0, 0, 0, 0, time.UTC),   // Lord Howe, Chatham, 5 April
	time.Date(2026, 9, 25, 0, 0, 0, 0, time.UTC),  // Chatham, 27 September
	time.Date(2026, 10, 2, 0, 0, 0, 0, time.UTC),  // Lord Howe, 4 October
	time.Date(2026, 10, 23, 0, 0, 0, 0, time.UTC), // Europe, 25 October
	time.Date(2026, 10, 30, 0, 0, 0, 0, time.UTC), // America, 1 November
}

// quietPlayer is one player of the property test.
type quietPlayer struct {
	addr       string
	loc        *time.Location
	start, end int  // quiet hours; equal: off
	answers    bool // he answers now and then; else never
}

// TestNeverInQuietHours is issue 38's first Done-when: over random zones,
// quiet hours (across midnight or not, or off), weekends off or not,
// times per decision, starts around summer-time changes and players who
// answer at random times or never, played on the world's clock with
// sweeps at random intervals: no deadline of a player ends inside his
// quiet hours (nor on a weekend day, with weekends off), none gives less
// than the game's time, no reminder reaches him and no default move is
// made for him inside them.
func TestNeverInQuietHours(t *testing.T) {
	t.Parallel()
	const cases = 12
	for c := range cases {
		t.Run(fmt.Sprint(c), func(t *testing.T) {
			t.Parallel()
			rng := rand.New(rand.NewPCG(38, uint64(c)))
			checkQuietGame(t, rng)
		})
	}
}

func checkQuietGame(t *testing.T, rng *rand.Rand) {
	w := newWorldConfig(t, func(c *Config) {
		// No autopilot: every move pbem makes for a player is a
		// deadline's default move (autopilot plays at once, at any hour:
		// nobody waits on such a seat).
		c.Limits, c.Invitations, c.AutopilotAfter = unlimited, unlimitedInvitations, 0
	})
	w.clock = quietStarts[rng.IntN(len(quietStarts))].Add(time.Duration(rng.IntN(48*60)) * time.Minute)
	players := []*quietPlayer{{addr: "alice@x.test"}, {addr: "bob@y.test"}, {addr: "carol@z.test"}}
	for i, p := range players {
		p.loc, _ = time.LoadLocation(quietZones[rng.IntN(len(quietZones))])
		p.answers = i != 2 || rng.IntN(2) == 0
		w.send(p.addr, "pbem@example.test", "timezone "+p.loc.String())
		switch rng.IntN(4) {
		case 0:
			w.send(p.addr, "pbem@example.test", "quiet off")
		case 1: // the default, 22-8
			p.start, p.end = 22, 8
		default:
			p.start, p.end = rng.IntN(24), rng.IntN(24)
			if p.start == p.end {
				p.end = (p.end + 1 + rng.IntN(22)) % 24
			}
			w.send(p.addr, "pbem@example.test", fmt.Sprintf("quiet %d-%d", p.start, p.end))
		}
	}
	turn := []int{1, 5, 12, 24, 36, 48}[rng.IntN(6)]
	weekends := rng.IntN(2) == 0
	// Half the games have a time bank of turn hours instead, to which
	// each move adds up to a day, capped at twice turn or none.
	banked := rng.IntN(2) == 0
	cmd := fmt.Sprintf("new felix with bob@y.test carol@z.test deadline %dh", turn)
	if banked {
		cmd = fmt.Sprintf("new felix with bob@y.test carol@z.test clock %dh+%dm", turn, rng.IntN(24*60))
		if rng.IntN(2) == 0 {
			cmd += fmt.Sprintf(" max %dh", 2*turn)
		}
	}
	if weekends {
		cmd += " weekends off"
	}
	t.Logf("start %v, %s, weekends off %v", w.clock, cmd, weekends)
	for _, p := range players {
		t.Logf("%s in %s, quiet %d-%d, answers %v", p.addr, p.loc, p.start, p.end, p.answers)
	}
	w.send("alice@x.test", "pbem@example.test", cmd)
	for _, p := range players[1:] {
		w.send(p.addr, w.last(p.addr).ReplyTo, "join")
	}
	id := w.gameOf(w.last("alice@x.test").ReplyTo)
	bySeat := map[int]*quietPlayer{}
	reply := map[string]string{}
	for _, st := range w.loaded(id).Seats {
		for _, p := range players {
			if p.addr == st.Address {
				bySeat[st.Seat] = p
				reply[p.addr] = w.seatAddress(st.Token)
			}
		}
	}
	seen := map[string]int{}
	for _, p := range players {
		seen[p.addr] = len(w.inbox[p.addr])
	}
	defaults := map[int]int{}
	reminders := 0
	end := w.clock.Add(12 * 24 * time.Hour)
	steps := 0
	for ; w.clock.Before(end); steps++ {
		// Minutes and a fraction of a second, as a real clock reads.
		w.clock = w.clock.Add(time.Duration(1+rng.IntN(40))*time.Minute + time.Duration(rng.IntN(1e9)))
		if err := w.sweep(); err != nil {
			t.Fatal(err)
		}
		tb := w.loaded(id)
		if tb.Row.Status != store.StatusActive {
			break
		}
		for seat, p := range bySeat {
			quiet := quietAt(w.clock, p.loc, p.start, p.end, weekends)
			for _, m := range w.inbox[p.addr][seen[p.addr]:] {
				if !strings.HasPrefix(m.Headline, "Reminder:") {
					continue
				}
				reminders++
				if quietAt(w.clock, p.loc, p.start, p.end, false) {
					t.Fatalf("%s got a reminder at %v, inside his quiet hours", p.addr, w.clock.In(p.loc))
				}
			}
			seen[p.addr] = len(w.inbox[p.addr])
			if n := w.eventsOfSeat(id, EventDefault, seat); n != defaults[seat] {
				if quiet {
					t.Fatalf("a default move for %s at %v, inside his quiet hours or weekend", p.addr, w.clock.In(p.loc))
				}
				defaults[seat] = n
			}
			st := w.seat(id, seat)
			if st.Deadline.IsZero() {
				continue
			}
			if quietAt(st.Deadline, p.loc, p.start, p.end, weekends) {
				t.Fatalf("%s's deadline %v is inside his quiet hours or weekend", p.addr, st.Deadline.In(p.loc))
			}
			span := time.Duration(turn) * time.Hour
			if banked {
				span = st.Bank // what the bank held when the decision began
			}
			if !st.WaitingSince.IsZero() && !st.Autopilot && st.Deadline.Before(st.WaitingSince.Add(span)) {
				t.Fatalf("%s's deadline %v gives less than %v from %v", p.addr, st.Deadline, span, st.WaitingSince)
			}
		}
		for _, seat := range tb.State.Waiting() {
			// About once in 12 hours of sweeps: some decisions are
			// answered, some run out.
			if p := bySeat[seat]; p.answers && rng.IntN(36) == 0 {
				w.send(p.addr, reply[p.addr], w.legal(id, seat))
				seen[p.addr] = len(w.inbox[p.addr])
			}
		}
	}
	total := 0
	for _, n := range defaults {
		total += n
	}
	t.Logf("%d sweeps, %d moves, %d default moves, %d reminders", steps, w.moves(id), total, reminders)
}

// An admin's extend adds to the deadline as it is, then moves the result
// out of the player's quiet hours: 10:00 plus 13 hours is 23:00, inside
// 22-8, so 08:00 the next day.
func TestExtendOutOfQuietHours(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	w.clock = time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	_, id := w.startGame("felix", "alice@x.test", "bob@y.test", "carol@z.test")
	st := w.seat(id, w.loaded(id).State.Waiting()[0])
	if err := w.adminWords(ctx, id, "extend", []string{st.Name, "13h"}, "root"); err != nil {
		t.Fatal(err)
	}
	d := st.Deadline.Add(13 * time.Hour) // 23:00
	want := time.Date(d.Year(), d.Month(), d.Day()+1, 8, 0, 0, 0, time.UTC)
	if got := w.seat(id, st.Seat).Deadline; !got.Equal(want) {
		t.Errorf("extended deadline %v, want %v (after %v, out of quiet hours)", got, want, d)
	}
}

// A player who set no zone is asked once, in his first game mail, with
// the zone his mail's Date suggests; a player who set one is not asked.
func TestAskTimeZoneOnce(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.send("carol@z.test", "pbem@example.test", "timezone America/New_York")
	w.send("alice@x.test", "pbem@example.test", "new felix with bob@y.test carol@z.test")
	inv := w.last("bob@y.test")
	// bob's mail client writes his offset from UTC, +05:30, in Date.
	w.sendRaw([]byte("From: bob@y.test\r\nTo: " + inv.ReplyTo + "\r\nSubject: Re: pbem\r\nMessage-ID: <join.bob@y.test>\r\n" +
		"Date: Sat, 21 Nov 2026 15:30:00 +0530\r\n\r\njoin\r\n"))
	w.send("carol@z.test", w.last("carol@z.test").ReplyTo, "join")
	const asked = "Your deadlines and quiet hours are in UTC. If you live elsewhere, send timezone and your zone"
	if n := w.mailsWith("bob@y.test", asked+": your mail's clock suggests timezone Asia/Kolkata."); n != 1 {
		t.Errorf("bob was asked for his zone with Asia/Kolkata suggested %d times, want once", n)
	}
	if n := w.mailsWith("alice@x.test", asked+": your mail's clock suggests timezone Europe/London."); n != 1 {
		t.Errorf("alice (Date +0000 in November) was asked for her zone with Europe/London suggested %d times, want once", n)
	}
	if n := w.mailsWith("carol@z.test", asked); n != 0 {
		t.Errorf("carol, who set her zone, was asked for it %d times", n)
	}
	w.send("alice@x.test", "pbem@example.test", "new felix with bob@y.test carol@z.test")
	w.send("bob@y.test", w.last("bob@y.test").ReplyTo, "join")
	w.send("carol@z.test", w.last("carol@z.test").ReplyTo, "join")
	if n := w.mailsWith("bob@y.test", asked); n != 1 {
		t.Errorf("after a second game bob was asked for his zone %d times, want once", n)
	}
}

// A vacation moves a deadline by its length; one that lands inside the
// player's quiet hours ends when they end. Until the end of 24 November
// from 10:00 on the 21st is 3 days 14 hours: the deadline, 10:00 on the
// 24th, becomes midnight on the 28th, so 08:00 on the 28th.
func TestVacationOutOfQuietHours(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.clock = time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	reply, id := w.startGame("felix", "alice@x.test", "bob@y.test", "carol@z.test")
	st := w.seat(id, w.loaded(id).State.Waiting()[0])
	if !st.Deadline.Equal(time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)) {
		t.Fatalf("deadline %v before the vacation", st.Deadline)
	}
	w.send(st.Address, reply[st.Address], "vacation until 2026-11-24")
	if got, want := w.seat(id, st.Seat).Deadline, time.Date(2026, 11, 28, 8, 0, 0, 0, time.UTC); !got.Equal(want) {
		t.Errorf("deadline after the vacation %v, want %v", got, want)
	}
}

// A rematch keeps the game's weekends off.
func TestRematchKeepsWeekendsOff(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	alice, bob := "alice@x.test", "bob@y.test"
	reply, id := w.botGame("felix", bob+" and an easy bot weekends off", alice, bob)
	if g, err := w.st.Game(context.Background(), id); err != nil || !g.WeekendsOff {
		t.Fatalf("game stored with weekends off %v, %v", g.WeekendsOff, err)
	}
	w.playPeople(id, reply, map[int]string{0: alice, 1: bob}, rand.New(rand.NewPCG(7, 8)))
	w.send(alice, reply[alice], "rematch")
	games, err := w.st.GamesOf(context.Background(), alice)
	if err != nil {
		t.Fatal(err)
	}
	next := games[0]
	for _, g := range games {
		if g.ID > next.ID {
			next = g
		}
	}
	if next.ID == id || !next.WeekendsOff {
		t.Errorf("the rematch (game %d after %d) has weekends off %v, want true", next.ID, id, next.WeekendsOff)
	}
}
