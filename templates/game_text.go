package templates

import (
	"bytes"

	"github.com/pbem/pbem/parser"
)

// The frame of a game mail's text part is Go, like the HTML part's
// (game_html.go), around the parts the game writes itself in its
// NAME.text.tmpl: the table (or the final result, rendered first into
// Table), game.aim and game.waiting. tidyBody then trims, wraps and
// keeps at most one blank line in a row, so the blank lines written
// here only part what the reader sees parted.

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
			if err := d.game.t.ExecuteTemplate(b, "game.aim", d); err != nil {
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
		if err := d.game.t.ExecuteTemplate(b, "game.waiting", d); err != nil {
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
