package engine

import "fmt"

// ValidName reports whether s is a player name as transcripts write them:
// a lower-case letter, then lower-case letters, digits, _ or -.
func ValidName(s string) bool {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// CheckNames checks that every name is valid and none is given twice.
func CheckNames(names []string) error {
	seen := make(map[string]bool, len(names))
	for _, n := range names {
		if !ValidName(n) {
			return fmt.Errorf("%q is not a valid player name (a lower-case letter, then letters, digits, _ or -)", n)
		}
		if seen[n] {
			return fmt.Errorf("player %q is named twice", n)
		}
		seen[n] = true
	}
	return nil
}

// CheckPlayers checks a set-up's players for a game of min to max players.
func CheckPlayers(game string, min, max int, names []string) error {
	if n := len(names); n < min || n > max {
		return fmt.Errorf("%s is for %d to %d players, not %d", game, min, max, n)
	}
	return CheckNames(names)
}
