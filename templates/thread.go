package templates

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// MaxThreadSubject bounds a game's thread subject, in characters: mail
// clients show about this much of a subject in a list.
const MaxThreadSubject = 72

// ellipsis marks a thread subject that was cut.
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
// "Felix #12", the game's reference alone. The daemon makes it once, when
// the game is made, and keeps it, so that clients that group mail by
// subject keep the game one thread. It names no player: the first mail
// of the thread is the invitation, and a Subject that carried the
// players' names (made of the addresses the inviter chose, or chosen
// with `name`) would carry an inviter's text into the Subject of mail to
// strangers (docs/security.md, "One mailbox, one limit"). It is at most
// MaxThreadSubject characters: a title far too long is cut with "…".
func ThreadSubject(game, title string, id int64) string {
	ref := ThreadRef(game, title, id)
	if utf8.RuneCountInString(ref) <= MaxThreadSubject {
		return ref
	}
	return cutRunes(ref, MaxThreadSubject-1) + ellipsis
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

// ReminderPrefixes are how a reminder's headline starts in each language
// of the package's catalogs, English's first ("Reminder:", "Erinnerung:"):
// marks of pbem's own mail in a reply, as the games' references are
// (internal/outgoing.OwnMarkers).
func ReminderPrefixes() []string {
	out := []string{reminderPrefix(Say)}
	for _, tag := range theCatalog().Languages() {
		if p := reminderPrefix(In(tag)); !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// reminderPrefix is the words' "Reminder:", a reminder headline's start.
func reminderPrefix(w Words) string {
	p, _, _ := strings.Cut(w.f("Reminder: %s", "\x00"), "\x00")
	return strings.TrimSpace(p)
}
