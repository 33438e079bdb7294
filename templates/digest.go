package templates

import (
	"fmt"
	"time"
)

// digestGame is a DigestGame as the digest templates show it.
type digestGame struct {
	DigestGame
	Name         string       // the game's short name: "Felix"
	DeadlineText string       // the deadline in the reader's zone, or ""
	OptionLines  []optionLine // the reader's options, one line per kind of move
}

// digestData prepares the games of a digest: each game's options are
// explained with its own commands' help, as in its game mails.
func (set *langSet) digestData(d *noticeData) error {
	loc := d.Location
	if loc == nil {
		loc = time.UTC
	}
	for _, g := range d.Digest {
		gs, ok := set.games[g.Game]
		if !ok {
			return fmt.Errorf("templates: digest: no templates for game %q", g.Game)
		}
		dg := digestGame{DigestGame: g, Name: shortName(g.Game, g.Title)}
		dg.Happened = set.words.events(addressed(g.Happened, g.Reader, gs.rules))
		if g.State == DigestRunning && g.YourTurn {
			dg.DeadlineText = deadlineText(g.Deadline, loc)
			dg.OptionLines = optionLines(gs.rules.Specs(), g.Options)
		}
		d.DigestGames = append(d.DigestGames, dg)
	}
	return nil
}

// DigestWaits counts the digest's games that wait on the reader: the
// subject's number, so that it says how many decisions are his.
func (d *noticeData) DigestWaits() int {
	n := 0
	for _, g := range d.Digest {
		if g.State == DigestRunning && g.YourTurn {
			n++
		}
	}
	return n
}

// DigestNews counts the digest's games in which something happened that
// the reader may see.
func (d *noticeData) DigestNews() int {
	n := 0
	for _, g := range d.Digest {
		if len(g.Happened) > 0 {
			n++
		}
	}
	return n
}

// WinnersText says who won, as the game mails do.
func (g digestGame) WinnersText() string {
	switch len(g.Winners) {
	case 0:
		return ""
	case 1:
		return g.Winners[0] + " wins"
	}
	return andList(g.Winners) + " share the win"
}
