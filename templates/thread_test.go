package templates

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestThreadSubject(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		game, title string
		id          int64
		names       []string
		want        string
	}{
		{"felix", "Felix: The Cat in the Sack", 12, []string{"alice", "bob", "carol"}, "Felix #12 with alice, bob, carol"},
		{"gracias", "Gracias", 7, []string{"a", "b", "c", "d", "e", "f"}, "Gracias #7 with a, b, c, d, e, f"},
		{"toy", "", 3, []string{"x", "y"}, "Toy #3 with x, y"},
		// Six names of 16 characters: each is shortened as little as
		// fits, all the same length.
		{"gracias", "Gracias", 123456, []string{
			"alexandra-maria", "bartholomew-jose", "christopher-king", "dorothea-lindqvi", "evangeline-smith", "fitzgerald-jones",
		}, "Gracias #123456 with alexa…, barth…, chris…, dorot…, evang…, fitzg…"},
		// Only one name is long: only it is shortened.
		{"felix", "Felix: The Cat in the Sack", 12, []string{"al", "bo", "ca", "do", "evangeline-smith-jones-and-more-words-here"},
			"Felix #12 with al, bo, ca, do, evangeline-smith-jones-and-more-words-he…"},
	} {
		got := ThreadSubject(tc.game, tc.title, tc.id, tc.names)
		if got != tc.want {
			t.Errorf("ThreadSubject(%v) =\n%q, want\n%q", tc.names, got, tc.want)
		}
		if n := utf8.RuneCountInString(got); n > MaxThreadSubject {
			t.Errorf("%q is %d characters", got, n)
		}
	}
	// Too many names even when shortened: the list ends with "…".
	var many []string
	for i := range 20 {
		many = append(many, strings.Repeat(string(rune('a'+i)), 10))
	}
	got := ThreadSubject("felix", "Felix: The Cat in the Sack", 1, many)
	if !strings.HasPrefix(got, "Felix #1 with aaa…, bbb…") || !strings.HasSuffix(got, ", …") || utf8.RuneCountInString(got) > MaxThreadSubject {
		t.Errorf("20 long names: %q", got)
	}
	// A title far too long alone is cut.
	got = ThreadSubject("x", strings.Repeat("Long", 30), 1, []string{"a"})
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
