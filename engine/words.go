package engine

import (
	"fmt"
	"strings"
)

// JoinAnd joins words as a sentence does: "a", "a and b", "a, b and c".
// Every game's log uses it, so that lists read alike in every game.
func JoinAnd(parts []string) string {
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// Plural writes a count with its noun: "1 mouse", "3 mice", "0 mice".
// Every game's log, the parser's answers and the daemon's mails use it,
// so that counts read alike everywhere.
func Plural(n int, one, many string) string {
	if n == 1 || n == -1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}
