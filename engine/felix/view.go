package felix

import (
	"github.com/pbem/pbem/engine"
)

// View is what one player (or, for engine.Public, anyone) may see: see
// docs/felix.md, "What each player sees". Fields that are secret are only
// filled for their owner, or once the game is over.
type View struct {
	Game       string          `json:"game"`
	Seat       int             `json:"seat"` // engine.Public for a spectator
	You        string          `json:"you,omitempty"`
	Round      int             `json:"round"`
	Rounds     int             `json:"rounds"`
	Phase      string          `json:"phase"`
	Start      string          `json:"start_player"`
	Turn       string          `json:"turn,omitempty"` // who bids or buys now
	Waiting    []string        `json:"waiting"`
	HighStake  int             `json:"high_stake"`
	Bank       int             `json:"bank"`
	Row        []RowCard       `json:"row"`
	MouseCards []MouseCard     `json:"mouse_cards"`
	DummyLeft  int             `json:"dummy_left,omitempty"` // 3 players: cards left in the dummy pile
	Players    []PlayerView    `json:"players"`
	Hand       []string        `json:"hand,omitempty"`      // the viewer's own hand
	Money      *int            `json:"money,omitempty"`     // the viewer's own money in hand
	SetAside   string          `json:"set_aside,omitempty"` // the viewer's own card set aside at the start
	Options    []engine.Option `json:"options,omitempty"`   // what the viewer can do now
	// Limit and StandingPass are the viewer's own standing order for
	// this auction (orders.go), his secret: "bid up to Limit", or pass.
	Limit        int  `json:"limit,omitempty"`
	StandingPass bool `json:"standing_pass,omitempty"`
	// Ahead says that the viewer may give a standing order now, ahead of
	// his turn: the bidding is on, it is not his turn, and he has not
	// passed. Options stay empty then: the game does not wait on him.
	Ahead bool `json:"ahead,omitempty"`
	// CannotRaise is set when the auction waits on the viewer and he
	// cannot afford the lowest bid: pass is his only command. pbem asks
	// him all the same (forced.go: his money is his secret), and his mail
	// says why pass is all that is left.
	CannotRaise *Shortfall `json:"cannot_raise,omitempty"`
	Finished    bool       `json:"finished"`
	Winners     []string   `json:"winners,omitempty"`
}

// Shortfall is why the viewer cannot bid: the lowest bid he could make,
// and what he owns (his mice and his stake on the table).
type Shortfall struct {
	Next  int `json:"next"`
	Owned int `json:"owned"`
}

// RowCard is one position of the row.
type RowCard struct {
	Position int    `json:"position"` // 1 is the first card, turned up first
	Owner    string `json:"owner"`    // the player who placed it, or "dummy"
	Placed   bool   `json:"placed"`
	FaceUp   bool   `json:"face_up"`
	Card     string `json:"card,omitempty"` // only when face up, or to the player who placed it
}

// MouseCard is one mouse card and the mice on it.
type MouseCard struct {
	Value int  `json:"value"`
	Mice  int  `json:"mice"`
	InRow bool `json:"in_row"` // false once a passing player took it this round
}

// PlayerView is what the viewer may know of one player.
type PlayerView struct {
	Name        string   `json:"name"`
	HandCount   int      `json:"hand_count"`
	Placed      bool     `json:"placed"` // has placed a card this round
	Stake       int      `json:"stake"`
	Passed      bool     `json:"passed"`
	StartPlayer bool     `json:"start_player"`
	Won         []string `json:"won"` // won cards are public
	Cats        int      `json:"cats"`
	Money       *int     `json:"money,omitempty"` // the viewer's own, or everyone's at the end
	Score       *int     `json:"score,omitempty"` // at the end
}

func (g *Game) View(seat int) any { return g.view(seat) }

func (g *Game) view(seat int) View {
	s := &g.S
	if seat < 0 || seat >= int(s.N) {
		seat = engine.Public
	}
	over := s.Phase == Over
	v := View{
		Game:      "felix",
		Seat:      seat,
		Round:     int(s.Round),
		Rounds:    rounds,
		Phase:     s.Phase.String(),
		Start:     g.names[s.Start],
		Waiting:   []string{},
		HighStake: int(s.High),
		Bank:      int(s.Bank),
		Finished:  over,
	}
	if seat >= 0 {
		v.You = g.names[seat]
	}
	for _, p := range g.Waiting() {
		v.Waiting = append(v.Waiting, g.names[p])
	}
	if s.Phase == Bidding || s.Phase == Buying {
		v.Turn = g.names[s.Turn]
	}
	if !over {
		g.viewTable(&v, seat)
	}
	g.viewPlayers(&v, seat)
	if seat >= 0 {
		g.viewOwnSeat(&v, seat)
	}
	for _, p := range s.Winners() {
		v.Winners = append(v.Winners, g.names[p])
	}
	return v
}

// viewTable fills in the row of the sack and the mouse cards, for a game
// still running: a placed card's kind shows only face up, or to its owner.
func (g *Game) viewTable(v *View, seat int) {
	s := &g.S
	for slot := 0; slot < int(s.RowLen); slot++ {
		rc := RowCard{Position: slot + 1, Owner: "dummy"}
		owner := s.ownerOf(slot)
		if owner >= 0 {
			rc.Owner = g.names[owner]
		}
		rc.Placed = s.Filled&(1<<uint(slot)) != 0
		rc.FaceUp = s.Up&(1<<uint(slot)) != 0
		if rc.Placed && (rc.FaceUp || (owner >= 0 && owner == seat)) {
			rc.Card = s.Row[slot].kind().String()
		}
		v.Row = append(v.Row, rc)
	}
	for i := 0; i < int(s.NMouse); i++ {
		v.MouseCards = append(v.MouseCards, MouseCard{
			Value: int(s.MouseValue[i]), Mice: int(s.Mice[i]), InRow: s.MouseIn&(1<<uint(i)) != 0,
		})
	}
	if s.N == 3 {
		v.DummyLeft = rounds - int(s.Round) // the top card is in the row
	}
}

// viewPlayers fills in what the table knows of every player: money only
// for the viewer himself, or for everyone once the game is over.
func (g *Game) viewPlayers(v *View, seat int) {
	s := &g.S
	over := s.Phase == Over
	scores := s.Scores()
	for p, name := range g.names {
		pv := PlayerView{
			Name:        name,
			HandCount:   handCount(s, p),
			Placed:      !over && s.Filled&(1<<uint(s.slotOf(p))) != 0,
			Stake:       int(s.Stake[p]),
			Passed:      !over && s.Passed&(1<<uint(p)) != 0,
			StartPlayer: !over && int(s.Start) == p,
			Won:         kindStrings(kindsOf(s.Won[p])),
			Cats:        catTotal(s.Won[p]),
		}
		if pv.Won == nil {
			pv.Won = []string{}
		}
		if p == seat || over {
			m := int(s.Money[p])
			pv.Money = &m
		}
		if over {
			sc := scores[p]
			pv.Score = &sc
		}
		v.Players = append(v.Players, pv)
	}
}

// viewOwnSeat fills in what only the viewer sees: his hand, money, set-
// aside card, options and standing order.
func (g *Game) viewOwnSeat(v *View, seat int) {
	s := &g.S
	v.Hand = kindStrings(kindsOf(uint64(s.Hand[seat]) << uint(seat*int(numKinds))))
	m := int(s.Money[seat])
	v.Money = &m
	v.SetAside = s.Removed[seat].String()
	v.Options = g.Options(seat)
	if s.Orders&(1<<uint(seat)) != 0 {
		v.Limit = int(s.Limit[seat])
		v.StandingPass = v.Limit == 0
	}
	v.Ahead = s.Phase == Bidding && int(s.Turn) != seat && s.Passed&(1<<uint(seat)) == 0
	if s.Phase == Bidding && int(s.Turn) == seat && s.High+1 > s.owned(seat) {
		v.CannotRaise = &Shortfall{Next: int(s.High) + 1, Owned: int(s.owned(seat))}
	}
}

func handCount(s *State, p int) int {
	n := 0
	for h := s.Hand[p]; h != 0; h &= h - 1 {
		n++
	}
	return n
}

// Summary is what `pbem replay --json` prints: see docs/transcripts.md.
type Summary struct {
	Game     string          `json:"game"`
	Finished bool            `json:"finished"`
	Round    int             `json:"round"`
	Bank     int             `json:"bank"`
	ToMove   []string        `json:"to_move"`
	Players  []PlayerSummary `json:"players"`
	Winners  []string        `json:"winners"`
}

// PlayerSummary is one player's line of a Summary.
type PlayerSummary struct {
	Name  string   `json:"name"`
	Money int      `json:"money"`
	Won   []string `json:"won"`
	Cats  int      `json:"cats"`
	Score int      `json:"score"`
}

func (g *Game) Summary() any {
	s := &g.S
	sum := Summary{
		Game: "felix", Finished: s.Phase == Over, Round: int(s.Round), Bank: int(s.Bank),
		ToMove: []string{}, Winners: []string{},
	}
	for _, p := range g.Waiting() {
		sum.ToMove = append(sum.ToMove, g.names[p])
	}
	scores := s.Scores()
	for p, name := range g.names {
		won := kindStrings(kindsOf(s.Won[p]))
		if won == nil {
			won = []string{}
		}
		sum.Players = append(sum.Players, PlayerSummary{
			Name: name, Money: int(s.Money[p]), Won: won, Cats: catTotal(s.Won[p]), Score: scores[p],
		})
	}
	for _, p := range s.Winners() {
		sum.Winners = append(sum.Winners, g.names[p])
	}
	return sum
}
