package parser

import "testing"

// TestNormalizeEachCharacter: every character normalize replaces or drops
// becomes what a person typed, one by one, and others stay.
func TestNormalizeEachCharacter(t *testing.T) {
	t.Parallel()
	want := map[string]string{
		"\u200b\u200c\u200d\u2060\ufeff\u00ad": "",
		"‘’‚‛′`":                               "''''''",
		"“”„‟«»":                               `""""""`,
		"″":                                    "''", // NFKC makes it two primes first
		"‐‑‒–—―−﹣－":                            "---------",
		"a\u00a0b\u2003c\u3000d\u202fe":        "a b c d e",
		"a\x07b\x1bc\u0085d":                   "abcd",
		"a\tb\nc":                              "a\tb\nc",
		"é ß ж 猫 ｆ ﬁ":                          "é ß ж 猫 f fi",
	}
	for in, out := range want {
		if got := normalize(in); got != out {
			t.Errorf("normalize(%+q) = %+q, want %+q", in, got, out)
		}
	}
}
