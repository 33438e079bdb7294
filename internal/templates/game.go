package templates

import (
	"fmt"
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
	Subject      string        // the subject, for the HTML part's title
	Headline     string        // the headline, first in the HTML part
}

// optionBlock is one option as a mail shows it: what it does, then
// commands to copy.
type optionBlock struct {
	Help     string   // from the game's Spec, or the option's compact text
	Text     string   // the compact form: "bid 2..17"
	Commands []string // every command, one a line, when there are few
	Grid     []string // short commands several to a line, when there are many
	All      []string // the commands of Commands or Grid, one each, for the HTML part
}

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
		case allShort(o.Commands, 8):
			b.Grid = grid(o.Commands, lineWidth-4)
			b.All = o.Commands
		}
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
