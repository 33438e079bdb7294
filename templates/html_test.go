package templates

import (
	"fmt"
	"html"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/felix"
	"github.com/pbem/pbem/engine/games"
)

// maxHTML is the largest HTML part allowed: Gmail clips a mail's HTML
// above 102 kB and hides the rest behind a link.
const maxHTML = 90 << 10

// scanHTML walks an HTML document: text between tags goes to text, each
// tag (with its lower-case name, "/td" for a closing one) to tag. The
// HTML parts are well-formed output of html/template, which escapes every
// '<' in text, so a simple scanner reads them as a browser does.
func scanHTML(s string, text func(string), tag func(name, tag string)) {
	for s != "" {
		i := strings.IndexByte(s, '<')
		if i < 0 {
			text(s)
			return
		}
		text(s[:i])
		j := strings.IndexByte(s[i:], '>')
		if j < 0 {
			text(s[i:])
			return
		}
		t := s[i : i+j+1]
		name := strings.ToLower(strings.TrimLeft(t[1:len(t)-1], " "))
		if k := strings.IndexAny(name, " \t\n>"); k >= 0 {
			name = name[:k]
		}
		tag(strings.TrimSuffix(name, "/"), t)
		s = s[i+j+1:]
	}
}

var blockTags = map[string]bool{
	"br": true, "p": true, "/p": true, "div": true, "/div": true, "tr": true, "/tr": true,
	"li": true, "/li": true, "ul": true, "/ul": true, "ol": true, "/ol": true, "table": true, "/table": true,
	"h1": true, "/h1": true, "h2": true, "/h2": true, "h3": true, "/h3": true,
}

// htmlLines reads an HTML part as a person sees it: one line per
// paragraph, list item or table row, the cells of a row separated by
// tabs, tags dropped and entities decoded.
func htmlLines(s string) []string {
	if i, j := strings.Index(s, "<head>"), strings.Index(s, "</head>"); i >= 0 && j > i {
		s = s[:i] + s[j+len("</head>"):]
	}
	var b strings.Builder
	scanHTML(s, func(t string) { b.WriteString(t) }, func(name, _ string) {
		switch {
		case name == "/td" || name == "/th":
			b.WriteByte('\t')
		case blockTags[name]:
			b.WriteByte('\n')
		}
	})
	var out []string
	for _, l := range strings.Split(html.UnescapeString(b.String()), "\n") {
		var cells []string
		for _, c := range strings.Split(l, "\t") {
			if c = strings.Join(strings.Fields(c), " "); c != "" {
				cells = append(cells, c)
			}
		}
		if len(cells) > 0 {
			out = append(out, strings.Join(cells, "\t"))
		}
	}
	return out
}

// htmlText is an HTML part's visible text on one line.
func htmlText(s string) string { return unwrap(strings.Join(htmlLines(s), " ")) }

// badTags are elements a mail's HTML part never has: active content,
// embedded or remote resources, forms.
var badTags = map[string]bool{
	"script": true, "iframe": true, "object": true, "embed": true, "link": true,
	"form": true, "img": true, "svg": true, "base": true, "frame": true, "audio": true, "video": true,
}

// unsafeHTML lists what a mail's HTML part must never hold: scripts and
// other active or embedding elements, event handler attributes (on...=),
// remote images, styles or fonts (src="http..., url(http...). Tags and
// style sheets are checked; escaped text from players is harmless,
// whatever it says.
func unsafeHTML(s string) []string {
	var out []string
	inStyle := false
	check := func(part string) {
		l := strings.ToLower(part)
		for _, w := range []string{"javascript:", "@import", "expression("} {
			if strings.Contains(l, w) {
				out = append(out, fmt.Sprintf("%q in %.80s", w, part))
			}
		}
		for _, w := range []string{"url(", "src"} {
			for i := strings.Index(l, w); i >= 0; i = next(l, w, i) {
				rest := strings.TrimLeft(l[i+len(w):], " \t\n=\"'")
				if w == "src" && (i == 0 || !isSpace(l[i-1]) || !strings.HasPrefix(strings.TrimLeft(l[i+3:], " \t\n"), "=")) {
					continue
				}
				if strings.HasPrefix(rest, "http:") || strings.HasPrefix(rest, "https:") || strings.HasPrefix(rest, "//") {
					out = append(out, fmt.Sprintf("remote %s in %.80s", w, part))
				}
			}
		}
		for i := strings.Index(l, "on"); i >= 0; i = next(l, "on", i) {
			if i == 0 || !isSpace(l[i-1]) {
				continue
			}
			j := i + 2
			for j < len(l) && l[j] >= 'a' && l[j] <= 'z' {
				j++
			}
			if j > i+2 && strings.HasPrefix(strings.TrimLeft(l[j:], " \t\n"), "=") {
				out = append(out, fmt.Sprintf("event handler in %.80s", part))
			}
		}
	}
	scanHTML(s, func(t string) {
		if inStyle {
			check(t)
		}
	}, func(name, tag string) {
		if badTags[strings.TrimPrefix(name, "/")] {
			out = append(out, "element "+name)
		}
		inStyle = name == "style"
		check(tag)
	})
	return out
}

func next(s, sub string, i int) int {
	j := strings.Index(s[i+1:], sub)
	if j < 0 {
		return -1
	}
	return i + 1 + j
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// checkHTMLShape checks the HTML part of every mail: a whole document
// that clients show in light and dark mode, safe, without template
// leftovers, small enough not to be clipped.
func checkHTMLShape(t testing.TB, m Mail) {
	t.Helper()
	h := m.HTML
	if !strings.HasPrefix(h, "<!DOCTYPE html>\n") || !strings.HasSuffix(h, "</html>\n") {
		t.Errorf("the HTML part is not a whole document:\n%.300s", h)
	}
	for _, want := range []string{`<meta name="color-scheme" content="light dark">`, "prefers-color-scheme: dark", "max-width:600px", `name="viewport"`} {
		if !strings.Contains(h, want) {
			t.Errorf("the HTML part lacks %q", want)
		}
	}
	for _, bad := range []string{"<no value>", "{{", "%!", "<nil>", "ZgotmplZ"} {
		if strings.Contains(h, bad) {
			t.Errorf("the HTML part holds %q", bad)
		}
	}
	if bad := unsafeHTML(h); len(bad) > 0 {
		t.Errorf("unsafe HTML: %q", bad)
	}
	if len(h) > maxHTML {
		t.Errorf("the HTML part has %d bytes, more than %d", len(h), maxHTML)
	}
}

// checkSameContent checks that the HTML part of a game mail says what
// matters of the text: the intro, every event, every command offered,
// the deadline and the footer's commands. An option line's values may
// stand apart from its first words, as buttons beside them.
func checkSameContent(t testing.TB, g GameMail, m Mail) {
	t.Helper()
	text := htmlText(m.HTML)
	want := append([]string(nil), g.Intro...)
	if g.Marker != "" {
		want = append(want, g.Marker)
	}
	shown := g
	shown.Happened = addressed(g.Happened, g.Reader, games.All()[g.Game])
	for _, e := range shownEvents(shown, games.All()[g.Game]) {
		want = append(want, e.Text)
	}
	if !g.Finished {
		for _, l := range optionLines(games.All()[g.Game].Specs(), g.Options) {
			switch {
			case l.Usage != "":
				want = append(want, l.Usage, l.Commands[0])
			case l.Prefix != "":
				want = append(want, l.Prefix)
				want = append(want, l.Values...)
			default:
				want = append(want, l.Commands...)
			}
		}
	}
	if d := Say.deadlineText(g.Deadline, g.Location); d != "" && !g.Finished {
		want = append(want, d)
	}
	// A clock game's banks, the reader's and the table's.
	clocks := mailData(g)
	for _, line := range []string{clocks.ReaderClock(), clocks.ClocksLine()} {
		if line != "" {
			want = append(want, line)
		}
	}
	want = append(want, "help", "status", "history", "rules", "notify digest")
	for _, w := range want {
		if !strings.Contains(text, unwrap(w)) {
			t.Errorf("the HTML part lacks %q", w)
		}
	}
}

// TestHTMLSafe proves the safety check can fail, and that text from
// players (names, reasons, log lines) is escaped wherever it goes.
func TestHTMLSafe(t *testing.T) {
	t.Parallel()
	for _, bad := range []string{
		`<script>alert(1)</script>`, `<SCRIPT src=x>`, `<img src="http://x/y.png">`,
		`<p style="background:url(http://x/a.png)">`, `<p style="background:url( 'https://x')">`,
		`<div onclick="x()">`, `<body onload=x>`, `<a href="javascript:x()">`,
		`<link rel="stylesheet" href="https://x/a.css">`, `<style>@import "x.css";</style>`,
	} {
		if len(unsafeHTML("<p>ok</p>"+bad)) == 0 {
			t.Errorf("unsafeHTML misses %s", bad)
		}
	}
	if bad := unsafeHTML(`<p style="color:#fff">on=1 onion online src url</p>`); len(bad) > 0 {
		t.Errorf("unsafeHTML reports harmless text: %q", bad)
	}

	r := newRenderer(t)
	hostile := []string{
		`<script>alert("x")</script>`,
		`"><img src=http://evil.example/x.png onerror=alert(1)>`,
		`' onmouseover='alert(1)`,
		`javascript:alert(1)`,
	}
	n := noticeCases()["invite"]
	n.From = hostile[0]
	n.Players = hostile
	n.Lines = hostile
	n.Title = hostile[1]
	for _, kind := range NoticeKinds() {
		n := n
		n.Kind, n.Reason, n.DidYouMean = kind, hostile[2], hostile[3:]
		n.Games = []GameLine{{ID: 1, Game: hostile[0], Title: hostile[1], Status: hostile[2], Players: hostile[3], YourTurn: hostile[0]}}
		n.Digest = []DigestGame{{GameID: 1, Game: "felix", Title: hostile[1], Reader: hostile[2], Address: hostile[3],
			Happened: []engine.Event{{Text: hostile[0]}}, Waiting: hostile, YourTurn: true, State: DigestRunning,
			Options: []engine.Option{{Spec: "bid", Text: hostile[0], Commands: hostile}}}}
		if kind == "rules" {
			n.Game, n.Title = "felix", "Felix: The Cat in the Sack"
		}
		m, err := r.Notice(n)
		if err != nil {
			t.Fatal(err)
		}
		if bad := unsafeHTML(m.HTML); len(bad) > 0 {
			t.Errorf("%s: hostile text gets through: %q", kind, bad)
		}
		checkHTMLShape(t, m)
	}
	n.Kind = "invite"
	m, err := r.Notice(n)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(htmlText(m.HTML), hostile[0]+" invites you") {
		t.Errorf("the inviter's name is not shown as text:\n%s", m.HTML)
	}

	g, opening, steps := play(t, "engine/felix/testdata/basics-4p.txt", -1)
	bob := engine.Seat(g, "bob")
	gm := mailFor(t, g, bob, "turn", sinceLastMove(bob, opening, steps))
	gm.Intro = hostile
	gm.Happened = append(gm.Happened, engine.Event{To: engine.Public, Text: hostile[1]})
	gm.Reader = hostile[2]
	gm.Waiting = hostile
	v := gm.View.(felix.View)
	v.Start, v.Turn = hostile[0], hostile[1]
	gm.View = v
	mail, err := r.Game(gm)
	if err != nil {
		t.Fatal(err)
	}
	checkHTMLShape(t, mail)
	text := htmlText(mail.HTML)
	for _, h := range hostile {
		if !strings.Contains(text, h) {
			t.Errorf("%q is not shown as text", h)
		}
	}
}

// TestHTMLGameMailOrder checks that the HTML part has the parts of the
// text in the same order.
func TestHTMLGameMailOrder(t *testing.T) {
	t.Parallel()
	r := newRenderer(t)
	g, opening, steps := play(t, "engine/felix/testdata/basics-4p.txt", -1)
	bob := engine.Seat(g, "bob")
	m := mailFor(t, g, bob, "turn", sinceLastMove(bob, opening, steps))
	m.Intro = []string{"Applied: play 5."}
	mail := render(t, r, m)
	text := htmlText(mail.HTML)
	order := []string{m.Marker, "Applied: play 5.", "alice bids 1.", "Your move: reply by Tue 24 Nov 18:00 CET",
		"bid 2", "17", "pass", "bid up to N, e.g. bid up to 9", "Aim:", "Round 2 of 9", "The row:",
		"2. bob 5 yours, face down", "3. carol face down", "Mouse cards:", "Players:",
		"Hand: -8 -5 3 8 11 15 small dog", "Money: 17 mice", "help", "status", "history", "rules", "notify digest"}
	at := 0
	for _, s := range order {
		i := strings.Index(text[at:], s)
		if i < 0 {
			t.Fatalf("%q missing or out of order in:\n%s", s, strings.Join(htmlLines(mail.HTML), "\n"))
		}
		at += i + len(s)
	}
}

// TestHeadersReadable: every heading and table header of a game mail's
// HTML part is at least 13 px, readable on a phone.
func TestHeadersReadable(t *testing.T) {
	r := newRenderer(t)
	size := regexp.MustCompile(`font-size:(\d+)px`)
	head := regexp.MustCompile(`<(th|h1|h2|h3)\b[^>]*>`)
	for _, file := range []string{"engine/felix/testdata/basics-4p.txt", "engine/gracias/testdata/scoring-3p.txt"} {
		g, opening, steps := play(t, file, -1)
		for seat := range g.Players() {
			m := render(t, r, mailFor(t, g, seat, "status", sinceLastMove(seat, opening, steps)))
			tags := head.FindAllString(m.HTML, -1)
			if len(tags) == 0 {
				t.Fatalf("%s: no headers to check", file)
			}
			for _, tag := range tags {
				for _, s := range size.FindAllStringSubmatch(tag, -1) {
					if n, _ := strconv.Atoi(s[1]); n < 13 {
						t.Errorf("%s: a header of %d px: %s", file, n, tag)
					}
				}
			}
		}
	}
}
