// Package highbid is High Bid, a small game of hidden cards that exists to
// prove that a game is a plug-in: it implements engine.Rules, engine.Game,
// engine.Nouns and engine.Presenter, imports only engine, and is known to
// no package of pbem but the tests that add it to a catalogue
// (internal/daemon/plugin_test.go).
//
// The rules: 3 to 5 players each hold the cards 1 to 6. Each round every
// player puts one card face down, all at once. When everyone has, the
// cards are turned up: the highest card that nobody else played scores
// its value for its player; cards played by several score nothing. After
// 6 rounds the most points win; a tie shares the win.
package highbid

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/pbem/pbem/engine"
)

const (
	minPlayers = 3
	maxPlayers = 5
	// Cards are 1..Cards; the game has as many rounds as cards.
	Cards = 6
)

// Rules is High Bid's engine.Rules. The zero value is ready to use.
type Rules struct{}

var _ engine.Rules = Rules{}
var _ engine.Presenter = Rules{}
var _ engine.Nouns = Rules{}

func (Rules) Name() string        { return "highbid" }
func (Rules) Title() string       { return "High Bid: The Highest Lone Card" }
func (Rules) MinPlayers() int     { return minPlayers }
func (Rules) MaxPlayers() int     { return maxPlayers }
func (Rules) SetupKeys() []string { return nil }

// Specs is High Bid's command language: one command.
func (Rules) Specs() []engine.Spec {
	return []engine.Spec{
		{Name: "play", Words: []engine.Word{engine.Kw("play"), engine.NumArg("N")},
			Help: "put card N from your hand face down for this round"},
	}
}

// Nouns are the words players write around "play 4": "play card 4",
// "play the 4 card".
func (Rules) Nouns() []string { return []string{"card"} }

func playSpec() engine.Spec { return Rules{}.Specs()[0] }

// State is the whole game. Hands[p] has bit c set while p holds card c.
type State struct {
	Round   int     `json:"round"` // 1..Cards; stays at Cards once over
	Hands   []uint8 `json:"hands"`
	Down    []int   `json:"down"` // the card p put face down this round, 0 for none
	Points  []int   `json:"points"`
	Reveals [][]int `json:"reveals"` // the cards turned up, by round, by seat
	Over    bool    `json:"over"`
}

// Game is a High Bid game.
type Game struct {
	names []string
	S     State
}

var _ engine.Game = (*Game)(nil)

// New sets up a game. Nothing is left to chance: everyone holds 1..6.
func (Rules) New(setup engine.Setup) (engine.Game, []engine.Event, error) {
	if err := engine.CheckPlayers("highbid", minPlayers, maxPlayers, setup.Players); err != nil {
		return nil, nil, err
	}
	if setup.Start != "" {
		return nil, nil, errors.New("highbid has no start player: everyone plays at once")
	}
	if len(setup.Lines) > 0 {
		return nil, nil, fmt.Errorf("highbid has no set-up line %q", setup.Lines[0].Key)
	}
	n := len(setup.Players)
	g := &Game{names: append([]string(nil), setup.Players...)}
	g.S = State{Round: 1, Hands: make([]uint8, n), Down: make([]int, n), Points: make([]int, n), Reveals: [][]int{}}
	for p := range g.S.Hands {
		g.S.Hands[p] = 1<<(Cards+1) - 2 // bits 1..6
	}
	rec := &engine.Recorder{Names: g.names}
	rec.Public("setup", "High Bid for %s. Everyone holds the cards 1 to %d; %d rounds.", engine.JoinAnd(g.names), Cards, Cards)
	return g, rec.Events, nil
}

func (g *Game) Rules() engine.Rules { return Rules{} }
func (g *Game) Players() []string   { return append([]string(nil), g.names...) }

// Setup is the players alone: nothing was left to chance.
func (g *Game) Setup() engine.Setup { return engine.Setup{Players: g.Players()} }

func (g *Game) waits(seat int) bool {
	return !g.S.Over && seat >= 0 && seat < len(g.names) && g.S.Down[seat] == 0
}

func (g *Game) Waiting() []int {
	var out []int
	for p := range g.names {
		if g.waits(p) {
			out = append(out, p)
		}
	}
	return out
}

// hand lists the cards seat holds, lowest first.
func (g *Game) hand(seat int) []int {
	var out []int
	for c := 1; c <= Cards; c++ {
		if g.S.Hands[seat]&(1<<c) != 0 {
			out = append(out, c)
		}
	}
	return out
}

func (g *Game) Options(seat int) []engine.Option {
	if !g.waits(seat) {
		return nil
	}
	o := engine.Option{Spec: "play"}
	var cards []string
	for _, c := range g.hand(seat) {
		cards = append(cards, strconv.Itoa(c))
		o.Commands = append(o.Commands, playSpec().Make(strconv.Itoa(c)).Text)
	}
	o.Text = playSpec().Format(strings.Join(cards, "|"))
	return []engine.Option{o}
}

// Default plays the lowest card in hand.
func (g *Game) Default(seat int) (engine.Command, bool) {
	if !g.waits(seat) {
		return engine.Command{}, false
	}
	return playSpec().Make(strconv.Itoa(g.hand(seat)[0])), true
}

func (g *Game) Apply(seat int, c engine.Command) ([]engine.Event, error) {
	player := "?"
	if seat >= 0 && seat < len(g.names) {
		player = g.names[seat]
	}
	text := c.Text
	if text == "" {
		text = c.Name
	}
	illegal := func(why string) error {
		return &engine.IllegalError{Player: player, Command: text, Reason: why, Options: g.Options(seat)}
	}
	if c.Name != "play" {
		return nil, illegal(fmt.Sprintf("highbid has no command %q", c.Name))
	}
	if len(c.Args) != 1 {
		return nil, illegal("play takes one card")
	}
	card, err := strconv.Atoi(c.Args[0])
	switch {
	case err != nil || card < 1 || card > Cards:
		return nil, illegal(fmt.Sprintf("%q is not a card: the cards are 1 to %d", c.Args[0], Cards))
	case seat < 0 || seat >= len(g.names):
		return nil, illegal("you are not a player of this game")
	case g.S.Over:
		return nil, illegal("the game is over")
	case g.S.Down[seat] != 0:
		return nil, illegal("you have already put a card face down this round")
	case g.S.Hands[seat]&(1<<card) == 0:
		return nil, illegal(fmt.Sprintf("you have no %d in your hand", card))
	}
	rec := &engine.Recorder{Names: g.names}
	g.S.Hands[seat] &^= 1 << card
	g.S.Down[seat] = card
	rec.Private(seat, "play", "You put your %d face down in round %d.", card, g.S.Round)
	rec.Others(seat, "play", "%s put a card face down.", player)
	if len(g.Waiting()) == 0 {
		g.reveal(rec)
	}
	return rec.Events, nil
}

// reveal turns the round's cards up, scores the highest lone card and
// opens the next round or ends the game.
func (g *Game) reveal(rec *engine.Recorder) {
	s := &g.S
	cards := append([]int(nil), s.Down...)
	s.Reveals = append(s.Reveals, cards)
	rec.Public("reveal", "Round %d, the cards turned up: %s.", s.Round, revealText(g.names, cards))
	if p := loneHigh(cards); p >= 0 {
		s.Points[p] += cards[p]
		rec.Public("score", "%s scores %d with the highest lone card.", g.names[p], cards[p])
	} else {
		rec.Public("score", "Every card was played more than once: nobody scores.")
	}
	for p := range s.Down {
		s.Down[p] = 0
	}
	if s.Round < Cards {
		s.Round++
		return
	}
	s.Over = true
	parts := make([]string, len(g.names))
	for p, name := range g.names {
		parts[p] = fmt.Sprintf("%s %d", name, s.Points[p])
	}
	rec.Public("final", "Final points: %s.", strings.Join(parts, ", "))
	var w []string
	for _, p := range g.winners() {
		w = append(w, g.names[p])
	}
	if len(w) == 1 {
		rec.Public("winner", "%s wins.", w[0])
	} else {
		rec.Public("winner", "%s share the win.", engine.JoinAnd(w))
	}
}

// revealText writes a round's cards: "alice 3, bob 5, carol 5".
func revealText(names []string, cards []int) string {
	parts := make([]string, len(names))
	for p, name := range names {
		parts[p] = fmt.Sprintf("%s %d", name, cards[p])
	}
	return strings.Join(parts, ", ")
}

// loneHigh is the seat whose card is the highest that nobody else
// played, or -1.
func loneHigh(cards []int) int {
	count := map[int]int{}
	for _, c := range cards {
		count[c]++
	}
	best := -1
	for p, c := range cards {
		if count[c] == 1 && (best < 0 || c > cards[best]) {
			best = p
		}
	}
	return best
}

func (g *Game) winners() []int {
	if !g.S.Over {
		return nil
	}
	top := g.S.Points[0]
	for _, v := range g.S.Points {
		top = max(top, v)
	}
	var out []int
	for p, v := range g.S.Points {
		if v == top {
			out = append(out, p)
		}
	}
	return out
}

func (g *Game) Result() engine.Result {
	return engine.Result{Finished: g.S.Over, Scores: append([]int(nil), g.S.Points...), Winners: g.winners()}
}

func (g *Game) Clone() engine.Game {
	c := &Game{names: append([]string(nil), g.names...), S: g.S}
	c.S.Hands = append([]uint8(nil), g.S.Hands...)
	c.S.Down = append([]int(nil), g.S.Down...)
	c.S.Points = append([]int(nil), g.S.Points...)
	c.S.Reveals = make([][]int, len(g.S.Reveals))
	for i, r := range g.S.Reveals {
		c.S.Reveals[i] = append([]int(nil), r...)
	}
	return c
}

type saved struct {
	Players []string `json:"players"`
	State   State    `json:"state"`
}

func (g *Game) MarshalJSON() ([]byte, error) {
	return json.Marshal(saved{Players: g.names, State: g.S})
}

// Unmarshal restores a game saved with MarshalJSON.
func (Rules) Unmarshal(data []byte) (engine.Game, error) {
	var sv saved
	if err := json.Unmarshal(data, &sv); err != nil {
		return nil, fmt.Errorf("highbid: restore: %w", err)
	}
	n := len(sv.Players)
	s := sv.State
	if n < minPlayers || n > maxPlayers || len(s.Hands) != n || len(s.Down) != n || len(s.Points) != n || s.Round < 1 || s.Round > Cards {
		return nil, errors.New("highbid: restore: the state does not fit the players")
	}
	if s.Reveals == nil {
		s.Reveals = [][]int{}
	}
	return &Game{names: sv.Players, S: s}, nil
}
