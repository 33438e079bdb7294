package parser

import (
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"
)

const day = 24 * time.Hour

// TestNewClock: the ways of writing `new ... clock` give the clock asked
// for, and the canonical text and arguments write it one way.
func TestNewClock(t *testing.T) {
	t.Parallel()
	bank := Clock{Start: 2 * day, Increment: 12 * time.Hour, Max: 5 * day}
	const canonical = "new felix with a@x.test clock 2d+12h max 5d"
	for _, tc := range []struct {
		text  string
		clock Clock
		want  string
	}{
		{"new felix with a@x.test clock 2d+12h max 5d", bank, canonical},
		{"new felix with a@x.test clock 2d + 12h max 5d", bank, canonical},
		{"new felix with a@x.test clock 2d +12h max 5d", bank, canonical},
		{"new felix with a@x.test clock 2d+ 12h max 5d", bank, canonical},
		{"new felix with a@x.test clock 2 days + 12 hours max 5 days", bank, canonical},
		{"new felix with a@x.test clock 48h+12h max 120h", bank, canonical},
		{"new felix with a@x.test clock: 2d+12h, max 5d.", bank, canonical},
		{"NEW Felix with a@x.test CLOCK 2D+12H MAX 5D", bank, canonical},
		{"new felix with a@x.test clock two days + twelve hours maximum five days", bank, canonical},
		{"new felix with a@x.test clock 1 day and 1 day + 6h and 6h max 5d", bank, canonical},
		{"new felix with a@x.test clock 2d+12h", Clock{Start: 2 * day, Increment: 12 * time.Hour}, "new felix with a@x.test clock 2d+12h"},
		{"new felix with a@x.test clock 3d", Clock{Start: 3 * day}, "new felix with a@x.test clock 3d"},
		{"new felix with a@x.test clock 3d max 3d", Clock{Start: 3 * day, Max: 3 * day}, "new felix with a@x.test clock 3d max 3d"},
		{"new felix with a@x.test clock 36h+90m", Clock{Start: 36 * time.Hour, Increment: 90 * time.Minute}, "new felix with a@x.test clock 36h+90m"},
		{"new felix with a@x.test clock 2d+0h max 2d", Clock{Start: 2 * day, Max: 2 * day}, "new felix with a@x.test clock 2d max 2d"},
		{"new felix with a@x.test clock 1h", Clock{Start: MinClockStart}, "new felix with a@x.test clock 1h"},
		{"new felix with a@x.test clock 30d+7d max 60d", Clock{Start: MaxClockStart, Increment: MaxClockIncrement, Max: MaxClockMax}, "new felix with a@x.test clock 30d+7d max 60d"},
		// Among the other options after the addresses, in any order.
		{"new felix with a@x.test clock 2d+12h max 5d weekends off", bank, canonical + " weekends off"},
		{"new felix with a@x.test weekends off, clock 2d+12h max 5d", bank, canonical + " weekends off"},
		{"new felix with a@x.test and a bot clock 2d+12h max 5d", bank, "new felix with a@x.test bot:normal clock 2d+12h max 5d"},
		{"new felix with 2 strong bots clock 3d", Clock{Start: 3 * day}, "new felix with bot:strong bot:strong clock 3d"},
		// No clock: the classic deadline.
		{"new felix with a@x.test deadline 48h", Clock{}, "new felix with a@x.test deadline 48h"},
		{"new felix with a@x.test", Clock{}, "new felix with a@x.test"},
	} {
		cmds, prob := Read(tc.text, lobbyLang())
		if prob != nil || len(cmds) != 1 {
			t.Errorf("%q: %v, %v", tc.text, cmds, prob)
			continue
		}
		c := cmds[0]
		if c.Clock != tc.clock || c.Text != tc.want {
			t.Errorf("%q: clock %+v, text %q; want %+v, %q", tc.text, c.Clock, c.Text, tc.clock, tc.want)
		}
		if c.Clock.On() && c.Deadline != 0 {
			t.Errorf("%q: a clock and a deadline %v", tc.text, c.Deadline)
		}
		// The arguments are the canonical text's words after the game's
		// "with".
		if want := strings.Fields(strings.TrimPrefix(c.Text, "new felix with ")); !slices.Equal(c.Args[1:], want) {
			t.Errorf("%q: args %q, want %q", tc.text, c.Args, want)
		}
	}
}

// TestNewClockRefused: a clock that is not understood, out of range, or
// with a deadline is refused with a sentence that says why, and the
// usage.
func TestNewClockRefused(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ text, why string }{
		{"clock 2d deadline 48h", bothTimes.String()},
		{"deadline 48h clock 2d", bothTimes.String()},
		{"deadline 48h, weekends off, clock 2d", bothTimes.String()},
		{"clock", clockForm.String()},
		{"clock 48", clockForm.String()},
		{"clock soon", clockForm.String()},
		{"clock +12h", clockForm.String()},
		{"clock 2d+", clockForm.String()},
		{"clock 2d + max 5d", clockForm.String()},
		{"clock 2d+12h max", clockForm.String()},
		{"clock 2d+12h+1h", clockForm.String()},
		{"clock 2d max 5d max 6d", clockForm.String()},
		{"clock 2d max 5d + 12h", clockForm.String()},
		{"clock 2d clock 3d", clockForm.String()},
		{"clock 30m", "a clock starts with between 1 hour and 30 days, not 30m"},
		{"clock 31 days", "a clock starts with between 1 hour and 30 days, not 31 days"},
		{"clock 0d+12h", "a clock starts with between 1 hour and 30 days, not 0d"},
		{"clock 2d+8d", "a clock adds at most 7 days after each move, not 8d"},
		{"clock 2d+10000w 10000w", "a clock adds at most 7 days after each move, not 10000w 10000w"},
		{"clock 2d max 61d", "a clock holds at most 60 days, not 61d"},
		{"clock 2d+12h max 1d", "a clock's max is at least the time it starts with (2d), not 1d"},
		{"clock 2d max 0h", "a clock's max is at least the time it starts with (2d), not 0h"},
	} {
		text := "new felix with a@x.test " + tc.text
		cmds, prob := Read(text, lobbyLang())
		if prob == nil {
			t.Errorf("%q: read as %v", text, cmds)
			continue
		}
		if want := tc.why + ": " + newUsage; prob.Reason != want {
			t.Errorf("%q: %q, want %q", text, prob.Reason, want)
		}
	}
}

// TestClockText writes durations in the shortest whole unit.
func TestClockText(t *testing.T) {
	t.Parallel()
	for c, want := range map[Clock]string{
		{Start: 48 * time.Hour}:                                         "2d",
		{Start: 36 * time.Hour}:                                         "36h",
		{Start: 90 * time.Minute, Increment: 30 * time.Minute}:          "90m+30m",
		{Start: 2 * day, Increment: 12 * time.Hour, Max: 5 * day}:       "2d+12h max 5d",
		{Start: 2 * day, Max: 120 * time.Hour}:                          "2d max 5d",
		{Start: 7 * day, Increment: 1 * day, Max: 25*time.Hour + 1*day}: "7d+1d max 49h",
	} {
		if got := ClockText(c); got != want {
			t.Errorf("ClockText(%+v) = %q, want %q", c, got, want)
		}
	}
	if (Clock{}).On() || !(Clock{Start: time.Hour}).On() {
		t.Error("On is not whether the clock has a start")
	}
}

// TestClockRoundTrip: any clock `new` takes reads back from its
// canonical text as the same command, and ClockText's clock as the same
// clock.
func TestClockRoundTrip(t *testing.T) {
	t.Parallel()
	minutes := func(lo, hi time.Duration) *rapid.Generator[time.Duration] {
		return rapid.Custom(func(t *rapid.T) time.Duration {
			// Mostly whole hours and days, as players write them.
			unit := rapid.SampledFrom([]time.Duration{time.Minute, time.Hour, day}).Draw(t, "unit")
			n := rapid.Int64Range(int64((lo+unit-1)/unit), int64(hi/unit)).Draw(t, "n")
			return time.Duration(n) * unit
		})
	}
	rapid.Check(t, func(t *rapid.T) {
		c := Clock{
			Start:     minutes(MinClockStart, MaxClockStart).Draw(t, "start"),
			Increment: minutes(0, MaxClockIncrement).Draw(t, "increment"),
		}
		if rapid.Bool().Draw(t, "capped") {
			c.Max = minutes(c.Start, MaxClockMax).Draw(t, "max")
		}
		weekends := rapid.Bool().Draw(t, "weekends")
		// The clock as a player may write it, in words.
		text := "new felix with a@x.test clock " + spelledDuration(c.Start)
		if c.Increment > 0 {
			text += " + " + spelledDuration(c.Increment)
		}
		if c.Max > 0 {
			text += " MAX " + spelledDuration(c.Max)
		}
		if weekends {
			text += ", weekends off"
		}
		cmds, prob := Read(text, lobbyLang())
		if prob != nil || len(cmds) != 1 {
			t.Fatalf("%q: %v, %v", text, cmds, prob)
		}
		first := cmds[0]
		canonical := "new felix with a@x.test clock " + ClockText(c)
		if weekends {
			canonical += " weekends off"
		}
		if !clockInBounds(c) {
			t.Fatalf("drew %+v, out of bounds", c)
		}
		if first.Clock != c || first.Text != canonical || first.WeekendsOff != weekends {
			t.Fatalf("%q: read as %+v, not %+v and %q", text, first, c, canonical)
		}
		again, prob := Read(first.Text, lobbyLang())
		if prob != nil || len(again) != 1 {
			t.Fatalf("%q: %v, %v", first.Text, again, prob)
		}
		a := again[0]
		a.Source, first.Source = "", ""
		if !reflect.DeepEqual(a, first) {
			t.Fatalf("%q: reads back as %+v, not %+v", first.Text, a, first)
		}
	})
}

// spelledDuration writes d in words, days then hours then minutes: "2
// days 12 hours" (without "and", so that three durations of three units
// each stay within a line's maxTokens).
func spelledDuration(d time.Duration) string {
	var parts []string
	for _, u := range []struct {
		unit time.Duration
		name string
	}{{day, "days"}, {time.Hour, "hours"}, {time.Minute, "minutes"}} {
		if n := d / u.unit; n > 0 {
			parts = append(parts, strconv.FormatInt(int64(n), 10)+" "+u.name)
			d -= n * u.unit
		}
	}
	if len(parts) == 0 {
		return "0 hours"
	}
	return strings.Join(parts, " ")
}

// clockInBounds tells whether c is a clock `new` may give.
func clockInBounds(c Clock) bool {
	return c.Start >= MinClockStart && c.Start <= MaxClockStart &&
		c.Increment >= 0 && c.Increment <= MaxClockIncrement &&
		(c.Max == 0 || c.Max >= c.Start && c.Max <= MaxClockMax)
}
