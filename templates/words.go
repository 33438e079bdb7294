package templates

import (
	"fmt"
	"strings"
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
