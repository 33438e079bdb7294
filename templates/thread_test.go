package templates

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// A game's thread subject is its reference alone: it names no player, so
// that no text an inviter chose (an address, a name) reaches the Subject
// of an invitation.
func TestThreadSubject(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		game, title string
		id          int64
		want        string
	}{
		{"felix", "Felix: The Cat in the Sack", 12, "Felix #12"},
		{"gracias", "Gracias", 7, "Gracias #7"},
		{"toy", "", 3, "Toy #3"},
		{"gracias", "Gracias", 123456, "Gracias #123456"},
	} {
		if got := ThreadSubject(tc.game, tc.title, tc.id); got != tc.want {
			t.Errorf("ThreadSubject(%s, %d) = %q, want %q", tc.game, tc.id, got, tc.want)
		}
	}
	// A title far too long alone is cut.
	got := ThreadSubject("x", strings.Repeat("Long", 30), 1)
	if utf8.RuneCountInString(got) != MaxThreadSubject || !strings.HasSuffix(got, "…") {
		t.Errorf("long title: %q", got)
	}
}

func TestThreadRef(t *testing.T) {
	t.Parallel()
	if got := ThreadRef("felix", "Felix: The Cat in the Sack", 12); got != "Felix #12" {
		t.Errorf("ThreadRef = %q", got)
	}
}
