package highbid

import (
	"embed"
	"fmt"
	"io/fs"
	"strings"

	"github.com/pbem/pbem/engine"
)

// High Bid shows itself in mails through engine.Presenter: its templates
// in internal/highbid/templates, the functions they call, its tiles.

//go:embed templates/*.tmpl
var templateFiles embed.FS

// Templates returns highbid.text.tmpl, highbid.html.tmpl and
// highbid-rules.tmpl.
func (Rules) Templates() fs.FS {
	sub, err := fs.Sub(templateFiles, "templates")
	if err != nil {
		panic(err) // the directory is embedded above
	}
	return sub
}

// Funcs are the helpers High Bid's templates call.
func (Rules) Funcs(_ engine.Say) map[string]any {
	return map[string]any{
		"cards":  cardList,
		"reveal": revealLine,
	}
}

// tileColours shade the cards from pale (1) to deep (6).
var tileColours = [Cards + 1][3]string{ // background, text, border
	1: {"#e8f1fb", "#12263a", "#9fbfe0"},
	2: {"#c6ddf4", "#12263a", "#7fa8d4"},
	3: {"#9cc3ea", "#0b1d2e", "#5b8fc4"},
	4: {"#6aa2dc", "#ffffff", "#3d73ab"},
	5: {"#3c7fc4", "#ffffff", "#265a8f"},
	6: {"#1d5a99", "#ffffff", "#123d66"},
}

// Tiles draws every card face up, labelled with its value.
func (Rules) Tiles() map[string]engine.Tile {
	m := make(map[string]engine.Tile, Cards)
	for c := 1; c <= Cards; c++ {
		col := tileColours[c]
		m[fmt.Sprint(c)] = engine.Tile{Label: fmt.Sprint(c), Bg: col[0], Fg: col[1], Border: col[2]}
	}
	return m
}

// Examples are the arguments help writes in High Bid's examples.
func (Rules) Examples() map[string]string { return map[string]string{"N": "4"} }

// cardList writes cards for people: "1, 2, 5", or "none".
func cardList(cs []string) string {
	if len(cs) == 0 {
		return "none"
	}
	return strings.Join(cs, ", ")
}

// revealLine writes a round turned up: "alice 3, bob 5, carol 5:
// alice scores 3".
func revealLine(r Reveal) string {
	parts := make([]string, len(r.Cards))
	for i, c := range r.Cards {
		parts[i] = c.Name + " " + c.Card
	}
	who := "nobody scores"
	if r.Scorer != "" {
		who = fmt.Sprintf("%s scores %d", r.Scorer, r.Points)
	}
	return strings.Join(parts, ", ") + "; " + who
}
