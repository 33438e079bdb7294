package gracias

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/pbem/pbem/engine"
)

// Bots (engine.Sampling): what a seat knows of a Gracias game, and how the
// rest is drawn.
//
// The view holds all a seat knows: every face-up card (in the areas and
// in the round's triplets), how many face-down cards each player holds,
// its own face-down cards, the scored sessions. What it does not know is
// the colour of the other players' face-down cards, of the triplets'
// face-down cards and of the rest of this session's deck; the sessions to
// come are fresh shuffles. A sample deals the cards of this session that
// the seat has not seen (18 of each colour, less those it saw) at random
// to those places, and shuffles the later sessions' decks; the log adds
// nothing, as everything turned up so far is still in view until the
// session is scored.
//
// The bot's own turn: a sample's moves are "take T keep C give P" in one,
// and the search picks the best of them, but the bot only sends "take T"
// (Command below): it then sees the triplet's face-down card and chooses
// what to keep and give with that in its knowledge, as a person would.

var _ engine.Sampling = Rules{}

// NewSampler reads what k's seat knows: its view. First what is in sight
// (the scored sessions, the areas, the triplets, the seat's own face-down
// cards), then which places of this session's deck hold a card the seat
// has not seen and which cards those are; Sample deals them.
func (Rules) NewSampler(k engine.Knowledge) (engine.Sampler, error) {
	v, ok := k.View().(View)
	if !ok {
		return nil, fmt.Errorf("gracias: the knowledge holds a %T, not a Gracias view", k.View())
	}
	names := k.Players()
	n, seat := len(names), k.Seat()
	switch {
	case n < minPlayers || n > maxPlayers || len(v.Players) != n:
		return nil, errors.New("gracias: the knowledge's players do not match its view")
	case seat < 0 || seat >= n || v.Seat != seat:
		return nil, errors.New("gracias: the knowledge is not a player's")
	case v.Session < 1 || v.Session > sessions || v.Round < 1 || v.Round > rounds:
		return nil, errors.New("gracias: session or round out of range")
	case len(v.History) > sessions:
		return nil, errors.New("gracias: too many scored sessions")
	}
	sm := &sampler{seat: seat, names: names}
	s := &sm.base
	s.N = int8(n)
	s.Session, s.Round = int8(v.Session), int8(v.Round)
	s.Pending = -1
	if err := readHistory(s, v); err != nil {
		return nil, err
	}
	switch v.Phase {
	case Taking.String():
		s.Phase = Taking
	case Keeping.String():
		s.Phase = Keeping
	case Over.String():
		s.Phase = Over
		return sm, nil // nothing is left to decide or to hide
	default:
		return nil, fmt.Errorf("gracias: unknown phase %q", v.Phase)
	}
	unseen, err := readInSight(s, v, names, seat)
	if err != nil {
		return nil, err
	}
	if err := sm.findUnseen(unseen); err != nil {
		return nil, err
	}
	return sm, nil
}

// readHistory copies the scored sessions into s.
func readHistory(s *State, v View) error {
	for si, sv := range v.History {
		if len(sv.Players) != int(s.N) {
			return errors.New("gracias: a scored session does not match the players")
		}
		for p, sp := range sv.Players {
			for c := range sp.Cards {
				s.Cards[si][p][c] = int8(sp.Cards[c])
			}
			s.Points[si][p] = int8(sp.Points)
		}
	}
	return nil
}

// readInSight copies into s what the view shows of a session in play:
// the start cards and turn, the areas, the triplets and the seat's own
// face-down cards, with each card at its place in this session's deck.
// It returns how many cards of each colour of the session the seat has
// not seen.
func readInSight(s *State, v View, names []string, seat int) (Counts, error) {
	var unseen Counts
	n := int(s.N)
	large, small, turn := indexOf(names, v.Large), indexOf(names, v.Small), indexOf(names, v.Turn)
	if large < 0 || small < 0 || turn < 0 || len(v.Triplets) != n {
		return unseen, errors.New("gracias: the view names no start player or turn, or lacks triplets")
	}
	s.Large, s.Small, s.Turn = int8(large), int8(small), int8(turn)
	s.First = int8(((large-(v.Session-1))%n + n) % n)
	s.Pos = int8(deckSize - v.DeckLeft)
	base := int(s.Pos) - 3*n
	if v.DeckLeft < 0 || base < startCards*n {
		return unseen, errors.New("gracias: the deck count does not fit a laid-out round")
	}
	for c := range unseen {
		unseen[c] = perColour
	}
	if err := readAreas(s, v, &unseen); err != nil {
		return unseen, err
	}
	took, err := readTriplets(s, v, names, base)
	if err != nil {
		return unseen, err
	}
	if s.Phase == Keeping {
		// The triplet the player to move took is the pending one: its
		// face-up cards are still on the table.
		if took[turn] < 0 {
			return unseen, errors.New("gracias: the player keeping took no triplet")
		}
		s.Pending = int8(took[turn])
		s.Moved--
	}
	deck := &s.Deck[s.Session-1]
	for t := 0; t < n; t++ {
		if s.Trip[t].Taker < 0 || t == int(s.Pending) {
			for _, pos := range s.Trip[t].Up {
				unseen[deck[pos]]--
			}
		}
	}
	placeFaceDown(s, took)
	if len(v.FaceDown) != int(s.NDown[seat]) {
		return unseen, errors.New("gracias: the view's own face-down cards do not match their count")
	}
	for i, name := range v.FaceDown {
		c, ok := ParseColour(name)
		if !ok {
			return unseen, fmt.Errorf("gracias: %q is not a colour", name)
		}
		deck[s.Down[seat][i]] = c
		unseen[c]--
	}
	return unseen, nil
}

// readAreas copies each player's face-up cards and face-down count into
// s, and takes the face-up cards off unseen.
func readAreas(s *State, v View, unseen *Counts) error {
	for p, pv := range v.Players {
		for c := range pv.FaceUp {
			s.Up[p][c] = int8(pv.FaceUp[c])
			unseen[c] -= pv.FaceUp[c]
		}
		if pv.FaceDown < 0 || pv.FaceDown > rounds {
			return errors.New("gracias: face-down count out of range")
		}
		s.NDown[p] = int8(pv.FaceDown)
	}
	return nil
}

// readTriplets lays out the round's triplets from the deck position base
// on, with their face-up cards and takers, and returns the triplet each
// seat took this round, or -1.
func readTriplets(s *State, v View, names []string, base int) ([]int, error) {
	n := int(s.N)
	deck := &s.Deck[s.Session-1]
	took := make([]int, n)
	for p := range took {
		took[p] = -1
	}
	for t, tv := range v.Triplets {
		tr := Triplet{Up: [2]int8{int8(base + t), int8(base + n + t)}, Down: int8(base + 2*n + t), Taker: -1}
		if len(tv.FaceUp) != 2 {
			return nil, errors.New("gracias: a triplet has not two face-up cards")
		}
		for i, name := range tv.FaceUp {
			c, ok := ParseColour(name)
			if !ok {
				return nil, fmt.Errorf("gracias: %q is not a colour", name)
			}
			deck[tr.Up[i]] = c
		}
		if tv.Taken {
			q := indexOf(names, tv.TakenBy)
			if q < 0 {
				return nil, fmt.Errorf("gracias: triplet %d was taken by %q, not a player", t+1, tv.TakenBy)
			}
			tr.Taker, took[q] = int8(q), t
			s.Moved++
		}
		s.Trip[t] = tr
	}
	return took, nil
}

// placeFaceDown gives each player's face-down cards their deck positions:
// one from each earlier round, from that round's face-down positions
// (which one is no matter), and this round's from the triplet taken.
func placeFaceDown(s *State, took []int) {
	n := int(s.N)
	for p := 0; p < n; p++ {
		nd := int(s.NDown[p])
		for i := 0; i < nd; i++ {
			if i == nd-1 && took[p] >= 0 {
				s.Down[p][i] = s.Trip[took[p]].Down
			} else {
				s.Down[p][i] = int8(startCards*n + i*3*n + 2*n + p)
			}
		}
	}
}

// findUnseen lists the places of the unseen cards (the others' face-down
// cards, the triplets' still on the table, the deck) and the unseen
// cards themselves, which must be as many.
func (sm *sampler) findUnseen(unseen Counts) error {
	s := &sm.base
	n := int(s.N)
	for p := 0; p < n; p++ {
		if p != sm.seat {
			sm.slots = append(sm.slots, s.Down[p][:s.NDown[p]]...)
		}
	}
	for t := 0; t < n; t++ {
		if s.Trip[t].Taker < 0 {
			sm.slots = append(sm.slots, s.Trip[t].Down)
		}
	}
	for pos := int(s.Pos); pos < deckSize; pos++ {
		sm.slots = append(sm.slots, int8(pos))
	}
	for c, k := range unseen {
		if k < 0 {
			return errors.New("gracias: the view shows more cards of a colour than there are")
		}
		for ; k > 0; k-- {
			sm.unseen = append(sm.unseen, Colour(c))
		}
	}
	if len(sm.unseen) != len(sm.slots) {
		return fmt.Errorf("gracias: %d unseen cards for %d places", len(sm.unseen), len(sm.slots))
	}
	return nil
}

// sampler deals the unseen cards of one seat's knowledge.
type sampler struct {
	base   State // what the seat knows; the unseen cards still to deal
	seat   int
	names  []string
	slots  []int8   // this session's deck positions whose colour is unseen
	unseen []Colour // the unseen cards
}

func (sm *sampler) Sample(rng *rand.Rand) engine.Playout {
	pl := &botPlayout{s: sm.base, names: sm.names}
	s := &pl.s
	if s.Phase == Over {
		return pl
	}
	deck := &s.Deck[s.Session-1]
	// A partial Fisher-Yates shuffle over the unseen cards, dealt as it goes.
	var cards [deckSize]Colour
	k := copy(cards[:], sm.unseen)
	for i, pos := range sm.slots {
		j := i + rng.IntN(k-i)
		cards[i], cards[j] = cards[j], cards[i]
		deck[pos] = cards[i]
	}
	for si := int(s.Session); si < sessions; si++ {
		Shuffle(&s.Deck[si], rng.IntN)
	}
	return pl
}

// botPlayout is a Gracias position for a bot's simulations.
type botPlayout struct {
	s     State
	names []string
}

// peek marks a bot's own take-keep-give move that it sends as "take T"
// only, to choose what to keep after seeing the face-down card.
const peek = 1 << 16

func packMove(m Move) engine.Move {
	return engine.Move(uint32(m.Op) | uint32(uint8(m.T))<<4 | uint32(uint8(m.Keep))<<8 | uint32(uint8(m.Give))<<12)
}

func unpackMove(m engine.Move) Move {
	return Move{Op: Op(m & 0xf), T: int8(m >> 4 & 0xf), Keep: Colour(m >> 8 & 0xf), Give: int8(m >> 12 & 0xf)}
}

func (pl *botPlayout) Waiting() uint64 { return uint64(pl.s.WaitingMask()) }

// Moves are the one-step moves (take, keep and give), or keep and give
// after a take: the two-step take is how such a move is sent (peek).
func (pl *botPlayout) Moves(p int, buf []engine.Move) []engine.Move {
	s := &pl.s
	if s.Phase == Over || p != int(s.Turn) {
		return buf
	}
	if s.Phase == Keeping {
		var ms [2 * maxPlayers]Move
		for _, m := range s.keeps(p, OpKeep, int(s.Pending), ms[:0]) {
			buf = append(buf, packMove(m))
		}
		return buf
	}
	var ms [2 * maxPlayers * maxPlayers]Move
	for t := 0; t < int(s.N); t++ {
		if s.Trip[t].Taker >= 0 {
			continue
		}
		for _, m := range s.keeps(p, OpTakeKeep, t, ms[:0]) {
			buf = append(buf, packMove(m)|peek)
		}
	}
	return buf
}

func (pl *botPlayout) Default(p int) engine.Move {
	m, _ := pl.s.DefaultMove(p)
	return packMove(m)
}

// Policy takes a random triplet, keeps one of its face-up cards at random
// and gives the other to a random opponent.
func (pl *botPlayout) Policy(p int, rng *rand.Rand) engine.Move {
	s := &pl.s
	n := int(s.N)
	m := Move{Op: OpKeep, T: s.Pending, Give: int8((p + 1 + rng.IntN(n-1)) % n)}
	if s.Phase == Taking {
		m.Op = OpTakeKeep
		left := n - int(s.Moved)
		for i, t := rng.IntN(left), 0; ; t++ {
			if s.Trip[t].Taker >= 0 {
				continue
			}
			if i == 0 {
				m.T = int8(t)
				break
			}
			i--
		}
	}
	a, b := s.pair(int(m.T))
	m.Keep = a
	if rng.IntN(2) == 0 {
		m.Keep = b
	}
	return packMove(m)
}

func (pl *botPlayout) Play(p int, m engine.Move) { pl.s.step(p, unpackMove(m), nil) }

// Reward is mostly the win (shared on a tie after the rules' tie-breaks)
// and a little of the margin of points over the best other total.
func (pl *botPlayout) Reward(p int) float64 {
	s := &pl.s
	key := func(q int) [3]int {
		a, b, c := int(s.Points[0][q]), int(s.Points[1][q]), int(s.Points[2][q])
		hi := max(a, b, c)
		return [3]int{a + b + c, hi, a + b + c - hi - min(a, b, c)}
	}
	kp := key(p)
	best, ahead, shared := -1<<30, true, 1
	for q := 0; q < int(s.N); q++ {
		if q == p {
			continue
		}
		kq := key(q)
		best = max(best, kq[0])
		switch {
		case kq == kp:
			shared++
		case kq[0] > kp[0] || kq[0] == kp[0] && (kq[1] > kp[1] || kq[1] == kp[1] && kq[2] > kp[2]):
			ahead = false
		}
	}
	win := 0.0
	if ahead {
		win = 1 / float64(shared)
	}
	margin := min(max(0.5+float64(kp[0]-best)/30, 0), 1)
	return 0.85*win + 0.15*margin
}

func (pl *botPlayout) Command(_ int, m engine.Move) engine.Command {
	mv := unpackMove(m)
	if m&peek != 0 {
		mv.Op = OpTake
	}
	g := Game{names: pl.names}
	return g.command(mv)
}

func (pl *botPlayout) Clone() engine.Playout { c := *pl; return &c }
