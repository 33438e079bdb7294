package mailbox

import (
	"strings"
	"testing"

	"pgregory.net/rapid"
)

func TestKey(t *testing.T) {
	for _, c := range []struct {
		rule       Rule
		addr, want string
	}{
		{Default(), "alice@x.test", "alice@x.test"},
		{Default(), "  Alice@X.Test ", "alice@x.test"},
		{Default(), "victim+1@x.test", "victim@x.test"},
		{Default(), "victim+f1+f2@x.test", "victim@x.test"},
		{Default(), "victim+@x.test", "victim@x.test"},
		{Default(), "+tag@x.test", "+tag@x.test"}, // nothing before the separator: not a sub-address
		{Default(), "victim-1@x.test", "victim-1@x.test"},
		{Rule{Separators: "+-"}, "victim-1@x.test", "victim@x.test"},
		{Rule{Separators: "+-"}, "victim+a-b@x.test", "victim@x.test"},
		{Rule{}, "victim+1@x.test", "victim+1@x.test"},
		{Default(), "j.doe@gmail.com", "jdoe@gmail.com"},
		{Default(), "J.Doe+games@GoogleMail.com", "jdoe@gmail.com"},
		{Default(), "j.doe@x.test", "j.doe@x.test"}, // dots count elsewhere
		{Default(), "...@gmail.com", "...@gmail.com"},
		{Default(), "alice@x.test.", "alice@x.test"},
		{Default(), `"a+b.c"@gmail.com`, `"a+b.c"@gmail.com`},
		{Default(), "a@b@x.test", "a@b@x.test"},
		{Default(), "no-at-sign", "no-at-sign"},
		{Default(), "@x.test", "@x.test"},
		{Default(), "alice@", "alice@"},
		{Default(), "", ""},
	} {
		if got := c.rule.Key(c.addr); got != c.want {
			t.Errorf("Rule{%q}.Key(%q) = %q, want %q", c.rule.Separators, c.addr, got, c.want)
		}
	}
}

func TestShared(t *testing.T) {
	r := Default()
	if _, _, shared := r.Shared([]string{"a@x.test", "b@x.test", "c@y.test"}); shared {
		t.Error("three mailboxes reported shared")
	}
	i, j, shared := r.Shared([]string{"a@x.test", "b@x.test", "A+2@X.test"})
	if !shared || i != 0 || j != 2 {
		t.Errorf("Shared = %d, %d, %v; want 0, 2, true", i, j, shared)
	}
}

// addrGen draws local parts and domains from small alphabets, so that
// the draws collide and hold separators and dots often.
func addrGen() *rapid.Generator[string] {
	return rapid.Custom(func(t *rapid.T) string {
		local := rapid.StringMatching(`[a-cA-C.+\-]{1,8}`).Draw(t, "local")
		domain := rapid.SampledFrom([]string{"x.test", "X.Test", "gmail.com", "googlemail.com", "y.test."}).Draw(t, "domain")
		return local + "@" + domain
	})
}

// TestPropertyKey: a key is its own key, never changes with case or
// surrounding space, and a sub-address added to a key reaches the same
// mailbox.
func TestPropertyKey(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := rapid.SampledFrom([]Rule{Default(), {Separators: "+-"}, {}}).Draw(t, "rule")
		a := addrGen().Draw(t, "addr")
		k := r.Key(a)
		if r.Key(k) != k {
			t.Fatalf("Key(Key(%q)) = %q, not %q", a, r.Key(k), k)
		}
		if r.Key(" "+strings.ToUpper(a)+"\t") != k {
			t.Fatalf("Key of %q changes with case or space", a)
		}
		if r.Separators == "" {
			return
		}
		tag := rapid.StringMatching(`[a-z0-9.+]{0,6}`).Draw(t, "tag")
		local, domain, _ := strings.Cut(k, "@")
		if strings.HasPrefix(local, `"`) || strings.ContainsAny(local[:1], r.Separators) {
			return
		}
		tagged := local + r.Separators[:1] + tag + "@" + domain
		if !r.Same(tagged, a) {
			t.Fatalf("%q and %q reach different mailboxes: %q, %q", tagged, a, r.Key(tagged), k)
		}
	})
}

// TestPropertyDistinct: two addresses whose local parts differ by more
// than case, a sub-address or a provider's dots stay apart.
func TestPropertyDistinct(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := rapid.StringMatching(`[a-z]{1,6}`).Draw(t, "a")
		b := rapid.StringMatching(`[a-z]{1,6}`).Draw(t, "b")
		if a == b {
			return
		}
		domain := rapid.SampledFrom([]string{"x.test", "gmail.com"}).Draw(t, "domain")
		if Default().Same(a+"@"+domain, b+"+t@"+domain) {
			t.Fatalf("%s and %s+t share a mailbox at %s", a, b, domain)
		}
	})
}
