package templates

import (
	"bytes"
	"errors"
	"fmt"
	htmltemplate "html/template"
	"strings"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/parser"
)

// The frame of a game mail's HTML part is Go, not a template (issue 40):
// the page around it (page_html.go), the intro, what happened, what the
// reader can do now, the links and the footer, around the parts the
// game draws itself (engine.Presenter: game.table, game.end, game.aim
// and game.waiting, templates of the game's NAME.html.tmpl, or its Go,
// engine.HTMLParts). As a template the frame was two fifths of what
// rendering a mail cost, most of it text/template's own work: a call
// through reflect for every action and every escaper. It writes what
// the template wrote, escaped as html/template escapes each value in
// its place; the goldens hold every kind of mail.

// noteStyle is a note's box: the intro, the shared mailbox, the rules in
// the first mail.
const noteStyle = "margin:0 0 8px;padding:8px 10px;background:#fff7d6;border:1px solid #e9d68a;border-radius:6px;"

// gameHTML writes a game mail's HTML part into b: the page around it
// (writePageStart and writePageEnd), then the frame, in the order of
// the text part.
func (d *gameData) gameHTML(b *bytes.Buffer) error {
	if d.game == nil {
		return errNoTemplates
	}
	writePageStart(b, d.words.language().String(), d.Subject, d.Headline, d.Marker)
	b.WriteByte('\n')
	for _, s := range d.Intro {
		b.WriteString(`<p class="pb-note" style="` + noteStyle + `">`)
		writeEscaped(b, s)
		b.WriteString("</p>\n")
	}
	if len(d.SharedMailbox) > 0 {
		b.WriteString(`<p class="pb-note" style="` + noteStyle + `">`)
		b.WriteString(string(d.words.htmlT("This game is not rated: the addresses of %s reach one mailbox, and a rated game has a mailbox for each player.", d.words.joinAnd(d.SharedMailbox))))
		b.WriteString("</p>\n")
	}
	writeEvents(b, d.Recent)
	if d.Finished {
		if err := d.writeEnd(b); err != nil {
			return err
		}
	} else if err := d.writeNow(b); err != nil {
		return err
	}
	if len(d.Earlier) > 0 {
		writeHeading(b, d.EarlierHeading())
		b.WriteByte('\n')
		writeEvents(b, d.Earlier)
	}
	if d.PageURL != "" {
		var a strings.Builder
		writeAnchor(&a, d.PageURL, d.words.htmlT("Your table on the web"))
		b.WriteString(`<p style="margin:16px 0 0;">`)
		b.WriteString(string(d.words.htmlT("%s, with the whole game.", htmltemplate.HTML(a.String()))))
		b.WriteString("</p>")
	}
	if d.CalendarURL != "" {
		var a strings.Builder
		writeURLLink(&a, d.CalendarURL)
		b.WriteString("\n" + `<p style="margin:4px 0 0;">`)
		b.WriteString(string(d.words.htmlT("Your deadlines in your calendar: %s", htmltemplate.HTML(a.String()))))
		b.WriteString("</p>")
	}
	b.WriteByte('\n')
	d.writeFooter(b)
	writePageEnd(b)
	return nil
}

// writeEnd writes the end of a game over: the final result (the game's
// game.end), the reader's rating and the rematch.
func (d *gameData) writeEnd(b *bytes.Buffer) error {
	if err := d.game.h.ExecuteTemplate(b, "game.end", d); err != nil {
		return err
	}
	b.WriteByte('\n')
	if s := d.RatingText(); s != "" {
		b.WriteString(`<p style="margin:12px 0 0;">`)
		writeEscaped(b, s)
		b.WriteByte(' ')
		b.WriteString(string(d.words.htmlT("Reply %s for the whole table.", codeHTML(d.words.Command(parser.KindStandings.String())))))
		b.WriteString("</p>")
	}
	b.WriteString("\n" + `<p style="margin:16px 0 0;">`)
	b.WriteString(string(d.words.htmlT("%s to play again with the same players.", optionHTML(d.Link(d.words.Command(parser.KindRematch.String()))))))
	b.WriteString("</p>\n")
	return nil
}

// writeNow writes the game as it stands: what the reader can do now,
// the first mail's short rules or what he plays for (the game's
// game.aim), and the table (game.table).
func (d *gameData) writeNow(b *bytes.Buffer) error {
	if err := d.writeTodo(b); err != nil {
		return err
	}
	if d.Teach != "" {
		writeTeach(b, d.Teach)
	} else if err := d.writeAim(b); err != nil {
		return err
	}
	b.WriteByte('\n')
	if err := d.writeTable(b); err != nil {
		return err
	}
	b.WriteByte('\n')
	return nil
}

// The game's own parts are written by its Go when it has it
// (engine.HTMLParts), else by its templates: game.aim, game.table and
// game.waiting. As templates that only called the game's Go they were a
// tenth of what a mail cost (issue 40).

// htmlParts is the game's Go for its parts, or nil.
func (d *gameData) htmlParts() engine.HTMLParts {
	p, _ := d.rules.(engine.HTMLParts)
	return p
}

// partData is what the game's HTMLParts and TextParts are told of the
// mail: what its templates read of the game data.
func (d *gameData) partData() engine.PartData {
	return engine.PartData{View: d.View, Reader: d.Reader, Kind: string(d.Kind), Aborted: d.Aborted,
		ReaderWaits: d.ReaderWaits, Happened: d.Happened}
}

// writeAim writes what the reader plays for (game.aim).
func (d *gameData) writeAim(b *bytes.Buffer) error {
	if p := d.htmlParts(); p != nil {
		b.WriteString(p.AimHTML(d.words.f, d.partData()))
		return nil
	}
	return d.game.h.ExecuteTemplate(b, "game.aim", d)
}

// writeTable writes the table as the reader may see it (game.table).
func (d *gameData) writeTable(b *bytes.Buffer) error {
	if p := d.htmlParts(); p != nil {
		s, err := p.TableHTML(d.words.f, d.Draw(), d.partData())
		if err != nil {
			return fmt.Errorf("game.table: %w", err)
		}
		b.WriteString(s)
		return nil
	}
	return d.game.h.ExecuteTemplate(b, "game.table", d)
}

// writeWaiting writes where the reader stands when the game asks no
// move of him (game.waiting): the game's words, or the renderer's own
// (waitingHTML) for a game that says no more.
func (d *gameData) writeWaiting(b *bytes.Buffer) error {
	p := d.htmlParts()
	if p == nil {
		return d.game.h.ExecuteTemplate(b, "game.waiting", d)
	}
	if s, ok := p.WaitingHTML(d.words.f, d.Draw(), d.partData()); ok {
		b.WriteString(s)
		return nil
	}
	b.WriteString(string(d.words.waitingHTML(d.ReaderWaits)))
	return nil
}

// waitingHTML is the renderer's own game.waiting, for a reader who has
// nothing to send: whether the game waits on him all the same.
func (e Words) waitingHTML(readerWaits bool) htmltemplate.HTML {
	if readerWaits {
		return e.htmlT("Nothing to send for now.")
	}
	return e.htmlT("Not your turn yet.")
}

// writeEvents writes events as a list, one item each; nothing for none.
func writeEvents(b htmlOut, evs []engine.Event) {
	if len(evs) == 0 {
		return
	}
	b.WriteString(`<ul style="margin:0;padding:0 0 0 20px;">` + "\n")
	for _, e := range evs {
		b.WriteString(`<li style="margin:0 0 3px;">`)
		writeEscaped(b, e.Text)
		b.WriteString("</li>\n")
	}
	b.WriteString("</ul>\n")
}

// writeTeach writes the first mail's short rules (Teach, the game's
// game.teach in the text): its first line a heading, then one item a
// line.
func writeTeach(b htmlOut, teach string) {
	b.WriteString(`<div class="pb-note" style="margin:14px 0 0;padding:8px 10px;background:#fff7d6;border:1px solid #e9d68a;border-radius:6px;">` + "\n")
	first := true
	for _, l := range strings.Split(teach, "\n") {
		if l = strings.TrimSpace(l); l == "" {
			continue
		}
		if first {
			b.WriteString(`<p style="margin:0 0 4px;"><b>`)
			writeEscaped(b, l)
			b.WriteString(`</b></p><ul style="margin:0;padding:0 0 0 18px;">`)
			first = false
		} else {
			b.WriteString(`<li style="margin:0 0 3px;">`)
			writeEscaped(b, strings.TrimPrefix(l, "- "))
			b.WriteString("</li>")
		}
		b.WriteByte('\n')
	}
	b.WriteString("</ul></div>\n")
}

// TodoHTML is what the reader can do now, for the page (web.tmpl) as for
// the mail: his options with the deadline, or why the game does not ask
// him now (the game's game.waiting), and the clocks.
func (d *gameData) TodoHTML() (htmltemplate.HTML, error) {
	var b bytes.Buffer
	if err := d.writeTodo(&b); err != nil {
		return "", err
	}
	return htmltemplate.HTML(b.String()), nil
}

// writeTodo writes TodoHTML.
func (d *gameData) writeTodo(b *bytes.Buffer) error {
	if d.game == nil {
		return errNoTemplates
	}
	w := d.words
	b.WriteByte('\n')
	switch {
	case d.YourTurn:
		b.WriteString(`<p style="margin:14px 0 4px;"><b>`)
		if d.DeadlineText != "" {
			b.WriteString(string(w.htmlT("Your move: reply by %s with one of these", d.DeadlineText)))
		} else {
			b.WriteString(string(w.htmlT("Your move: reply with one of these")))
		}
		b.WriteString(".</b> ")
		if d.Tappable {
			b.WriteString(string(w.htmlT("Tap a command to write your reply with it, then send it; or write one on the first line of your reply.")))
		} else {
			b.WriteString(string(w.htmlT("Write it on the first line of your reply.")))
		}
		b.WriteString("</p>\n")
		w.writeOptionsHTML(b, d.OptionLines, d)
		if len(d.Others) > 0 {
			b.WriteString(`<p style="margin:6px 0 0;">`)
			b.WriteString(string(w.htmlT("The game also waits for %s.", w.joinAnd(d.Others))))
			b.WriteString("</p>")
		}
		d.writeClocks(b)
		b.WriteByte('\n')
	case d.Aborted:
		b.WriteString(`<p style="margin:14px 0 0;"><b>`)
		writeEscaped(b, d.EndedByHost())
		b.WriteString("</b></p>\n")
	default:
		b.WriteString(`<p style="margin:14px 0 0;">`)
		if err := d.writeWaiting(b); err != nil {
			return err
		}
		if s := d.WaitingLine(); s != "" {
			b.WriteString("<br>")
			writeEscaped(b, s)
		}
		if len(d.Autopilot) > 0 {
			var by any = d.AutopilotBy
			if d.AutopilotBy == "" {
				by = w.htmlT("pbem makes the default moves for them")
			}
			b.WriteString("<br>")
			b.WriteString(string(w.htmlT("On autopilot (%s until they send a move or back): %s.", by, w.joinAnd(d.Autopilot))))
		}
		if d.DeadlineText != "" {
			b.WriteString("<br>")
			b.WriteString(string(w.htmlT("Your next deadline: %s.", d.DeadlineText)))
		}
		b.WriteString("</p>")
		d.writeClocks(b)
		b.WriteByte('\n')
	}
	return nil
}

// ClocksHTML are the time banks below the deadline, the reader's then the
// table's (text/game.tmpl's game.clocks); nothing in a game without
// them.
func (d *gameData) ClocksHTML() htmltemplate.HTML {
	var b strings.Builder
	d.writeClocks(&b)
	return htmltemplate.HTML(b.String())
}

// writeClocks writes ClocksHTML.
func (d *gameData) writeClocks(b htmlOut) {
	for _, s := range []string{d.ReaderClock(), d.ClocksLine()} {
		if s != "" {
			b.WriteString(`<p style="margin:6px 0 0;">`)
			writeEscaped(b, s)
			b.WriteString("</p>")
		}
	}
}

// writeFooter writes the footer: one line of buttons, each a real link
// that writes the command (help, status, history, rules), and the
// setting most asked for.
func (d *gameData) writeFooter(b htmlOut) {
	b.WriteString(`<table role="presentation" class="pb-line" width="100%" cellpadding="0" cellspacing="0" border="0" style="margin:22px 0 0;border-top:1px solid #d8dce0;">` + "\n")
	b.WriteString(`<tr><td class="pb-muted" style="padding:10px 0 0;font-size:13px;color:#6b7075;">`)
	b.WriteString(string(d.words.htmlT("Any time:")))
	b.WriteByte('\n')
	for _, c := range footerWords {
		writeOption(b, d.Link(d.words.Command(c)))
		b.WriteByte(' ')
	}
	writeNowrap(b, d.words.Command(footerSetting))
	b.WriteString("</td></tr>\n</table>\n")
}

// writeAnchor writes a link with a message for its text (the
// templates' anchor).
func writeAnchor(b htmlOut, url string, text htmltemplate.HTML) {
	b.WriteString(`<a href="`)
	writeURLAttr(b, url)
	b.WriteString(`">`)
	b.WriteString(string(text))
	b.WriteString("</a>")
}

// writeURLLink writes an address of the web as its own link, broken
// anywhere on a small screen (the templates' urlLink).
func writeURLLink(b htmlOut, url string) {
	b.WriteString(`<a href="`)
	writeURLAttr(b, url)
	b.WriteString(`" style="overflow-wrap:anywhere;word-break:break-all;">`)
	writeEscaped(b, url)
	b.WriteString("</a>")
}

// Draw lends the game's Go the pieces of the HTML part the renderer
// draws (engine.Draw), for this mail: its tiles and fragments from the
// game's set, its buttons with the mail's links.
func (d *gameData) Draw() engine.Draw { return drawer{d} }

// drawer is a gameData's engine.Draw.
type drawer struct{ d *gameData }

func (w drawer) Face(card string) engine.Tile {
	if w.d.game == nil {
		return faceOf(nil, card)
	}
	return faceOf(w.d.game.faces, card)
}

func (w drawer) Tile(t engine.Tile) (string, error) {
	if w.d.game == nil {
		return "", errNoTemplates
	}
	out, err := w.d.game.frag.render("tile.fresh", t)
	return string(out), err
}

func (w drawer) Code(cmd string) string   { return string(codeHTML(cmd)) }
func (w drawer) Option(cmd string) string { return string(optionHTML(w.d.Link(cmd))) }

func (w drawer) Fragment(name string, data any) (string, error) {
	if w.d.game == nil {
		return "", errNoTemplates
	}
	out, err := w.d.game.frag.render(name, data)
	return string(out), err
}

// errNoTemplates is a gameData's HTML asked for without its game's
// templates.
var errNoTemplates = errors.New("templates: game data without its game's templates")
