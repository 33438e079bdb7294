package outgoing

import (
	"slices"
	"strings"
	"testing"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/internal/highbid"
	"github.com/pbem/pbem/internal/mailbox"
	"github.com/pbem/pbem/templates"
)

func testPost() *Post {
	return New(Config{Name: "pbem", Address: "pbem@example.test", Separator: "+", BotDomain: "bot.pbem.invalid", Mailbox: mailbox.Default()}, nil, nil, nil, nil)
}

func TestStrongToken(t *testing.T) {
	t.Parallel()
	for tok, want := range map[string]bool{
		"k7qpz2xw9mr4tb8vn3cj":      true,
		"k7qpz2xw9mr4tb8vn3c":       false, // 19 characters
		"abababababababababababab":  false, // two different characters
		"K7QPZ2XW9MR4TB8VN3CJ":      false, // upper-case: mail systems lose it
		"k7qpz2xw9mr4tb8vn3cj-x":    false,
		"0123456789abcdefghijklmno": true,
	} {
		if got := StrongToken(tok); got != want {
			t.Errorf("StrongToken(%q) = %v, want %v", tok, got, want)
		}
	}
}

func TestAddresses(t *testing.T) {
	t.Parallel()
	p := testPost()
	if got := p.SeatAddress("abc123"); got != "pbem+abc123@example.test" {
		t.Errorf("SeatAddress = %q", got)
	}
	for rcpt, want := range map[string]bool{
		"pbem@example.test":          true,
		"PBEM@Example.Test":          true,
		"pbem+anything@example.test": true,
		"pbem+@example.test":         false,
		"pbemx@example.test":         false,
		"pbem@other.test":            false,
		"nobody":                     false,
	} {
		if got := p.Accepts(rcpt); got != want {
			t.Errorf("Accepts(%q) = %v, want %v", rcpt, got, want)
		}
	}
	if got := p.TokenOf("ann@x.test", "pbem@example.test", " PBEM+AbC@example.test"); got != "AbC" {
		t.Errorf("TokenOf = %q, want the token as written", got)
	}
	if got := p.TokenOf("pbem@example.test", "pbem+abc@other.test"); got != "" {
		t.Errorf("TokenOf = %q, want none", got)
	}
	if !p.toBot("robo@BOT.pbem.invalid") || p.toBot("ann@x.test") {
		t.Error("toBot does not tell a bot seat's address")
	}
}

// A mail's id depends on what caused it and nothing else, so that work
// done again after a crash writes the same mail; its reference names it
// back.
func TestMessageID(t *testing.T) {
	t.Parallel()
	p := testPost()
	id := p.MessageID("in:INBOX:1:7:<a@x>", 0)
	if id != p.MessageID("in:INBOX:1:7:<a@x>", 0) {
		t.Fatal("MessageID is not deterministic")
	}
	if id == p.MessageID("in:INBOX:1:7:<a@x>", 1) || id == p.MessageID("in:INBOX:1:8:<a@x>", 0) {
		t.Fatal("MessageID gives two mails one id")
	}
	if !strings.HasPrefix(id, idPrefix) || !strings.HasSuffix(id, "@example.test") {
		t.Errorf("MessageID = %q", id)
	}
	ref := RefOf(id)
	if len(ref) != 24 || strings.ContainsAny(ref, "@.") {
		t.Errorf("RefOf(%q) = %q, want 24 letters and digits", id, ref)
	}
	if got := p.RefID(ref); got != id {
		t.Errorf("RefID(RefOf(%q)) = %q", id, got)
	}
	var out Mails
	u := Unit{Key: "k", Out: &out}
	if p.NextID(u) != p.MessageID("k", 0) {
		t.Error("NextID is not the id of the first mail")
	}
	out.Add(Mail{To: "ann@x.test", Seat: -1})
	if p.NextID(u) != p.MessageID("k", 1) {
		t.Error("NextID is not the id of the second mail")
	}
}

func TestOwnMarkers(t *testing.T) {
	t.Parallel()
	rules := highbid.Rules{}
	lookup := func(name string) (engine.Rules, bool) { return rules, name == rules.Name() }
	got := OwnMarkers([]string{rules.Name(), "unknown"}, lookup)
	prefixes := len(templates.ReminderPrefixes())
	if prefixes < 2 || len(got) != prefixes+2 || got[0] != ReminderPrefix || !slices.Contains(got, "Erinnerung:") ||
		!strings.HasSuffix(got[prefixes], " #") || got[prefixes+1] != "unknown #" {
		t.Errorf("OwnMarkers = %q", got)
	}
}

func TestAdmins(t *testing.T) {
	t.Parallel()
	got := Admins(" Root@Ops.Test, ,boss@ops.test,")
	if strings.Join(got, "|") != "root@ops.test|boss@ops.test" {
		t.Errorf("Admins = %q", got)
	}
}
