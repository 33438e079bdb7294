package templates

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/games"
)

var update = flag.Bool("update", false, "rewrite testdata/golden/*.txt and *.html (and, with -tags screenshots, testdata/screenshots/*.png)")

// The goldens pin each mail's own part in testdata/golden/NAME.txt and
// NAME.html, and the parts every mail shares once each, so that a change
// to the page or a footer rewrites one golden, not every one:
//
//   - page.html is the HTML page around every mail (head, styles, the
//     card), with "[subject]" for its title and "[the mail]" where the
//     mail's own part goes;
//   - footer-notice.txt and .html are the footer of notices, from the
//     text's signature separator "-- " on (a game mail's footer links
//     answer that mail, so each game mail's golden keeps its own).
//
// NAME.txt is "Subject: ...", a blank line, and the text up to its
// footer, which a last line "[footer-notice.txt]" stands for in a
// notice. NAME.html is the page's title line, then the mail's own part
// of the page, a notice's footer likewise replaced by
// "[footer-notice.html]". splitMail
// and assembleMail cut and join these; checkGolden checks that joining
// the pieces gives back the whole mail, byte for byte.

const (
	goldenDir   = "testdata/golden"
	pageGolden  = "page.html"
	subjectMark = "[subject]"
	mailMark    = "[the mail]\n"
	pageTail    = "</td></tr>\n</table>\n</td></tr>\n</table>\n</body>\n</html>\n"
)

// footers are the shared footers, each known by how its HTML starts. A
// game mail's footer is its own: its buttons are links that answer that
// mail.
var footers = []struct{ name, html string }{
	{"footer-notice", `<p class="pb-muted pb-line" `},
}

// footerMark is the line that stands for a footer golden in a mail's.
func footerMark(file string) string { return "[" + file + "]\n" }

// splitMail cuts a mail into its golden files: name.txt, name.html and
// the shared page.html and footer-*.txt, footer-*.html.
func splitMail(name string, m Mail) (map[string]string, error) {
	files := map[string]string{}
	text := "Subject: " + m.Subject + "\n\n" + m.Text
	h := m.HTML
	// The page: its head up to the card's cell, and its end.
	cell := strings.Index(h, "\n<tr><td class=\"pb-pad\"")
	if cell < 0 {
		return nil, fmt.Errorf("%s: no card cell in the HTML part", name)
	}
	headEnd := cell + 1 + strings.IndexByte(h[cell+1:], '\n') + 1
	if !strings.HasSuffix(h, pageTail) || len(h)-len(pageTail) < headEnd {
		return nil, fmt.Errorf("%s: the HTML part does not end as the page does", name)
	}
	head, own := h[:headEnd], h[headEnd:len(h)-len(pageTail)]
	t0, t1 := strings.Index(head, "<title>"), strings.Index(head, "</title>\n")
	if t0 < 0 || t1 < t0 {
		return nil, fmt.Errorf("%s: no title", name)
	}
	title := head[t0 : t1+len("</title>\n")]
	files[pageGolden] = head[:t0] + "<title>" + subjectMark + "</title>\n" + head[t1+len("</title>\n"):] + mailMark + pageTail
	own = title + own
	// The footer, in both parts.
	for _, f := range footers {
		i := strings.LastIndex(own, "\n"+f.html)
		if i < 0 {
			continue
		}
		j := strings.LastIndex(text, "\n"+sigSep+"\n")
		if j < 0 {
			return nil, fmt.Errorf("%s: an HTML footer but no signature separator in the text", name)
		}
		files[f.name+".html"], own = own[i+1:], own[:i+1]+footerMark(f.name+".html")
		files[f.name+".txt"], text = text[j+1:], text[:j+1]+footerMark(f.name+".txt")
		break
	}
	files[name+".txt"], files[name+".html"] = text, own
	return files, nil
}

// assembleMail joins a mail's golden files into its subject-and-text and
// its HTML part; file reads a golden file by name.
func assembleMail(name string, file func(string) (string, error)) (text, html string, err error) {
	if text, err = file(name + ".txt"); err != nil {
		return "", "", err
	}
	if html, err = file(name + ".html"); err != nil {
		return "", "", err
	}
	for _, f := range footers {
		for _, part := range []struct {
			s   *string
			ext string
		}{{&text, ".txt"}, {&html, ".html"}} {
			if rest, ok := strings.CutSuffix(*part.s, footerMark(f.name+part.ext)); ok {
				footer, err := file(f.name + part.ext)
				if err != nil {
					return "", "", err
				}
				*part.s = rest + footer
			}
		}
	}
	page, err := file(pageGolden)
	if err != nil {
		return "", "", err
	}
	title, own, ok := strings.Cut(html, "\n")
	head, tail, ok2 := strings.Cut(page, mailMark)
	if !ok || !ok2 || !strings.HasPrefix(title, "<title>") {
		return "", "", fmt.Errorf("%s: not a mail's own part and a page", name)
	}
	head = strings.Replace(head, "<title>"+subjectMark+"</title>", title, 1)
	return text, head + own + tail, nil
}

// checkGolden compares a mail with its golden files (see splitMail).
func checkGolden(t *testing.T, name string, m Mail) {
	t.Helper()
	files, err := splitMail(name, m)
	if err != nil {
		t.Fatal(err)
	}
	text, html, err := assembleMail(name, func(f string) (string, error) { return files[f], nil })
	if err != nil || text != "Subject: "+m.Subject+"\n\n"+m.Text || html != m.HTML {
		t.Fatalf("%s: the golden files would not join into the mail (%v)", name, err)
	}
	names := make([]string, 0, len(files))
	for f := range files {
		names = append(names, f)
	}
	sort.Strings(names)
	for _, f := range names {
		compareGolden(t, filepath.Join(goldenDir, f), files[f])
	}
}

// written is what -update wrote in this run, so that two mails that
// disagree on a shared golden fail rather than the last one winning.
var written = struct {
	sync.Mutex
	m map[string]string
}{m: map[string]string{}}

func compareGolden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		written.Lock()
		prev, seen := written.m[path]
		written.m[path] = got
		written.Unlock()
		if seen && prev != got {
			t.Errorf("%s: two mails disagree on this shared golden:\n%s", path, got)
		}
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
	prev := ""
	for _, line := range strings.Split(m.Text, "\n") {
		// The footer's line is whole (tidyBody): a copy ends with it.
		if len([]rune(line)) > lineWidth && strings.Contains(strings.TrimSpace(line), " ") && prev != sigSep {
			t.Errorf("line longer than %d: %q", lineWidth, line)
		}
		prev = line
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
	kind   MailKind
	intro  []string
	// lastOnly shows only the last move's events (a private reply);
	// otherwise everything since the reader's last move.
	lastOnly bool
	rating   *RatingChange // what the game did to the reader's rating, in an end mail
	// web links the seat's page and the reader's calendar feed, as the
	// mails of a pbem that serves pages do.
	web bool
	// clocks are the time banks of a game played with a clock; nil for
	// the classic time per decision. The seats on autopilot among them
	// are the mail's Autopilot, as the daemon sets them.
	clocks []SeatClock
}

// after returns upTo for "the move that caused an event of kind with text".
func after(kind, text string) func(*testing.T, []step) int {
	return func(t *testing.T, steps []step) int { return firstStep(t, steps, kind, text) + 1 }
}

func moves(n int) func(*testing.T, []step) int {
	return func(*testing.T, []step) int { return n }
}

func TestGoldenGameMails(t *testing.T) {
	t.Parallel()
	cases := goldenGameCases()
	r := newRenderer(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := goldenGameMail(t, c)
			mail := render(t, r, m)
			checkSameContent(t, m, mail)
			checkGolden(t, c.name, mail)
		})
	}
}

// goldenGameMail is the mail of a golden game case: its transcript
// replayed to the case's point, as the case's reader gets it.
func goldenGameMail(t *testing.T, c gameCase) GameMail {
	t.Helper()
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
	m.Rating = c.rating
	if c.web {
		m.PageURL = "https://pbem.example/s/abcdefghijklmnopqrstuvwxyz"
		m.CalendarURL = "https://pbem.example/c/zyxwvutsrqponmlkjihgfedcba.ics"
	}
	m.Clocks = c.clocks
	for _, clock := range c.clocks {
		if clock.Autopilot {
			m.Autopilot = append(m.Autopilot, clock.Name)
		}
	}
	return m
}

// goldenGameCases are the game mails of the goldens.
func goldenGameCases() []gameCase {
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
		{name: "felix-bid-web", file: basics, reader: "bob", kind: "turn", web: true},
		{name: "felix-waiting", file: basics, reader: "carol", kind: "turn"},
		{name: "felix-clocks", file: basics, reader: "bob", kind: "turn", clocks: testClocks},
		{name: "felix-clocks-out", file: basics, reader: "carol", kind: "turn", clocks: testClocks},
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
		{name: "felix-end-tie-break", file: tie, reader: "alice", kind: "end",
			rating: &RatingChange{Before: 4.8, After: 6.2, Place: 2, Of: 5}},
		{name: "felix-end-shared", file: shared, reader: "carol", kind: "end"},
		{name: "gracias-start", file: example, upTo: moves(0), reader: "bob", kind: "start"},
		{name: "gracias-turn", file: example, reader: "carol", kind: "turn",
			intro: []string{"Applied: take 1, keep purple, give alice."}},
		{name: "gracias-waiting", file: example, reader: "alice", kind: "turn"},
		{name: "gracias-take-two", file: scoring, upTo: moves(2), reader: "bob", kind: "turn", lastOnly: true},
		{name: "gracias-keep-give-status", file: scoring, upTo: moves(2), reader: "bob", kind: "status"},
		{name: "gracias-other-keeping", file: scoring, upTo: moves(2), reader: "carol", kind: "turn"},
		{name: "gracias-session-scored", file: scoring, reader: "alice", kind: "turn"},
		{name: "gracias-end-tie-break", file: best, reader: "carol", kind: "end"},
		{name: "gracias-end-shared", file: gshared, reader: "alice", kind: "end",
			rating: &RatingChange{Before: 3.1, After: 2.9, Place: 2, Of: 3, Shared: true}},
	}
	return cases
}
