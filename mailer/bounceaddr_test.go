package mailer

import (
	"strings"
	"testing"
)

func TestBounceAddress(t *testing.T) {
	key := []byte("0123456789abcdef0123456789abcdef")
	addr := BounceAddress("pbem@example.test", "+", key, 1234, "Ann@x.test")
	local, domain, _ := strings.Cut(addr, "@")
	if domain != "example.test" || !strings.HasPrefix(local, "pbem+b-ya-") {
		t.Fatalf("BounceAddress = %q", addr)
	}
	token := strings.TrimPrefix(local, "pbem+")
	if id, ok := BounceTokenID(token); !ok || id != 1234 {
		t.Errorf("BounceTokenID(%q) = %d, %t", token, id, ok)
	}
	if !ValidBounceToken(key, token, 1234, "ann@x.test") || !ValidBounceToken(key, strings.ToUpper(token), 1234, "ann@x.test") {
		t.Error("the token made for mail 1234 to ann is not valid for it")
	}
	for _, c := range []struct {
		name  string
		key   []byte
		token string
		id    int64
		rcpt  string
	}{
		{"another mail", key, token, 1235, "ann@x.test"},
		{"another recipient", key, token, 1234, "bob@x.test"},
		{"another key", []byte("another key"), token, 1234, "ann@x.test"},
		{"a forged MAC", key, "b-ya-aaaaaaaaaaaaaaaa", 1234, "ann@x.test"},
	} {
		if ValidBounceToken(c.key, c.token, c.id, c.rcpt) {
			t.Errorf("%s: token valid", c.name)
		}
	}
	for _, tok := range []string{"", "b-", "b-x", "abcdefghijklmnop", "b--abc", "b-zzzzzzzzzzzzzzzzzz-abc"} {
		if _, ok := BounceTokenID(tok); ok {
			t.Errorf("BounceTokenID(%q) ok", tok)
		}
	}
}
