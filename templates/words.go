package templates

import (
	"fmt"
	"strings"
	"time"
)

// The small words the sentences share: unexported, as only Say's
// methods use them, but for JoinAnd, which the daemon also needs for a
// list of its own (the admin's acts; its tests' expected sentences).

// JoinAnd writes a list: "a", "a and b", "a, b and c".
func (English) JoinAnd(xs []string) string { return joinAnd(xs) }

// joinAnd writes "a", "a and b", "a, b and c".
func joinAnd(xs []string) string {
	switch len(xs) {
	case 0:
		return ""
	case 1:
		return xs[0]
	}
	return fmt.Sprintf("%s and %s", joinComma(xs[:len(xs)-1]), xs[len(xs)-1])
}

// joinComma writes "a, b, c".
func joinComma(xs []string) string { return strings.Join(xs, ", ") }

// countNoun writes a count with its noun: "1 bot", "2 bots".
func countNoun(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// nDays is "1 day" or "n days".
func nDays(n int) string { return countNoun(n, "day", "days") }

// gamesWord says which of the player's deadlines wait, by how many
// games were told.
func gamesWord(n int) string {
	switch n {
	case 0:
		return "You have no running game now; the deadlines of games you start or join while away wait for you"
	case 1:
		return "Your deadlines in your one running game wait for you, and in games you start or join while away"
	}
	return fmt.Sprintf("Your deadlines in all %d of your running games wait for you, and in games you start or join while away", n)
}

// quoted puts a command in double quotes, as a player wrote it.
func quoted(s string) string { return "\"" + s + "\"" }

// Duration writes a length of time as people write it, never as Go's
// "24h0m0s": "24 hours", "3 days", "90 minutes", "1 hour 30 minutes",
// "45 seconds". The daemon writes every duration a player or an admin
// reads with it.
func (English) Duration(d time.Duration) string { return duration(d) }

// duration is Duration. Whole days are days only beyond two of them
// ("48 hours" is how a deadline of two days is usually said); under two
// hours, minutes ("90 minutes"); a part of a second is dropped.
func duration(d time.Duration) string {
	if d < 0 {
		return "minus " + duration(-d)
	}
	d = d.Truncate(time.Second)
	const day = 24 * time.Hour
	if d > 2*day && d%day == 0 {
		return countNoun(int(d/day), "day", "days")
	}
	var parts []string
	hours, minutes, seconds := int(d/time.Hour), int(d%time.Hour/time.Minute), int(d%time.Minute/time.Second)
	if d < 2*time.Hour && d%time.Hour != 0 {
		hours, minutes = 0, int(d/time.Minute)
	}
	if hours > 0 {
		parts = append(parts, countNoun(hours, "hour", "hours"))
	}
	if minutes > 0 {
		parts = append(parts, countNoun(minutes, "minute", "minutes"))
	}
	if seconds > 0 {
		parts = append(parts, countNoun(seconds, "second", "seconds"))
	}
	if len(parts) == 0 {
		return "0 minutes"
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
func (English) ClockDuration(d time.Duration) string { return clockDuration(d) }

// clockDuration is ClockDuration; an empty (or negative) bank is "0
// minutes".
func clockDuration(d time.Duration) string {
	const day = 24 * time.Hour
	switch {
	case d <= 0:
		return "0 minutes"
	case d < time.Minute:
		return "less than a minute"
	case d < time.Hour:
		return countNoun(int(d/time.Minute), "minute", "minutes")
	case d < day:
		return twoUnits(countNoun(int(d/time.Hour), "hour", "hours"), int(d%time.Hour/time.Minute), "minute", "minutes")
	}
	return twoUnits(countNoun(int(d/day), "day", "days"), int(d%day/time.Hour), "hour", "hours")
}

// twoUnits is a count in a large unit followed by n of a smaller one,
// which is left out when there are none: "3 days 4 hours", "1 day".
func twoUnits(large string, n int, one, many string) string {
	if n == 0 {
		return large
	}
	return large + " " + countNoun(n, one, many)
}
