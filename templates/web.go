package templates

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/pbem/pbem/engine"
)

// Page is a game's web page (internal/web): the table as one seat, or
// for the public page anyone, saw it at one point of the game. Its
// GameMail is the table at that point as a mail would show it to the
// reader: Happened are the events of that point the reader may see, and
// Options, Waiting and Finished are set only for the point that is now.
type Page struct {
	GameMail
	// Public says that the page is the game's public page: no seat's,
	// so no options and no seat's name.
	Public bool
	// Points are the moments of the game the page can show, in order: the
	// opening and every move the whole table saw; the last one is now. A
	// point's Text is what the whole table saw happen there.
	Points []PagePoint
	// At is the point shown, an index into Points.
	At int
	// Standings are the reader's standings, as `standings` mails them;
	// none on the public page.
	Standings []StandingsTable
	// Live says that the page shows a game still going on at its present
	// point: it follows the game (its script, or without JavaScript a
	// refresh every RefreshSeconds). A finished game's page, and a past
	// point's, stay as they are.
	Live bool
	// Version names what the page shows (internal/webpage): the script
	// compares it with the version its event stream announces.
	Version string
}

// RefreshSeconds is how often a live page reloads itself where no
// JavaScript runs (its <noscript> refresh).
const RefreshSeconds = 30

// recentShown is how many of the events since the reader's last move a
// page lists at its top, before what the reader can do; the earlier ones
// stay one tap away, folded above them, so that the options are on a
// phone's first screen.
const recentShown = 6

// PagePoint is one moment of a game's history on its web page.
type PagePoint struct {
	Text string // what the whole table saw happen: "alice bids 4."
	// Told are the events Text tells, which a page in another language
	// than English writes in it; none for the game's beginning.
	Told []engine.Event
}

// pagePoints are points in the words' language: each told in it, the
// first (the beginning) as GameBegins.
func (e Words) pagePoints(points []PagePoint) []PagePoint {
	if e.isEnglish() {
		return points
	}
	out := make([]PagePoint, len(points))
	for i, pt := range points {
		out[i] = pt
		if len(pt.Told) == 0 {
			if i == 0 {
				out[i].Text = e.GameBegins()
			}
			continue
		}
		parts := make([]string, len(pt.Told))
		for j, ev := range pt.Told {
			parts[j] = e.Event(ev)
		}
		out[i].Text = strings.Join(parts, " ")
	}
	return out
}

// webData is what templates/html/web.tmpl sees.
type webData struct {
	G         *gameData // the game's data, for the game's own templates
	Public    bool
	Points    []PagePoint
	At        int
	Standings []StandingsTable
	Now       bool   // the page shows the point that is now
	Last      int    // the index of the point that is now
	AtText    string // what happened at the point shown
	Live      bool
	Version   string
	Refresh   int // Page.RefreshSeconds, for the <noscript> refresh
	// Folded and Shown are the events the page lists at its top, in
	// order: Folded the earlier ones, folded away; Shown the last
	// recentShown.
	Folded, Shown []engine.Event
	// Headline is the page's headline: the mail's, first on the page.
	Headline string
}

// Href is the page's address for point i, relative to the page: "?at=3";
// now is the page itself, "?".
func (d *webData) Href(i int) string {
	if i >= d.Last {
		return "?"
	}
	return "?at=" + strconv.Itoa(i)
}

// Prev and Next are the points before and after the one shown, or -1.
func (d *webData) Prev() int {
	if d.At > 0 {
		return d.At - 1
	}
	return -1
}

func (d *webData) Next() int {
	if d.At < d.Last {
		return d.At + 1
	}
	return -1
}

// Page renders a game's web page: a whole HTML document, the table drawn
// by the game's own templates as in the HTML mail, with the history's
// scrubber and, for a seat's page at the present point, the options as
// the mail's one-tap links.
func (r *Renderer) Page(p Page) (string, error) {
	if p.Location == nil {
		p.Location = time.UTC
	}
	set := r.set(p.Language)
	g, ok := set.games[p.Game]
	if !ok {
		return "", fmt.Errorf("templates: no templates for game %q", p.Game)
	}
	if len(p.Points) == 0 || p.At < 0 || p.At >= len(p.Points) {
		return "", fmt.Errorf("templates: page at point %d of %d", p.At, len(p.Points))
	}
	gd := newGameData(p.GameMail, g.rules, set.words)
	gd.game = g
	d := &webData{G: gd, Public: p.Public, Points: set.words.pagePoints(p.Points), At: p.At, Standings: set.words.standingsTitles(p.Standings), Last: len(p.Points) - 1,
		Version: p.Version, Refresh: RefreshSeconds}
	d.Now = p.At == d.Last
	d.Live = p.Live && d.Now && !p.Finished
	d.AtText = d.Points[p.At].Text
	d.Shown = gd.Happened // as the reader reads them: his own acts in the second person
	if n := len(d.Shown) - recentShown; n > 0 {
		d.Folded, d.Shown = d.Shown[:n], d.Shown[n:]
	}
	headline, err := r.headlineText(gd)
	if err != nil {
		return "", err
	}
	if p.Aborted && !p.Finished {
		headline = set.words.EndedByHostHeadline(gd.Name, p.GameID)
	}
	gd.Headline = tidySubject(headline)
	gd.replyTo = gd.Headline
	if p.ThreadSubject != "" {
		gd.replyTo = tidySubject(p.ThreadSubject)
	}
	w := set.words
	switch {
	case p.Public:
		gd.Subject = w.f("%s, game #%d", gd.Title, p.GameID)
		gd.Headline = w.f("%s: the table as everyone sees it", gd.Subject)
	case !d.Now:
		gd.Subject = w.f("%s, game #%d: %s's table", gd.Title, p.GameID, p.Reader)
		gd.Headline = w.f("%s, game #%d: the table after point %d of %d", gd.Title, p.GameID, p.At, d.Last)
	default:
		gd.Subject = w.f("%s, game #%d: %s's table", gd.Title, p.GameID, p.Reader)
	}
	// The page's headline is its first heading (web.tmpl), not the
	// mail's bold line.
	d.Headline, gd.Headline = gd.Headline, ""
	return r.buf.html(g.h, "web.html", d)
}
