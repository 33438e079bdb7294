package gracias

import (
	"fmt"
	htmltemplate "html/template"
	"strconv"
	"strings"

	"github.com/pbem/pbem/engine"
)

// Gracias' tables, the text part's and the HTML part's, are Go rather
// than template actions (issue 40), as Felix's are: as templates their
// actions, each a call through reflect, were most of what a mail cost.
// The templates call them (gracias.text.tmpl's and gracias.html.tmpl's
// game.table); TestGraciasTablesAreTheTemplates (package templates)
// renders every reader's mail at every position of every transcript
// with them and with the templates they replaced.

// tableText is the text part's table as reader's view v shows it: the
// triplet he took and its face-down card, until his mail has told them
// (toldPeek), the session and round, the triplets, every area, the
// scores, and his own face-down cards.
func tableText(say engine.Say, v View, reader string, aborted, toldPeek bool) string {
	var b strings.Builder
	b.Grow(512)
	b.WriteByte('\n')
	if p := v.Pending; p != nil && !toldPeek {
		b.WriteString(say("You took triplet %d: %s face up.", p.Number, joinAnd(say, colourList(say, p.FaceUp))) + "\n")
		b.WriteString(say("Its face-down card is %s; it is now face down in your area.", say(p.FaceDown)) + "\n")
	}
	b.WriteString("\n" + say("Session %d of %d, round %d of %d", v.Session, v.Sessions, v.Round, v.Rounds) + " · " + startPlayers(say, v) + "\n")
	if !aborted && v.Turn != "" {
		b.WriteString(say("Now: %s", nowDoing(say, v, reader)) + " (" + laidOut(say, v, reader) + ").")
	}
	b.WriteString("\n" + say("Triplets:") + "\n")
	for _, t := range v.Triplets {
		b.WriteString("  " + strconv.Itoa(t.Number) + ". " + joinAnd(say, colourList(say, t.FaceUp)))
		if t.Taken {
			b.WriteString(", " + say("taken by %s", t.TakenBy))
		}
		b.WriteByte('\n')
	}
	b.WriteString(say("Areas (face-up cards by colour; how many face down):") + "\n")
	for _, p := range v.Players {
		name := p.Name
		if p.Name == reader {
			name = say("%s (you)", p.Name)
		}
		b.WriteString("- " + name + ": " + countsText(say, p.FaceUp) + "; " + say("%d down", p.FaceDown) + "\n")
	}
	if len(v.History) > 0 {
		b.WriteString(say("Scores:") + " ")
		for i, p := range v.Players {
			if i > 0 {
				b.WriteString(" · ")
			}
			b.WriteString(p.Name + " " + strconv.Itoa(p.Total))
		}
		b.WriteByte('\n')
	}
	if v.You != "" {
		b.WriteString(say("Your face-down cards:") + " ")
		if len(v.FaceDown) > 0 {
			b.WriteString(strings.Join(colourList(say, v.FaceDown), ", "))
		} else {
			b.WriteString(say("none yet"))
		}
		b.WriteByte('\n')
	}
	b.WriteByte('\n')
	return b.String()
}

// startPlayers names the session's start players: "start cards: alice
// (both)", or the large and the small one.
func startPlayers(say engine.Say, v View) string {
	if v.Large == v.Small {
		return say("start cards: %s (both)", v.Large)
	}
	return say("start cards: %s (large), %s (small)", v.Large, v.Small)
}

// htmlTable collects the HTML part's table, keeping the first error of
// the renderer's pieces (engine.Draw), after which it draws no more.
type htmlTable struct {
	b    strings.Builder
	draw engine.Draw
	err  error
}

// tile writes what the renderer draws of t (its "tile").
func (h *htmlTable) tile(t engine.Tile) { h.piece(func() (string, error) { return h.draw.Tile(t) }) }

// tileHTML is tile as a message's argument.
func (h *htmlTable) tileHTML(t engine.Tile) htmltemplate.HTML {
	if h.err != nil {
		return ""
	}
	s, err := h.draw.Tile(t)
	if err != nil {
		h.err = err
	}
	return htmltemplate.HTML(s)
}

// piece writes a piece the renderer draws.
func (h *htmlTable) piece(draw func() (string, error)) {
	if h.err != nil {
		return
	}
	s, err := draw()
	if err != nil {
		h.err = err
		return
	}
	h.b.WriteString(s)
}

// faces are cards face up, labelled in the reader's words.
func (h *htmlTable) faces(say engine.Say, cards []string) []engine.Tile {
	out := make([]engine.Tile, len(cards))
	for i, c := range cards {
		out[i] = tileIn(say, h.draw.Face(c))
	}
	return out
}

// tableHTML is the HTML part's table, as tableText is the text part's:
// the same things, the cards drawn as tiles and the areas as a table of
// counts by colour (gracias.area.fresh, rendered once for every mail
// with the same line).
func tableHTML(say engine.Say, draw engine.Draw, v View, reader string, aborted, toldPeek bool) (htmltemplate.HTML, error) {
	h := &htmlTable{draw: draw}
	b := &h.b
	b.Grow(4096)
	b.WriteByte('\n')
	if p := v.Pending; p != nil && !toldPeek {
		up := h.faces(say, p.FaceUp)
		var both htmltemplate.HTML
		if len(up) >= 2 {
			both = htmltemplate.HTML(string(h.tileHTML(up[0])) + " " + string(h.tileHTML(up[1])))
		}
		b.WriteString("\n" + `<p class="pb-note" style="margin:14px 0 0;padding:6px 10px;background:#fff7d6;border:1px solid #e9d68a;border-radius:6px;">`)
		b.WriteString(string(sayHTML(say, "You took triplet %d: %s face up.", p.Number, both)))
		b.WriteString("\n<br>")
		b.WriteString(string(sayHTML(say, "Its face-down card is %s; it is now face down in your area.", h.tileHTML(tileIn(say, draw.Face(p.FaceDown))))))
		b.WriteString("</p>\n")
	}
	b.WriteString("\n" + `<p style="margin:14px 0 6px;">`)
	b.WriteString(string(sayHTML(say, "Session %d of %d, round %d of %d", bold(v.Session), v.Sessions, bold(v.Round), v.Rounds)))
	b.WriteString(" · " + sayText(say, startPlayersKey(v)) + "\n")
	if !aborted && v.Turn != "" {
		b.WriteString("<br>" + string(sayHTML(say, "Now: %s", bold(nowDoing(say, v, reader)))) + " (" + escapeHTML(laidOut(say, v, reader)) + ").")
	}
	b.WriteString("</p>\n\n" + `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="border-collapse:collapse;">` + "\n" +
		`<tr><th colspan="3" style="padding:0 0 2px;text-align:left;font-size:13px;">` + sayText(say, sentence{"Triplets:", nil}) + "</th></tr>\n")
	for _, t := range v.Triplets {
		b.WriteString(`<tr><td class="pb-muted" style="padding:1px 8px 1px 0;vertical-align:middle;color:#6b7075;">` + strconv.Itoa(t.Number) +
			`.</td><td style="padding:1px 8px 1px 0;vertical-align:middle;white-space:nowrap;">`)
		for _, f := range h.faces(say, t.FaceUp) {
			h.tile(f)
			b.WriteByte(' ')
		}
		if !t.Taken {
			h.tile(engine.FaceDownTile("?", "", ""))
		}
		b.WriteString(`</td><td style="padding:1px 0;vertical-align:middle;">`)
		if t.Taken {
			b.WriteString(sayText(say, sentence{"taken by %s", []any{t.TakenBy}}))
		}
		b.WriteString("</td></tr>\n")
	}
	b.WriteString("</table>\n\n" + `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="margin:10px 0 0;border-collapse:collapse;font-size:14px;">` + "\n")
	h.piece(func() (string, error) { return draw.Fragment("gracias.areas.fresh", nil) })
	b.WriteByte('\n')
	for _, p := range v.Players {
		h.piece(func() (string, error) { return draw.Fragment("gracias.area.fresh", areaLine(p, reader)) })
		b.WriteByte('\n')
	}
	b.WriteString("</table>\n\n")
	if len(v.History) > 0 {
		b.WriteString(`<p style="margin:8px 0 0;">` + sayText(say, sentence{"Scores:", nil}) + " ")
		for i, p := range v.Players {
			if i > 0 {
				b.WriteString(" · ")
			}
			b.WriteString(escapeHTML(p.Name) + " <b>" + strconv.Itoa(p.Total) + "</b>")
		}
		b.WriteString("</p>")
	}
	b.WriteString("\n\n")
	if v.You != "" {
		b.WriteString("\n" + `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:12px 0 0;border-collapse:collapse;">` + "\n" +
			`<tr><td style="padding:2px 10px 2px 0;vertical-align:middle;">` + sayText(say, sentence{"Your face-down cards:", nil}) + `</td><td style="padding:2px 0;">`)
		if len(v.FaceDown) > 0 {
			for _, f := range h.faces(say, v.FaceDown) {
				h.tile(f)
				b.WriteByte(' ')
			}
		} else {
			b.WriteString(sayText(say, sentence{"none yet", nil}))
		}
		b.WriteString("</td></tr>\n</table>\n")
	}
	b.WriteByte('\n')
	if h.err != nil {
		return "", h.err
	}
	return htmltemplate.HTML(b.String()), nil
}

// sentence is a message of the catalogs and its arguments.
type sentence struct {
	key  string
	args []any
}

// startPlayersKey is startPlayers as a sentence, for the HTML part.
func startPlayersKey(v View) sentence {
	if v.Large == v.Small {
		return sentence{"start cards: %s (both)", []any{v.Large}}
	}
	return sentence{"start cards: %s (large), %s (small)", []any{v.Large, v.Small}}
}

// sayText writes a sentence in the HTML part as the renderer's T does
// in a template: the catalog's text as it is (trusted, as a template's
// text is), each string argument escaped, a count as it is, for the
// catalog's plural forms.
func sayText(say engine.Say, s sentence) string {
	args := make([]any, len(s.args))
	for i, a := range s.args {
		switch a := a.(type) {
		case string:
			args[i] = escapeHTML(a)
		case int:
			args[i] = a
		default:
			args[i] = escapeHTML(fmt.Sprint(a))
		}
	}
	return say(s.key, args...)
}

// Gracias' HTML part is Go (engine.HTMLParts): the renderer calls these
// for a mail, and gracias.html.tmpl's game.table and game.aim call the
// same Go for what renders them by name.

var _ engine.HTMLParts = Rules{}

// TableHTML is the table as the reader may see it (tableHTML): the
// triplet he took, until the mail has told it.
func (Rules) TableHTML(say engine.Say, draw engine.Draw, d engine.PartData) (string, error) {
	v, err := engine.ViewOf[View](d)
	if err != nil || v == nil {
		return "", err // nothing without a view, as the template writes
	}
	html, err := tableHTML(say, draw, *v, d.Reader, d.Aborted, d.Told("peek"))
	return string(html), err
}

// AimHTML is what the reader plays for (aimHTML).
func (Rules) AimHTML(say engine.Say, _ engine.PartData) string { return string(aimHTML(say)) }

// WaitingHTML leaves where the reader stands to the renderer: Gracias
// says no more than it does.
func (Rules) WaitingHTML(engine.Say, engine.Draw, engine.PartData) (string, bool) { return "", false }

// aimHTML is one line on what the reader plays for (game.aim).
func aimHTML(say engine.Say) htmltemplate.HTML {
	return htmltemplate.HTML(`<p class="pb-muted" style="margin:14px 0 0;font-size:13px;color:#6b7075;">` +
		sayText(say, sentence{"Aim: 1 point a stack of 5, 1 a face-up card not discarded; most wins.", nil}) + "</p>")
}
