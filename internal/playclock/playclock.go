// Package playclock says which time counts for a player's decision: the
// one rule, shared by every deadline pbem sets, for a player's quiet
// hours and a game's weekends off (docs/commands.md, "Which clock
// wins"). It is pure: the zone and the instants are passed in, and
// nothing here reads a clock.
//
// A player's quiet hours and weekend days are wall-clock times in his own
// zone, so the hours they cover shift with summer time. The functions walk
// the time line in pieces on which neither can change: up to the next
// whole hour of his wall clock, or the next change of his zone's offset,
// whichever comes first. That keeps them exact in every zone, including
// those at a quarter or half hour from UTC and those whose summer time
// moves the clock by half an hour.
package playclock

import (
	"fmt"
	"time"
)

// Quiet is a player's quiet hours: from the whole hour Start to the whole
// hour End of his wall clock, wrapping midnight when End is not after
// Start (22–8 is the night). Off, they never apply.
type Quiet struct {
	On         bool
	Start, End int // hours of the day, 0–23; Start != End when On
}

// DefaultQuiet is the quiet hours a player has until he changes them.
var DefaultQuiet = Quiet{On: true, Start: 22, End: 8}

// Valid reports whether q can be used: off, or two different hours of
// the day.
func (q Quiet) Valid() error {
	if !q.On {
		return nil
	}
	if q.Start < 0 || q.Start > 23 || q.End < 0 || q.End > 23 {
		return fmt.Errorf("quiet hours %d-%d: hours run from 0 to 23", q.Start, q.End)
	}
	if q.Start == q.End {
		return fmt.Errorf("quiet hours %d-%d: they start and end at the same hour", q.Start, q.End)
	}
	return nil
}

// covers reports whether the wall-clock hour h lies inside q.
func (q Quiet) covers(h int) bool {
	if !q.On || q.Start == q.End {
		return false
	}
	if q.Start < q.End {
		return h >= q.Start && h < q.End
	}
	return h >= q.Start || h < q.End
}

// Clock is one player's clock in one game: his zone, his quiet hours, and
// whether the game stops its clocks on Saturday and Sunday (in his zone).
type Clock struct {
	Zone        *time.Location // nil is UTC
	Quiet       Quiet
	WeekendsOff bool
}

func (c Clock) zone() *time.Location {
	if c.Zone == nil {
		return time.UTC
	}
	return c.Zone
}

// IsQuiet reports whether t lies inside the player's quiet hours.
func (c Clock) IsQuiet(t time.Time) bool {
	return c.Quiet.covers(t.In(c.zone()).Hour())
}

// IsWeekend reports whether t lies on a Saturday or Sunday of the
// player's zone in a game with weekends off: a day that does not count.
func (c Clock) IsWeekend(t time.Time) bool {
	if !c.WeekendsOff {
		return false
	}
	d := t.In(c.zone()).Weekday()
	return d == time.Saturday || d == time.Sunday
}

// Closed reports whether a deadline may not end at t: inside quiet hours
// or on a day off.
func (c Clock) Closed(t time.Time) bool {
	return c.IsQuiet(t) || c.IsWeekend(t)
}

// next is the end of the piece of time line that starts at t: the next
// whole hour of the player's wall clock, or the next change of his
// zone's offset when that comes first. Neither quiet hours nor weekend
// days start or end inside a piece.
func (c Clock) next(t time.Time) time.Time {
	local := t.In(c.zone())
	_, off := local.Zone()
	wall := local.Add(time.Duration(off) * time.Second).UTC() // the wall clock, read as UTC
	toHour := wall.Truncate(time.Hour).Add(time.Hour).Sub(wall)
	end := t.Add(toHour)
	if _, zoneEnd := local.ZoneBounds(); !zoneEnd.IsZero() && zoneEnd.Before(end) && zoneEnd.After(t) {
		end = zoneEnd
	}
	return end
}

// DeadlineEnd is when a decision that starts at start, with budget of the
// game's time, falls due: budget counted from start without the days off
// (weekends, when the game has them off); then an end inside quiet hours
// or on a day off moves to the first instant after them.
func (c Clock) DeadlineEnd(start time.Time, budget time.Duration) time.Time {
	return c.end(start, budget, c.IsWeekend)
}

// BankEnd is when a time bank of bank, running from start, is empty:
// bank counted from start without the days off and without the
// player's quiet hours (Counted), then out of them as DeadlineEnd's.
// Counted(start, BankEnd(start, bank)) is bank.
func (c Clock) BankEnd(start time.Time, bank time.Duration) time.Time {
	return c.end(start, bank, c.Closed)
}

// end is the instant at which the time from start at which skip is
// false adds up to budget, moved out of quiet hours and days off (Open).
func (c Clock) end(start time.Time, budget time.Duration, skip func(time.Time) bool) time.Time {
	t, left := start, budget
	for left > 0 {
		n := c.next(t)
		if !skip(t) {
			if piece := n.Sub(t); piece >= left {
				t = t.Add(left)
				break
			} else {
				left -= piece
			}
		}
		t = n
	}
	return c.Open(t)
}

// Open is t, or when t lies inside quiet hours or on a day off, the first
// instant after them: the earliest a deadline may end at or after t.
func (c Clock) Open(t time.Time) time.Time {
	for c.Closed(t) {
		t = c.next(t)
	}
	return t
}

// QuietStart is, for t inside quiet hours, the instant those quiet hours
// began; t itself when t is not inside them.
func (c Clock) QuietStart(t time.Time) time.Time {
	if !c.IsQuiet(t) {
		return t
	}
	for c.IsQuiet(t.Add(-time.Nanosecond)) {
		t = c.prev(t)
	}
	return t
}

// BeforeQuiet is when a mail due at t may be sent so that it arrives
// before the player's quiet hours: t itself, unless t lies inside quiet
// hours or less than margin before they start; then margin before they
// start. Later times never map to earlier ones, so steps keep their order.
func (c Clock) BeforeQuiet(t time.Time, margin time.Duration) time.Time {
	if c.IsQuiet(t) {
		return c.QuietStart(t).Add(-margin)
	}
	if soon := t.Add(margin); c.IsQuiet(soon) {
		return c.QuietStart(soon).Add(-margin)
	}
	return t
}

// prev is the start of the piece of time line that ends just before or at
// t (the piece containing t, or when t starts a piece, the one before it).
func (c Clock) prev(t time.Time) time.Time {
	before := t.Add(-time.Nanosecond)
	local := before.In(c.zone())
	_, off := local.Zone()
	wall := local.Add(time.Duration(off) * time.Second).UTC()
	start := before.Add(-wall.Sub(wall.Truncate(time.Hour)))
	if zoneStart, _ := local.ZoneBounds(); !zoneStart.IsZero() && zoneStart.After(start) {
		start = zoneStart
	}
	return start
}

// WeekTime is how much of the game's time lies between from and to: all
// of it, less the days off when the game has weekends off. It is what a
// per-decision deadline counts.
func (c Clock) WeekTime(from, to time.Time) time.Duration {
	return c.count(from, to, c.IsWeekend)
}

// Counted is how much counting time lies between from and to for a time
// bank: the days off never count, and quiet hours do not count against
// the player.
func (c Clock) Counted(from, to time.Time) time.Duration {
	return c.count(from, to, c.Closed)
}

// count sums the time between from and to at which skip is false.
func (c Clock) count(from, to time.Time, skip func(time.Time) bool) time.Duration {
	var sum time.Duration
	for t := from; t.Before(to); {
		n := c.next(t)
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
