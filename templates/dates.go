package templates

import (
	"strings"
	"time"
)

// Dates in the reader's language (issue 39). A layout is Go's
// (time.Format), one of the language's own (ClockLayout, DateLayout,
// DayLayout: keyed in the catalog like every sentence, "Mon 2 Jan
// 15:04 MST" is "Mon, 2. Jan, 15:04 MST" in German); Date formats with it
// and writes the names of the weekday and the month in the language:
// "Tue 1 Dec 19:36 CET" is "Di., 1. Dez., 19:36 CET". Zones stay as Go
// writes them.

// The names of weekdays and months, short and long, as Go writes them:
// each is a key of the catalog, which gives a language's form with its
// abbreviation's full stop ("Di.", "Dez."; "Mai" has none).
var (
	shortWeekdays = [7]string{"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"}
	longWeekdays  = [7]string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}
	shortMonths   = [12]string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}
	longMonths    = [12]string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}
)

// The placeholders a layout's names stand in while Go formats the rest:
// runes of Unicode's private use area, which neither a layout nor a
// zone's name holds.
const (
	longWeekdaySlot  = "\uE100"
	shortWeekdaySlot = "\uE101"
	longMonthSlot    = "\uE102"
	shortMonthSlot   = "\uE103"
)

// layoutSlots puts the placeholders in the place of a layout's names;
// the longer names first, as Go reads them.
var layoutSlots = strings.NewReplacer("Monday", longWeekdaySlot, "Mon", shortWeekdaySlot, "January", longMonthSlot, "Jan", shortMonthSlot)

// Date writes t (in its own location) with the Go layout, the names of
// its weekday and month in the words' language: Say.Date(t, "Mon 2 Jan")
// is "Tue 1 Dec", For("de").Date(t, For("de").DayLayout()) "Di., 1.
// Dez.". A full stop that a name's abbreviation ends with is not written
// twice when the layout puts one after the name. Every date a mail,
// page or answer shows is written with it.
func (e Words) Date(t time.Time, layout string) string {
	if e.p == nil {
		return t.Format(layout)
	}
	s := t.Format(layoutSlots.Replace(layout))
	wd, mo := t.Weekday(), t.Month()-1
	for _, r := range []struct{ slot, name string }{
		{longWeekdaySlot, e.f(longWeekdays[wd])},
		{shortWeekdaySlot, e.f(shortWeekdays[wd])},
		{longMonthSlot, e.f(longMonths[mo])},
		{shortMonthSlot, e.f(shortMonths[mo])},
	} {
		if strings.HasSuffix(r.name, ".") {
			s = strings.ReplaceAll(s, r.slot+".", r.slot)
		}
		s = strings.ReplaceAll(s, r.slot, r.name)
	}
	return s
}

// deadlineText writes a deadline in the reader's zone, in the words'
// language: "Tue 24 Nov 18:00 CET"; "" for none.
func (e Words) deadlineText(t time.Time, loc *time.Location) string {
	if t.IsZero() {
		return ""
	}
	if loc == nil {
		loc = time.UTC
	}
	return e.Date(t.In(loc), e.ClockLayout())
}
