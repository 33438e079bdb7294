package felix

import (
	"embed"
	"fmt"
	htmltemplate "html/template"
	"io/fs"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/pbem/pbem/engine"
)

// Felix shows itself in mails through engine.Presenter: its templates in
// engine/felix/templates, the functions they call, and its cards' tiles.

//go:embed templates/*.tmpl
var templateFiles embed.FS

// Templates returns felix.text.tmpl, felix.html.tmpl and felix-rules.tmpl.
func (Rules) Templates() fs.FS {
	sub, err := fs.Sub(templateFiles, "templates")
	if err != nil {
		panic(err) // the directory is embedded above
	}
	return sub
}

// Funcs are the helpers Felix's templates call, writing their words in
// the reader's language through say (issue 39): every phrase is a key of
// the catalogs (locales/LANG/present.toml), and a card is written by its
// name's key (locales/LANG/nouns.toml). The HTML part writes its
// sentences with felixT, which keeps the catalog's text as it is (a
// sentence may carry <b>) and escapes the arguments.
func (Rules) Funcs(say engine.Say) map[string]any {
	return map[string]any{
		"mice":         func(n int) string { return say("%d mice", n) },
		"mouseCards":   func(cs []MouseCard) string { return mouseCardsIn(say, cs) },
		"card":         func(c string) string { return cardIn(say, c) },
		"cards":        func(cs []string) string { return cardsIn(say, cs) },
		"rowCard":      func(reader string, rc RowCard) string { return rowCardText(say, reader, rc) },
		"rowCardShort": func(reader string, rc RowCard) string { return rowCardShort(say, reader, rc) },
		"owner":        func(o string) string { return ownerIn(say, o) },
		"ownMoney":     func(v View) string { return ownMoney(say, v) },
		"highHolders":  func(v View) string { return highHolders(say, v) },
		"tieBreak": func(v View, winners []string, scores map[string]int) string {
			return tieBreak(say, v, winners, scores)
		},
		"youPassed":    youPassed,
		"youPlaced":    youPlaced,
		"aheadLimit":   aheadLimit,
		"anyWon":       anyWon,
		"next":         func(n int) int { return n + 1 },
		"felixCommand": func(cmd string) string { return Rules{}.CommandIn(cmd, say) },
		"sayTile":      func(t engine.Tile) engine.Tile { return tileIn(say, t) },
		"sayTiles": func(ts []engine.Tile) []engine.Tile {
			out := make([]engine.Tile, len(ts))
			for i, t := range ts {
				out[i] = tileIn(say, t)
			}
			return out
		},
		"felixT": func(key string, args ...any) htmltemplate.HTML { return sayHTML(say, key, args...) },
		// felixS is a sentence as a plain string, for a function that takes
		// one (a tile's label): the HTML part's T writes HTML.
		"felixS":     func(key string, args ...any) string { return say(key, args...) },
		"felixParts": func(key string, args ...any) []htmltemplate.HTML { return sayParts(say, key, args...) },
		"felixSlot":  func() string { return slot },
		"felixBold":  func(v any) boldArg { return boldArg{v} },
		"playerLine": playerLine,
		"felixHeadlineText": func(h engine.Headline) (string, error) {
			return Rules{}.HeadlineText(say, h)
		},
		"felixTableText": func(v View, reader string, aborted, setAside bool) string {
			return tableText(say, v, reader, aborted, setAside)
		},
		"felixAimText": func() string { return aimText(say) },
		"felixWaitingText": func(v View, readerWaits bool) string {
			return waitingText(say, v, readerWaits)
		},
		"felixTableHTML": func(draw engine.Draw, v View, reader string, aborted, setAside bool) (htmltemplate.HTML, error) {
			return tableHTML(say, draw, v, reader, aborted, setAside)
		},
		"felixAimHTML": func() htmltemplate.HTML { return aimHTML(say) },
		"felixWaitingHTML": func(draw engine.Draw, v View, readerWaits bool) htmltemplate.HTML {
			return waitingHTML(say, draw, v, readerWaits)
		},
		"wonCards": wonCards,
	}
}

// sayHTML writes a sentence of the HTML part: the catalog's text as it
// is, trusted as the templates are (a translation may mark words <b>, as
// its key does), and each argument escaped as html/template escapes text,
// but for an argument that is HTML already (felixBold's, a
// template.HTML).
func sayHTML(say engine.Say, key string, args ...any) htmltemplate.HTML {
	out := make([]any, len(args))
	for i, a := range args {
		switch a := a.(type) {
		case htmltemplate.HTML:
			out[i] = string(a)
		case boldArg:
			out[i] = a
		case string:
			out[i] = escapeHTML(a)
		case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
			out[i] = a // a count keeps its number, for the catalog's plural forms
		default:
			out[i] = escapeHTML(fmt.Sprint(a))
		}
	}
	return htmltemplate.HTML(say(key, out...))
}

// slot is an argument of sayParts that stands for markup the template
// writes itself: a code block, a link.
const slot = "\ue000"

// sayParts is sayHTML cut at each slot argument (felixSlot), so that a
// template can write a sentence around its own markup in the order the
// language puts the words: {{with felixParts "Only %s is left." felixSlot}}
// {{index . 0}}{{code "pass"}}{{index . 1}}{{end}}. A
// translation keeps the slots in the key's order
// (TestGermanKeepsArgumentsAndMarkup checks it).
func sayParts(say engine.Say, key string, args ...any) []htmltemplate.HTML {
	parts := strings.Split(string(sayHTML(say, key, args...)), slot)
	out := make([]htmltemplate.HTML, len(parts))
	for i, p := range parts {
		out[i] = htmltemplate.HTML(p)
	}
	return out
}

// boldArg is an argument of sayHTML printed in bold, its value escaped.
type boldArg struct{ v any }

// Format writes the value as its verb says, in <b>.
func (b boldArg) Format(s fmt.State, verb rune) {
	fmt.Fprintf(s, "<b>%s</b>", escapeHTML(fmt.Sprintf(fmt.FormatString(s, verb), b.v)))
}

// escapeHTML escapes text as html/template does in the text of an
// element, so that an argument reads as it did when the template printed
// it.
var escapeHTML = strings.NewReplacer(
	"\x00", "\ufffd", `"`, "&#34;", "&", "&amp;", "'", "&#39;", "+", "&#43;", "<", "&lt;", ">", "&gt;",
).Replace

// tileIn is a tile labelled in the reader's language: a card's name (and
// a sub-label) through the catalog; a cat's number is the same in every
// language.
func tileIn(say engine.Say, t engine.Tile) engine.Tile {
	t.Label = say(t.Label)
	if t.Sub != "" {
		t.Sub = say(t.Sub)
	}
	return t
}

// tileColours are the cards' colours as the printed cards have them:
// positive numbers yellow (the higher the deeper), negative red, the
// rabbit grey, the dogs purple.
var tileColours = map[string][3]string{ // background, text, border
	"-8":        {"#b3201c", "#ffffff", "#7d1512"},
	"-5":        {"#e0524a", "#ffffff", "#a8322c"},
	"rabbit":    {"#d9dcdf", "#1e1e1e", "#9ea5ac"},
	"3":         {"#fff3b0", "#3d2f00", "#d9c25a"},
	"5":         {"#ffe77a", "#3d2f00", "#d4b52a"},
	"8":         {"#ffd84a", "#332600", "#c9a10c"},
	"11":        {"#f7c51c", "#2e2200", "#b88f00"},
	"15":        {"#e8ac00", "#261b00", "#a87b00"},
	"large-dog": {"#5b2a86", "#ffffff", "#3d175e"},
	"small-dog": {"#9a6acd", "#ffffff", "#6e43a0"},
}

// Tiles draws every card face up, labelled as the text writes it.
func (Rules) Tiles() map[string]engine.Tile {
	m := make(map[string]engine.Tile, len(tileColours))
	for card, c := range tileColours {
		m[card] = engine.Tile{Label: cardWord(card), Bg: c[0], Fg: c[1], Border: c[2]}
	}
	return m
}

// Examples are the arguments help writes in Felix's commands' examples.
func (Rules) Examples() map[string]string { return map[string]string{"CARD": "rabbit", "N": "5"} }

// cardWord writes a card for people: "large-dog" becomes "large dog",
// the key of its name in the catalogs (locales/LANG/nouns.toml).
func cardWord(c string) string { return strings.ReplaceAll(c, "-dog", " dog") }

// cardIn writes a card in the reader's language: "großer Hund". A cat is
// its number in every language.
func cardIn(say engine.Say, c string) string { return say(cardWord(c)) }

// cardsIn writes a list of cards, or "none".
func cardsIn(say engine.Say, cs []string) string {
	if len(cs) == 0 {
		return say("none")
	}
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = cardIn(say, c)
	}
	return strings.Join(out, ", ")
}

// joinAnd writes "a", "a and b", "a, b and c" in the reader's language.
func joinAnd(say engine.Say, xs []string) string {
	if len(xs) < 2 {
		return strings.Join(xs, "")
	}
	return say("%s and %s", strings.Join(xs[:len(xs)-1], ", "), xs[len(xs)-1])
}

// ownerIn writes whose card a place of the row holds: a player's name,
// or the dummy's (3 players).
func ownerIn(say engine.Say, owner string) string {
	if owner == "dummy" {
		return say("dummy")
	}
	return owner
}

// rowCardText says what the reader sees at one position of the row: a
// face-up card, "face down", "your 8, face down" or "not placed yet".
func rowCardText(say engine.Say, reader string, rc RowCard) string {
	switch {
	case !rc.Placed:
		return say("not placed yet")
	case rc.FaceUp && rc.Card != "":
		return cardIn(say, rc.Card)
	case rc.Card != "" && rc.Owner == reader:
		return say("your %s, face down", cardIn(say, rc.Card))
	case rc.Card != "":
		// A view gives a face-down card only to its owner; show what
		// it holds all the same, so that a wrong view is caught by the
		// tests rather than hidden here.
		return say("%s, face down", cardIn(say, rc.Card))
	}
	return say("face down")
}

// rowCardShort is rowCardText for the row written on one line: a face-up
// card as it is, anything else in brackets ("(face down)").
func rowCardShort(say engine.Say, reader string, rc RowCard) string {
	if rc.Placed && rc.FaceUp && rc.Card != "" {
		return cardIn(say, rc.Card)
	}
	return "(" + rowCardText(say, reader, rc) + ")"
}

// ownMoney is the reader's money as the table shows it: the mice in hand
// and, while he has a stake in the auction, the stake beside them, so
// that "bid 8..24" next to "18 mice" adds up. Both are his own to know.
func ownMoney(say engine.Say, v View) string {
	if v.Money == nil {
		return say("unknown")
	}
	money := say("%d mice", *v.Money)
	for _, p := range v.Players {
		if p.Name == v.You && p.Stake > 0 {
			return say("%s in hand, %d staked", money, p.Stake)
		}
	}
	return money
}

// highHolders names who holds the highest stake.
func highHolders(say engine.Say, v View) string {
	var names []string
	for _, p := range v.Players {
		if v.HighStake > 0 && p.Stake == v.HighStake {
			names = append(names, p.Name)
		}
	}
	return joinAnd(say, names)
}

// tieBreak explains how a tie on the top score was broken, or "" when
// the top score was not tied. scores are the final scores by name, for
// players whose view has none.
func tieBreak(say engine.Say, v View, winners []string, scores map[string]int) string {
	if len(v.Players) == 0 {
		return ""
	}
	score := func(p PlayerView) int {
		if p.Score != nil {
			return *p.Score
		}
		return scores[p.Name]
	}
	top := score(v.Players[0])
	for _, p := range v.Players {
		top = max(top, score(p))
	}
	var tied []PlayerView
	for _, p := range v.Players {
		if score(p) == top {
			tied = append(tied, p)
		}
	}
	if len(tied) < 2 {
		return ""
	}
	names := make([]string, len(tied))
	for i, p := range tied {
		names[i] = p.Name
	}
	if len(winners) == len(tied) {
		if len(tied) == 2 {
			return say("%s both scored %d and have the same cat total (%d), so they share the win.",
				joinAnd(say, names), top, tied[0].Cats)
		}
		return say("%s all scored %d and have the same cat total (%d), so they share the win.",
			joinAnd(say, names), top, tied[0].Cats)
	}
	sort.SliceStable(tied, func(i, j int) bool { return tied[i].Cats > tied[j].Cats })
	var cats []string
	for _, p := range tied {
		cats = append(cats, fmt.Sprintf("%s %d", p.Name, p.Cats))
	}
	if len(tied) == 2 {
		return say("%s both scored %d, so the higher cat total decides: %s.", joinAnd(say, names), top, joinAnd(say, cats))
	}
	return say("%s all scored %d, so the higher cat total decides: %s.", joinAnd(say, names), top, joinAnd(say, cats))
}

// own is the reader's own line of the players, or false for a spectator.
func own(v View) (PlayerView, bool) {
	for _, p := range v.Players {
		if p.Name == v.You && v.You != "" {
			return p, true
		}
	}
	return PlayerView{}, false
}

// youPassed says that the reader has passed in this round's auction.
func youPassed(v View) bool {
	p, ok := own(v)
	return ok && p.Passed && v.Phase != "placing"
}

// youPlaced says that the reader's card of this round is in the row.
func youPlaced(v View) bool {
	p, ok := own(v)
	return ok && p.Placed
}

// aheadLimit is a limit the reader could send now as "bid up to N",
// halfway up what he could bid, as the options' example is; 0 when he
// cannot outbid the highest stake.
func aheadLimit(v View) int {
	p, ok := own(v)
	if !ok || v.Money == nil {
		return 0
	}
	lo, hi := v.HighStake+1, *v.Money+p.Stake
	if lo > hi {
		return 0
	}
	return lo + (hi-lo)/2
}

// anyWon says that some player has won a card.
func anyWon(v View) bool {
	for _, p := range v.Players {
		if len(p.Won) > 0 {
			return true
		}
	}
	return false
}

// Condense leaves out of a mail's events the others' placing of their
// cards once all cards are in the row: the row shows whose card is
// where. The reader's own placing (with his card) stays.
func (Rules) Condense(evs []engine.Event) []engine.Event {
	allIn := -1
	for i, e := range evs {
		if e.Kind == "placed" {
			allIn = i
		}
	}
	var out []engine.Event
	for i, e := range evs {
		if e.Kind == "place" && e.To < engine.Public && i < allIn {
			continue
		}
		out = append(out, e)
	}
	return out
}

// mouseCardsIn lists the mouse cards by value, saying only what is
// not as printed: "2, 4 and 6" when each holds its mice, "2 (taken), 4
// (empty) and 6" else. ("2-card 2 mice · 4-card 4 mice" said each
// number twice.)
func mouseCardsIn(say engine.Say, cards []MouseCard) string {
	if all := sameState(cards); all != "" && len(cards) > 1 {
		values := make([]string, len(cards))
		for i, m := range cards {
			values[i] = strconv.Itoa(m.Value)
		}
		if all == "empty" {
			return say("%s, all empty", joinAnd(say, values))
		}
		return say("%s, all taken", joinAnd(say, values))
	}
	parts := make([]string, len(cards))
	for i, m := range cards {
		switch {
		case !m.InRow:
			parts[i] = say("%d (taken)", m.Value)
		case m.Mice == 0:
			parts[i] = say("%d (empty)", m.Value)
		case m.Mice != m.Value:
			parts[i] = fmt.Sprintf("%d (%s)", m.Value, say("%d mice", m.Mice))
		default:
			parts[i] = strconv.Itoa(m.Value)
		}
	}
	return joinAnd(say, parts)
}

// sameState is "empty" or "taken" when every mouse card is, else "".
func sameState(cards []MouseCard) string {
	empty, taken := true, true
	for _, m := range cards {
		empty = empty && m.InRow && m.Mice == 0
		taken = taken && !m.InRow
	}
	switch {
	case empty:
		return "empty"
	case taken:
		return "taken"
	}
	return ""
}

// CommandIn writes one of Felix's commands in the reader's language
// (engine.CommandTranslator), for the one-tap buttons and the lists of
// moves: "play large-dog" is "spiele großer Hund" in German. The
// command's pattern is a key of the catalogs, its Spec's words with %s
// for each argument ("bid up to %s" = "biete bis %s", the German words
// the Spec reads: locales/LANG/commands.toml), and a card is its name's
// key. An Option's text translates alike, its choices and ranges
// ("play -8|rabbit", "bid 5..12"). What is not a command of Felix, and
// every command in English, is returned as it is.
func (Rules) CommandIn(cmd string, say engine.Say) string {
	sp, args, ok := readCommand(cmd)
	if !ok {
		return cmd
	}
	key, out := commandKey(sp), make([]any, len(args))
	english := make([]any, len(args))
	for i, a := range args {
		english[i] = a
		if sp.Words[argIndex(sp, i)].Kind != engine.Choice {
			out[i] = a
			continue
		}
		cards := strings.Split(a, "|")
		for j, c := range cards {
			if w := cardWord(c); say(w) != w {
				cards[j] = say(w)
			}
		}
		out[i] = strings.Join(cards, "|")
	}
	if got := say(key, out...); got != fmt.Sprintf(key, english...) {
		return got
	}
	return cmd
}

// readCommand reads a command as Felix writes it (engine.Spec.Make, an
// Option's Text): its Spec's words in English, and an argument a word.
func readCommand(cmd string) (engine.Spec, []string, bool) {
	fields := strings.Fields(cmd)
	for _, sp := range commandSpecs() {
		if len(sp.Words) != len(fields) {
			continue
		}
		var args []string
		ok := true
		for i, w := range sp.Words {
			switch {
			case w.Kind != engine.Literal:
				args = append(args, fields[i])
			case !strings.EqualFold(w.Text, fields[i]):
				ok = false
			}
		}
		if ok {
			return sp, args, true
		}
	}
	return engine.Spec{}, nil, false
}

// commandKey is a command's key in the catalogs: its Spec's words with
// %s for each argument ("bid up to %s").
func commandKey(sp engine.Spec) string {
	words := make([]string, len(sp.Words))
	for i, w := range sp.Words {
		words[i] = w.Text
		if w.Kind != engine.Literal {
			words[i] = "%s"
		}
	}
	return strings.Join(words, " ")
}

// argIndex is the position among sp.Words of its argument n.
func argIndex(sp engine.Spec, n int) int {
	for i, w := range sp.Words {
		if w.Kind != engine.Literal {
			if n == 0 {
				return i
			}
			n--
		}
	}
	return -1
}

// commandSpecs are the game's commands, made once for the templates,
// which read a command for each button and line of a mail (CommandIn):
// making them anew each time was a tenth of the bytes a mail's
// rendering allocated (issue 40). Never changed once made.
var commandSpecs = sync.OnceValue(func() []engine.Spec { return Rules{}.Specs() })
