package intake

import (
	"strings"
	"testing"

	"github.com/pbem/pbem/mailer"
)

// TestReadKeys: Read gives every key the daemon's transaction compares,
// so that nothing there reads the mail again. The Message-ID counts only
// for a mail pbem acts on, and with the seat its sender wrote to.
func TestReadKeys(t *testing.T) {
	t.Parallel()
	cfg := testConfig()
	seat := "From: Alice@X.test\r\nTo: pbem+TokenA@example.test\r\nCc: pbem+tokenb@example.test\r\nDelivered-To: pbem+tokenb@example.test\r\nSubject: hi\r\nMessage-ID: <k1@x.test>\r\n\r\nhelp\r\n"
	m := Read(cfg, mailer.Message{UID: 7, UIDValidity: 3, Raw: []byte(seat)})
	if m.From != "alice@x.test" {
		t.Errorf("From %q, want the address normalised", m.From)
	}
	if m.Mailbox != "INBOX" {
		t.Errorf("Mailbox %q, want Config.Mailbox for a mail that names none", m.Mailbox)
	}
	if want := "alice@x.test tokena k1@x.test"; m.SentAs != want {
		t.Errorf("SentAs %q, want %q: the first seat the sender wrote to", m.SentAs, want)
	}
	if m.Token != "tokenb" {
		t.Errorf("Token %q, want the one it was delivered to, as routing takes it", m.Token)
	}
	if want := "in::3:7:k1@x.test"; m.Key != want {
		t.Errorf("Key %q, want %q", m.Key, want)
	}
	if !strings.HasPrefix(m.Digest, "sha256:") || m.Digest != Digest(m.Received) {
		t.Errorf("Digest %q, want the digest of the bytes", m.Digest)
	}

	auto := strings.Replace(seat, "Subject: hi", "Subject: hi\r\nAuto-Submitted: auto-replied", 1)
	m = Read(cfg, mailer.Message{UID: 8, Mailbox: "Games", Raw: []byte(auto), ID: "lmtp-digest"})
	if m.Verdict.Act() || m.SentAs != "" {
		t.Errorf("automatic mail: act %v, SentAs %q; want no key by its Message-ID", m.Verdict.Act(), m.SentAs)
	}
	if m.Mailbox != "Games" || m.Digest != "lmtp-digest" {
		t.Errorf("Mailbox %q, Digest %q; want the mail's own", m.Mailbox, m.Digest)
	}
}

// TestToken: the token is found in pbem's own addresses only, whatever
// their case, and the first such address counts.
func TestToken(t *testing.T) {
	t.Parallel()
	cfg := testConfig()
	for _, tc := range []struct {
		addrs []string
		want  string
	}{
		{[]string{"pbem@example.test"}, ""},
		{[]string{"pbem+@example.test"}, ""},
		{[]string{"pbem+abc@other.test", "PBEM+Def@Example.Test"}, "Def"},
		{[]string{" pbem+abc@example.test ", "pbem+def@example.test"}, "abc"},
		{[]string{"pbemx+abc@example.test"}, ""},
	} {
		if got := cfg.Token(tc.addrs...); got != tc.want {
			t.Errorf("Token(%q) = %q, want %q", tc.addrs, got, tc.want)
		}
	}
}
