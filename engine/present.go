package engine

import (
	"fmt"
	"io/fs"
)

// Presenter is how a game shows itself in pbem's mails. A game's Rules
// implement it beside Rules; the renderer (package templates) asks for it
// with a type assertion and so renders any game without knowing it. The
// renderer owns the page around a game (title, what happened, what the
// reader can do now, the footer, the notices) and the helpers every game
// shares (underline, lists, plurals, tiles); the game owns everything
// that shows its view.
type Presenter interface {
	// Templates holds the game's mail templates, read once when the
	// renderer is made:
	//
	//   - NAME.text.tmpl (text/template) defines "game.headline", the
	//     mail's first line, which says the state ("Felix #12: your turn
	//     to bid (round 4)") and which mail clients show as the preview
	//     (the Subject is the game's, the same for all its mails, so that
	//     they form one thread); "game.table", the table as the reader
	//     may see it; and "game.end", the final result in its place.
	//   - NAME.html.tmpl (html/template) defines "game.table" and
	//     "game.end" again for the HTML part.
	//   - NAME-rules.tmpl (text/template) defines "game.rules", the short
	//     summary the `rules` command sends, and "game.teach", at most
	//     about ten lines on how to win and score, which the first game
	//     mail to every player carries.
	//   - NAME.text.tmpl may redefine "game.aim", one line on what the
	//     reader plays for, shown in every mail that asks for a move, and
	//     "game.waiting", where the reader stands when no move is asked
	//     of him ("You passed: ..."); the renderer's own are plain.
	//
	// The game templates see the renderer's game data: the mail's fields
	// (.Reader, .Kind, .Winners, ...) with the reader's view as .View, of
	// the game's own view type, so that its fields are used directly,
	// and .Draw, the renderer's pieces (Draw) for a part the game draws
	// in Go. A part may be one action that calls the game's own function
	// (Funcs) with what it needs: Felix's tables are Go, which costs a
	// third of what its template actions did, each a call through
	// reflect (issue 40). A game whose HTML parts are Go implements
	// HTMLParts besides, and TextParts for its text part's, which a game
	// mail calls in their place.
	Templates() fs.FS
	// Funcs are the template functions the game's templates call beyond
	// the shared ones; the same names serve the text and the HTML part.
	// say prints the words they write in the reader's language, as the
	// templates' T does (issue 39): the renderer calls Funcs once for
	// each language it writes.
	Funcs(say Say) map[string]any
	// Tiles are how the HTML part draws each card face up, keyed by the
	// card as the game's views write it ("-8", "large-dog", "red").
	Tiles() map[string]Tile
	// Examples are values for the argument names of the game's usages,
	// for help to show a command one could send: {"N": "5"} makes
	// "bid N" "bid 5". An empty value drops the word.
	Examples() map[string]string
}

// Say prints a message in a reader's language: key is its English
// format, with fmt's verbs ("%d mice"), and the message catalogs
// (Localizer) give its other languages. English is the Say that prints
// the key itself.
type Say func(key string, args ...any) string

// English prints a message as its key says, in English: for a test, or
// a tool that writes English only.
func English(key string, args ...any) string { return fmt.Sprintf(key, args...) }

// Tile is a card as the HTML part draws it: a box in colours that always
// carries a written label, so that no one needs to tell colours apart.
// Colours are CSS colours, trusted constants of the game.
type Tile struct {
	Label   string // what the tile says: "-8", "large dog", "face down", "red 3"
	Sub     string // a smaller second line, or ""
	Bg, Fg  string // background and text colour
	Border  string // border colour
	Hatched bool   // face down: a dark, striped tile
	Dashed  bool   // an empty place
}

// The face-down and empty tiles are the same for every game: a dark
// striped card, and a dashed empty place.
const (
	faceDownBg     = "#37474f"
	faceDownBorder = "#90a4ae"
	emptyFg        = "#6b7075"
	emptyBorder    = "#a3a8ad"
)

// FaceDownTile is a face-down card labelled label (and sub below it): a
// dark striped tile, its border border, or the usual one for "".
func FaceDownTile(label, sub, border string) Tile {
	if border == "" {
		border = faceDownBorder
	}
	return Tile{Label: label, Sub: sub, Bg: faceDownBg, Fg: "#ffffff", Border: border, Hatched: true}
}

// EmptyTile is an empty place labelled label: a dashed outline.
func EmptyTile(label string) Tile {
	return Tile{Label: label, Bg: "transparent", Fg: emptyFg, Border: emptyBorder, Dashed: true}
}

// Draw is what the renderer lends a game that draws its HTML part in Go
// rather than with template actions (issue 40: a template's every
// action is a call through reflect): the pieces every game's HTML
// shares, each returned as HTML to insert as it is. A game's template
// passes it to the game's function ({{felixTableHTML $.Draw .View ...}});
// a game mail passes it to the game's HTMLParts.
type Draw interface {
	// Face is a card face up as the game's Tiles draw it, a plain tile
	// labelled with the card for one they lack (the renderer's "tile
	// CARD").
	Face(card string) Tile
	// Tile draws a tile (the renderer's "tile" template), rendered once
	// for every mail that draws the same tile.
	Tile(t Tile) (string, error)
	// Code draws a command to copy, Option a command offered: a button
	// that writes the reply, when the mail has a reply address.
	Code(cmd string) string
	Option(cmd string) string
	// Fragment is what the fragment name renders from data, rendered
	// once for every mail that passes the same data (the renderer's
	// "fragment": data must be comparable, and name's template must
	// read its data and nothing else): a game's template, or the
	// renderer's chip.fresh, a small tile, from a Tile.
	Fragment(name string, data any) (string, error)
}

// HTMLParts may be implemented by a Presenter that writes its HTML
// part's own parts in Go (issue 40: a template's every action is a call
// through reflect, and a mail's parts were a tenth of its cost as
// template actions that only called the game's Go). For a game mail the
// renderer calls them where it would execute NAME.html.tmpl's
// game.table, game.aim and game.waiting. The game's templates keep
// those, each an action that calls the same Go, for what renders them
// by name (the web page draws game.table).
type HTMLParts interface {
	// TableHTML is game.table: the table as the mail's reader may see
	// it; nothing for a mail without a view.
	TableHTML(say Say, draw Draw, d PartData) (string, error)
	// AimHTML is game.aim: one line on what the reader plays for.
	AimHTML(say Say, d PartData) string
	// WaitingHTML is game.waiting: where the reader stands when the
	// game asks no move of him. ok false leaves it to the renderer's
	// own, for a game that says no more than it does.
	WaitingHTML(say Say, draw Draw, d PartData) (html string, ok bool)
}

// TextParts may be implemented by a Presenter that writes its text
// part's own parts in Go, as HTMLParts does its HTML part's (issue 40):
// as templates that only called the game's Go they were the largest
// template cost left in a turn mail. For a game mail the renderer calls
// them where it would execute NAME.text.tmpl's game.headline,
// game.table, game.aim and game.waiting. The game's templates keep
// those, each an action that calls the same Go, for what renders them
// by name.
type TextParts interface {
	// HeadlineText is game.headline: the mail's first line, which says
	// the state ("Felix #12: your turn to bid (round 4)").
	HeadlineText(say Say, h Headline) (string, error)
	// TableText is game.table: the table as the mail's reader may see
	// it; nothing for a mail without a view.
	TableText(say Say, d PartData) (string, error)
	// AimText is game.aim: one line on what the reader plays for, with
	// its line break; "" for none.
	AimText(say Say, d PartData) string
	// WaitingText is game.waiting: where the reader stands when the
	// game asks no move of him. ok false leaves it to the renderer's
	// own, for a game that says no more than it does.
	WaitingText(say Say, d PartData) (text string, ok bool)
}

// Headline is what the renderer tells a game's TextParts for its
// headline: the mail as PartData tells it, and what only the headline
// says, as the templates' game data tells game.headline. The renderer's
// words are in the reader's language; each is "" where the headline
// does not say it.
type Headline struct {
	PartData
	Name     string // the game's short name: "Felix"
	GameID   int64  // the game's number
	Finished bool   // the game is over
	YourTurn bool   // the mail asks the reader for a move
	Winners  string // who won ("alice wins"), for a finished game
	Waiting  string // whom the game waits on, after "waiting for", for a mail that asks the reader no move
}

// PartData is what the renderer tells a game's HTMLParts and TextParts
// about the mail they are written for, as its templates' data tells
// them.
type PartData struct {
	View        any     // the reader's view, of the game's own type; nil for none
	Reader      string  // the reader's name in the game
	Kind        string  // why the mail is written: "start", "turn", "status" or "end"
	Aborted     bool    // the host ended the game before its end
	ReaderWaits bool    // the game waits on the reader, whether or not it asks him a move
	Happened    []Event // what the mail tells happened since the reader's last mail
}

// ViewOf is d's view as the game's own view type V: nil for a mail
// without one, as the templates write nothing then, and an error for a
// view of another type.
func ViewOf[V any](d PartData) (*V, error) {
	switch v := d.View.(type) {
	case nil:
		return nil, nil
	case V:
		return &v, nil
	}
	return nil, fmt.Errorf("engine: a mail's view is a %T, not a %T", d.View, *new(V))
}

// Told says whether the mail tells an event of the kind ("peek"), as
// the templates' $.Told does.
func (d PartData) Told(kind string) bool {
	for _, e := range d.Happened {
		if e.Kind == kind {
			return true
		}
	}
	return false
}

// Condenser may be implemented by a Presenter to shorten what a mail
// lists as happened: Condense returns evs (what one reader may see, in
// order) without the events that a later one, or the table, says anyway
// ("bob takes triplet 2" once "bob keeps red and gives blue to carol"
// follows). It must keep the order and add nothing.
type Condenser interface {
	Condense(evs []Event) []Event
}

// Localizer may be implemented by a Presenter whose words are written in
// more languages than English (issue 39): Locales holds its message
// catalogs, LANG/NAME.toml, each entry an English key (a format its
// templates print with T, or a phrase's key) and its translation, as
// docs/languages.md describes. A key the catalogs lack prints as
// English.
type Localizer interface {
	Locales() fs.FS
}

// CommandTranslator may be implemented by a Presenter to write one of
// its commands (an Option's, "play rabbit") in the reader's language, for
// the one-tap buttons and the lists of moves a mail offers: say is the
// reader's Say, and the result must read back, through the game's
// Specs, as the same command ("spiele Hase" is "play rabbit"). Without
// it, or for English, commands are written as the game gives them.
type CommandTranslator interface {
	CommandIn(cmd string, say Say) string
}
