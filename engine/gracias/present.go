package gracias

import (
	"embed"
	"fmt"
	htmltemplate "html/template"
	"io"
	"io/fs"
	"slices"
	"strings"
	"sync"

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

// Funcs are the helpers Gracias' templates call. Every word they write
// goes through say, the reader's language (issue 39): colours by their
// English names as keys (locales/LANG/nouns.toml), sentences by their
// English format.
func (Rules) Funcs(say engine.Say) map[string]any {
	return map[string]any{
		"colours":     func(c Counts) string { return countsText(say, c) },
		"colour":      func(c string) string { return say(c) },
		"colourList":  func(cs []string) []string { return colourList(say, cs) },
		"before":      func(n int) int { return n - 1 },
		"byColour":    byColour,
		"counted":     counted,
		"colourNames": func() []string { return colourNames[:] },
		"points":      points,
		"smallChose":  smallChose,
		"lastSession": lastSession,
		"nowDoing":    func(v View, reader string) string { return nowDoing(say, v, reader) },
		"laidOut":     func(v View, reader string) string { return laidOut(say, v, reader) },
		"tieBreak":    func(v View, winners []string) string { return tieBreak(say, v, winners) },
		"sayTile":     func(t engine.Tile) engine.Tile { return tileIn(say, t) },
		"sayTiles":    func(ts []engine.Tile) []engine.Tile { return tilesIn(say, ts) },
		"Th":          func(key string, args ...any) htmltemplate.HTML { return sayHTML(say, key, args...) },
		"bold":        bold,
		"htmlJoin":    htmlJoin,
		"areaLine":    areaLine,
		"graciasHeadlineText": func(h engine.Headline) (string, error) {
			return Rules{}.HeadlineText(say, h)
		},
		"graciasTableText": func(v View, reader string, aborted, toldPeek bool) string {
			return tableText(say, v, reader, aborted, toldPeek)
		},
		"graciasAimText": func() string { return aimText(say) },
		"graciasAimHTML": func() htmltemplate.HTML { return aimHTML(say) },
		"graciasTableHTML": func(draw engine.Draw, v View, reader string, aborted, toldPeek bool) (htmltemplate.HTML, error) {
			return tableHTML(say, draw, v, reader, aborted, toldPeek)
		},
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
func countsText(say engine.Say, c Counts) string {
	var parts []string
	for _, cc := range counted(c) {
		parts = append(parts, fmt.Sprintf("%s %d", say(cc.Colour), cc.N))
	}
	if len(parts) == 0 {
		return say("none")
	}
	return strings.Join(parts, ", ")
}

// colourList is the colours cs (as views write them: "red") in the
// reader's words.
func colourList(say engine.Say, cs []string) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = say(c)
	}
	return out
}

// joinAnd writes a list in the reader's words, with pbem's own words for
// "and" (templates/words.go): "a", "a and b", "a, b and c".
func joinAnd(say engine.Say, xs []string) string {
	switch len(xs) {
	case 0:
		return ""
	case 1:
		return xs[0]
	}
	return say("%s and %s", strings.Join(xs[:len(xs)-1], say(", ")), xs[len(xs)-1])
}

// nowDoing says what the game waits for, and from whom: "your turn to
// take a triplet", "bob to keep and give".
func nowDoing(say engine.Say, v View, reader string) string {
	keep := v.Phase == Keeping.String()
	switch {
	case v.Turn == reader && keep:
		return say("your turn to keep and give")
	case v.Turn == reader:
		return say("your turn to take a triplet")
	case keep:
		return say("%s to keep and give", v.Turn)
	}
	return say("%s to take a triplet", v.Turn)
}

// laidOut says who laid out the round's triplets, and whether he has
// chosen his yet: "you laid them out", "alice laid them out and chose
// first".
func laidOut(say engine.Say, v View, reader string) string {
	chose := smallChose(v)
	switch {
	case v.Small == reader && chose:
		return say("you laid them out and chose first")
	case v.Small == reader:
		return say("you laid them out")
	case chose:
		return say("%s laid them out and chose first", v.Small)
	}
	return say("%s laid them out", v.Small)
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
func tieBreak(say engine.Say, v View, winners []string) string {
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
	who, pts := joinAnd(say, names), say("%d points", top)
	two := len(tied) == 2
	switch {
	case len(winners) == len(tied) && two:
		return say("%s both have %s and equal best and second-best sessions (%d and %d), so they share the win.", who, pts, tied[0].best, tied[0].second)
	case len(winners) == len(tied):
		return say("%s all have %s and equal best and second-best sessions (%d and %d), so they share the win.", who, pts, tied[0].best, tied[0].second)
	case !sameBest && two:
		return say("%s both have %s, so the best single session decides: %s.", who, pts, joinAnd(say, best))
	case !sameBest:
		return say("%s all have %s, so the best single session decides: %s.", who, pts, joinAnd(say, best))
	case two:
		return say("%s both have %s and equal best sessions (%d), so the second-best decides: %s.", who, pts, tied[0].best, joinAnd(say, second))
	}
	return say("%s all have %s and equal best sessions (%d), so the second-best decides: %s.", who, pts, tied[0].best, joinAnd(say, second))
}

// tileIn is a colour's tile labelled in the reader's words.
func tileIn(say engine.Say, t engine.Tile) engine.Tile {
	if t.Label != "" {
		t.Label = say(t.Label)
	}
	if t.Sub != "" {
		t.Sub = say(t.Sub)
	}
	return t
}

// tilesIn is tileIn for a list.
func tilesIn(say engine.Say, ts []engine.Tile) []engine.Tile {
	out := make([]engine.Tile, len(ts))
	for i, t := range ts {
		out[i] = tileIn(say, t)
	}
	return out
}

// sayHTML is say for the HTML part, for a sentence with markup in its
// arguments: a tile ("Its face-down card is [red]; ..."), a number in
// bold. The message is escaped as html/template escapes text, arguments
// of type htmltemplate.HTML (from bold, htmlJoin or the renderer's
// fragment) go in as they are, and every other argument is escaped with
// the message.
func sayHTML(say engine.Say, key string, args ...any) htmltemplate.HTML {
	var marks []string
	a := make([]any, len(args))
	for i, arg := range args {
		h, ok := arg.(htmltemplate.HTML)
		if !ok {
			a[i] = arg
			continue
		}
		mark := fmt.Sprintf("\ue000%d\ue001", i)
		a[i] = htmlMark(mark)
		marks = append(marks, mark, string(h))
	}
	out := escapeHTML(say(key, a...))
	if len(marks) > 0 {
		out = strings.NewReplacer(marks...).Replace(out)
	}
	return htmltemplate.HTML(out)
}

// htmlMark stands for an HTML argument in a message while it is printed
// and escaped: it prints as itself for any verb (%d of a bold number
// too), and escaping leaves its private-use characters alone.
type htmlMark string

// Format prints the mark.
func (m htmlMark) Format(f fmt.State, _ rune) { _, _ = io.WriteString(f, string(m)) }

// escapeHTML escapes text as html/template does in the text of an
// element, which escapes "+" besides what HTMLEscapeString does: the
// HTML part reads the same whether a sentence is written by sayHTML or
// by the template around it.
func escapeHTML(s string) string {
	return strings.ReplaceAll(htmltemplate.HTMLEscapeString(s), "+", "&#43;")
}

// bold is x in bold, for sayHTML: "<b>3</b>".
func bold(x any) htmltemplate.HTML {
	if h, ok := x.(htmltemplate.HTML); ok {
		return "<b>" + h + "</b>"
	}
	return htmltemplate.HTML("<b>" + escapeHTML(fmt.Sprint(x)) + "</b>")
}

// htmlJoin puts pieces of HTML side by side, a space between: two tiles.
func htmlJoin(parts ...htmltemplate.HTML) htmltemplate.HTML {
	out := make([]string, len(parts))
	for i, p := range parts {
		out[i] = string(p)
	}
	return htmltemplate.HTML(strings.Join(out, " "))
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

// CommandIn writes a command of Gracias ("take 2 keep red give bob") in
// the reader's language (engine.CommandTranslator): each keyword as
// say writes it ("nimm", from locales/LANG/commands.toml), each colour
// by its name ("Rot", nouns.toml); numbers and players stay. A pattern
// is written so too: "keep red|blue give PLAYER" is "behalte Rot|Blau gib
// PLAYER". A word is written in the reader's language only when the
// game reads it back as the same word (a keyword's Also, a colour's
// alias), so that the command means what it meant; English's say
// returns cmd as it is, and a text that is no command of the game is
// returned as it is.
func (Rules) CommandIn(cmd string, say engine.Say) string {
	words := strings.Fields(cmd)
	for _, s := range commandSpecs() {
		if out, ok := commandIn(s, words, say); ok {
			return out
		}
	}
	return cmd
}

// commandIn writes words, a command of the spec s, with say; false when
// they are not one of s.
func commandIn(s engine.Spec, words []string, say engine.Say) (string, bool) {
	if len(words) != len(s.Words) {
		return "", false
	}
	out := make([]string, len(words))
	for i, w := range s.Words {
		switch w.Kind {
		case engine.Literal:
			if !strings.EqualFold(words[i], w.Text) {
				return "", false
			}
			out[i] = readsAs(words[i], say(w.Text), w.Text, w.Also)
		case engine.Choice:
			vals := strings.Split(words[i], "|")
			for j, v := range vals {
				for _, c := range w.Choices {
					if strings.EqualFold(v, c.Value) {
						vals[j] = readsAs(v, say(c.Value), c.Value, c.Aliases)
					}
				}
			}
			out[i] = strings.Join(vals, "|")
		default:
			out[i] = words[i]
		}
	}
	return strings.Join(out, " "), true
}

// readsAs is said, the word canon in the reader's language, when the
// game reads it as canon (one of its other spellings, also, in any case,
// with or without umlauts: engine.Fold); else written, the word as the
// command wrote it. Where say leaves canon as it is (English), so is
// written.
func readsAs(written, said, canon string, also []string) string {
	if said == canon {
		return written
	}
	low := engine.Fold(strings.ToLower(said))
	if low == canon {
		return said
	}
	for _, a := range also {
		if low == engine.Fold(strings.ToLower(a)) {
			return said
		}
	}
	return written
}

// commandSpecs are the game's commands, made once for the templates,
// which read a command for each button and line of a mail (CommandIn):
// making them anew each time was a tenth of the bytes a mail's
// rendering allocated (issue 40). Never changed once made.
var commandSpecs = sync.OnceValue(func() []engine.Spec { return Rules{}.Specs() })
