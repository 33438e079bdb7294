package calendar

import (
	"bytes"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	ics "github.com/arran4/golang-ical"
)

// The feed is checked with a second parser, github.com/arran4/golang-ical,
// not the library that writes it: what one library writes and reads back
// might be wrong for every other program.

var written = time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)

func felixEvent() Event {
	return Event{
		UID:         UID("pbem.example", 12, 1, 3),
		Summary:     "Felix #12: your decision is due",
		Deadline:    time.Date(2026, 12, 1, 9, 0, 0, 0, time.FixedZone("x", 5*3600)),
		Description: "Your table, with the whole game; all of it: https://pbem.example/s/abcdefghijklmnopqrstuvwxyz",
		URL:         "https://pbem.example/s/abcdefghijklmnopqrstuvwxyz",
		Alarms:      []time.Duration{24 * time.Hour, time.Hour, 5 * time.Minute},
		AlarmText:   "Felix #12: your decision is due",
	}
}

// parse parses the feed with the second parser.
func parse(t *testing.T, doc []byte) *ics.Calendar {
	t.Helper()
	cal, err := ics.ParseCalendar(bytes.NewReader(doc))
	if err != nil {
		t.Fatalf("the second parser rejects the feed: %v\n%s", err, doc)
	}
	return cal
}

// prop is the raw value of an event's property, "" for none.
func prop(e *ics.VEvent, p ics.ComponentProperty) string {
	if v := e.GetProperty(p); v != nil {
		return v.Value
	}
	return ""
}

func TestFeedParses(t *testing.T) {
	t.Parallel()
	other := felixEvent()
	other.UID, other.Summary, other.Alarms = UID("pbem.example", 14, 0, 1), "Gracias #14: your decision is due", nil
	other.Deadline = written.Add(2 * time.Hour)
	doc, err := Write(Feed{Name: "pbem: your deadlines", Written: written, Events: []Event{felixEvent(), other}})
	if err != nil {
		t.Fatal(err)
	}
	cal := parse(t, doc)
	events := cal.Events()
	if len(events) != 2 {
		t.Fatalf("%d events, want 2", len(events))
	}
	e := events[0]
	if e.Id() != "pbem-12-1-3@pbem.example" {
		t.Errorf("UID %q", e.Id())
	}
	end, err := e.GetEndAt()
	if err != nil || !end.Equal(felixEvent().Deadline) {
		t.Errorf("DTEND %v (%v), want the deadline %v", end, err, felixEvent().Deadline)
	}
	start, err := e.GetStartAt()
	if err != nil || end.Sub(start) != EventLength {
		t.Errorf("DTSTART %v (%v): the event lasts %v, want %v", start, err, end.Sub(start), EventLength)
	}
	stamp, err := e.GetDtStampTime()
	if err != nil || !stamp.Equal(written) {
		t.Errorf("DTSTAMP %v (%v), want %v", stamp, err, written)
	}
	if got := prop(e, ics.ComponentPropertySummary); got != "Felix #12: your decision is due" {
		t.Errorf("SUMMARY %q", got)
	}
	if got := prop(e, ics.ComponentPropertyUrl); got != felixEvent().URL {
		t.Errorf("URL %q", got)
	}
	if got := prop(e, ics.ComponentPropertyDescription); got != felixEvent().Description {
		t.Errorf("DESCRIPTION %q: the text must arrive whole, its comma and semicolon escaped and read back", got)
	}
	if !bytes.Contains(doc, []byte(`DESCRIPTION:Your table\, with the whole game\; all of it`)) {
		t.Errorf("the description's comma and semicolon are not escaped:\n%s", doc)
	}
	// Each alarm rings its lead before the deadline: its trigger is
	// relative to the start, EventLength earlier.
	alarms := e.Alarms()
	want := []string{"-PT85500S", "-PT2700S", "PT600S"}
	if len(alarms) != len(want) {
		t.Fatalf("%d alarms, want %d", len(alarms), len(want))
	}
	for i, a := range alarms {
		if v := a.GetProperty(ics.ComponentPropertyTrigger); v == nil || v.Value != want[i] {
			t.Errorf("alarm %d: trigger %v, want %s", i, v, want[i])
		}
		if v := a.GetProperty(ics.ComponentPropertyAction); v == nil || v.Value != "DISPLAY" {
			t.Errorf("alarm %d: action %v, want DISPLAY", i, v)
		}
	}
	if events[1].Id() != "pbem-14-0-1@pbem.example" || len(events[1].Alarms()) != 0 {
		t.Errorf("second event %q with %d alarms", events[1].Id(), len(events[1].Alarms()))
	}
}

// TestEmptyFeed: a player who owes nothing gets a calendar all the same,
// valid and with no event.
func TestEmptyFeed(t *testing.T) {
	t.Parallel()
	doc, err := Write(Feed{Name: "pbem: your deadlines", Written: written})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(parse(t, doc).Events()); n != 0 {
		t.Errorf("%d events, want none", n)
	}
	for _, want := range []string{"BEGIN:VCALENDAR\r\n", "VERSION:2.0\r\n", "X-WR-CALNAME:pbem: your deadlines\r\n", "END:VCALENDAR\r\n"} {
		if !bytes.Contains(doc, []byte(want)) {
			t.Errorf("the feed lacks %q:\n%s", want, doc)
		}
	}
}

// TestMovedDeadline: the same decision with a later deadline is the same
// event (its UID), at the new time, with a higher SEQUENCE.
func TestMovedDeadline(t *testing.T) {
	t.Parallel()
	before := felixEvent()
	after := before
	after.Deadline = before.Deadline.Add(24 * time.Hour)
	read := func(e Event) *ics.VEvent {
		doc, err := Write(Feed{Name: "n", Written: written, Events: []Event{e}})
		if err != nil {
			t.Fatal(err)
		}
		return parse(t, doc).Events()[0]
	}
	b, a := read(before), read(after)
	if a.Id() != b.Id() {
		t.Errorf("UID changed from %q to %q: calendars would show the decision twice", b.Id(), a.Id())
	}
	if end, _ := a.GetEndAt(); !end.Equal(after.Deadline) {
		t.Errorf("DTEND %v, want the new deadline %v", end, after.Deadline)
	}
	sb, sa := prop(b, ics.ComponentPropertySequence), prop(a, ics.ComponentPropertySequence)
	if len(sa) < len(sb) || len(sa) == len(sb) && sa <= sb {
		t.Errorf("SEQUENCE %s then %s: a later deadline must raise it", sb, sa)
	}
}

// TestFolding: no line is longer than 75 octets, a fold never splits a
// character, and unfolding gives back the text.
func TestFolding(t *testing.T) {
	t.Parallel()
	e := felixEvent()
	e.Description = strings.Repeat("déjà vu — ", 40)
	doc, err := Write(Feed{Name: "n", Written: written, Events: []Event{e}})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasSuffix(doc, []byte("\r\n")) {
		t.Error("the feed does not end with CRLF")
	}
	for _, line := range strings.Split(strings.TrimSuffix(string(doc), "\r\n"), "\r\n") {
		if len(line) > maxLine {
			t.Errorf("a line of %d octets: %q", len(line), line)
		}
		if !utf8.ValidString(line) {
			t.Errorf("a fold split a character: %q", line)
		}
	}
	unfolded := strings.ReplaceAll(string(doc), "\r\n ", "")
	if !strings.Contains(unfolded, "DESCRIPTION:"+strings.Repeat("déjà vu — ", 40)+"\r\n") {
		t.Error("unfolding does not give the description back")
	}
	got := prop(parse(t, doc).Events()[0], ics.ComponentPropertyDescription)
	if got != e.Description {
		t.Errorf("the second parser reads the description as %q", got)
	}
}

func TestEventNeedsUIDAndDeadline(t *testing.T) {
	t.Parallel()
	for _, e := range []Event{{Deadline: written}, {UID: "u"}} {
		if _, err := Write(Feed{Name: "n", Written: written, Events: []Event{e}}); err == nil {
			t.Errorf("Write(%+v) = nil error", e)
		}
	}
}
