// Package calendar writes a player's calendar feed: an iCalendar
// document (RFC 5545) with one event per decision he owes, at its
// deadline, with an alarm at each of the service's reminder steps. It is
// pure: it takes the events as the daemon read them and wrote their
// words (templates), and returns the document's bytes; it reads no
// store and no clock.
//
// What an event is:
//   - a short event, EventLength long, that ENDS at the deadline
//     (DTEND): a calendar shows it as a block in the day, where a point
//     in time is easy to miss, and its end is the deadline;
//   - its UID names the service, the game, the seat and the decision
//     (store.Seat.Decision): the same decision is the same event, so a
//     calendar that reads the feed again updates it, and a new decision
//     is a new event;
//   - its SEQUENCE is the deadline in minutes since 1970: a deadline
//     that moves later (an admin's extend, a vacation, quiet hours)
//     raises it, and any move changes it;
//   - DTSTAMP is when the feed was written (a feed has no METHOD, and
//     it is written afresh on every request), so a calendar sees every
//     read as current;
//   - its alarms are relative to the event's start, so that every
//     calendar program, including those that ignore RELATED=END, rings
//     each at the deadline less its lead.
//
// Times are written in UTC: each calendar shows them in its own zone.
package calendar

import (
	"bytes"
	"fmt"
	"net/url"
	"strconv"
	"time"

	ical "github.com/emersion/go-ical"
)

// EventLength is how long an event lasts: it ends at the deadline.
const EventLength = 15 * time.Minute

// productID names the program that wrote the feed (PRODID).
const productID = "-//pbem//deadlines//EN"

// refreshInterval is how often a calendar is asked to read the feed
// again (REFRESH-INTERVAL, and X-PUBLISHED-TTL, which more programs
// read): a moved deadline shows within the hour.
const refreshInterval = time.Hour

// maxLine is the longest content line RFC 5545 allows, in octets,
// without its CRLF; longer lines are folded.
const maxLine = 75

// Feed is one player's calendar.
type Feed struct {
	// Name is the calendar's name as calendar programs show it
	// (X-WR-CALNAME).
	Name string
	// Written is when the feed is written: every event's DTSTAMP.
	Written time.Time
	Events  []Event
}

// Event is one decision the player owes.
type Event struct {
	// UID is the event's identity (see UID): the same for the same
	// decision, whatever its deadline.
	UID      string
	Summary  string
	Deadline time.Time
	// Description is the event's text; URL the seat's page, "" for none.
	Description string
	URL         string
	// Alarms are how long before the deadline each alarm rings, and
	// AlarmText what it says.
	Alarms    []time.Duration
	AlarmText string
}

// UID is the UID of the event of a seat's decision in a game of the
// service at host (the web server's host name, which makes it unique
// beyond this service).
func UID(host string, gameID int64, seat int, decision int64) string {
	return fmt.Sprintf("pbem-%d-%d-%d@%s", gameID, seat, decision, host)
}

// Write returns the feed as an iCalendar document, its lines folded at
// 75 octets and ended by CRLF.
func Write(f Feed) ([]byte, error) {
	cal := ical.NewCalendar()
	cal.Props.SetText(ical.PropVersion, "2.0")
	cal.Props.SetText(ical.PropProductID, productID)
	cal.Props.SetText(ical.PropCalendarScale, "GREGORIAN")
	name := ical.NewProp("X-WR-CALNAME")
	name.SetText(f.Name)
	name.Params.Del(ical.ParamValue)
	cal.Props.Set(name)
	setDuration(cal.Props, ical.PropRefreshInterval, refreshInterval, true)
	setDuration(cal.Props, "X-PUBLISHED-TTL", refreshInterval, false)
	// RFC 5545 wants a calendar to hold one component at least, and a
	// player who owes nothing has no event: the zone of the feed's
	// times, UTC, is always there.
	cal.Children = append(cal.Children, utcZone())
	for _, e := range f.Events {
		ev, err := event(e, f.Written)
		if err != nil {
			return nil, err
		}
		cal.Children = append(cal.Children, ev)
	}
	var buf bytes.Buffer
	if err := ical.NewEncoder(&buf).Encode(cal); err != nil {
		return nil, fmt.Errorf("calendar: write the feed: %w", err)
	}
	return fold(buf.Bytes()), nil
}

// event is e as a VEVENT, stamped at written.
func event(e Event, written time.Time) (*ical.Component, error) {
	if e.UID == "" || e.Deadline.IsZero() {
		return nil, fmt.Errorf("calendar: an event needs a UID and a deadline")
	}
	end := e.Deadline.UTC().Truncate(time.Second)
	start := end.Add(-EventLength)
	ev := ical.NewEvent()
	ev.Props.SetText(ical.PropUID, e.UID)
	ev.Props.SetDateTime(ical.PropDateTimeStamp, written.UTC().Truncate(time.Second))
	ev.Props.SetDateTime(ical.PropDateTimeStart, start)
	ev.Props.SetDateTime(ical.PropDateTimeEnd, end)
	setRaw(ev.Props, ical.PropSequence, strconv.FormatInt(sequence(end), 10))
	ev.Props.SetText(ical.PropSummary, e.Summary)
	if e.Description != "" {
		ev.Props.SetText(ical.PropDescription, e.Description)
	}
	if e.URL != "" {
		u, err := url.Parse(e.URL)
		if err != nil {
			return nil, fmt.Errorf("calendar: the event's page address: %w", err)
		}
		ev.Props.SetURI(ical.PropURL, u)
	}
	// A deadline takes no time of the player's day: calendars show him
	// free.
	ev.Props.SetText(ical.PropTransparency, "TRANSPARENT")
	ev.Props.SetText(ical.PropClass, "PRIVATE")
	for _, lead := range e.Alarms {
		ev.Children = append(ev.Children, alarm(lead, e.AlarmText))
	}
	return ev.Component, nil
}

// sequence is the SEQUENCE of an event that ends at end: its minutes
// since 1970, which fit RFC 5545's 32-bit integer for millennia.
func sequence(end time.Time) int64 {
	return end.Unix() / 60
}

// alarm is a VALARM that rings lead before the deadline: EventLength
// less before the event's start.
func alarm(lead time.Duration, text string) *ical.Component {
	a := ical.NewComponent(ical.CompAlarm)
	a.Props.SetText(ical.PropAction, "DISPLAY")
	a.Props.SetText(ical.PropDescription, text)
	setDuration(a.Props, ical.PropTrigger, -(lead - EventLength), false)
	return a
}

// setDuration sets a DURATION property; explicit writes VALUE=DURATION,
// which REFRESH-INTERVAL requires (RFC 7986).
func setDuration(props ical.Props, name string, d time.Duration, explicit bool) {
	p := ical.NewProp(name)
	p.SetDuration(d)
	if explicit {
		p.Params.Set(ical.ParamValue, string(ical.ValueDuration))
	} else {
		p.Params.Del(ical.ParamValue)
	}
	props.Set(p)
}

// setRaw sets a property of its default type to value as written.
func setRaw(props ical.Props, name, value string) {
	p := ical.NewProp(name)
	p.Value = value
	props.Set(p)
}

// utcZone is a VTIMEZONE of UTC.
func utcZone() *ical.Component {
	std := ical.NewComponent(ical.CompTimezoneStandard)
	setRaw(std.Props, ical.PropDateTimeStart, "19700101T000000")
	setRaw(std.Props, ical.PropTimezoneOffsetFrom, "+0000")
	setRaw(std.Props, ical.PropTimezoneOffsetTo, "+0000")
	std.Props.SetText(ical.PropTimezoneName, "UTC")
	tz := ical.NewComponent(ical.CompTimezone)
	tz.Props.SetText(ical.PropTimezoneID, "UTC")
	tz.Children = append(tz.Children, std)
	return tz
}

// fold folds every content line longer than maxLine octets (RFC 5545,
// 3.1): a CRLF and a space go before each further part, and a part never
// ends inside a UTF-8 character.
func fold(doc []byte) []byte {
	var out bytes.Buffer
	crlf := []byte("\r\n")
	for _, line := range bytes.SplitAfter(doc, crlf) {
		ended := bytes.HasSuffix(line, crlf)
		body := bytes.TrimSuffix(line, crlf)
		limit := maxLine
		for len(body) > limit {
			cut := limit
			for cut > 0 && !utf8Start(body[cut]) {
				cut--
			}
			out.Write(body[:cut])
			out.WriteString("\r\n ")
			body = body[cut:]
			limit = maxLine - 1 // the space counts
		}
		out.Write(body)
		if ended {
			out.Write(crlf)
		}
	}
	return out.Bytes()
}

// utf8Start reports whether b begins a UTF-8 character (is no
// continuation byte).
func utf8Start(b byte) bool { return b&0xC0 != 0x80 }
