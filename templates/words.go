package templates

import (
	"strings"
	"time"
)

// The small words the sentences share: unexported, as only Say's
// methods use them, but for JoinAnd, which the daemon also needs for a
// list of its own (the admin's acts; its tests' expected sentences).
// Each is a method, so that the language of the sentence that uses it
// carries through to its words.

// JoinAnd writes a list: "a", "a and b", "a, b and c".
func (e Words) JoinAnd(xs []string) string { return e.joinAnd(xs) }

// joinAnd writes "a", "a and b", "a, b and c".
func (e Words) joinAnd(xs []string) string {
	switch len(xs) {
	case 0:
		return ""
	case 1:
		return xs[0]
	}
	return e.f("%s and %s", e.joinComma(xs[:len(xs)-1]), xs[len(xs)-1])
}

// joinComma writes "a, b, c".
func (e Words) joinComma(xs []string) string { return strings.Join(xs, e.f(", ")) }

// joinOr writes "a", "a or b", "a or b or c": the choices a player may
// have meant.
func (e Words) joinOr(xs []string) string { return strings.Join(xs, e.f(" or ")) }

// nDays is "1 day" or "n days".
func (e Words) nDays(n int) string { return e.f("%d days", n) }

// gamesWord says which of the player's deadlines wait, by how many
// games were told.
func (e Words) gamesWord(n int) string {
	switch n {
	case 0:
		return e.f("You have no running game now; the deadlines of games you start or join while away wait for you")
	case 1:
		return e.f("Your deadlines in your one running game wait for you, and in games you start or join while away")
	}
	return e.f("Your deadlines in all %d of your running games wait for you, and in games you start or join while away", n)
}

// quoted puts a command in double quotes, as a player wrote it.
func (e Words) quoted(s string) string { return e.f("\"%s\"", s) }

// Duration writes a length of time as people write it, never as Go's
// "24h0m0s": "24 hours", "3 days", "90 minutes", "1 hour 30 minutes",
// "45 seconds". The daemon writes every duration a player or an admin
// reads with it.
//
// Whole days are days only beyond two of them ("48 hours" is how a
// deadline of two days is usually said); under two hours, minutes ("90
// minutes"); a part of a second is dropped.
func (e Words) Duration(d time.Duration) string {
	if d < 0 {
		return e.f("minus %s", e.Duration(-d))
	}
	d = d.Truncate(time.Second)
	const day = 24 * time.Hour
	if d > 2*day && d%day == 0 {
		return e.f("%d days", int(d/day))
	}
	var parts []string
	hours, minutes, seconds := int(d/time.Hour), int(d%time.Hour/time.Minute), int(d%time.Minute/time.Second)
	if d < 2*time.Hour && d%time.Hour != 0 {
		hours, minutes = 0, int(d/time.Minute)
	}
	if hours > 0 {
		parts = append(parts, e.f("%d hours", hours))
	}
	if minutes > 0 {
		parts = append(parts, e.f("%d minutes", minutes))
	}
	if seconds > 0 {
		parts = append(parts, e.f("%d seconds", seconds))
	}
	if len(parts) == 0 {
		return e.f("%d minutes", 0)
	}
	return strings.Join(parts, " ")
}

// ClockDuration writes what a time bank (a game's clock) holds, as a
// clock shows it: days and hours from a day up ("3 days 4 hours",
// "1 day"), hours and minutes under a day ("5 hours 20 minutes"),
// minutes under an hour ("45 minutes"), "less than a minute" under one.
// What is below the last unit shown is dropped, never rounded up, so
// that a clock never shows more than the bank holds. Every bank a mail,
// a page or the export shows is written with it, so that they agree.
// An empty (or negative) bank is "0 minutes".
func (e Words) ClockDuration(d time.Duration) string {
	const day = 24 * time.Hour
	switch {
	case d <= 0:
		return e.f("%d minutes", 0)
	case d < time.Minute:
		return e.f("less than a minute")
	case d < time.Hour:
		return e.f("%d minutes", int(d/time.Minute))
	case d < day:
		return e.twoUnits(e.f("%d hours", int(d/time.Hour)), int(d%time.Hour/time.Minute), "%d minutes")
	}
	return e.twoUnits(e.f("%d days", int(d/day)), int(d%day/time.Hour), "%d hours")
}

// twoUnits is a count in a large unit followed by n of a smaller one,
// keyed by its plural message, which is left out when there are none:
// "3 days 4 hours", "1 day".
func (e Words) twoUnits(large string, n int, smaller string) string {
	if n == 0 {
		return large
	}
	return e.f("%s %s", large, e.f(smaller, n))
}
