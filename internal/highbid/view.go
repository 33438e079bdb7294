package highbid

import (
	"strconv"

	"github.com/pbem/pbem/engine"
)

// View is what one player (or, for engine.Public, anyone) may see: every
// player's points, how many cards each holds and whether each has played
// this round, the rounds turned up; the viewer's own hand and face-down
// card, and nobody else's.
type View struct {
	Game     string          `json:"game"`
	Seat     int             `json:"seat"` // engine.Public for a spectator
	You      string          `json:"you,omitempty"`
	Round    int             `json:"round"`
	Rounds   int             `json:"rounds"`
	Waiting  []string        `json:"waiting"`
	Players  []PlayerView    `json:"players"`
	Reveals  []Reveal        `json:"reveals"`
	Hand     []string        `json:"hand,omitempty"` // the viewer's own
	Down     string          `json:"down,omitempty"` // the viewer's own face-down card this round
	Options  []engine.Option `json:"options,omitempty"`
	Finished bool            `json:"finished"`
	Winners  []string        `json:"winners,omitempty"`
}

// PlayerView is what anyone may know of one player.
type PlayerView struct {
	Name      string `json:"name"`
	Points    int    `json:"points"`
	HandCount int    `json:"hand_count"`
	Played    bool   `json:"played"` // has a card face down this round
}

// Reveal is one round's cards, turned up.
type Reveal struct {
	Round  int        `json:"round"`
	Cards  []SeatCard `json:"cards"`
	Scorer string     `json:"scorer,omitempty"` // who scored, or "" for nobody
	Points int        `json:"points,omitempty"`
}

// SeatCard is the card one player played in a round.
type SeatCard struct {
	Name string `json:"name"`
	Card string `json:"card"`
}

func (g *Game) View(seat int) any { return g.view(seat) }

func (g *Game) view(seat int) View {
	s := &g.S
	if seat < 0 || seat >= len(g.names) {
		seat = engine.Public
	}
	v := View{Game: "highbid", Seat: seat, Round: s.Round, Rounds: Cards, Waiting: []string{}, Reveals: []Reveal{}, Finished: s.Over}
	for _, p := range g.Waiting() {
		v.Waiting = append(v.Waiting, g.names[p])
	}
	for p, name := range g.names {
		v.Players = append(v.Players, PlayerView{Name: name, Points: s.Points[p], HandCount: len(g.hand(p)), Played: s.Down[p] != 0})
	}
	for i, cards := range s.Reveals {
		r := Reveal{Round: i + 1}
		for p, c := range cards {
			r.Cards = append(r.Cards, SeatCard{Name: g.names[p], Card: strconv.Itoa(c)})
		}
		if p := loneHigh(cards); p >= 0 {
			r.Scorer, r.Points = g.names[p], cards[p]
		}
		v.Reveals = append(v.Reveals, r)
	}
	if seat >= 0 {
		v.You = g.names[seat]
		v.Hand = []string{}
		for _, c := range g.hand(seat) {
			v.Hand = append(v.Hand, strconv.Itoa(c))
		}
		if c := s.Down[seat]; c != 0 {
			v.Down = strconv.Itoa(c)
		}
		v.Options = g.Options(seat)
	}
	for _, p := range g.winners() {
		v.Winners = append(v.Winners, g.names[p])
	}
	return v
}

// Summary is what `pbem replay --json` prints.
type Summary struct {
	Game     string   `json:"game"`
	Finished bool     `json:"finished"`
	Round    int      `json:"round"`
	ToMove   []string `json:"to_move"`
	Points   []int    `json:"points"`
	Winners  []string `json:"winners"`
}

func (g *Game) Summary() any {
	sum := Summary{Game: "highbid", Finished: g.S.Over, Round: g.S.Round, ToMove: []string{}, Points: append([]int(nil), g.S.Points...), Winners: []string{}}
	for _, p := range g.Waiting() {
		sum.ToMove = append(sum.ToMove, g.names[p])
	}
	for _, p := range g.winners() {
		sum.Winners = append(sum.Winners, g.names[p])
	}
	return sum
}
