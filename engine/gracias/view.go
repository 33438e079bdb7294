package gracias

import (
	"github.com/pbem/pbem/engine"
)

// View is what one player (or, for engine.Public, anyone) may see: every
// face-up card, how many face-down cards each player holds, and the
// scored sessions. A player's own face-down cards are shown only to him;
// nobody ever sees a triplet's face-down card before taking it.
type View struct {
	Game     string          `json:"game"`
	Seat     int             `json:"seat"` // engine.Public for a spectator
	You      string          `json:"you,omitempty"`
	Session  int             `json:"session"`
	Sessions int             `json:"sessions"`
	Round    int             `json:"round"`
	Rounds   int             `json:"rounds"`
	Phase    string          `json:"phase"` // take, keep or finished
	Large    string          `json:"large_start"`
	Small    string          `json:"small_start"`
	Turn     string          `json:"turn,omitempty"` // whom the game waits on
	Waiting  []string        `json:"waiting"`
	DeckLeft int             `json:"deck_left"` // cards of this session's deck not yet dealt
	Triplets []TripletView   `json:"triplets"`
	Players  []PlayerView    `json:"players"`
	FaceDown []string        `json:"face_down,omitempty"` // the viewer's own face-down cards
	Pending  *PendingView    `json:"pending,omitempty"`   // the viewer's taken triplet, before keep and give
	Options  []engine.Option `json:"options,omitempty"`   // what the viewer can do now
	History  []SessionView   `json:"history"`             // the scored sessions
	Finished bool            `json:"finished"`
	Winners  []string        `json:"winners,omitempty"`
}

// TripletView is one triplet of the round as everyone sees it.
type TripletView struct {
	Number  int      `json:"number"`
	FaceUp  []string `json:"face_up"` // its two face-up cards
	Taken   bool     `json:"taken"`
	TakenBy string   `json:"taken_by,omitempty"`
}

// PendingView is the triplet the viewer took alone, with the face-down
// card he has seen, while he decides what to keep and give.
type PendingView struct {
	Number   int      `json:"number"`
	FaceUp   []string `json:"face_up"`
	FaceDown string   `json:"face_down"`
}

// PlayerView is what the viewer may know of one player.
type PlayerView struct {
	Name     string `json:"name"`
	FaceUp   Counts `json:"face_up"`   // face-up cards in the area, by colour
	FaceDown int    `json:"face_down"` // how many face-down cards
	Large    bool   `json:"large_start,omitempty"`
	Small    bool   `json:"small_start,omitempty"`
	Sessions []int  `json:"sessions"` // points of the scored sessions
	Total    int    `json:"total"`
}

// SessionView is one scored session: everything was turned up.
type SessionView struct {
	Session int             `json:"session"`
	Players []SessionPlayer `json:"players"`
}

// SessionPlayer is one player's scoring of a session.
type SessionPlayer struct {
	Name      string `json:"name"`
	Cards     Counts `json:"cards"`     // all cards, the face-down ones included
	Stacks    Counts `json:"stacks"`    // stacks of 5, by colour
	Discarded Counts `json:"discarded"` // the most face-up cards of a colour
	Kept      Counts `json:"kept"`      // face-up cards that score
	Points    int    `json:"points"`
}

func (g *Game) View(seat int) any { return g.view(seat) }

func (g *Game) view(seat int) View {
	s := &g.S
	if seat < 0 || seat >= int(s.N) {
		seat = engine.Public
	}
	over := s.Phase == Over
	v := View{
		Game:     "gracias",
		Seat:     seat,
		Session:  int(s.Session),
		Sessions: sessions,
		Round:    int(s.Round),
		Rounds:   rounds,
		Phase:    s.Phase.String(),
		Large:    g.names[s.Large],
		Small:    g.names[s.Small],
		Waiting:  []string{},
		DeckLeft: deckSize - int(s.Pos),
		Triplets: []TripletView{},
		History:  []SessionView{},
		Finished: over,
	}
	if seat >= 0 {
		v.You = g.names[seat]
	}
	if !over {
		v.Turn = g.names[s.Turn]
		v.Waiting = append(v.Waiting, v.Turn)
		for t := 0; t < int(s.N); t++ {
			a, b := s.pair(t)
			tv := TripletView{Number: t + 1, FaceUp: []string{a.String(), b.String()}}
			if q := s.Trip[t].Taker; q >= 0 {
				tv.Taken, tv.TakenBy = true, g.names[q]
			}
			v.Triplets = append(v.Triplets, tv)
		}
	}
	totals := s.Totals()
	for p, name := range g.names {
		pv := PlayerView{
			Name:     name,
			FaceDown: int(s.NDown[p]),
			Large:    !over && int(s.Large) == p,
			Small:    !over && int(s.Small) == p,
			Sessions: []int{},
			Total:    totals[p],
		}
		for c := Colour(0); c < numColours; c++ {
			pv.FaceUp[c] = int(s.Up[p][c])
		}
		for si := 0; si < s.Scored(); si++ {
			pv.Sessions = append(pv.Sessions, int(s.Points[si][p]))
		}
		v.Players = append(v.Players, pv)
	}
	if seat >= 0 {
		for i := 0; i < int(s.NDown[seat]); i++ {
			v.FaceDown = append(v.FaceDown, s.colourAt(s.Down[seat][i]).String())
		}
		if s.Phase == Keeping && int(s.Turn) == seat {
			t := int(s.Pending)
			a, b := s.pair(t)
			v.Pending = &PendingView{Number: t + 1, FaceUp: []string{a.String(), b.String()}, FaceDown: s.colourAt(s.Trip[t].Down).String()}
		}
		v.Options = g.Options(seat)
	}
	for si := 0; si < s.Scored(); si++ {
		r := s.scoringOf(si)
		sv := SessionView{Session: si + 1}
		for p, name := range g.names {
			sv.Players = append(sv.Players, SessionPlayer{
				Name: name, Cards: r.cards[p], Stacks: r.stacks[p], Discarded: r.discarded[p], Kept: r.kept[p], Points: r.points[p],
			})
		}
		v.History = append(v.History, sv)
	}
	for _, p := range s.Winners() {
		v.Winners = append(v.Winners, g.names[p])
	}
	return v
}

// Summary is what `pbem replay --json` prints: see docs/transcripts.md.
type Summary struct {
	Game     string          `json:"game"`
	Finished bool            `json:"finished"`
	Round    int             `json:"round"`
	Session  int             `json:"session"`
	ToMove   []string        `json:"to_move"`
	Players  []PlayerSummary `json:"players"`
	Winners  []string        `json:"winners"`
}

// PlayerSummary is one player's line of a Summary.
type PlayerSummary struct {
	Name     string `json:"name"`
	Score    int    `json:"score"`    // the total so far
	Sessions []int  `json:"sessions"` // points of the scored sessions
}

func (g *Game) Summary() any {
	s := &g.S
	sum := Summary{
		Game: "gracias", Finished: s.Phase == Over, Round: int(s.Round), Session: int(s.Session),
		ToMove: []string{}, Winners: []string{},
	}
	for _, p := range g.Waiting() {
		sum.ToMove = append(sum.ToMove, g.names[p])
	}
	totals := s.Totals()
	for p, name := range g.names {
		ps := PlayerSummary{Name: name, Score: totals[p], Sessions: []int{}}
		for si := 0; si < s.Scored(); si++ {
			ps.Sessions = append(ps.Sessions, int(s.Points[si][p]))
		}
		sum.Players = append(sum.Players, ps)
	}
	for _, p := range s.Winners() {
		sum.Winners = append(sum.Winners, g.names[p])
	}
	return sum
}
