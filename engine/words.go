package engine

import "strings"

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
