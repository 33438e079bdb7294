package templates

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pbem/pbem/engine"
)

// playLongNames is play with every player's name made as long as a name
// may be (16 characters, one word: daemon's maxNameLen), the widest a
// page's tables and buttons get.
func playLongNames(t testing.TB, file string, n int) (engine.Game, []engine.Event, []step) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", file))
	if err != nil {
		t.Fatal(err)
	}
	long := regexp.MustCompile(`\b(alice|bob|carol|dave|erin|frank)\b`).ReplaceAllStringFunc(string(b), func(name string) string {
		return (name + "_longername_xyz")[:16]
	})
	path := filepath.Join(t.TempDir(), "long.txt")
	if err := os.WriteFile(path, []byte(long), 0o644); err != nil {
		t.Fatal(err)
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(root, path)
	if err != nil {
		t.Fatal(err)
	}
	return play(t, rel, n)
}

// webCase is a web page the layout tests draw: a transcript replayed to
// a point (all of it when moves < 0), as reader saw it (engine.Public
// for the spectators' page).
type webCase struct {
	name   string
	file   string
	moves  int
	reader string // "" for the public page
}

// webCases are a mid-game seat page with options, an end-of-game seat
// page and the public page of each game; Gracias with six players, its
// widest table.
var webCases = []webCase{
	{"felix-mid", "engine/felix/testdata/basics-4p.txt", 6, ""},
	{"felix-end", "engine/felix/testdata/dogs-full-game-4p.txt", -1, "bob"},
	{"felix-public", "engine/felix/testdata/basics-4p.txt", 6, ""},
	{"gracias-mid", "engine/gracias/testdata/sorted-6p.txt", 40, ""},
	{"gracias-end", "engine/gracias/testdata/sorted-6p.txt", -1, "alice"},
	{"gracias-public", "engine/gracias/testdata/sorted-6p.txt", 40, ""},
}

// mid reports whether the case is a seat's page in the middle of a game,
// whose options the page must show on its first screen.
func (c webCase) mid() bool { return c.moves >= 0 && c.name[len(c.name)-6:] != "public" }

// webCasePage renders c's page, with standings for a seat's page (the
// widest header a page has).
func webCasePage(t testing.TB, r *Renderer, c webCase) string {
	t.Helper()
	return webCasePageWith(t, r, c, nil)
}

// webCasePageWith is webCasePage with edit (when not nil) changing the
// page's mail before it is rendered.
func webCasePageWith(t testing.TB, r *Renderer, c webCase, edit func(*GameMail)) string {
	t.Helper()
	g, opening, steps := playLongNames(t, c.file, c.moves)
	reader := c.reader
	if reader != "" {
		reader = (reader + "_longername_xyz")[:16]
	}
	if c.mid() {
		// The seat to move: its page offers options.
		reader = g.Players()[g.Waiting()[0]]
	}
	public := c.reader == "" && !c.mid()
	seat := engine.Public
	if !public {
		seat = engine.Seat(g, reader)
	}
	m := mailFor(t, g, max(seat, 0), MailStatus, nil)
	m.Marker, m.MessageID, m.RefLine = "", "", ""
	points := []PagePoint{{Text: "The game begins."}}
	for _, s := range steps {
		for _, e := range s.events {
			if e.VisibleTo(seat) {
				points = append(points, PagePoint{Text: e.Text})
				break
			}
		}
	}
	p := Page{Public: public, Points: points, At: len(points) - 1, Live: true, Version: "0123456789abcdef"}
	if public {
		m.Reader, m.View, m.Options = "", g.View(engine.Public), nil
		m.Happened = visible(engine.Public, steps[len(steps)-1].events)
	} else {
		m.Happened = sinceLastMove(seat, opening, steps)
		if len(m.Happened) == 0 {
			// As webpage: the seat moved last, and its move is what
			// happened last.
			m.Happened = visible(seat, steps[len(steps)-1].events)
		}
		p.Standings = []StandingsTable{{Title: m.Title, Rows: []StandingsRow{
			{Place: 1, Name: "maximilian_alexa", Rating: "-12.3", Games: 1140},
			{Place: 2, Name: reader, You: true, Rating: "-1.4", Games: 3},
		}}}
	}
	if edit != nil {
		edit(&m)
	}
	p.GameMail = m
	html, err := r.Page(p)
	if err != nil {
		t.Fatal(err)
	}
	return html
}

// TestPageOrder: a seat's page in the middle of a game reads in the
// mail's order, action first: the headline, what happened since the
// seat's last move, "Your move" with its options, the table, the whole
// game, the standings; at the end the final result comes first, and the
// scrubber's label does not repeat the events listed above it. The page
// has one script, from the server (no inline script), and refreshes
// itself without JavaScript only while the game goes on.
func TestPageOrder(t *testing.T) {
	r := newRenderer(t)
	table := map[string]string{"felix": "The row:", "gracias": "Areas"}
	for _, c := range webCases {
		t.Run(c.name, func(t *testing.T) {
			html := webCasePage(t, r, c)
			game := c.file[len("engine/") : len("engine/")+strings.Index(c.file[len("engine/"):], "/")]
			var order []string
			switch {
			case c.mid():
				order = []string{"<h1", "Since your last move", `id="pb-todo"`, "Your move", table[game], "The whole game", "Your rating"}
			case c.moves < 0:
				order = []string{"<h1", `id="pb-end"`, "Since your last move", "The whole game", "Your rating"}
			default:
				order = []string{"<h1", "What happened last", table[game], "The whole game"}
			}
			at := 0
			for _, want := range order {
				i := strings.Index(html[at:], want)
				if i < 0 {
					t.Fatalf("%q is not where it belongs, after %q:\n%s", want, html[max(0, at-200):at], strings.Join(htmlLines(html), "\n"))
				}
				at += i
			}
			if n := strings.Count(html, "<script"); n != 1 || !strings.Contains(html, `<script src="../live.js" defer></script>`) {
				t.Errorf("the page has %d scripts, not the one from the server", n)
			}
			refresh := strings.Contains(html, `<noscript><meta http-equiv="refresh" content="30"></noscript>`)
			if refresh != (c.moves >= 0) {
				t.Errorf("a page of a game %s refreshes itself: %v", map[bool]string{true: "going on", false: "over"}[c.moves >= 0], refresh)
			}
			if c.moves < 0 && strings.Contains(html, "Now, after point") && strings.Contains(html, "Now: ") {
				t.Error("the end page's scrubber repeats what happened")
			}
			if reader := pageReader(html); c.mid() && reader != "" {
				since := html[strings.Index(html, "Since your last move"):strings.Index(html, `id="pb-todo"`)]
				for _, line := range htmlLines(since) {
					if strings.HasPrefix(line, reader+" ") || strings.HasPrefix(line, reader+"'s ") {
						t.Errorf("the reader's page tells his own act in the third person: %q", line)
					}
				}
			}
		})
	}
}

// pageReader is the name the page marks "(you)" in its players' table.
func pageReader(html string) string {
	for _, line := range htmlLines(html) {
		if name, ok := strings.CutSuffix(line, " (you)"); ok && !strings.Contains(name, " ") {
			return name
		}
	}
	return ""
}
