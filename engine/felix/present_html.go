package felix

import (
	"fmt"
	htmltemplate "html/template"
	"strconv"
	"strings"

	"github.com/pbem/pbem/engine"
)

// Felix's HTML part is Go (engine.HTMLParts): the renderer calls these
// for a mail, and felix.html.tmpl's game.table, game.aim and
// game.waiting call the same Go for what renders them by name.

var _ engine.HTMLParts = Rules{}

// TableHTML is the table as the reader may see it (tableHTML): his card
// set aside at the start is shown in the first mail and the status.
func (Rules) TableHTML(say engine.Say, draw engine.Draw, d engine.PartData) (string, error) {
	v, err := engine.ViewOf[View](d)
	if err != nil || v == nil {
		return "", err
	}
	html, err := tableHTML(say, draw, *v, d.Reader, d.Aborted, d.Kind == "start" || d.Kind == "status")
	return string(html), err
}

// AimHTML is what the reader plays for (aimHTML).
func (Rules) AimHTML(say engine.Say, _ engine.PartData) string { return string(aimHTML(say)) }

// WaitingHTML is where the reader stands (waitingHTML); nothing for a
// mail without a view of Felix's (its table says what is wrong).
func (Rules) WaitingHTML(say engine.Say, draw engine.Draw, d engine.PartData) (string, bool) {
	v, err := engine.ViewOf[View](d)
	if err != nil || v == nil {
		return "", true
	}
	return string(waitingHTML(say, draw, *v, d.ReaderWaits)), true
}

// aimHTML is one line on what the reader plays for (game.aim).
func aimHTML(say engine.Say) htmltemplate.HTML {
	return `<p class="pb-muted" style="margin:14px 0 0;font-size:13px;color:#6b7075;">` +
		sayHTML(say, "Aim: the most points at the end, your cats' values plus your mice.") + "</p>"
}

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

// tableHTMLRoom is about what a table of the HTML part takes, 6.8-7.3
// kB in BenchmarkGameMail's positions: its builder is that big from the
// start rather than growing to it by copies (issue 40).
const tableHTMLRoom = 8 << 10

// tableHTML is the table of the HTML part (felix.html.tmpl's
// game.table), as reader's view v shows it, as tableText is the text
// part's: the round, the row drawn as tiles, the mouse cards, a line
// for each player (playerLine), and the reader's hand and money. It is
// Go for the reason tableText is (issue 40); the templates' golden
// mails, and TestFelixTablesAreTheTemplates in package templates, hold
// it to what the templates wrote.
func tableHTML(say engine.Say, draw engine.Draw, v View, reader string, aborted, setAside bool) (htmltemplate.HTML, error) {
	p := &htmlPage{draw: draw}
	p.b.Grow(tableHTMLRoom)
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
		p.playerLine(say, playerLine(v, pl, reader))
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

// playerLine writes l, one line of the players' table: the name, the
// cards in hand and what the round asks of the player, and the cards he
// has won, drawn as chips. It was a template (felix.player.fresh), kept
// by the renderer for every mail with the same line; lines change with
// every move, so most were rendered anew, each at about ten times what
// this Go costs (issue 40). It reads l and nothing else.
func (p *htmlPage) playerLine(say engine.Say, l PlayerLine) {
	p.raw(`<tr><td class="pb-line" style="padding:4px 8px 4px 0;border-top:1px solid #e3e6e9;vertical-align:top;white-space:nowrap;"><b>`)
	p.text(l.Name)
	p.raw("</b>")
	if l.You {
		p.raw(" ")
		p.say(say, "(you)")
	}
	if l.StartPlayer {
		p.raw(`<br><span class="pb-muted" style="font-size:13px;color:#6b7075;">`)
		p.say(say, "start")
		p.raw("</span>")
	}
	p.raw("</td>\n" + `<td class="pb-line" style="padding:4px 0;border-top:1px solid #e3e6e9;vertical-align:top;">`)
	p.say(say, "%d cards", l.HandCount)
	p.playerState(say, l)
	if l.Won != "" {
		p.raw("<br>")
		p.say(say, "won")
		p.raw(" ")
		for _, c := range wonCards(l.Won) {
			p.chip(tileIn(say, p.draw.Face(c)))
			p.raw(" ")
		}
		p.raw("(")
		p.say(say, "cats %d", l.Cats)
		p.raw(")")
	}
	p.raw("</td></tr>")
}

// playerState writes what a player's line says after his cards in
// hand, each after a comma: whether his card is in the row, his stake,
// that he passed, his money when the line shows it, and what the
// auction waits for him to do.
func (p *htmlPage) playerState(say engine.Say, l PlayerLine) {
	if l.Placing {
		p.raw(", ")
		if l.Placed {
			p.say(say, "placed")
		} else {
			p.say(say, "not placed yet")
		}
	}
	if l.Stake != 0 {
		p.raw(", ")
		p.say(say, "stake %d", l.Stake)
	}
	if l.Passed {
		p.raw(", ")
		p.say(say, "passed")
	}
	if l.ShowMoney {
		p.raw(", ")
		p.say(say, "money %d", l.Money)
	}
	switch l.ToAct {
	case "":
	case "buy":
		p.raw(", <b>")
		p.say(say, "to buy or pass")
		p.raw("</b>")
	default:
		p.raw(", <b>")
		p.say(say, "to bid")
		p.raw("</b>")
	}
}

// chip draws t as a chip, a small tile (the renderer's chip.fresh),
// rendered once for every mail that draws the same chip.
func (p *htmlPage) chip(t engine.Tile) { p.fragment("chip.fresh", t) }

// waitingHTML is where the reader stands when the game asks no move of
// him (felix.html.tmpl's game.waiting), as the text part's game.waiting
// says it: he passed, his standing order and what he may send ahead,
// his card is in the row, or he waits. readerWaits says that the game
// waits on him all the same. It is Go for the reason the table is
// (issue 40).
func waitingHTML(say engine.Say, draw engine.Draw, v View, readerWaits bool) htmltemplate.HTML {
	switch {
	case youPassed(v) && v.Round < v.Rounds:
		return sayHTML(say, "You passed: you are out of this auction; the next one starts in round %d.", v.Round+1)
	case youPassed(v):
		return sayHTML(say, "You passed: you are out of this auction; it is the game's last.")
	case v.Limit != 0:
		return sayHTML(say, "Not your turn yet. You let pbem bid for you in this auction up to a total stake of %d (only you know it). You may send these now:", boldArg{v.Limit}) +
			aheadHTML(say, draw, v)
	case v.StandingPass:
		return sayHTML(say, "Not your turn yet. pbem will pass for you when the auction comes to you (only you know it). You may send this now:") +
			aheadHTML(say, draw, v)
	case v.Ahead:
		return sayHTML(say, "Not your turn yet; you may send these now:") + aheadHTML(say, draw, v)
	case v.Phase == "placing" && youPlaced(v):
		return sayHTML(say, "Your card is in the row; the auction starts when every card is in.")
	case readerWaits:
		return sayHTML(say, "Nothing to send for now.")
	}
	return sayHTML(say, "Not your turn yet.")
}

// aheadHTML is what the reader may send ahead of his turn, each on a
// line of its own: a limit to bid up to, with an example he can tap,
// when he can outbid the highest stake; and pass, unless he has told
// pbem to pass already.
func aheadHTML(say engine.Say, draw engine.Draw, v View) htmltemplate.HTML {
	var b strings.Builder
	if ex := aheadLimit(v); ex != 0 {
		b.WriteString("<br>")
		slots := []string{
			draw.Code(Rules{}.CommandIn("bid up to N", say)),
			draw.Option(Rules{}.CommandIn(fmt.Sprintf("bid up to %d", ex), say)),
		}
		for i, part := range sayParts(say, "%s, e.g. %s", slot, slot) {
			if i > 0 && i <= len(slots) {
				b.WriteString(slots[i-1])
			}
			b.WriteString(string(part))
		}
	}
	if !v.StandingPass {
		b.WriteString("<br>")
		b.WriteString(draw.Option(Rules{}.CommandIn("pass", say)))
	}
	return htmltemplate.HTML(b.String())
}
