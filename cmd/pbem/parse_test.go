package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func runPbem(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), &env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb}, args)
	return code, out.String(), errb.String()
}

func TestParseCommand(t *testing.T) {
	const corpus = "../../parser/testdata/corpus/"
	tests := []struct {
		name    string
		args    []string
		code    int
		stdout  string
		inError string
	}{
		{"felix", []string{"--game", "felix", corpus + "felix-gmail-top-posting.eml"}, 0, "bid 6\n", ""},
		{"several", []string{"--game", "felix", corpus + "felix-several-one-line.eml"}, 0, "play rabbit\nbid 4\n", ""},
		{"players", []string{"--game", "felix", "--players", "alice,bob,carol", corpus + "felix-apple-qp-curly.eml"}, 0, "play large-dog\n", ""},
		{"lobby", []string{corpus + "lobby-new-game-ok.eml"}, 0, "new felix with bob@y.test carol@z.test dave@w.test\n", ""},
		{"own marker", []string{"--game", "felix", "--marker", "pbem game g42", corpus + "felix-own-marker.eml"}, 0, "play small-dog\n", ""},
		{"typo", []string{"--game", "felix", corpus + "felix-typo.eml"}, 1, "", `Did you mean "bid 5"?`},
		{"only a quote", []string{"--game", "felix", corpus + "felix-only-quote.eml"}, 1, "", "pbem found no command in your message"},
		{"partial", []string{"--game", "felix", corpus + "felix-stop-at-prose.eml"}, 0, "bid 5\n", "The rest of your message was ignored."},
		{"too large", []string{"--max-bytes", "100", corpus + "felix-typo.eml"}, 1, "", "message too large"},
		{"unknown game", []string{"--game", "chess", corpus + "felix-typo.eml"}, 2, "", `unknown game "chess"`},
		{"no file", []string{}, 2, "", "one message file expected"},
		{"missing file", []string{"nonexistent.eml"}, 1, "", "nonexistent.eml"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runPbem(t, "", append([]string{"parse"}, tt.args...)...)
			if code != tt.code || stdout != tt.stdout || !strings.Contains(stderr, tt.inError) {
				t.Errorf("pbem parse %s: exit %d, stdout %q, stderr %q; want exit %d, stdout %q, stderr with %q",
					strings.Join(tt.args, " "), code, stdout, stderr, tt.code, tt.stdout, tt.inError)
			}
		})
	}
}

func TestParseStdin(t *testing.T) {
	code, stdout, _ := runPbem(t, "From: a@x.test\n\nPass.\n", "parse", "--game", "felix", "-")
	if code != 0 || stdout != "pass\n" {
		t.Errorf("exit %d, stdout %q", code, stdout)
	}
}

// TestParseCutsHeadlines: like the service, pbem parse cuts a reply at an
// unquoted copy of a game mail's headline.
func TestParseCutsHeadlines(t *testing.T) {
	for _, headline := range []string{"Felix #12: your turn to bid (round 2)", "Reminder: Gracias #7: your turn (session 1, round 2)"} {
		mail := "From: a@x.test\n\nPass.\n\n" + headline + "\n\n--- pbem: write your commands above this line ---\n"
		code, stdout, stderr := runPbem(t, mail, "parse", "--game", "felix", "-")
		if code != 0 || stdout != "pass\n" || stderr != "" {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want pass and nothing else", headline, code, stdout, stderr)
		}
	}
}
