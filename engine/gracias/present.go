package gracias

import (
	"embed"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/pbem/pbem/engine"
)

// Gracias shows itself in mails through engine.Presenter: its templates
// in engine/gracias/templates, the functions they call, and its colours'
// tiles.

//go:embed templates/*.tmpl
var templateFiles embed.FS

// Templates returns gracias.text.tmpl, gracias.html.tmpl and
// gracias-rules.tmpl.
func (Rules) Templates() fs.FS {
	sub, err := fs.Sub(templateFiles, "templates")
	if err != nil {
		panic(err) // the directory is embedded above
	}
	return sub
}

// Funcs are the helpers Gracias' templates call.
func (Rules) Funcs(_ engine.Say) map[string]any {
	return map[string]any{
		"colours":     countsText,
		"before":      func(n int) int { return n - 1 },
		"byColour":    byColour,
		"counted":     counted,
		"colourNames": func() []string { return colourNames[:] },
		"points":      points,
		"smallChose":  smallChose,
		"lastSession": lastSession,
		"tieBreak":    tieBreak,
	}
}

// tileColours are the colours' tiles, in the game's colour order:
// background, text, border.
var tileColours = [numColours][3]string{
	{"#d32f2f", "#ffffff", "#9a1d1d"}, // red
	{"#f08a00", "#1e1300", "#b56700"}, // orange
	{"#f6cd1e", "#1e1a00", "#bf9d00"}, // yellow
	{"#2e7d32", "#ffffff", "#1b5e20"}, // green
	{"#1565c0", "#ffffff", "#0d4a8f"}, // blue
	{"#7b1fa2", "#ffffff", "#57137a"}, // purple
}

// Tiles draws every colour's card, labelled with the colour's name.
func (Rules) Tiles() map[string]engine.Tile {
	m := make(map[string]engine.Tile, numColours)
	for c := Colour(0); c < numColours; c++ {
		t := tileColours[c]
		m[c.String()] = engine.Tile{Label: c.String(), Bg: t[0], Fg: t[1], Border: t[2]}
	}
	return m
}

// Examples are the arguments help writes in Gracias' commands' examples.
func (Rules) Examples() map[string]string {
	return map[string]string{"T": "2", "COLOUR": "red", "PLAYER": "bob"}
}

// colourCount is a number of cards of one colour.
type colourCount struct {
	Colour string
	N      int
}

// byColour lists counts colour by colour, every colour in order.
func byColour(c Counts) []colourCount {
	out := make([]colourCount, len(c))
	for i, n := range c {
		out[i] = colourCount{Colour(i).String(), n}
	}
	return out
}

// counted lists the colours with cards, in order.
func counted(c Counts) []colourCount {
	var out []colourCount
	for _, cc := range byColour(c) {
		if cc.N != 0 {
			out = append(out, cc)
		}
	}
	return out
}

// countsText writes cards by colour, in the game's colour order, leaving
// out colours with none: "red 2, orange 1", or "none".
func countsText(c Counts) string {
	var parts []string
	for _, cc := range counted(c) {
		parts = append(parts, fmt.Sprintf("%s %d", cc.Colour, cc.N))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// points writes a player's session points: "2 + 3 + 1".
func points(sessions []int) string {
	if len(sessions) == 0 {
		return "0"
	}
	parts := make([]string, len(sessions))
	for i, p := range sessions {
		parts[i] = fmt.Sprint(p)
	}
	return strings.Join(parts, " + ")
}

// smallChose reports whether the small start player has taken his
// triplet this round: until then he "chooses first", not "chose first".
func smallChose(v View) bool {
	for _, t := range v.Triplets {
		if t.Taken && t.TakenBy == v.Small {
			return true
		}
	}
	return false
}

// lastSession is the most recently scored session, or nil.
func lastSession(v View) *SessionView {
	if len(v.History) == 0 {
		return nil
	}
	return &v.History[len(v.History)-1]
}

// tieBreak explains how a tie on the top total was broken, or "" when
// the top total was not tied.
func tieBreak(v View, winners []string) string {
	if len(v.Players) == 0 {
		return ""
	}
	top := v.Players[0].Total
	for _, p := range v.Players {
		top = max(top, p.Total)
	}
	type tiedPlayer struct {
		name         string
		best, second int
	}
	var tied []tiedPlayer
	for _, p := range v.Players {
		if p.Total != top {
			continue
		}
		s := slices.Clone(p.Sessions)
		slices.Sort(s)
		slices.Reverse(s)
		s = append(s, 0, 0)
		tied = append(tied, tiedPlayer{p.Name, s[0], s[1]})
	}
	if len(tied) < 2 {
		return ""
	}
	var names, best, second []string
	sameBest := true
	for _, p := range tied {
		names = append(names, p.name)
		best = append(best, fmt.Sprintf("%s %d", p.name, p.best))
		second = append(second, fmt.Sprintf("%s %d", p.name, p.second))
		sameBest = sameBest && p.best == tied[0].best
	}
	all := "both"
	if len(tied) > 2 {
		all = "all"
	}
	head := fmt.Sprintf("%s %s have %s", engine.JoinAnd(names), all, engine.Plural(top, "point", "points"))
	switch {
	case len(winners) == len(tied):
		return fmt.Sprintf("%s and equal best and second-best sessions (%d and %d), so they share the win.",
			head, tied[0].best, tied[0].second)
	case !sameBest:
		return fmt.Sprintf("%s, so the best single session decides: %s.", head, engine.JoinAnd(best))
	}
	return fmt.Sprintf("%s and equal best sessions (%d), so the second-best decides: %s.",
		head, tied[0].best, engine.JoinAnd(second))
}

// Condense leaves out of a mail's events what its table says: a
// player's taking of a triplet that his keeping and giving follows (the
// table shows the triplet taken, the keep what he kept and gave), and
// the laying out of the round the table shows (its triplets and who laid
// them out). The reader's own take, with the card he saw, stays, and so
// does an earlier round's laying out.
func (Rules) Condense(evs []engine.Event) []engine.Event {
	current := -1 // the round the table shows; none once the game is over
	for i, e := range evs {
		switch e.Kind {
		case "round":
			current = i
		case "end":
			current = -1
		}
	}
	var out []engine.Event
	for i, e := range evs {
		if e.Kind == "take" && e.To < engine.Public && i+1 < len(evs) && evs[i+1].Kind == "keep" {
			continue
		}
		if i == current {
			continue
		}
		out = append(out, e)
	}
	return out
}
