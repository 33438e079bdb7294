package templates

import (
	"fmt"
	htmltemplate "html/template"
	"strconv"
	"strings"

	"github.com/pbem/pbem/engine"
)

// The HTML part shows what the text shows, with cards drawn as tiles:
// inline-styled boxes that always carry a written label, so that no one
// needs to tell colours apart. The colours below are trusted constants;
// html/template escapes every other value, player names and log lines
// included.

// The tiles' own colours are the games' (engine.Presenter's Tiles); the
// face-down and empty tiles are the same for every game
// (engine.FaceDownTile, engine.EmptyTile).

// unknownTile is how a card the game has no tile for is drawn.
var unknownTile = engine.Tile{Bg: "#ffffff", Fg: "#1e1e1e", Border: "#888888"}

// faceOf is card face up as faces draw it, or unknownTile labelled
// with the card.
func faceOf(faces map[string]engine.Tile, card string) engine.Tile {
	t, ok := faces[card]
	if !ok {
		t = unknownTile
		t.Label = card
	}
	return t
}

// tileFuncs are the HTML helpers that draw a game's cards, from the
// game's tiles:
//
//   - tile CARD: the card face up, as the game draws it;
//   - tiles CARDS: the same for a list;
//   - countTile CARD N: the card face up, labelled with a count ("red 3");
//   - faceDownTile LABEL SUB BORDER: a face-down card, a dark striped
//     tile; an empty BORDER is the usual one;
//   - emptyTile LABEL: an empty place, dashed.
func tileFuncs(faces map[string]engine.Tile) htmltemplate.FuncMap {
	tile := func(card string) engine.Tile { return faceOf(faces, card) }
	return htmltemplate.FuncMap{
		"tile": tile,
		"tiles": func(cards []string) []engine.Tile {
			out := make([]engine.Tile, len(cards))
			for i, c := range cards {
				out[i] = tile(c)
			}
			return out
		},
		"countTile": func(card string, n int) engine.Tile {
			t := tile(card)
			if n > 0 {
				t.Label += " " + strconv.Itoa(n)
			}
			return t
		},
		"faceDownTile": engine.FaceDownTile,
		"emptyTile":    engine.EmptyTile,
	}
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

// htmlFuncs are the helpers the HTML templates may call: the text
// helpers and the rest of the page's; a game's templates have tileFuncs
// and the game's own besides.
func htmlFuncs(w Words) htmltemplate.FuncMap {
	m := htmltemplate.FuncMap(funcs(w))
	m["paras"] = paras
	m["lines"] = func(s string) []string {
		var out []string
		for _, l := range strings.Split(s, "\n") {
			if l = strings.TrimSpace(l); l != "" {
				out = append(out, l)
			}
		}
		return out
	}
	m["trimBullet"] = func(s string) string { return strings.TrimPrefix(s, "- ") }
	m["linkable"] = linkableAddress
	m["T"] = w.htmlT
	m["bold"] = func(s string) htmltemplate.HTML { return htmltemplate.HTML("<b>" + escapeText(s) + "</b>") }
	m["attr"] = attr
	for name, f := range buttonFuncs() {
		m[name] = f
	}
	for name, f := range pageFuncs() {
		m[name] = f
	}
	m["waiting"] = w.waitingHTML
	// Each template set replaces them with its own (newFragments): they
	// render its templates.
	m["fragment"] = func(name string, _ any) (htmltemplate.HTML, error) {
		return "", fmt.Errorf("templates: fragment %s: no fragment cache", name)
	}
	for name := range snippets {
		m[name] = func(any) (htmltemplate.HTML, error) {
			return "", fmt.Errorf("templates: %s: not in a template set", name)
		}
	}
	m["anchor"] = func(string, any) (htmltemplate.HTML, error) {
		return "", fmt.Errorf("templates: anchor: not in a template set")
	}
	return m
}

// htmlT is T in the HTML part: the message in the reader's language, as
// HTML. Its own text comes from the catalogs and is trusted as a
// template's text is, so it goes in as it is; each argument is escaped
// as html/template escapes a value in HTML text, but for one that is
// HTML already (a command drawn as code, a button, a bold name, another
// message), which goes in as it is: {{T "Reply %s for the whole table."
// (code (cmd "standings"))}}. Not for an attribute's value: see attr.
func (e Words) htmlT(key string, args ...any) htmltemplate.HTML {
	var parts []string
	for i, a := range args {
		var part string
		switch a := a.(type) {
		case htmltemplate.HTML:
			part = string(a)
		case string:
			part = escapeText(a)
		case int, int64, int32, uint, uint64, uint32, float64, float32:
			continue // a count the message may choose its form by; digits need no escaping
		default:
			part = escapeText(fmt.Sprint(a))
		}
		args[i] = htmlSlot(len(parts))
		parts = append(parts, part)
	}
	s := e.f(key, args...)
	for i, part := range parts {
		s = strings.ReplaceAll(s, htmlSlot(i), part)
	}
	return htmltemplate.HTML(s)
}

// htmlSlot marks where htmlT's argument i goes while the message is
// printed: runes of Unicode's private use area, which no message holds.
func htmlSlot(i int) string { return "\uE000" + strconv.Itoa(i) + "\uE001" }

// escapeText escapes s as html/template escapes a value in HTML text,
// "+" included, so that a sentence printed by htmlT is what the template
// wrote before it was a message.
func escapeText(s string) string {
	return strings.ReplaceAll(htmltemplate.HTMLEscapeString(s), "+", "&#43;")
}

// attr is an attribute whose value is a message: name="value", the
// value escaped for its double quotes (an apostrophe stays as it is), for
// the place in a tag where an attribute goes: <nav {{attr "aria-label"
// (T "The game's history")}}>.
func attr(name string, value any) htmltemplate.HTMLAttr {
	v := fmt.Sprint(value)
	v = strings.NewReplacer("&", "&amp;", "\"", "&#34;", "<", "&lt;", ">", "&gt;").Replace(v)
	return htmltemplate.HTMLAttr(name + `="` + v + `"`)
}

// linkableAddress is addr if it is a plain local@domain address, the only kind a
// digest links to (a seat's address); "" otherwise, and the template
// then shows the text without a link. html/template would keep a hostile
// href harmless anyway; this keeps it out altogether.
func linkableAddress(addr string) string {
	local, domain, ok := strings.Cut(addr, "@")
	if !ok || local == "" || domain == "" {
		return ""
	}
	for _, r := range local + domain {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune(".+-_", r)) {
			return ""
		}
	}
	if strings.ContainsRune(domain, '+') {
		return ""
	}
	return addr
}
