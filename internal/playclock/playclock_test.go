package playclock

import (
	"testing"
	"time"

	"pgregory.net/rapid"
)

func zone(t testing.TB, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatalf("zone %s: %v", name, err)
	}
	return loc
}

func at(t testing.TB, loc *time.Location, s string) time.Time {
	t.Helper()
	v, err := time.ParseInLocation("2006-01-02 15:04", s, loc)
	if err != nil {
		t.Fatalf("time %q: %v", s, err)
	}
	return v
}

func TestDeadlineEnd(t *testing.T) {
	night := DefaultQuiet
	tests := []struct {
		name     string
		zone     string
		quiet    Quiet
		weekends bool
		start    string
		budget   time.Duration
		want     string // in the same zone
	}{
		{"outside quiet hours", "Europe/London", night, false, "2026-06-01 09:00", 72 * time.Hour, "2026-06-04 09:00"},
		{"inside quiet hours: moved to their end", "Europe/London", night, false, "2026-06-01 23:00", 72 * time.Hour, "2026-06-05 08:00"},
		{"at quiet hours' start: moved", "Europe/London", night, false, "2026-06-01 22:00", 24 * time.Hour, "2026-06-03 08:00"},
		{"at quiet hours' end: kept", "Europe/London", night, false, "2026-06-01 08:00", 24 * time.Hour, "2026-06-02 08:00"},
		{"quiet hours off", "Europe/London", Quiet{}, false, "2026-06-01 03:00", 24 * time.Hour, "2026-06-02 03:00"},
		{"quiet hours that do not wrap", "Asia/Kolkata", Quiet{On: true, Start: 1, End: 9}, false, "2026-06-01 00:30", 24 * time.Hour, "2026-06-02 00:30"},
		{"quiet hours that do not wrap, inside", "Asia/Kolkata", Quiet{On: true, Start: 1, End: 9}, false, "2026-06-01 04:30", 24 * time.Hour, "2026-06-02 09:00"},
		{"spring forward: 72 hours are 72 hours", "Europe/London", night, false, "2026-03-27 12:00", 72 * time.Hour, "2026-03-30 13:00"},
		{"fall back: 72 hours are 72 hours", "America/New_York", night, false, "2026-10-30 12:00", 72 * time.Hour, "2026-11-02 11:00"},
		{"half-hour zone", "America/St_Johns", night, false, "2026-06-01 20:30", 2 * time.Hour, "2026-06-02 08:00"},
		{"weekends off: Friday to Monday", "Europe/London", Quiet{}, true, "2026-06-05 12:00", 24 * time.Hour, "2026-06-08 12:00"},
		{"weekends off: started on Saturday", "Europe/London", Quiet{}, true, "2026-06-06 12:00", 24 * time.Hour, "2026-06-09 00:00"},
		{"weekends off: ends as Saturday starts", "Europe/London", Quiet{}, true, "2026-06-05 00:00", 24 * time.Hour, "2026-06-08 00:00"},
		{"weekends off and quiet hours: Monday 08:00", "Europe/London", night, true, "2026-06-05 00:00", 24 * time.Hour, "2026-06-08 08:00"},
		{"weekends off east of the date line", "Pacific/Kiritimati", night, true, "2026-06-05 12:00", 24 * time.Hour, "2026-06-08 12:00"},
		{"weekends off west of the date line", "Pacific/Pago_Pago", night, true, "2026-06-05 12:00", 24 * time.Hour, "2026-06-08 12:00"},
		{"Lord Howe's half-hour summer time", "Australia/Lord_Howe", night, false, "2026-10-03 12:00", 24 * time.Hour, "2026-10-04 12:30"},
		{"Chatham", "Pacific/Chatham", night, false, "2026-06-01 21:45", 15 * time.Minute, "2026-06-02 08:00"},
		{"no time at all, inside quiet hours", "Europe/London", night, false, "2026-06-01 23:00", 0, "2026-06-02 08:00"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			loc := zone(t, tt.zone)
			c := Clock{Zone: loc, Quiet: tt.quiet, WeekendsOff: tt.weekends}
			got := c.DeadlineEnd(at(t, loc, tt.start), tt.budget)
			if want := at(t, loc, tt.want); !got.Equal(want) {
				t.Errorf("DeadlineEnd(%s, %v) = %s, want %s", tt.start, tt.budget, got.In(loc).Format("Mon 2006-01-02 15:04 MST"), want.Format("Mon 2006-01-02 15:04 MST"))
			}
		})
	}
}

func TestQuietAndBeforeQuiet(t *testing.T) {
	loc := zone(t, "America/New_York")
	c := Clock{Zone: loc, Quiet: DefaultQuiet}
	tests := []struct {
		t      string
		quiet  bool
		start  string // QuietStart
		before string // BeforeQuiet with a 15-minute margin
	}{
		{"2026-06-01 21:00", false, "2026-06-01 21:00", "2026-06-01 21:00"},
		{"2026-06-01 21:50", false, "2026-06-01 21:50", "2026-06-01 21:45"},
		{"2026-06-01 22:00", true, "2026-06-01 22:00", "2026-06-01 21:45"},
		{"2026-06-02 03:00", true, "2026-06-01 22:00", "2026-06-01 21:45"},
		{"2026-06-02 07:59", true, "2026-06-01 22:00", "2026-06-01 21:45"},
		{"2026-06-02 08:00", false, "2026-06-02 08:00", "2026-06-02 08:00"},
		// The night summer time ends is an hour longer.
		{"2026-11-01 07:00", true, "2026-10-31 22:00", "2026-10-31 21:45"},
	}
	for _, tt := range tests {
		v := at(t, loc, tt.t)
		if got := c.IsQuiet(v); got != tt.quiet {
			t.Errorf("IsQuiet(%s) = %v", tt.t, got)
		}
		if got, want := c.QuietStart(v), at(t, loc, tt.start); !got.Equal(want) {
			t.Errorf("QuietStart(%s) = %s, want %s", tt.t, got.In(loc), want)
		}
		if got, want := c.BeforeQuiet(v, 15*time.Minute), at(t, loc, tt.before); !got.Equal(want) {
			t.Errorf("BeforeQuiet(%s) = %s, want %s", tt.t, got.In(loc), want)
		}
	}
}

func TestValid(t *testing.T) {
	for _, tt := range []struct {
		q  Quiet
		ok bool
	}{
		{Quiet{}, true}, {DefaultQuiet, true}, {Quiet{On: true, Start: 1, End: 9}, true},
		{Quiet{On: true, Start: 7, End: 7}, false}, {Quiet{On: true, Start: 24, End: 7}, false}, {Quiet{On: true, Start: 3, End: -1}, false},
	} {
		if err := tt.q.Valid(); (err == nil) != tt.ok {
			t.Errorf("%+v.Valid() = %v", tt.q, err)
		}
	}
}

var propertyZones = []string{
	"UTC", "Pacific/Kiritimati", "Pacific/Pago_Pago", "Pacific/Chatham", "America/St_Johns",
	"Asia/Kolkata", "Europe/London", "America/New_York", "Australia/Lord_Howe", "Asia/Kathmandu",
}

// oracle is a slow, separate model of the same rules: it walks whole
// minutes of UTC (every zone offset is a whole number of minutes) and
// reads the wall clock at each with the time package alone.
type oracle struct {
	loc      *time.Location
	q        Quiet
	weekends bool
}

func (o oracle) weekend(t time.Time) bool {
	d := t.In(o.loc).Weekday()
	return o.weekends && (d == time.Saturday || d == time.Sunday)
}

func (o oracle) quiet(t time.Time) bool {
	if !o.q.On {
		return false
	}
	h := t.In(o.loc).Hour()
	if o.q.Start < o.q.End {
		return h >= o.q.Start && h < o.q.End
	}
	return h >= o.q.Start || h < o.q.End
}

func (o oracle) deadlineEnd(start time.Time, budget time.Duration) time.Time {
	t, left := start, budget
	for left > 0 {
		n := t.Truncate(time.Minute).Add(time.Minute)
		if !o.weekend(t) {
			if n.Sub(t) >= left {
				t = t.Add(left)
				break
			}
			left -= n.Sub(t)
		}
		t = n
	}
	for o.weekend(t) || o.quiet(t) {
		t = t.Truncate(time.Minute).Add(time.Minute)
	}
	return t
}

func (o oracle) count(from, to time.Time, skip func(time.Time) bool) time.Duration {
	var sum time.Duration
	for t := from; t.Before(to); {
		n := t.Truncate(time.Minute).Add(time.Minute)
		if n.After(to) {
			n = to
		}
		if !skip(t) {
			sum += n.Sub(t)
		}
		t = n
	}
	return sum
}

func genClock(t *rapid.T) (Clock, oracle) {
	name := rapid.SampledFrom(propertyZones).Draw(t, "zone")
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatalf("zone %s: %v", name, err)
	}
	q := Quiet{On: rapid.Bool().Draw(t, "quiet")}
	if q.On {
		q.Start = rapid.IntRange(0, 23).Draw(t, "from")
		q.End = rapid.IntRange(0, 22).Draw(t, "to")
		if q.End >= q.Start {
			q.End++ // never the same hour
		}
	}
	weekends := rapid.Bool().Draw(t, "weekendsOff")
	return Clock{Zone: loc, Quiet: q, WeekendsOff: weekends}, oracle{loc, q, weekends}
}

// genInstant is an instant of 2026 or 2027, to the second: every change
// to and from summer time of those years is in reach.
func genInstant(t *rapid.T, label string) time.Time {
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	return base.Add(time.Duration(rapid.Int64Range(0, 2*365*24*3600).Draw(t, label)) * time.Second)
}

// TestDeadlineEndProperties: over random zones, quiet hours (wrapping
// midnight or not), weekends, starts and budgets, a deadline never ends
// inside quiet hours nor on a day off, never before start+budget, counts
// exactly budget of the game's time before any move out of quiet hours,
// and agrees with the minute-by-minute model.
func TestDeadlineEndProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c, o := genClock(t)
		start := genInstant(t, "start")
		budget := time.Duration(rapid.Int64Range(0, 10*24*3600).Draw(t, "budget")) * time.Second
		end := c.DeadlineEnd(start, budget)
		if c.IsQuiet(end) || o.quiet(end) {
			t.Fatalf("ends inside quiet hours: %s", end.In(c.Zone))
		}
		if c.IsWeekend(end) || o.weekend(end) {
			t.Fatalf("ends on a day off: %s", end.In(c.Zone))
		}
		if end.Before(start.Add(budget)) {
			t.Fatalf("ends at %s, before start+budget %s", end, start.Add(budget))
		}
		if got := c.WeekTime(start, end); got < budget {
			t.Fatalf("counts %v of %v", got, budget)
		}
		// Exactly budget, up to the first instant the deadline could
		// have ended: the rest is the closed stretch it was moved over.
		raw := rawEnd(c, start, budget)
		if got := c.WeekTime(start, raw); got != budget {
			t.Fatalf("counts %v up to %s, want %v", got, raw, budget)
		}
		for s := raw; s.Before(end); s = c.next(s) {
			if !c.Closed(s) {
				t.Fatalf("moved from %s over %s, which is open, to %s", raw, s, end)
			}
		}
		if want := o.deadlineEnd(start, budget); !end.Equal(want) {
			t.Fatalf("DeadlineEnd = %s, model says %s", end.In(c.Zone), want.In(c.Zone))
		}
	})
}

// rawEnd is the first instant at which budget of the game's time has
// passed since start, from the model (before any move out of quiet hours).
func rawEnd(c Clock, start time.Time, budget time.Duration) time.Time {
	o := oracle{c.Zone, Quiet{}, c.WeekendsOff}
	t, left := start, budget
	for left > 0 {
		n := t.Truncate(time.Minute).Add(time.Minute)
		if !o.weekend(t) {
			if n.Sub(t) >= left {
				return t.Add(left)
			}
			left -= n.Sub(t)
		}
		t = n
	}
	return t
}

func TestCountedProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c, o := genClock(t)
		from := genInstant(t, "from")
		to := from.Add(time.Duration(rapid.Int64Range(0, 9*24*3600).Draw(t, "span")) * time.Second)
		if got, want := c.Counted(from, to), o.count(from, to, func(t time.Time) bool { return o.quiet(t) || o.weekend(t) }); got != want {
			t.Fatalf("Counted = %v, model says %v", got, want)
		}
		if got, want := c.WeekTime(from, to), o.count(from, to, o.weekend); got != want {
			t.Fatalf("WeekTime = %v, model says %v", got, want)
		}
	})
}

func TestBeforeQuietProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c, _ := genClock(t)
		a := genInstant(t, "a")
		b := a.Add(time.Duration(rapid.Int64Range(0, 3*24*3600).Draw(t, "later")) * time.Second)
		// A margin of at most an hour, the shortest quiet hours.
		margin := time.Duration(rapid.IntRange(1, 60).Draw(t, "margin")) * time.Minute
		ma, mb := c.BeforeQuiet(a, margin), c.BeforeQuiet(b, margin)
		if mb.Before(ma) {
			t.Fatalf("BeforeQuiet reorders %s and %s: %s, %s", a, b, ma, mb)
		}
		if ma.After(a) {
			t.Fatalf("BeforeQuiet(%s) = %s, later", a, ma)
		}
		if c.IsQuiet(ma) {
			t.Fatalf("BeforeQuiet(%s) = %s, inside quiet hours", a, ma)
		}
		if c.IsQuiet(ma.Add(margin - time.Nanosecond)) {
			t.Fatalf("BeforeQuiet(%s) = %s, less than %v before quiet hours", a, ma, margin)
		}
	})
}

func TestGuessZone(t *testing.T) {
	for _, tt := range []struct{ date, want string }{
		{"Mon, 23 Nov 2026 10:00:00 -0500", "America/New_York"},
		{"Mon, 22 Jun 2026 10:00:00 -0500", "America/Chicago"}, // New York is -0400 in summer
		{"Mon, 23 Nov 2026 10:00:00 +0530", "Asia/Kolkata"},
		{"Mon, 23 Nov 2026 10:00:00 -0330", "America/St_Johns"},
		{"Mon, 23 Nov 2026 10:00:00 +0000", "Europe/London"},
		{"Mon, 22 Jun 2026 10:00:00 +0000", "Atlantic/Reykjavik"},
		{"Mon, 23 Nov 2026 10:00:00 +1345", "Pacific/Chatham"},
		{"Mon, 23 Nov 2026 10:00:00 +1400", "Pacific/Kiritimati"},
		{"Mon, 23 Nov 2026 10:00:00 -1100", "Pacific/Pago_Pago"},
		{"Mon, 23 Nov 2026 10:00:00 +0123", ""},
	} {
		d, err := time.Parse(time.RFC1123Z, tt.date)
		if err != nil {
			t.Fatal(err)
		}
		if got := GuessZone(d); got != tt.want {
			t.Errorf("GuessZone(%s) = %q, want %q", tt.date, got, tt.want)
		}
	}
}

// TestBankEndProperties: over random zones, quiet hours, weekends, starts
// and banks, a bank runs out outside quiet hours and days off, after
// exactly the bank of counting time (Counted), and never sooner than the
// classic deadline of the same length, which counts quiet hours.
func TestBankEndProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c, o := genClock(t)
		start := genInstant(t, "start")
		bank := time.Duration(rapid.Int64Range(0, 10*24*3600).Draw(t, "bank")) * time.Second
		end := c.BankEnd(start, bank)
		if c.Closed(end) || o.quiet(end) || o.weekend(end) {
			t.Fatalf("runs out inside quiet hours or on a day off: %s", end.In(c.Zone))
		}
		if got := c.Counted(start, end); got != bank {
			t.Fatalf("counts %v of a bank of %v", got, bank)
		}
		if got := o.count(start, end, func(t time.Time) bool { return o.quiet(t) || o.weekend(t) }); got != bank {
			t.Fatalf("the model counts %v of a bank of %v", got, bank)
		}
		if d := c.DeadlineEnd(start, bank); end.Before(d) {
			t.Fatalf("the bank runs out at %s, before the classic deadline %s", end, d)
		}
	})
}
