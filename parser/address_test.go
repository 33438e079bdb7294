package parser

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestStrictFrom(t *testing.T) {
	t.Parallel()
	tests := []struct {
		from, name, addr string
		problem          bool
	}{
		// Normal ones.
		{`"Bob Smith" <bob@x>`, "Bob Smith", "bob@x", false},
		{`Bob Smith <Bob@X.test>`, "Bob Smith", "bob@x.test", false},
		{`bob@x`, "", "bob@x", false},
		{`<bob@x>`, "", "bob@x", false},
		{`bob@x (Bob)`, "Bob", "bob@x", false},
		{`=?utf-8?q?Bj=C3=B6rn?= <bjorn@x>`, "Björn", "bjorn@x", false},
		{`=?iso-8859-1?q?J=F6rg?= <jorg@x.test>`, "Jörg", "jorg@x.test", false},
		{`"bob@x" <bob@x>`, "bob@x", "bob@x", false},
		{`"Bob@X" <bob@x>`, "Bob@X", "bob@x", false},
		{`bob@x <bob@x>`, "bob@x", "bob@x", false},
		{`"Bob (bob@x.test)" <bob@x.test>`, "Bob (bob@x.test)", "bob@x.test", false},
		{`Bob J. Smith <bob@x>`, "Bob J. Smith", "bob@x", false},
		{"", "", "", false},
		// Forged: the author is mallory, whatever the name says.
		{`bob@pbem.test <mallory@evil.test>`, "", "mallory@evil.test", true},
		{`bob@pbem.test(x) <mallory@evil.test>`, "", "mallory@evil.test", true},
		{`bob@pbem.test (x) <mallory@evil.test>`, "", "mallory@evil.test", true},
		{`"bob@pbem.test" <mallory@evil.test>`, "", "mallory@evil.test", true},
		{`"Bob <bob@pbem.test>" <mallory@evil.test>`, "", "mallory@evil.test", true},
		{`=?utf-8?q?bob=40pbem.test?= <mallory@evil.test>`, "", "mallory@evil.test", true},
		{`=?utf-8?q?bob=EF=BC=A0pbem.test?= <mallory@evil.test>`, "", "mallory@evil.test", true},
		{`=?utf-8?q?bob=E2=80=8B@pbem.test?= <mallory@evil.test>`, "", "mallory@evil.test", true},
		// Not clear who the author is: no address.
		{`<bob@pbem.test> <mallory@evil.test>`, "", "", true},
		{`bob@pbem.test, mallory@evil.test`, "", "", true},
		{`Bob <bob@pbem.test>, Mallory <mallory@evil.test>`, "", "", true},
		{`undisclosed:;`, "", "", true},
		{`bob`, "", "", true},
		{`<bob@pbem.test`, "", "", true},
		// Not strict, but the one angle address is the author.
		{`Smith, Bob <bob@x.test>`, "", "bob@x.test", true},
		// Characters an address must not hold.
		{"=?utf-8?q?Bob?= <bob\u202e@x.test>", "", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.from, func(t *testing.T) {
			raw := "From: " + tt.from + "\r\nSubject: x\r\n\r\npass\r\n"
			m, err := Extract(strings.NewReader(raw), ExtractOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if m.FromName != tt.name || m.FromAddress != tt.addr || (m.FromProblem != "") != tt.problem {
				t.Errorf("name %q, address %q, problem %q; want %q, %q, problem %v", m.FromName, m.FromAddress, m.FromProblem, tt.name, tt.addr, tt.problem)
			}
		})
	}
	m, err := Extract(strings.NewReader("From: bob@pbem.test\r\nFrom: mallory@evil.test\r\n\r\npass\r\n"), ExtractOptions{})
	if err != nil || m.FromProblem == "" || m.FromAddress != "" {
		t.Errorf("two From fields: %q %q %v", m.FromAddress, m.FromProblem, err)
	}
}

func TestCheckAddress(t *testing.T) {
	t.Parallel()
	good := []string{"bob@x.test", "Bob.Smith+pbem@mail.example.co.uk", "o'brien@x.test", "a_b-c@sub-domain.x.test", "x@xn--bcher-kva.example", "1@1.example"}
	for _, a := range good {
		if err := CheckAddress(a); err != nil {
			t.Errorf("CheckAddress(%q) = %v", a, err)
		}
	}
	bad := []string{
		"", "bob", "@x.test", "bob@", "bob@x", "bob@localhost", "bob@x.t", "bob@1.2.3.4", "bob@[1.2.3.4]",
		"bob smith@x.test", "bob@x .test", `"bob"@x.test`, `bob"@x.test`, "bob\r\n@x.test", "bob@x.test\n",
		"bob\x00@x.test", "bob\u202e@x.test", "bob@x\u202e.test", "bob\u200b@x.test", "böb@x.test", "bob@bücher.example",
		"bob@-x.test", "bob@x-.test", "bob@x..test", ".bob@x.test", "bob.@x.test", "b..ob@x.test",
		"bob@x_y.test", "a@b@x.test", "bob(x)@x.test", "<bob@x.test>", "Bob <bob@x.test>", "bob,x@x.test",
		strings.Repeat("a", 65) + "@x.test", "a@" + strings.Repeat("x", 64) + ".test", "a@" + strings.Repeat("x.", 130) + "test",
	}
	for _, a := range bad {
		if err := CheckAddress(a); !errors.Is(err, ErrBadAddress) {
			t.Errorf("CheckAddress(%q) = %v, want ErrBadAddress", a, err)
		}
	}
}

func TestSanitizeText(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"Bob Smith", "Bob Smith"},
		{"  Bob \t\r\n  Smith  ", "Bob Smith"},
		{"Bob\r\nBcc: x@y.test", "Bob Bcc: x@y.test"},
		{"Bob \u202etxt.exe", "Bob txt.exe"},
		{"\u2066Bob\u2069\u200b\ufeff", "Bob"},
		{"Bob\x00\x07\x1b[31m", "Bob[31m"},
		{"Björn Ørsted", "Björn Ørsted"},
		{"משה כהן", "משה כהן"},
		{"👩\u200d💻 Ann", "👩\u200d💻 Ann"},
		{"<b>Bob</b>", "<b>Bob</b>"},
		{"Bob\xffSmith", "BobSmith"},
		{"Bob\u2028Smith", "Bob Smith"},
		{strings.Repeat("a", 100), strings.Repeat("a", MaxNameRunes) + "…"},
		{strings.Repeat("ab ", 40), strings.Repeat("ab ", 21) + "a…"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := SanitizeName(tt.in); got != tt.want {
			t.Errorf("SanitizeName(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got := SanitizeText("Re: "+strings.Repeat("x", 300), 200); utf8.RuneCountInString(got) != 201 {
		t.Errorf("SanitizeText(300 x, 200) has %d characters", utf8.RuneCountInString(got))
	}
}

// FuzzAddress checks CheckAddress and SanitizeText on any text: no
// panic, an accepted address holds nothing it must refuse, and a
// sanitized text is one bounded line without control or bidi
// characters.
func FuzzAddress(f *testing.F) {
	for _, s := range []string{"bob@x.test", "Bob <bob@x.test>", "bob\u202e@x.test", "a@b@c.d", "Bob\r\nBcc: x", "\xff@x.test", "o'brien@x.co.uk"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		defer timeLimited(t)()
		if CheckAddress(s) == nil {
			if strings.IndexFunc(s, func(r rune) bool {
				return isControl(r) || isBidi(r) || isHidden(r) || r == ' ' || r == '"' || r >= utf8.RuneSelf
			}) >= 0 || strings.Count(s, "@") != 1 || !strings.Contains(s[strings.IndexByte(s, '@'):], ".") {
				t.Fatalf("CheckAddress(%q) accepted it", s)
			}
		}
		got := SanitizeText(s, 20)
		if !utf8.ValidString(got) || utf8.RuneCountInString(got) > 21 || strings.TrimSpace(got) != got ||
			strings.Contains(got, "  ") || strings.IndexFunc(got, func(r rune) bool { return isControl(r) || isBidi(r) || isHidden(r) }) >= 0 {
			t.Fatalf("SanitizeText(%q) = %q", s, got)
		}
	})
}
