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
	words        Words        // the reader's language's
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
		dg := digestGame{DigestGame: g, Name: shortName(g.Game, g.Title), words: set.words}
		dg.Title = set.words.title(g.Title)
		dg.Happened = set.words.events(addressed(g.Happened, g.Reader, gs.rules))
		if g.State == DigestRunning && g.YourTurn {
			dg.DeadlineText = set.words.deadlineText(g.Deadline, loc)
			dg.OptionLines = set.words.optionLines(gs.rules, gs.rules.Specs(), g.Options)
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
func (g digestGame) WinnersText() string { return g.words.winnersText(g.Winners, "") }

// DigestSubject is what the digest's subject says of its games: only
// what is true of every game listed, how many wait on the reader, else
// how many have news.
func (d *noticeData) DigestSubject() string {
	if n := d.DigestWaits(); n > 0 {
		return d.words.f("%d games wait for you", n)
	}
	if n := d.DigestNews(); n > 0 {
		return d.words.f("news from %d games, none waits for you", n)
	}
	return d.words.f("nothing new, and nothing waits for you")
}
