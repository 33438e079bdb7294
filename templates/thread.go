package templates

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// MaxThreadSubject bounds a game's thread subject, in characters: mail
// clients show about this much of a subject in a list, and a bound keeps
// six long names from making a subject of a hundred characters.
const MaxThreadSubject = 72

// minNameKept is the fewest characters a name keeps in a shortened
// subject ("alexan…" for "alexandra"), so that players still know it.
const minNameKept = 4

// ellipsis marks a name or a list that a thread subject shortened.
const ellipsis = "…"

// ShortName is a game's name in subjects and headlines: its title up to a
// colon ("Felix" for "Felix: The Cat in the Sack"), else its title, else
// its name with a capital.
func ShortName(game, title string) string { return shortName(game, title) }

// ThreadRef names one game in headlines: "Felix #12". Every headline of
// the game's mails starts with it (or with "Reminder: " and it), which is
// how the daemon knows a copy of pbem's mail in a reply.
func ThreadRef(game, title string, id int64) string {
	return fmt.Sprintf("%s #%d", ShortName(game, title), id)
}

// ThreadSubject is the Subject of every mail of a game to its players:
// "Felix #12 with alice, bob, carol", the names in seat order. The daemon
// makes it once, when the game is made, and keeps it: a player who
// renames himself mid-game does not change it, so that clients that
// group mail by subject keep the game one thread. It is at most
// MaxThreadSubject characters: long names are shortened with "…" (each
// keeping at least a few characters), and if that is not enough the
// list ends with "…".
func ThreadSubject(game, title string, id int64, names []string) string {
	prefix := ThreadRef(game, title, id) + " with "
	full := prefix + strings.Join(names, ", ")
	if utf8.RuneCountInString(full) <= MaxThreadSubject {
		return full
	}
	longest := 0
	for _, n := range names {
		longest = max(longest, utf8.RuneCountInString(n))
	}
	// Shorten the longest names first, as little as fits.
	for keep := longest - 1; keep >= minNameKept; keep-- {
		s := prefix + strings.Join(shortenNames(names, keep), ", ")
		if utf8.RuneCountInString(s) <= MaxThreadSubject {
			return s
		}
	}
	// Still too long: as many shortened names as fit, then "…".
	short := shortenNames(names, minNameKept)
	for n := len(short) - 1; n >= 1; n-- {
		s := prefix + strings.Join(short[:n], ", ") + ", " + ellipsis
		if utf8.RuneCountInString(s) <= MaxThreadSubject {
			return s
		}
	}
	return cutRunes(full, MaxThreadSubject-1) + ellipsis
}

// shortenNames cuts every name longer than keep characters to keep-1 and
// "…".
func shortenNames(names []string, keep int) []string {
	out := make([]string, len(names))
	for i, n := range names {
		if utf8.RuneCountInString(n) > keep {
			n = cutRunes(n, keep-1) + ellipsis
		}
		out[i] = n
	}
	return out
}

// cutRunes is the first n characters of s.
func cutRunes(s string, n int) string {
	i := 0
	for j := range s {
		if i == n {
			return s[:j]
		}
		i++
	}
	return s
}
