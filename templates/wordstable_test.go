package templates

import "testing"

// TestForIsMadeOnce checks that a language's words are made once and
// matched as before (issue 40): For and the renderer give each tag the
// closest language the catalogs have, or English, and the same printer
// every time.
func TestForIsMadeOnce(t *testing.T) {
	r := newRenderer(t)
	cases := []struct{ tag, want string }{
		{"", "en"}, {"en", "en"}, {"en-GB", "en"}, {"de", "de"}, {"de-AT", "de"}, {"de-CH", "de"},
		{"fr", "en"}, {"not a tag!", "en"}, {"DE", "de"},
	}
	for _, c := range cases {
		if got := For(c.tag).Language(); got != c.want {
			t.Errorf("For(%q) is %s, want %s", c.tag, got, c.want)
		}
		if got := r.set(c.tag).words.Language(); got != c.want {
			t.Errorf("the renderer's set for %q is %s, want %s", c.tag, got, c.want)
		}
		if a, b := For(c.tag), For(c.tag); a.p != b.p {
			t.Errorf("For(%q) makes a printer each time", c.tag)
		}
	}
	if got, want := For("de").f("%d days", 1), "1 Tag"; got != want {
		t.Errorf("For(de) prints %q, want %q", got, want)
	}
}
