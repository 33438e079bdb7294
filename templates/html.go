package templates

import (
	htmltemplate "html/template"
	"strconv"
	"strings"

	"github.com/pbem/pbem/engine/felix"
	"github.com/pbem/pbem/engine/gracias"
)

// The HTML part shows what the text shows, with cards drawn as tiles:
// inline-styled boxes that always carry a written label, so that no one
// needs to tell colours apart. The colours below are trusted constants;
// html/template escapes every other value, player names and log lines
// included.

// tile is one card as the HTML part draws it.
type tile struct {
	Label   string // what the tile says: "-8", "large dog", "face down", "red 3"
	Sub     string // a smaller second line, or ""
	Bg, Fg  string // background and text colour
	Border  string // border colour
	Hatched bool   // face down: a dark, striped tile
	Dashed  bool   // an empty place
}

// felixColours are the Felix cards' colours: positive cats warm (the
// higher the deeper), negative cats cool, the rabbit grey, dogs purple.
var felixColours = map[string][3]string{ // background, text, border
	"-8":        {"#1f5f99", "#ffffff", "#123d66"},
	"-5":        {"#8cc0e6", "#0b2740", "#4f8fc0"},
	"rabbit":    {"#d9dcdf", "#1e1e1e", "#9ea5ac"},
	"3":         {"#fde3a1", "#3d2800", "#d9ac3f"},
	"5":         {"#f8c565", "#3a2300", "#cf9424"},
	"8":         {"#f29a4a", "#2e1400", "#c96716"},
	"11":        {"#dc6128", "#ffffff", "#a8441a"},
	"15":        {"#b32d25", "#ffffff", "#7f1b15"},
	"large-dog": {"#5b2a86", "#ffffff", "#3d175e"},
	"small-dog": {"#9a6acd", "#ffffff", "#6e43a0"},
}

// graciasColours are the Gracias colours, in the game's colour order.
var graciasColours = [][3]string{
	{"#d32f2f", "#ffffff", "#9a1d1d"}, // red
	{"#f08a00", "#1e1300", "#b56700"}, // orange
	{"#f6cd1e", "#1e1a00", "#bf9d00"}, // yellow
	{"#2e7d32", "#ffffff", "#1b5e20"}, // green
	{"#1565c0", "#ffffff", "#0d4a8f"}, // blue
	{"#7b1fa2", "#ffffff", "#57137a"}, // purple
}

const (
	faceDownBg     = "#37474f"
	faceDownBorder = "#90a4ae"
	emptyFg        = "#6b7075"
	emptyBorder    = "#a3a8ad"
)

// cardTile draws a Felix card face up.
func cardTile(card string) tile {
	c, ok := felixColours[card]
	if !ok {
		c = [3]string{"#ffffff", "#1e1e1e", "#888888"}
	}
	return tile{Label: cardWord(card), Bg: c[0], Fg: c[1], Border: c[2]}
}

func cardTiles(cards []string) []tile {
	out := make([]tile, len(cards))
	for i, c := range cards {
		out[i] = cardTile(c)
	}
	return out
}

func faceDownTile(label, sub, border string) tile {
	return tile{Label: label, Sub: sub, Bg: faceDownBg, Fg: "#ffffff", Border: border, Hatched: true}
}

// RowTile draws what the reader sees at one position of the row, as
// RowCard writes it.
func (d *gameData) RowTile(rc felix.RowCard) tile {
	switch {
	case !rc.Placed:
		return tile{Label: "not placed yet", Bg: "transparent", Fg: emptyFg, Border: emptyBorder, Dashed: true}
	case rc.FaceUp && rc.Card != "":
		return cardTile(rc.Card)
	case rc.Card != "" && rc.Owner == d.Reader:
		return faceDownTile(cardWord(rc.Card), "yours, face down", cardTile(rc.Card).Bg)
	case rc.Card != "":
		// As RowCard: show a card a wrong view holds, for the tests.
		return faceDownTile(cardWord(rc.Card), "face down", faceDownBorder)
	}
	return faceDownTile("face down", "", faceDownBorder)
}

// colourTile draws a Gracias card, labelled with its colour (and a count
// when n > 0).
func colourTile(colour string, n int) tile {
	c := [3]string{"#ffffff", "#1e1e1e", "#888888"}
	for i := range graciasColours {
		if gracias.Colour(i).String() == colour {
			c = graciasColours[i]
		}
	}
	label := colour
	if n > 0 {
		label = colour + " " + strconv.Itoa(n)
	}
	return tile{Label: label, Bg: c[0], Fg: c[1], Border: c[2]}
}

func colourTiles(colours []string) []tile {
	out := make([]tile, len(colours))
	for i, c := range colours {
		out[i] = colourTile(c, 0)
	}
	return out
}

// countTiles draws counts by colour, leaving out colours with none:
// tiles "red 2", "orange 1".
func countTiles(c gracias.Counts) []tile {
	var out []tile
	for i, n := range c {
		if n != 0 {
			out = append(out, colourTile(gracias.Colour(i).String(), n))
		}
	}
	return out
}

// colourCell is one cell of the areas grid: a count in its colour.
type colourCell struct {
	Colour string
	N      int
	Bg, Fg string
}

// colourCells is a row of the areas grid, every colour in order.
func colourCells(c gracias.Counts) []colourCell {
	out := make([]colourCell, len(c))
	for i, n := range c {
		t := colourTile(gracias.Colour(i).String(), 0)
		out[i] = colourCell{Colour: t.Label, N: n, Bg: t.Bg, Fg: t.Fg}
	}
	return out
}

// colourHeads are the areas grid's column heads.
func colourHeads() []tile {
	var out []tile
	for i := range graciasColours {
		out = append(out, colourTile(gracias.Colour(i).String(), 0))
	}
	return out
}

// para is a paragraph of plain text for the HTML part.
type para struct {
	Heading bool
	Text    string
}

// paras cuts rendered plain text (a game's rules) into paragraphs,
// joining wrapped lines; an underlined line becomes a heading.
func paras(s string) []para {
	var out []para
	for _, block := range strings.Split(strings.TrimSpace(s), "\n\n") {
		lines := strings.Split(strings.TrimSpace(block), "\n")
		if len(lines) >= 2 && strings.Trim(lines[1], "-") == "" && lines[1] != "" {
			out = append(out, para{Heading: true, Text: lines[0]})
			lines = lines[2:]
		}
		if len(lines) > 0 {
			out = append(out, para{Text: strings.Join(strings.Fields(strings.Join(lines, " ")), " ")})
		}
	}
	return out
}

// footerCommands are the footer's commands, as the text footer lists
// them.
var footerCommands = [][2]string{
	{"help", "all commands"},
	{"status", "the table as it is now"},
	{"history", "everything that happened so far"},
	{"notify all|turns|off", "all mails, your turns only, or answers only"},
	{"timezone Europe/Berlin", "the zone your deadlines are shown in"},
}

// htmlFuncs are the helpers the HTML templates may call: the text
// helpers and the tiles.
func htmlFuncs() htmltemplate.FuncMap {
	m := htmltemplate.FuncMap(funcs())
	m["cardTile"] = cardTile
	m["cardTiles"] = cardTiles
	m["colourTile"] = func(c string) tile { return colourTile(c, 0) }
	m["colourTiles"] = colourTiles
	m["countTiles"] = countTiles
	m["colourCells"] = colourCells
	m["colourHeads"] = colourHeads
	m["paras"] = paras
	m["footerCommands"] = func() [][2]string { return footerCommands }
	return m
}
