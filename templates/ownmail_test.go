package templates

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/pbem/pbem/engine/games"
	"github.com/pbem/pbem/parser"
)

// TestOwnMailsReadNoCommand: pbem's own mails never read as commands,
// however a reply carries a copy of one (every golden mail, in both
// parts): quoted, copied unquoted below Outlook's "-----Original
// Message-----", copied with no header at all, or pasted into an HTML
// reply. And since the parser reads on after the end of such a copy
// (parser.EndsOwnMail, Outlook with the reply typed below the original,
// issue 24), a command typed above or below the copy is read, and only
// it: every mail must end with a line that EndsOwnMail knows, in the text
// and in the HTML part.
func TestOwnMailsReadNoCommand(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join(goldenDir, "*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	file := func(name string) (string, error) {
		b, err := os.ReadFile(filepath.Join(goldenDir, name))
		return string(b), err
	}
	// What the daemon gives the parser (outgoing.OwnMarkers): a
	// reminder's start in every language, and the games' references.
	markers := ReminderPrefixes()
	for _, g := range games.Names() {
		r, _ := games.Lookup(g)
		markers = append(markers, ShortName(g, r.Title())+" #")
	}
	opts := parser.ExtractOptions{ServiceAddress: "game@pbem.example", OwnMarkers: markers}
	fixtureMarker := regexp.MustCompile(`(?m)^.*write your reply above this line.*$`)
	mails := 0
	for _, path := range paths {
		name := strings.TrimSuffix(filepath.Base(path), ".txt")
		if strings.HasPrefix(name, "footer-") {
			continue
		}
		text, html, err := assembleMail(name, file)
		if strings.HasPrefix(name, "de-") {
			// A German golden is whole (german_test.go).
			if text, err = file(name + ".txt"); err == nil {
				html, err = file(name + ".html")
			}
		}
		if err != nil {
			t.Fatal(err)
		}
		mails++
		subject, text, _ := strings.Cut(strings.TrimPrefix(text, "Subject: "), "\n\n")
		// The daemon's mails carry the parser's marker; the goldens a
		// fixture's.
		text = fixtureMarker.ReplaceAllLiteralString(text, parser.ReplyMarker)
		html = fixtureMarker.ReplaceAllLiteralString(html, parser.ReplyMarker)
		lang := parser.Grammar{Games: games.Names()}
		for _, g := range games.Names() {
			if strings.HasPrefix(strings.TrimPrefix(name, "de-"), g+"-") {
				r, _ := games.Lookup(g)
				lang.Specs, lang.Nouns = r.Specs(), nil
			}
		}
		header := "From: pbem <game+t0k3n@pbem.example>\nSent: Sunday, November 22, 2026 9:06 PM\nTo: Alice Example <alice@x.test>\nSubject: " + subject + "\n\n"
		quoted := "> " + strings.ReplaceAll(strings.TrimRight(text, "\n"), "\n", "\n> ")
		plain := []struct{ shape, body string }{
			{"quoted", "On Sun, Nov 22, 2026 at 9:06 PM pbem <game@pbem.example> wrote:\n" + quoted},
			{"unquoted copy", text},
			{"original message", "\n-----Original Message-----\n" + header + text},
			{"header block", "\n________________________________\n" + header + text},
		}
		for _, p := range plain {
			for _, typed := range []struct{ where, body string }{
				{"nothing typed", p.body},
				{"command above", "help\n\n" + p.body},
				{"command below", p.body + "\n\nhelp\n"},
			} {
				if p.shape == "unquoted copy" && typed.where == "command above" {
					// pbem's mail begins with its headline: no client
					// copies it with no header, so nothing tells the
					// player's line from a mail's first line.
					continue
				}
				checkOwnCopy(t, name+", "+p.shape+", "+typed.where, "text/plain", typed.body, opts, lang, typed.where != "nothing typed")
			}
		}
		page := html[strings.Index(html, "<body"):]
		page = page[strings.Index(page, ">")+1:]
		page = strings.TrimSuffix(strings.TrimSpace(page), "</html>")
		page = strings.TrimSuffix(strings.TrimSpace(page), "</body>")
		checkOwnCopy(t, name+", html copy", "text/html", "<html><body><div>&nbsp;</div><hr><div>"+page+"</div></body></html>", opts, lang, false)
		checkOwnCopy(t, name+", html copy, command below", "text/html", "<html><body><div>"+page+"</div><div>help</div></body></html>", opts, lang, true)
	}
	if mails < 40 {
		t.Fatalf("only %d golden mails: the test reads too few", mails)
	}
}

// checkOwnCopy reads a reply's body as the daemon does: it must hold no
// command at all, or, when the player typed one, exactly "help".
func checkOwnCopy(t *testing.T, name, ctype, body string, opts parser.ExtractOptions, lang parser.Grammar, typed bool) {
	t.Helper()
	raw := "From: Alice Example <alice@x.test>\nTo: pbem <game+t0k3n@pbem.example>\nSubject: Re: a mail\nMIME-Version: 1.0\nContent-Type: " + ctype + "; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n" + body
	m, err := parser.Extract(strings.NewReader(raw), opts)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	cmds, _ := parser.Read(m.Text, lang)
	var got []string
	for _, c := range cmds {
		got = append(got, c.Text)
	}
	want := []string(nil)
	if typed {
		want = []string{"help"}
	}
	if !slices.Equal(got, want) {
		t.Errorf("%s: read %q, want %q; text read:\n%s", name, got, want, m.Text)
	}
}
