package daemon

import (
	"bytes"
	"context"
	"errors"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	ics "github.com/arran4/golang-ical"

	"github.com/pbem/pbem/internal/admin"
	"github.com/pbem/pbem/internal/webpage"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// The calendar feed is checked with a second iCalendar parser,
// github.com/arran4/golang-ical, not the library that writes it.

var (
	feedLink     = regexp.MustCompile(`Your deadlines in your calendar:\s+https://web\.pbem\.test/c/([a-z2-7]{26})\.ics`)
	feedLinkHTML = regexp.MustCompile(`Your deadlines in your calendar: <a href="https://web\.pbem\.test/c/([a-z2-7]{26})\.ics"[^>]*>`)
)

// feedIn finds the calendar feed's token in a mail, checking that the
// text and the HTML part carry the same one.
func feedIn(t *testing.T, m received) string {
	t.Helper()
	text := feedLink.FindStringSubmatch(m.Text)
	html := feedLinkHTML.FindStringSubmatch(m.HTML)
	if text == nil || html == nil || text[1] != html[1] {
		t.Fatalf("the mail does not link the calendar feed in both parts:\n%s", m.Text)
	}
	return text[1]
}

// calendarWorld serves pages, with reminders a day and an hour before
// each deadline and at half the decision's time.
func calendarWorld(t *testing.T) *world {
	return newWorldConfig(t, func(c *Config) {
		c.Limits, c.WebURL, c.Admins = unlimited, "https://web.pbem.test", "root@ops.test"
		c.Reminders = []Reminder{{Before: 24 * time.Hour}, {Before: time.Hour}, {Percent: 50}}
	})
}

// readFeed draws the feed of token and parses it with the second parser.
func readFeed(t *testing.T, w *world, token string) (*ics.Calendar, []byte) {
	t.Helper()
	doc, err := w.svc.Calendar(context.Background(), token)
	if err != nil {
		t.Fatalf("the feed: %v", err)
	}
	cal, err := ics.ParseCalendar(bytes.NewReader(doc))
	if err != nil {
		t.Fatalf("the second parser rejects the feed: %v\n%s", err, doc)
	}
	return cal, doc
}

// owed is the seats of addr in game id that owe a decision now.
func owed(t *testing.T, w *world, id int64, addr string) []store.Seat {
	t.Helper()
	seats, err := w.st.Seats(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	var out []store.Seat
	for _, st := range seats {
		if st.Address == addr && !st.Deadline.IsZero() {
			out = append(out, st)
		}
	}
	return out
}

// eventOf is the feed's event with the UID, or nil.
func eventOf(cal *ics.Calendar, uid string) *ics.VEvent {
	for _, e := range cal.Events() {
		if e.Id() == uid {
			return e
		}
	}
	return nil
}

func seatUID(st store.Seat) string {
	return "pbem-" + strconv.FormatInt(st.GameID, 10) + "-" + strconv.Itoa(st.Seat) + "-" +
		strconv.FormatInt(st.Decision, 10) + "@web.pbem.test"
}

// eventProps are the only properties an event may have: the feed shows
// a game's reference, a deadline, alarms and the page's link, nothing
// of the table.
var eventProps = []string{"CLASS", "DESCRIPTION", "DTEND", "DTSTAMP", "DTSTART", "SEQUENCE", "SUMMARY", "TRANSP", "UID", "URL"}

// checkEvent checks the event of a decision the seat owes: at its
// deadline, with an alarm per reminder step, linking the seat's page
// (pageTok) and showing nothing else.
func checkEvent(t *testing.T, w *world, cal *ics.Calendar, st store.Seat, pageTok string) *ics.VEvent {
	t.Helper()
	e := eventOf(cal, seatUID(st))
	if e == nil {
		t.Fatalf("no event %s in the feed", seatUID(st))
	}
	if end, err := e.GetEndAt(); err != nil || !end.Equal(st.Deadline) {
		t.Errorf("DTEND %v (%v), want the deadline %v", end, err, st.Deadline)
	}
	ref := templates.ThreadRef("felix", w.svc.gameTitle("felix"), st.GameID)
	page := "https://web.pbem.test/s/" + pageTok
	want := map[ics.ComponentProperty]string{
		ics.ComponentPropertySummary:     templates.Say.CalendarDecisionDue(ref),
		ics.ComponentPropertyDescription: templates.Say.CalendarEventText(ref, page),
		ics.ComponentPropertyUrl:         page,
	}
	for p, v := range want {
		if got := e.GetProperty(p); got == nil || got.Value != v {
			t.Errorf("%s = %v, want %q", p, got, v)
		}
	}
	for _, p := range e.Properties {
		if !slices.Contains(eventProps, p.IANAToken) {
			t.Errorf("the event has a property %s: %s", p.IANAToken, p.Value)
		}
	}
	if n, want := len(e.Alarms()), 3; n != want {
		t.Errorf("%d alarms, want one per reminder step, %d", n, want)
	}
	return e
}

// TestCalendarFeed: every game mail of a player links one calendar feed
// for all his games; it holds an event per decision he owes, and only
// those; an admin's extend and a vacation move the event, which stays
// the same event; a move ends it; `link new` renews the feed's token with the page's,
// and says so; the log never holds the token.
func TestCalendarFeed(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := calendarWorld(t)
	alice, bob, carol := "alice@x.test", "bob@y.test", "carol@z.test"
	reply, id := w.startGame("felix", alice, bob, carol)
	reply2, id2 := w.startGame("felix", carol, bob, alice)
	feed := feedIn(t, w.last(bob))
	w.send(bob, reply[bob], "status")
	if got := feedIn(t, w.last(bob)); got != feed {
		t.Fatalf("bob's two games link two feeds, %s and %s", feed, got)
	}
	if feedIn(t, w.last(alice)) == feed {
		t.Fatal("alice's mail links bob's feed")
	}
	page := linkIn(t, w.last(bob))
	w.send(bob, reply2[bob], "status")
	page2 := linkIn(t, w.last(bob))

	cal, _ := readFeed(t, w, feed)
	owes := append(owed(t, w, id, bob), owed(t, w, id2, bob)...)
	if len(cal.Events()) != len(owes) {
		t.Fatalf("%d events for bob's %d decisions", len(cal.Events()), len(owes))
	}
	for _, st := range owes {
		tok := page
		if st.GameID == id2 {
			tok = page2
		}
		checkEvent(t, w, cal, st, tok)
	}

	// An admin's extend: the same event, a day later, a new SEQUENCE.
	if len(owed(t, w, id, bob)) == 0 {
		t.Fatal("bob owes nothing in the first game: the test would not see a deadline move")
	}
	before := owed(t, w, id, bob)[0]
	seq := eventOf(cal, seatUID(before)).GetProperty(ics.ComponentPropertySequence).Value
	if err := w.svc.Admin(ctx, id, admin.ExtendAct{Who: before.Name, By: 24 * time.Hour}, "root"); err != nil {
		t.Fatal(err)
	}
	after := owed(t, w, id, bob)[0]
	if !after.Deadline.Equal(before.Deadline.Add(24 * time.Hour)) {
		t.Fatalf("the extend moved the deadline to %v", after.Deadline)
	}
	cal, _ = readFeed(t, w, feed)
	moved := checkEvent(t, w, cal, after, page)
	if s := moved.GetProperty(ics.ComponentPropertySequence).Value; len(s) < len(seq) || len(s) == len(seq) && s <= seq {
		t.Errorf("SEQUENCE %s after the extend, %s before: a later deadline must raise it", s, seq)
	}

	// A vacation: his events move with his deadlines, in both games.
	w.send(bob, reply[bob], "vacation 2d")
	if away := owed(t, w, id, bob)[0]; !away.Deadline.After(after.Deadline) {
		t.Fatalf("the vacation left bob's deadline at %v", away.Deadline)
	}
	cal, _ = readFeed(t, w, feed)
	for _, st := range append(owed(t, w, id, bob), owed(t, w, id2, bob)...) {
		tok := page
		if st.GameID == id2 {
			tok = page2
		}
		checkEvent(t, w, cal, st, tok)
	}
	after = owed(t, w, id, bob)[0]

	// A move: the decision is made, its event leaves the feed.
	tb := w.loaded(id)
	var cmds []string
	for _, o := range tb.State.Options(after.Seat) {
		cmds = append(cmds, o.Commands...)
	}
	w.send(bob, reply[bob], cmds[0])
	cal, _ = readFeed(t, w, feed)
	if e := eventOf(cal, seatUID(after)); e != nil {
		t.Errorf("the decision bob made is still in his feed")
	}
	for _, st := range owed(t, w, id, bob) {
		checkEvent(t, w, cal, st, page) // a new decision of his, if any
	}

	// link new renews the feed with the page, and says so.
	w.send(bob, reply[bob], "link new")
	m := w.last(bob)
	if !strings.Contains(strings.Join(strings.Fields(m.Text), " "), templates.Say.TableAndCalendarLinksRenewed()) {
		t.Errorf("link new's answer does not say the feed was renewed:\n%s", m.Text)
	}
	renewed := feedIn(t, m)
	if renewed == feed {
		t.Fatal("link new kept the feed's token")
	}
	if _, err := w.svc.Calendar(ctx, feed); !errors.Is(err, webpage.ErrNoPage) {
		t.Errorf("the old feed token: %v", err)
	}
	readFeed(t, w, renewed)
	if _, err := w.svc.Calendar(ctx, strings.Repeat("a", 26)); !errors.Is(err, webpage.ErrNoPage) {
		t.Errorf("an unknown feed token: %v", err)
	}
	for _, secret := range []string{feed, renewed} {
		if strings.Contains(w.logs.String(), secret) {
			t.Error("the log holds a feed token")
		}
	}
}

// TestCalendarFeedOff: a pbem that serves no pages links no feed and
// serves none; a game that is over links none.
func TestCalendarFeedOff(t *testing.T) {
	t.Parallel()
	off := newWorld(t)
	off.startGame("felix", "alice@x.test", "bob@y.test", "carol@z.test")
	if m := off.last("bob@y.test"); strings.Contains(m.Text, "/c/") || strings.Contains(m.HTML, "/c/") {
		t.Error("a mail links a calendar feed while pbem serves no pages")
	}
	if _, err := off.svc.Calendar(context.Background(), strings.Repeat("a", 26)); !errors.Is(err, webpage.ErrNoPage) {
		t.Errorf("a feed while pbem serves no pages: %v", err)
	}
	w := calendarWorld(t)
	reply, id := w.startGame("felix", "alice@x.test", "bob@y.test", "carol@z.test")
	if err := w.svc.Admin(context.Background(), id, admin.StatusAct{To: admin.Abort}, "root"); err != nil {
		t.Fatal(err)
	}
	w.flush()
	w.send("bob@y.test", reply["bob@y.test"], "status")
	if m := w.last("bob@y.test"); strings.Contains(m.Text, "/c/") {
		t.Errorf("a mail of a game that is over links the feed:\n%s", m.Text)
	}
}

// TestCalendarAlarmsOutOfQuietHours: a decision's alarms ring when its
// reminder mails are sent: a step inside the player's quiet hours rings
// 15 minutes before they start, steps that meet ring once, and a game
// with a time bank divides the bank the decision began with.
func TestCalendarAlarmsOutOfQuietHours(t *testing.T) {
	t.Parallel()
	w := calendarWorld(t)
	wk := &work{Service: w.svc, ctx: context.Background()}
	clock := playerClock(store.Player{QuietStart: 22, QuietEnd: 8}, false)
	due := time.Date(2026, 11, 24, 8, 0, 0, 0, time.UTC) // a Tuesday, as her night ends
	cases := []struct {
		name string
		d    store.OwedDecision
		want []time.Duration
	}{
		{"72 hours per decision", store.OwedDecision{Deadline: due, TurnTime: 72 * time.Hour},
			[]time.Duration{36 * time.Hour, 24 * time.Hour, 10*time.Hour + 15*time.Minute}},
		{"a bank of 12 hours", store.OwedDecision{Deadline: due, TurnTime: 72 * time.Hour, Bank: 12 * time.Hour},
			[]time.Duration{10*time.Hour + 15*time.Minute}},
	}
	for _, c := range cases {
		if got := wk.alarmLeads(clock, c.d); !slices.Equal(got, c.want) {
			t.Errorf("%s: alarms %v before the deadline, want %v", c.name, got, c.want)
		}
	}
}
