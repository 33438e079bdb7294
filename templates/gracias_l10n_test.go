package templates

import (
	"io/fs"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/gracias"
)

// Gracias in German (issue 39): its mails as a German reader gets them,
// pinned in testdata/golden/de/gracias-*.txt and .html (the mail's own
// part, as splitMail cuts it; the page around it and the notices'
// footer are the English goldens' business), so that a reviewer reads
// every sentence. -update rewrites them.

// graciasGermanCases are the Gracias mails of TestGoldenGameMails, in
// German: the start with its lesson, a turn, waiting, a take before the
// keep, a session scored, and the two ends (a tie broken, a shared win).
func graciasGermanCases() []gameCase {
	const (
		example = "examples/gracias-3p.txt"
		scoring = "engine/gracias/testdata/scoring-3p.txt"
		best    = "engine/gracias/testdata/best-session-3p.txt"
		gshared = "engine/gracias/testdata/shared-3p.txt"
	)
	return []gameCase{
		{name: "gracias-start", file: example, upTo: moves(0), reader: "bob", kind: "start"},
		{name: "gracias-turn", file: example, reader: "carol", kind: "turn",
			intro: []string{"Erledigt: take 1, keep purple, give alice."}},
		{name: "gracias-waiting", file: example, reader: "alice", kind: "turn"},
		{name: "gracias-take-two", file: scoring, upTo: moves(2), reader: "bob", kind: "turn", lastOnly: true},
		{name: "gracias-keep-give-status", file: scoring, upTo: moves(2), reader: "bob", kind: "status"},
		{name: "gracias-other-keeping", file: scoring, upTo: moves(2), reader: "carol", kind: "turn"},
		{name: "gracias-session-scored", file: scoring, reader: "alice", kind: "turn"},
		{name: "gracias-end-tie-break", file: best, reader: "carol", kind: "end"},
		{name: "gracias-end-shared", file: gshared, reader: "alice", kind: "end",
			rating: &RatingChange{Before: 3.1, After: 2.9, Place: 2, Of: 3, Shared: true}},
	}
}

// compareOwnPart pins a German mail's own part: its text and its HTML
// part's, as splitMail cuts them.
func compareOwnPart(t *testing.T, name string, m Mail) {
	t.Helper()
	files, err := splitMail(name, m)
	if err != nil {
		t.Fatal(err)
	}
	for _, ext := range []string{".txt", ".html"} {
		compareGolden(t, filepath.Join(goldenDir, name+ext), files[name+ext])
	}
}

// graciasEnglishKeys are the English keys of Gracias's German catalog
// that no German sentence of its says as well, and long enough not to
// be part of another word: none may be left in a German mail.
func graciasEnglishKeys(t *testing.T) []string {
	t.Helper()
	fsys := gracias.Rules{}.Locales()
	files, err := fs.Glob(fsys, path.Join("de", "*.toml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("Gracias's German catalog: %v %v", files, err)
	}
	var keys []string
	for _, file := range files {
		for key, forms := range localeForms(t, fsys, file) {
			if len(key) < 8 || verb.MatchString(key) || (len(forms) == 1 && forms[0] == key) {
				continue
			}
			keys = append(keys, key)
		}
	}
	return keys
}

func TestGoldenGraciasInGerman(t *testing.T) {
	t.Parallel()
	r := newRenderer(t)
	english := graciasEnglishKeys(t)
	noEnglish := func(t *testing.T, m Mail) {
		t.Helper()
		for _, key := range english {
			if strings.Contains(m.Text, key) || strings.Contains(m.HTML, key) {
				t.Errorf("the German mail says %q in English", key)
			}
		}
	}
	for _, c := range graciasGermanCases() {
		t.Run(c.name, func(t *testing.T) {
			n := -1
			if c.upTo != nil {
				_, _, all := play(t, c.file, -1)
				n = c.upTo(t, all)
			}
			g, opening, steps := play(t, c.file, n)
			seat := engine.Seat(g, c.reader)
			if seat < 0 {
				t.Fatalf("no player %s", c.reader)
			}
			happened := sinceLastMove(seat, opening, steps)
			if c.lastOnly {
				happened = visible(seat, steps[len(steps)-1].events)
			}
			m := mailFor(t, g, seat, c.kind, happened)
			m.Language = "de"
			m.Intro = c.intro
			m.Rating = c.rating
			mail := render(t, r, m)
			noEnglish(t, mail)
			compareOwnPart(t, "de/"+c.name, mail)
		})
	}
	t.Run("rules", func(t *testing.T) {
		n := noticeCases()["rules-gracias"]
		n.Language = "de"
		m, err := r.Notice(n)
		if err != nil {
			t.Fatal(err)
		}
		checkShape(t, m)
		noEnglish(t, m)
		compareOwnPart(t, "de/gracias-rules", m)
	})
}
