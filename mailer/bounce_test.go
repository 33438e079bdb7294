package mailer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The bounces in testdata/bounces are written after the shapes each
// server sends (Postfix's bounce(8), Exim's, Google's, Microsoft's,
// qmail's prose), with the addresses of the test domains.
func TestReadBounce(t *testing.T) {
	cases := []struct {
		file string
		want Bounce
	}{
		{"postfix.eml", Bounce{Kind: BounceHard, Recipient: "nobody@example.test", Status: "5.1.1"}},
		{"postfix-delayed.eml", Bounce{Kind: BounceSoft, Recipient: "carol@slow.test", Status: "4.4.1"}},
		{"exim.eml", Bounce{Kind: BounceHard, Recipient: "dave@exim.test", Status: "5.0.0"}},
		{"gmail.eml", Bounce{Kind: BounceHard, Recipient: "erin@gmail.test", Status: "5.1.1"}},
		{"microsoft.eml", Bounce{Kind: BounceHard, Recipient: "frank@outlook.test", Status: "5.1.10"}},
		{"qmail-prose.eml", Bounce{Kind: BounceHard}},
		{"prose-transient.eml", Bounce{Kind: BounceSoft, Status: "4.2.2"}},
		{"vacation.eml", Bounce{}},
		{"delivered.eml", Bounce{}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join("testdata", "bounces", c.file))
			if err != nil {
				t.Fatal(err)
			}
			if got := ReadBounce(raw); got != c.want {
				t.Errorf("ReadBounce = %+v, want %+v", got, c.want)
			}
		})
	}
}

func TestReadBounceOfNoMail(t *testing.T) {
	for _, raw := range []string{"", "not a header at all", "Subject: Mail delivery failed\r\n\r\n"} {
		got := ReadBounce([]byte(raw))
		if raw == "Subject: Mail delivery failed\r\n\r\n" {
			// A failure named by no code is a soft bounce: one never
			// makes an address unreachable.
			if got.Kind != BounceSoft {
				t.Errorf("ReadBounce(%q) = %+v, want a soft bounce", raw, got)
			}
			continue
		}
		if got.Kind != BounceNone {
			t.Errorf("ReadBounce(%q) = %+v, want none", raw, got)
		}
	}
}

// A report far over the bound is read only up to it: what follows the
// bound does not count.
func TestReadBounceBounded(t *testing.T) {
	head := "Subject: Mail delivery failed\r\n\r\n" + strings.Repeat("x ", maxBounceBytes)
	if got := ReadBounce([]byte(head + "550 5.1.1 unknown")); got.Kind != BounceSoft {
		t.Errorf("a code past the bound was read: %+v", got)
	}
}

func FuzzReadBounce(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "bounces", "*.eml"))
	for _, p := range files {
		raw, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(raw)
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		b := ReadBounce(raw)
		switch b.Kind {
		case BounceNone, BounceHard, BounceSoft:
		default:
			t.Fatalf("kind %q", b.Kind)
		}
	})
}
