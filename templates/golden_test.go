package templates

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/games"
)

var update = flag.Bool("update", false, "rewrite testdata/golden/*.txt and *.html (and, with -tags screenshots, testdata/screenshots/*.png)")

// checkGolden compares a mail with testdata/golden/name.txt (subject and
// text) and testdata/golden/name.html (the HTML part).
func checkGolden(t *testing.T, name string, m Mail) {
	t.Helper()
	compareGolden(t, filepath.Join("testdata", "golden", name+".txt"), "Subject: "+m.Subject+"\n\n"+m.Text)
	compareGolden(t, filepath.Join("testdata", "golden", name+".html"), m.HTML)
}

func compareGolden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./templates -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs (run with -update and review the diff):\n%s", path, got)
	}
}

// firstStep finds the first step with an event of kind whose text holds
// text; it fails the test when there is none.
func firstStep(t *testing.T, steps []step, kind, text string) int {
	t.Helper()
	for i, s := range steps {
		for _, e := range s.events {
			if e.Kind == kind && strings.Contains(e.Text, text) {
				return i
			}
		}
	}
	t.Fatalf("no %s event with %q", kind, text)
	return -1
}

func render(t *testing.T, r *Renderer, m GameMail) Mail {
	t.Helper()
	mail, err := r.Game(m)
	if err != nil {
		t.Fatal(err)
	}
	checkShape(t, mail)
	return mail
}

// checkShape checks what every mail must be: a subject on one line, a
// body without overlong lines where they could be broken, no template
// leftovers, and a safe HTML part.
func checkShape(t testing.TB, m Mail) {
	t.Helper()
	if m.Subject == "" || strings.ContainsAny(m.Subject, "\r\n") {
		t.Errorf("bad subject %q", m.Subject)
	}
	for _, bad := range []string{"<no value>", "{{", "%!", "<nil>"} {
		if strings.Contains(m.Text, bad) || strings.Contains(m.Subject, bad) {
			t.Errorf("mail holds %q:\n%s", bad, m.Text)
		}
	}
	checkHTMLShape(t, m)
	for _, line := range strings.Split(m.Text, "\n") {
		if len([]rune(line)) > lineWidth && strings.Contains(strings.TrimSpace(line), " ") {
			t.Errorf("line longer than %d: %q", lineWidth, line)
		}
	}
}

func newRenderer(t testing.TB) *Renderer {
	t.Helper()
	r, err := New(games.All())
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// gameCase is one game mail: a transcript replayed to a point and the
// mail one player gets then.
type gameCase struct {
	name   string
	file   string
	upTo   func(t *testing.T, steps []step) int // moves to replay; nil: all
	reader string
	kind   string
	intro  []string
	// lastOnly shows only the last move's events (a private reply);
	// otherwise everything since the reader's last move.
	lastOnly bool
}

// after returns upTo for "the move that caused an event of kind with text".
func after(kind, text string) func(*testing.T, []step) int {
	return func(t *testing.T, steps []step) int { return firstStep(t, steps, kind, text) + 1 }
}

func moves(n int) func(*testing.T, []step) int {
	return func(*testing.T, []step) int { return n }
}

func TestGoldenGameMails(t *testing.T) {
	const (
		basics  = "engine/felix/testdata/basics-4p.txt"
		dogs    = "engine/felix/testdata/dogs-full-game-4p.txt"
		alone   = "engine/felix/testdata/dogs-alone-and-negative-4p.txt"
		buy     = "engine/felix/testdata/buy-for-one-4p.txt"
		voided  = "engine/felix/testdata/voided-round-4p.txt"
		dummy   = "engine/felix/testdata/dummy-3p.txt"
		tie     = "engine/felix/testdata/tie-break-4p.txt"
		shared  = "engine/felix/testdata/shared-win-4p.txt"
		example = "examples/gracias-3p.txt"
		scoring = "engine/gracias/testdata/scoring-3p.txt"
		best    = "engine/gracias/testdata/best-session-3p.txt"
		gshared = "engine/gracias/testdata/shared-3p.txt"
	)
	cases := []gameCase{
		{name: "felix-start", file: basics, upTo: moves(0), reader: "carol", kind: "start"},
		{name: "felix-place", file: basics, upTo: moves(11), reader: "bob", kind: "turn",
			intro: []string{"Applied: bid 5."}},
		{name: "felix-bid", file: basics, reader: "bob", kind: "turn"},
		{name: "felix-waiting", file: basics, reader: "carol", kind: "turn"},
		{name: "felix-own-stake", file: basics, upTo: moves(9), reader: "carol", kind: "turn"},
		{name: "felix-dogs-none", file: dogs, upTo: after("won", "keeps"), reader: "bob", kind: "turn"},
		{name: "felix-dogs-large", file: basics, upTo: after("dogs", "large dog chases"), reader: "dave", kind: "turn"},
		{name: "felix-dogs-small", file: dogs, upTo: after("dogs", "small dog chases"), reader: "alice", kind: "turn"},
		{name: "felix-dogs-several", file: dogs, upTo: after("dogs", "chase each other"), reader: "carol", kind: "turn"},
		{name: "felix-dog-alone", file: alone, upTo: after("dogs", "finds no cat"), reader: "bob", kind: "turn"},
		{name: "felix-voided", file: voided, upTo: after("void", ""), reader: "alice", kind: "turn"},
		{name: "felix-buying", file: buy, upTo: after("buying", ""), reader: "dave", kind: "turn"},
		{name: "felix-buy-for-1", file: buy, upTo: after("buy", ""), reader: "alice", kind: "turn"},
		{name: "felix-dummy-3p", file: dummy, reader: "bob", kind: "status"},
		{name: "felix-end", file: dogs, reader: "bob", kind: "end"},
		{name: "felix-end-tie-break", file: tie, reader: "alice", kind: "end"},
		{name: "felix-end-shared", file: shared, reader: "carol", kind: "end"},
		{name: "gracias-start", file: example, upTo: moves(0), reader: "bob", kind: "start"},
		{name: "gracias-turn", file: example, reader: "carol", kind: "turn",
			intro: []string{"Applied: take 1, keep purple, give alice."}},
		{name: "gracias-waiting", file: example, reader: "alice", kind: "turn"},
		{name: "gracias-peek", file: scoring, upTo: moves(2), reader: "bob", kind: "peek", lastOnly: true},
		{name: "gracias-keep-give-status", file: scoring, upTo: moves(2), reader: "bob", kind: "status"},
		{name: "gracias-other-keeping", file: scoring, upTo: moves(2), reader: "carol", kind: "turn"},
		{name: "gracias-session-scored", file: scoring, reader: "alice", kind: "turn"},
		{name: "gracias-end-tie-break", file: best, reader: "carol", kind: "end"},
		{name: "gracias-end-shared", file: gshared, reader: "alice", kind: "end"},
	}
	r := newRenderer(t)
	for _, c := range cases {
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
			m.Intro = c.intro
			mail := render(t, r, m)
			checkSameContent(t, m, mail)
			checkGolden(t, c.name, mail)
		})
	}
}
