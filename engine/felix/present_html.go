package felix

import (
	htmltemplate "html/template"
	"strconv"
	"strings"

	"github.com/pbem/pbem/engine"
)

// htmlPage collects the HTML of a part drawn in Go, keeping the first
// error of the renderer's pieces (engine.Draw), after which it writes
// nothing more.
type htmlPage struct {
	b    strings.Builder
	draw engine.Draw
	err  error
}

func (p *htmlPage) raw(s string)                                { p.b.WriteString(s) }
func (p *htmlPage) text(s string)                               { p.b.WriteString(escapeHTML(s)) }
func (p *htmlPage) html(h htmltemplate.HTML)                    { p.b.WriteString(string(h)) }
func (p *htmlPage) say(say engine.Say, key string, args ...any) { p.html(sayHTML(say, key, args...)) }

// tile draws t (the renderer's tile), face up as the game labels it or
// as made.
func (p *htmlPage) tile(t engine.Tile) {
	if p.err != nil {
		return
	}
	s, err := p.draw.Tile(t)
	if err != nil {
		p.err = err
		return
	}
	p.b.WriteString(s)
}

// fragment writes what the game's fragment template name renders from
// data (engine.Draw's Fragment).
func (p *htmlPage) fragment(name string, data any) {
	if p.err != nil {
		return
	}
	s, err := p.draw.Fragment(name, data)
	if err != nil {
		p.err = err
		return
	}
	p.b.WriteString(s)
}

// tableHTML is the table of the HTML part (felix.html.tmpl's
// game.table), as reader's view v shows it, as tableText is the text
// part's: the round, the row drawn as tiles, the mouse cards, a line
// for each player (felix.player.fresh, rendered once for every mail
// with the same line), and the reader's hand and money. It is Go for
// the reason tableText is (issue 40); the templates' golden mails, and
// TestTableHTMLIsTheTemplate in package templates, hold it to what the
// template wrote.
func tableHTML(say engine.Say, draw engine.Draw, v View, reader string, aborted, setAside bool) (htmltemplate.HTML, error) {
	p := &htmlPage{draw: draw}
	p.b.Grow(4096)
	p.raw("\n" + `<p style="margin:14px 0 6px;">`)
	p.say(say, "Round %d of %d", boldArg{v.Round}, v.Rounds)
	p.raw(" · ")
	p.say(say, "start player %s", boldArg{v.Start})
	p.raw(" · ")
	p.say(say, "bank %s", say("%d mice", v.Bank))
	if v.DummyLeft != 0 {
		p.raw(" · ")
		p.say(say, "dummy pile %d", v.DummyLeft)
	}
	p.raw("\n")
	p.html(phaseHTML(say, v, reader, aborted))
	p.raw("</p>\n" + `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="border-collapse:collapse;">` + "\n" +
		`<tr><th colspan="3" style="padding:0 0 2px;text-align:left;font-size:13px;">`)
	p.say(say, "The row:")
	p.raw("</th></tr>\n")
	for _, c := range v.Row {
		p.raw(`<tr><td class="pb-muted" style="padding:1px 8px 1px 0;vertical-align:middle;color:#6b7075;">` + strconv.Itoa(c.Position) +
			`.</td><td style="padding:1px 10px 1px 0;vertical-align:middle;">`)
		p.text(ownerIn(say, c.Owner))
		p.raw(`</td><td style="padding:1px 0;vertical-align:middle;">`)
		p.tile(rowTile(say, draw, c, reader))
		p.raw("</td></tr>\n")
	}
	p.raw("</table>\n" + `<p style="margin:8px 0 0;font-size:14px;">`)
	p.say(say, "Mouse cards: %s", mouseCardsIn(say, v.MouseCards))
	p.raw("</p>\n" + `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="margin:8px 0 0;border-collapse:collapse;">` + "\n" +
		`<tr><th colspan="2" style="padding:0 0 2px;text-align:left;font-size:13px;">`)
	p.say(say, "Players:")
	p.raw("</th></tr>\n")
	for _, pl := range v.Players {
		p.fragment("felix.player.fresh", playerLine(v, pl, reader))
		p.raw("\n")
	}
	p.raw("</table>\n")
	if !anyWon(v) {
		p.raw(`<p class="pb-muted" style="margin:4px 0 0;font-size:13px;color:#6b7075;">`)
		p.say(say, "Nobody has won a card yet.")
		p.raw("</p>")
	}
	p.raw("\n\n")
	if v.You != "" {
		p.raw("\n" + `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:12px 0 0;border-collapse:collapse;">` + "\n" +
			`<tr><td style="padding:2px 10px 2px 0;vertical-align:middle;white-space:nowrap;">`)
		p.say(say, "Hand:")
		p.raw(`</td><td style="padding:2px 0;">`)
		for _, c := range v.Hand {
			p.tile(tileIn(say, draw.Face(c)))
			p.raw(" ")
		}
		p.raw("</td></tr>\n" + `<tr><td style="padding:2px 10px 2px 0;vertical-align:middle;white-space:nowrap;">`)
		p.say(say, "Money:")
		p.raw(`</td><td style="padding:2px 0;"><b>`)
		p.text(ownMoney(say, v))
		p.raw("</b></td></tr>\n")
		if setAside && v.SetAside != "" {
			p.raw(`<tr><td style="padding:2px 10px 2px 0;vertical-align:middle;">`)
			p.say(say, "Set aside at the start:")
			p.raw(`</td><td style="padding:2px 0;">`)
			p.tile(tileIn(say, draw.Face(v.SetAside)))
			p.raw(" ")
			p.say(say, "(only you know it)")
			p.raw("</td></tr>")
		}
		p.raw("\n</table>\n")
		if c := v.CannotRaise; c != nil {
			p.raw(`<p style="margin:8px 0 0;">`)
			parts := sayParts(say, "Only %s is left: a bid must be at least %d, and you own %s.", slot, c.Next, say("%d mice", c.Owned))
			for i, part := range parts {
				if i > 0 {
					p.raw(draw.Code(Rules{}.CommandIn("pass", say)))
				}
				p.html(part)
			}
			p.raw("</p>\n")
		}
	}
	p.raw("\n")
	if p.err != nil {
		return "", p.err
	}
	return htmltemplate.HTML(p.b.String()), nil
}

// phaseHTML is the table's line on what the round waits for, as
// phaseText writes it in the text, after a line break; nothing in a game
// the host ended.
func phaseHTML(say engine.Say, v View, reader string, aborted bool) htmltemplate.HTML {
	var line htmltemplate.HTML
	switch {
	case aborted:
		return ""
	case v.Phase == "placing":
		line = sayHTML(say, "Everyone puts a card face down into the row.")
	case v.Phase == "bidding":
		who := sayHTML(say, "%s to bid", boldArg{v.Turn})
		if v.Turn == reader {
			who = sayHTML(say, "<b>your turn</b> to bid")
		}
		high := sayHTML(say, "no stake yet")
		if v.HighStake != 0 {
			high = sayHTML(say, "highest stake %d, held by %s", boldArg{v.HighStake}, highHolders(say, v))
		}
		line = sayHTML(say, "Auction: %s; %s.", who, high)
	case v.Phase == "buying" && v.Turn == reader:
		line = sayHTML(say, "Nobody bid: <b>you</b> may buy the row for 1 mouse, or pass.")
	case v.Phase == "buying":
		line = sayHTML(say, "Nobody bid: %s may buy the row for 1 mouse, or pass.", boldArg{v.Turn})
	default:
		return ""
	}
	return "<br>" + line + "\n"
}

// rowTile is the tile of a place of the row as reader sees it: an empty
// place, a card face up, his own card face down with its name, or a
// face-down card.
func rowTile(say engine.Say, draw engine.Draw, c RowCard, reader string) engine.Tile {
	switch {
	case !c.Placed:
		return engine.EmptyTile(say("not placed yet"))
	case c.FaceUp && c.Card != "":
		return tileIn(say, draw.Face(c.Card))
	case c.Card != "" && c.Owner == reader:
		return engine.FaceDownTile(cardIn(say, c.Card), say("yours, face down"), draw.Face(c.Card).Bg)
	case c.Card != "":
		// A view gives a face-down card only to its owner: show a wrong
		// one, for the tests.
		return engine.FaceDownTile(cardIn(say, c.Card), say("face down"), "")
	}
	return engine.FaceDownTile(say("face down"), "", "")
}
