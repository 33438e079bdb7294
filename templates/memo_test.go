package templates

import (
	"fmt"
	"testing"

	"github.com/pbem/pbem/engine"
)

// TestSentencesKeptAsPrinted checks that a sentence the renderer's
// words keep is the sentence they print (issue 40): for each language,
// by key and every argument, a count's plural form included, and never
// one language's for another.
func TestSentencesKeptAsPrinted(t *testing.T) {
	r := newRenderer(t)
	en, de := r.set("en").words, r.set("de").words
	if en.kept == nil || de.kept == nil || en.kept == de.kept {
		t.Fatal("the renderer's languages do not each keep their own sentences")
	}
	cases := []struct {
		key  string
		args []any
	}{
		{"%d days", []any{1}}, {"%d days", []any{2}}, {"%d days", []any{int64(1)}},
		{"Waiting for %s.", []any{"bob"}}, {"Waiting for %s.", []any{"carol"}},
		{"Any time:", nil}, {"%s and %s", []any{"a", "b"}}, {"%s and %s", []any{"b", "a"}},
	}
	for round := 0; round < 2; round++ { // the second round reads what the first kept
		for _, w := range []Words{en, de} {
			for _, c := range cases {
				plain := Words{p: w.p, tag: w.tag}
				want := plain.f(c.key, append([]any(nil), c.args...)...)
				if got := w.f(c.key, append([]any(nil), c.args...)...); got != want {
					t.Errorf("%s, round %d: %q %v = %q, want %q", w.Language(), round, c.key, c.args, got, want)
				}
			}
		}
	}
	if got, want := de.f("%d days", 1), "1 Tag"; got != want {
		t.Errorf("German after English: %q, want %q", got, want)
	}
}

// TestSentenceKeys checks which arguments a kept sentence may have:
// plain strings and whole numbers, at most maxSentenceArgs of them; a
// value of any other type may print otherwise each time (a moment, a
// Stringer) and is printed each time.
func TestSentenceKeys(t *testing.T) {
	cases := []struct {
		args []any
		keep bool
	}{
		{nil, true},
		{[]any{"a", 1, int64(2), uint(3)}, true},
		{[]any{"a", "b", "c", "d", "e"}, false},
		{[]any{[]string{"a"}}, false},
		{[]any{engine.Time{}}, false},
		{[]any{1.5}, false},
		{[]any{MailTurn}, false},
		{[]any{fmt.Stringer(nil)}, false},
	}
	for _, c := range cases {
		if _, keep := keyOf("k", c.args); keep != c.keep {
			t.Errorf("keyOf(%v) keeps %v, want %v", c.args, keep, c.keep)
		}
	}
	a, _ := keyOf("%s and %s", []any{"a", "b"})
	b, _ := keyOf("%s and %s", []any{"b", "a"})
	c, _ := keyOf("%s and %s", []any{"a"})
	if a == b || a == c {
		t.Error("different arguments share a key")
	}
}

// TestSentencesBounded checks that the kept sentences never pass
// maxSentences.
func TestSentencesBounded(t *testing.T) {
	var s sentences
	for i := 0; i < 3*maxSentences; i++ {
		k, _ := keyOf("%d", []any{i})
		s.put(k, "x")
		if len(s.m) > maxSentences {
			t.Fatalf("%d sentences kept", len(s.m))
		}
	}
}
