package templates

import (
	"bytes"
	"fmt"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/parser"
)

// The frame of a game mail's text part is Go, like the HTML part's
// (game_html.go), around the parts the game writes itself: the headline
// and the table (or the final result), rendered first (Renderer.Game),
// game.aim and game.waiting. The game writes them in Go when it has it
// (engine.TextParts), else in its NAME.text.tmpl; the final result is
// always a template (game.end). tidyBody then trims, wraps and keeps at
// most one blank line in a row, so the blank lines written here only
// part what the reader sees parted.

// gameText writes a game mail's body into b, in the order of the HTML
// part: the intro and everything that happened since the reader's last
// mail, once and in order (the headline and the marker are the
// renderer's), what the reader can do now, the short rules in the first
// mail, the table (or the final result) with his own hand, the whole
// game so far when he asked for it (`history`), and a one-line footer.
func (d *gameData) gameText(b *bytes.Buffer) error {
	if d.game == nil {
		return errNoTemplates
	}
	w := d.words
	b.WriteByte('\n')
	for _, s := range d.Intro {
		b.WriteString(s + "\n")
	}
	if len(d.SharedMailbox) > 0 {
		b.WriteString(w.f("This game is not rated: the addresses of %s reach one mailbox, and a rated game has a mailbox for each player.", w.joinAnd(d.SharedMailbox)) + "\n")
	}
	for _, e := range d.Recent {
		b.WriteString("- " + e.Text + "\n")
	}
	b.WriteString("\n\n")
	if d.Finished {
		b.WriteString("\n" + d.Table + "\n")
		if s := d.RatingText(); s != "" {
			b.WriteString(s + " " + w.f("Reply %s for the whole table.", "`"+w.Command(parser.KindStandings.String())+"`") + "\n")
		}
		b.WriteString("\n" + w.f("Reply %s to play again with the same players.", "`"+w.Command(parser.KindRematch.String())+"`") + "\n")
	} else {
		b.WriteByte('\n')
		if err := d.writeTodoText(b); err != nil {
			return err
		}
		b.WriteByte('\n')
		if d.Teach != "" {
			b.WriteString("\n" + d.Teach + "\n")
		}
		b.WriteByte('\n')
		if d.Teach == "" {
			if err := d.writeAimText(b); err != nil {
				return err
			}
		}
		b.WriteString(d.Table + "\n")
	}
	b.WriteByte('\n')
	if len(d.Earlier) > 0 {
		b.WriteString("\n" + d.EarlierHeading() + ":\n")
		for _, e := range d.Earlier {
			b.WriteString("- " + e.Text + "\n")
		}
		b.WriteByte('\n')
	}
	b.WriteString("\n\n")
	if d.PageURL != "" {
		b.WriteString(w.f("Your table on the web, with the whole game: %s", d.PageURL))
	}
	if d.CalendarURL != "" {
		b.WriteString("\n" + w.f("Your deadlines in your calendar: %s", d.CalendarURL))
	}
	b.WriteString("\n\n")
	// "--" is the signature separator: tidyBody writes it "-- ".
	b.WriteString("\n--\n" + w.f("Any time:") + " " + d.FooterLine() + "\n")
	b.WriteByte('\n')
	return nil
}

// writeTodoText writes what the reader can do now: his options with the
// deadline, or why the game does not ask him now (the game's
// game.waiting), and the clocks.
func (d *gameData) writeTodoText(b *bytes.Buffer) error {
	w := d.words
	b.WriteString("\n\n")
	switch {
	case d.YourTurn:
		if d.DeadlineText != "" {
			b.WriteString(w.f("Your move: reply by %s with one of these", d.DeadlineText))
		} else {
			b.WriteString(w.f("Your move: reply with one of these"))
		}
		b.WriteString(":\n")
		for _, l := range d.OptionLines {
			b.WriteString("  " + l.Text + "\n")
		}
		if len(d.Others) > 0 {
			b.WriteString(w.f("The game also waits for %s.", w.joinAnd(d.Others)) + "\n")
		}
		d.writeClocksText(b)
	case d.Aborted:
		b.WriteString(d.EndedByHost())
	default:
		if err := d.writeWaitingText(b); err != nil {
			return err
		}
		if s := d.WaitingLine(); s != "" {
			b.WriteString("\n" + s)
		}
		if len(d.Autopilot) > 0 {
			by := d.AutopilotBy
			if by == "" {
				by = w.f("pbem makes the default moves for them")
			}
			b.WriteString("\n" + w.f("On autopilot (%s until they send a move or back): %s.", by, w.joinAnd(d.Autopilot)))
		}
		if d.DeadlineText != "" {
			b.WriteString("\n" + w.f("Your next deadline: %s.", d.DeadlineText))
		}
		b.WriteByte('\n')
		d.writeClocksText(b)
		b.WriteByte('\n')
	}
	b.WriteByte('\n')
	return nil
}

// writeClocksText writes the time banks of a game played with a clock,
// below the deadline: the reader's own, then the table's; nothing in a
// game without them.
func (d *gameData) writeClocksText(b *bytes.Buffer) {
	for _, s := range []string{d.ReaderClock(), d.ClocksLine()} {
		if s != "" {
			b.WriteString(s + "\n")
		}
	}
}

// The game's own parts of the text part are written by its Go when it
// has it (engine.TextParts), else by its templates: game.headline,
// game.table, game.aim and game.waiting. As templates that only called
// the game's Go they were the largest template cost left in a turn
// mail, each action a call through reflect (issue 40).

// textParts is the game's Go for its text parts, or nil.
func (d *gameData) textParts() engine.TextParts {
	p, _ := d.rules.(engine.TextParts)
	return p
}

// HeadlineData is what the game's headline is told of the mail
// (engine.Headline): for its TextParts, and for its game.headline,
// which calls the same Go ({{felixHeadlineText .HeadlineData}}). Who
// won and whom the game waits on are worked out only for a headline
// that says them, as the templates did.
func (d *gameData) HeadlineData() engine.Headline {
	h := engine.Headline{PartData: d.partData(), Name: d.Name, GameID: d.GameID, Finished: d.Finished, YourTurn: d.YourTurn}
	switch {
	case d.Finished:
		h.Winners = d.WinnersText()
	case !d.YourTurn:
		h.Waiting = d.WaitingText()
	}
	return h
}

// headlineText is the mail's first line as the game writes it
// (game.headline), before tidySubject.
func (r *Renderer) headlineText(d *gameData) (string, error) {
	p := d.textParts()
	if p == nil {
		return r.buf.text(d.game.t, "game.headline", d)
	}
	s, err := p.HeadlineText(d.words.f, d.HeadlineData())
	if err != nil {
		return "", fmt.Errorf("templates: game.headline: %w", err)
	}
	return s, nil
}

// tableText is the table as the reader may see it (game.table), or in a
// finished game's mail the final result (game.end, a template).
func (r *Renderer) tableText(d *gameData) (string, error) {
	p := d.textParts()
	switch {
	case d.Finished:
		return r.buf.text(d.game.t, "game.end", d)
	case p == nil:
		return r.buf.text(d.game.t, "game.table", d)
	}
	s, err := p.TableText(d.words.f, d.partData())
	if err != nil {
		return "", fmt.Errorf("templates: game.table: %w", err)
	}
	return s, nil
}

// writeAimText writes what the reader plays for (game.aim).
func (d *gameData) writeAimText(b *bytes.Buffer) error {
	if p := d.textParts(); p != nil {
		b.WriteString(p.AimText(d.words.f, d.partData()))
		return nil
	}
	return d.game.t.ExecuteTemplate(b, "game.aim", d)
}

// writeWaitingText writes where the reader stands when the game asks no
// move of him (game.waiting): the game's words, or the renderer's own
// (waitingText) for a game that says no more.
func (d *gameData) writeWaitingText(b *bytes.Buffer) error {
	p := d.textParts()
	if p == nil {
		return d.game.t.ExecuteTemplate(b, "game.waiting", d)
	}
	if s, ok := p.WaitingText(d.words.f, d.partData()); ok {
		b.WriteString(s)
		return nil
	}
	b.WriteString(d.words.waitingText(d.ReaderWaits))
	return nil
}

// waitingText is the renderer's own game.waiting, for a reader who has
// nothing to send: whether the game waits on him all the same.
func (e Words) waitingText(readerWaits bool) string {
	if readerWaits {
		return e.f("Nothing to send for now.")
	}
	return e.f("Not your turn yet.")
}
