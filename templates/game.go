package templates

import (
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/pbem/pbem/engine"
)

// gameData is what the game templates see, the page's and the game's
// own (engine.Presenter): the mail as the daemon gave it, the reader's
// view as .View, and what the templates would find awkward to work out.
type gameData struct {
	GameMail
	Name         string        // the game's short name: "Felix"
	YourTurn     bool          // the reader has something to do now
	ReaderWaits  bool          // the game waits on the reader, whether or not he was given options
	Others       []string      // whom else the game waits on
	OptionBlocks []optionBlock // the reader's options, ready to show
	DeadlineText string        // the deadline in the reader's zone, or ""
	Table        string        // the rendered table (or the final result)
	Subject      string        // the subject, for the HTML part's title and the links
	Headline     string        // the headline, first in the HTML part
	// Tappable says that the HTML part offers at least one command as a
	// link, so that it may say "tap".
	Tappable bool
	replyTo  string // the subject the links' mails answer: the thread's, never a reminder's
}

// optionBlock is one option as a mail shows it: what it does, then
// commands to copy.
type optionBlock struct {
	Help     string   // from the game's Spec, or the option's compact text
	Text     string   // the compact form: "bid 2..17"
	Commands []string // every command, one a line, when there are few
	Grid     []string // short commands several to a line, when there are many
	All      []string // the commands of Commands or Grid, one each, for the HTML part
	// Wrap lets the HTML part set the commands side by side, as a wrap
	// of buttons: there are many (Grid), or all are short.
	Wrap bool
}

// maxWrapped is the longest command the HTML part sets beside others:
// "play large dog" fits twice across a phone.
const maxWrapped = 16

// maxListed is how many commands of one option a mail lists one a line.
const maxListed = 12

// newGameData prepares a game mail for the templates; specs are the
// game's commands, whose help explains the options.
func newGameData(m GameMail, specs []engine.Spec) *gameData {
	d := &gameData{GameMail: m, Name: shortName(m.Game, m.Title)}
	d.YourTurn = len(m.Options) > 0 && !m.Finished
	for _, w := range m.Waiting {
		if w != m.Reader {
			d.Others = append(d.Others, w)
		} else {
			d.ReaderWaits = !m.Finished
		}
	}
	d.OptionBlocks = optionBlocks(specs, m.Options)
	for _, b := range d.OptionBlocks {
		d.Tappable = d.Tappable || (m.ReplyAddress != "" && len(b.All) > 0)
	}
	d.DeadlineText = deadlineText(m.Deadline, m.Location)
	return d
}

// shortName is the game's name for subjects: the title up to a colon.
func shortName(game, title string) string {
	if i := strings.IndexByte(title, ':'); i > 0 {
		return title[:i]
	}
	if title != "" {
		return title
	}
	return upperFirst(game)
}

func optionBlocks(specs []engine.Spec, opts []engine.Option) []optionBlock {
	var out []optionBlock
	for _, o := range opts {
		b := optionBlock{Help: o.Text, Text: o.Text}
		if s, ok := engine.FindSpec(specs, o.Spec); ok && s.Help != "" {
			b.Help = upperFirst(s.Help)
		}
		switch {
		case len(o.Commands) <= maxListed:
			b.Commands = o.Commands
			b.All = o.Commands
			b.Wrap = len(o.Commands) > 1 && allShort(o.Commands, maxWrapped)
		case allShort(o.Commands, 8):
			b.Grid = grid(o.Commands, lineWidth-4)
			b.All = o.Commands
			b.Wrap = true
		}
		// An option with too many long commands (no Commands, no Grid)
		// shows its compact form, "take T keep COLOUR give PLAYER", as
		// text to copy and adapt: a link writes one whole command.
		out = append(out, b)
	}
	return out
}

func allShort(cmds []string, n int) bool {
	for _, c := range cmds {
		if utf8.RuneCountInString(c) > n {
			return false
		}
	}
	return true
}

// grid lays out short commands in columns: "bid 2    bid 3    bid 4".
func grid(cmds []string, width int) []string {
	w := 0
	for _, c := range cmds {
		w = max(w, utf8.RuneCountInString(c))
	}
	w += 3
	per := max(1, (width+3)/w)
	var out []string
	for i := 0; i < len(cmds); i += per {
		row := cmds[i:min(i+per, len(cmds))]
		var b strings.Builder
		for j, c := range row {
			b.WriteString(c)
			if j < len(row)-1 {
				b.WriteString(strings.Repeat(" ", w-utf8.RuneCountInString(c)))
			}
		}
		out = append(out, b.String())
	}
	return out
}

// WaitingNames names whom the game waits on for the reader: himself as
// "you", first, so that no mail tells its reader the game waits for him
// by his name.
func (d *gameData) WaitingNames() []string {
	if !d.ReaderWaits {
		return d.Others
	}
	return append([]string{"you"}, d.Others...)
}

// WaitingSinceNames are WaitingNames with since when the game waits on
// each, in the reader's zone: "bob (since Tue 24 Nov 18:00 CET)".
func (d *gameData) WaitingSinceNames() []string {
	var out []string
	for _, n := range d.WaitingNames() {
		name := n
		if n == "you" {
			name = d.Reader
		}
		if since := d.WaitingSince[name]; !since.IsZero() {
			n += " (since " + deadlineText(since, d.Location) + ")"
		}
		out = append(out, n)
	}
	return out
}

// WaitingText names whom the game waits on, short enough for a subject.
func (d *gameData) WaitingText() string {
	names := d.WaitingNames()
	switch {
	case len(names) == 0:
		return "the others"
	case len(names) <= 2:
		return andList(names)
	case d.ReaderWaits:
		return fmt.Sprintf("you and %d others", len(names)-1)
	}
	return fmt.Sprintf("%d players", len(names))
}

// EventsHeading heads the events: the whole game for a history, the
// opening for the first mail, else what is new to the reader.
func (d *gameData) EventsHeading() string {
	switch {
	case d.WholeHistory:
		return "The whole game so far"
	case d.Kind == MailStart:
		return "How the game begins"
	}
	return "What happened since your last mail"
}

// WinnersText says who won: "alice wins", "alice and carol share the win".
func (d *gameData) WinnersText() string {
	switch len(d.Winners) {
	case 0:
		return "no winner"
	case 1:
		return d.Winners[0] + " wins"
	}
	return andList(d.Winners) + " share the win"
}

// IsWinner reports whether name is among the winners.
func (d *gameData) IsWinner(name string) bool {
	for _, w := range d.Winners {
		if w == name {
			return true
		}
	}
	return false
}

// ScoreOf is a player's final score from Scores.
func (d *gameData) ScoreOf(name string) int {
	for _, s := range d.Scores {
		if s.Name == name {
			return s.Score
		}
	}
	return 0
}

// ScoreMap is Scores by name, for a game's templates.
func (d *gameData) ScoreMap() map[string]int {
	m := make(map[string]int, len(d.Scores))
	for _, s := range d.Scores {
		m[s.Name] = s.Score
	}
	return m
}

// link is a command offered as a one-tap link.
type link struct {
	Command string
	URL     string // mailto:, or "" when the mail has no reply address
}

// Link makes the one-tap link that writes a reply with cmd: a mailto:
// URL (RFC 6068) to the seat's address, with the thread's subject, the
// mail's id as In-Reply-To, and cmd as the body, followed by the mail's
// reference line. Nothing else goes into it: no tracking, no redirect.
func (d *gameData) Link(cmd string) link {
	if d.ReplyAddress == "" {
		return link{Command: cmd}
	}
	return link{Command: cmd, URL: mailto(d.ReplyAddress, replySubject(d.replyTo), d.MessageID, cmd, d.RefLine)}
}

// replySubject is the subject of a reply to a mail with this one.
func replySubject(subject string) string {
	if len(subject) >= 3 && strings.EqualFold(subject[:3], "re:") {
		return subject
	}
	return "Re: " + subject
}

// mailto builds an RFC 6068 URL. Every value is percent-encoded, its
// spaces as %20 (a "+" would stay a "+" in mailto:), the body's line
// breaks as %0D%0A. The address's "+" is encoded too: it is what the
// seat's token hangs on, and a mail program that decoded the URL as a
// form would read a literal one as a space.
func mailto(addr, subject, inReplyTo, command, refLine string) string {
	local, domain, _ := strings.Cut(addr, "@")
	body := command
	if refLine != "" {
		body += "\r\n\r\n" + refLine
	}
	var b strings.Builder
	b.WriteString("mailto:" + escape(local) + "@" + escape(domain))
	b.WriteString("?subject=" + escape(subject))
	if inReplyTo != "" {
		b.WriteString("&In-Reply-To=" + escape("<"+inReplyTo+">"))
	}
	b.WriteString("&body=" + escape(body))
	return b.String()
}

// escape percent-encodes everything but RFC 3986's unreserved
// characters.
func escape(s string) string { return strings.ReplaceAll(url.QueryEscape(s), "+", "%20") }
