package templates

import (
	"strings"
	"testing"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/felix"
	"github.com/pbem/pbem/engine/gracias"
)

// TestNoPageLeaks renders the web page of every seat, and the public
// page, after every move of whole random games, and checks them as the
// HTML mails are checked (htmlLeaks): no other seat's private log entry,
// money, hand, set-aside or face-down card. The history's list is the
// events so far as the reader was told them.
func TestNoPageLeaks(t *testing.T) {
	r := newRenderer(t)
	for _, rules := range []engine.Rules{felix.Rules{}, gracias.Rules{}} {
		t.Run(rules.Name(), func(t *testing.T) {
			t.Parallel()
			pages := 0
			randomGame(t, rules, 4, 300, func(g engine.Game, seat int, kind MailKind, happened, log []engine.Event) {
				for _, reader := range []int{seat, engine.Public} {
					// The history's points, in the reader's words.
					points := []PagePoint{{Text: "The game begins."}}
					for _, e := range log {
						if e.VisibleTo(reader) {
							points = append(points, PagePoint{Text: e.Text})
						}
					}
					if reader == engine.Public && seat != 0 {
						continue // once a move
					}
					m := mailFor(t, g, 0, kind, nil)
					m.Reader, m.View, m.Options, m.Happened = "", g.View(reader), nil, nil
					if reader >= 0 {
						m.Reader, m.Options, m.Happened = g.Players()[reader], g.Options(reader), happened
					}
					m.Marker, m.MessageID, m.RefLine = "", "", ""
					// The table and the options, checked as a mail's (the
					// history's list, of things past, would read as the
					// present to htmlLeaks' checks of standing orders)...
					html, err := r.Page(Page{GameMail: m, Public: reader == engine.Public, Points: points[len(points)-1:]})
					if err != nil {
						t.Fatal(err)
					}
					pages++
					if bad := htmlLeaks(Mail{HTML: html}, g, reader, log); len(bad) > 0 {
						t.Fatalf("the page of seat %d leaks:\n%s\n\n%s", reader, strings.Join(bad, "\n"), strings.Join(htmlLines(html), "\n"))
					}
					// ...and with the whole history, for log entries.
					html, err = r.Page(Page{GameMail: m, Public: reader == engine.Public, Points: points, At: len(points) - 1})
					if err != nil {
						t.Fatal(err)
					}
					if bad := privateLeaks(unwrap(strings.Join(htmlLines(html), " ")), reader, log); len(bad) > 0 {
						t.Fatalf("the page of seat %d leaks:\n%s\n\n%s", reader, strings.Join(bad, "\n"), strings.Join(htmlLines(html), "\n"))
					}
					if reader == engine.Public && (strings.Contains(html, "mailto:") || strings.Contains(html, "Hand:")) {
						t.Fatalf("the public page shows a hand or a link to play:\n%s", html)
					}
				}
			})
			if pages < 50 {
				t.Fatalf("only %d pages rendered", pages)
			}
		})
	}
}

// TestPageShape: the page is one whole document, in English, with a
// main landmark, the history as a navigation landmark with a labelled
// slider, every point linked but the one shown, the present point's
// options as one-tap links, and a past point's page without them.
func TestPageShape(t *testing.T) {
	r := newRenderer(t)
	g, _, err := felix.Rules{}.New(engine.Setup{Players: []string{"alice", "bob", "carol"}, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	m := mailFor(t, g, 0, MailStatus, nil)
	m.Marker = ""
	points := []PagePoint{{Text: "The game begins."}, {Text: "alice passes."}, {Text: "bob bids 2."}}
	now, err := r.Page(Page{GameMail: m, Points: points, At: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<!DOCTYPE html>", `<html lang="en">`, `<main id="pb-main"`, `<nav aria-label="The game's history"`,
		`<label for="at"`, `type="range" min="0" max="2" value="2"`, `href="?at=0"`, `href="?at=1"`, `aria-current="page"`,
		"mailto:", "The table as alice sees it", `name="color-scheme" content="light dark"`, "prefers-color-scheme: dark"} {
		if !strings.Contains(now, want) {
			t.Errorf("the present page lacks %q", want)
		}
	}
	past, err := r.Page(Page{GameMail: m, Points: points, At: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`value="1"`, `href="?"`, "This is the table as it was", "Point 1 of 2: alice passes."} {
		if !strings.Contains(past, want) {
			t.Errorf("the past page lacks %q", want)
		}
	}
	if strings.Contains(past, "mailto:") {
		t.Error("a past point offers moves")
	}
	for _, at := range []int{-1, 3} {
		if _, err := r.Page(Page{GameMail: m, Points: points, At: at}); err == nil {
			t.Errorf("point %d of 3 renders", at)
		}
	}
}
