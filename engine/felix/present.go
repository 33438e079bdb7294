package felix

import (
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"

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

// Funcs are the helpers Felix's templates call.
func (Rules) Funcs(_ engine.Say) map[string]any {
	return map[string]any{
		"mice":         func(n int) string { return engine.Plural(n, "mouse", "mice") },
		"mouseCards":   mouseCardsWords,
		"card":         cardWord,
		"cards":        cardWords,
		"rowCard":      rowCardText,
		"rowCardShort": rowCardShort,
		"ownMoney":     ownMoney,
		"highHolders":  highHolders,
		"tieBreak":     tieBreak,
		"youPassed":    youPassed,
		"youPlaced":    youPlaced,
		"aheadLimit":   aheadLimit,
		"anyWon":       anyWon,
		"next":         func(n int) int { return n + 1 },
	}
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

// cardWord writes a card for people: "large-dog" becomes "large dog".
func cardWord(c string) string { return strings.ReplaceAll(c, "-dog", " dog") }

// cardWords writes a list of cards, or "none".
func cardWords(cs []string) string {
	if len(cs) == 0 {
		return "none"
	}
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = cardWord(c)
	}
	return strings.Join(out, ", ")
}

// rowCardText says what the reader sees at one position of the row: a
// face-up card, "face down", "your 8, face down" or "not placed yet".
func rowCardText(reader string, rc RowCard) string {
	switch {
	case !rc.Placed:
		return "not placed yet"
	case rc.FaceUp && rc.Card != "":
		return cardWord(rc.Card)
	case rc.Card != "" && rc.Owner == reader:
		return "your " + cardWord(rc.Card) + ", face down"
	case rc.Card != "":
		// A view gives a face-down card only to its owner; show what
		// it holds all the same, so that a wrong view is caught by the
		// tests rather than hidden here.
		return cardWord(rc.Card) + ", face down"
	}
	return "face down"
}

// rowCardShort is rowCardText for the row written on one line: a face-up
// card as it is, anything else in brackets ("(face down)").
func rowCardShort(reader string, rc RowCard) string {
	if rc.Placed && rc.FaceUp && rc.Card != "" {
		return cardWord(rc.Card)
	}
	return "(" + rowCardText(reader, rc) + ")"
}

// ownMoney is the reader's money as the table shows it: the mice in hand
// and, while he has a stake in the auction, the stake beside them, so
// that "bid 8..24" next to "18 mice" adds up. Both are his own to know.
func ownMoney(v View) string {
	if v.Money == nil {
		return "unknown"
	}
	money := engine.Plural(*v.Money, "mouse", "mice")
	for _, p := range v.Players {
		if p.Name == v.You && p.Stake > 0 {
			return fmt.Sprintf("%s in hand, %d staked", money, p.Stake)
		}
	}
	return money
}

// highHolders names who holds the highest stake.
func highHolders(v View) string {
	var names []string
	for _, p := range v.Players {
		if v.HighStake > 0 && p.Stake == v.HighStake {
			names = append(names, p.Name)
		}
	}
	return engine.JoinAnd(names)
}

// tieBreak explains how a tie on the top score was broken, or "" when
// the top score was not tied. scores are the final scores by name, for
// players whose view has none.
func tieBreak(v View, winners []string, scores map[string]int) string {
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
	both := "both"
	if len(tied) > 2 {
		both = "all"
	}
	if len(winners) == len(tied) {
		return fmt.Sprintf("%s %s scored %d and have the same cat total (%d), so they share the win.",
			engine.JoinAnd(names), both, top, tied[0].Cats)
	}
	sort.SliceStable(tied, func(i, j int) bool { return tied[i].Cats > tied[j].Cats })
	var cats []string
	for _, p := range tied {
		cats = append(cats, fmt.Sprintf("%s %d", p.Name, p.Cats))
	}
	return fmt.Sprintf("%s %s scored %d, so the higher cat total decides: %s.",
		engine.JoinAnd(names), both, top, engine.JoinAnd(cats))
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

// mouseCardsWords lists the mouse cards by value, saying only what is
// not as printed: "2, 4 and 6" when each holds its mice, "2 (taken), 4
// (empty) and 6" else. ("2-card 2 mice · 4-card 4 mice" said each
// number twice.)
func mouseCardsWords(cards []MouseCard) string {
	if all := sameState(cards); all != "" && len(cards) > 1 {
		values := make([]string, len(cards))
		for i, m := range cards {
			values[i] = strconv.Itoa(m.Value)
		}
		return engine.JoinAnd(values) + ", all " + all
	}
	parts := make([]string, len(cards))
	for i, m := range cards {
		parts[i] = strconv.Itoa(m.Value)
		switch {
		case !m.InRow:
			parts[i] += " (taken)"
		case m.Mice == 0:
			parts[i] += " (empty)"
		case m.Mice != m.Value:
			parts[i] += " (" + engine.Plural(m.Mice, "mouse", "mice") + ")"
		}
	}
	return engine.JoinAnd(parts)
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
