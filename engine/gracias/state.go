package gracias

import (
	"fmt"
	"strings"

	"github.com/pbem/pbem/engine"
)

const (
	minPlayers = 3
	maxPlayers = 6
	perColour  = 18
	deckSize   = int(numColours) * perColour // 108
	sessions   = 3
	rounds     = 4
	startCards = 2 // dealt face up to each player at the start of a session
	stackSize  = 5 // cards of one colour that make a face-down stack
)

// Phase is what the game waits for.
type Phase int8

const (
	// Taking: Turn must take a triplet (and may keep and give at once).
	Taking Phase = iota
	// Keeping: Turn took triplet Pending alone and must now keep one of
	// its face-up cards and give the other away.
	Keeping
	// Over: the third session is scored.
	Over
)

var phaseNames = [...]string{"take", "keep", "finished"}

func (p Phase) String() string {
	if p < 0 || int(p) >= len(phaseNames) {
		return "?"
	}
	return phaseNames[p]
}

// Op is the kind of a Move.
type Op int8

const (
	// OpTake takes triplet T and looks at its face-down card; the keep
	// decision follows as OpKeep.
	OpTake Op = iota
	// OpKeep keeps the face-up card of colour Keep of the taken triplet
	// and gives the other to seat Give.
	OpKeep
	// OpTakeKeep is OpTake and OpKeep in one move.
	OpTakeKeep
)

// Move is a command in the engine's compact form, for bots and playouts.
type Move struct {
	Op   Op
	T    int8 // OpTake, OpTakeKeep: the triplet, from 0
	Keep Colour
	Give int8 // the seat that receives the other face-up card
}

// Triplet is one of a round's triplets: positions in the session's deck.
type Triplet struct {
	Up    [2]int8 // the two face-up cards
	Down  int8    // the face-down card
	Taker int8    // the seat that took it, or -1
}

// State is the whole game as plain values: no pointers, so copying it is
// a cheap copy of a small struct, and it serializes as it is.
//
// Every card of the session is named by its position in that session's
// deck; face-up cards in the areas are only counted per colour, since the
// rules never tell two cards of one colour apart.
type State struct {
	N       int8  // number of players
	Phase   Phase // what the game waits for
	First   int8  // holder of both start cards in session 1
	Session int8  // 1..3
	Round   int8  // round within the session, 1..4
	Large   int8  // holder of the large start card
	Small   int8  // holder of the small start card: starts this round
	Turn    int8  // the seat to act
	Moved   int8  // turns finished this round
	Pos     int8  // cards dealt from this session's deck
	Pending int8  // Keeping: the triplet Turn took; else -1

	Trip  [maxPlayers]Triplet
	Up    [maxPlayers][numColours]int8 // face-up cards in each area, by colour
	Down  [maxPlayers][rounds]int8     // face-down cards in each area: deck positions
	NDown [maxPlayers]int8

	// Cards holds, for each scored session, every player's cards by
	// colour after the face-down ones joined the face-up ones; stacks,
	// discards and points follow from it.
	Cards  [sessions][maxPlayers][numColours]int8
	Points [sessions][maxPlayers]int8

	Deck [sessions][deckSize]Colour // each session's shuffled deck, top first
}

// Scored is the number of sessions scored so far.
func (s *State) Scored() int {
	if s.Phase == Over {
		return sessions
	}
	return int(s.Session) - 1
}

// colourAt is the colour of the card at position i of this session's deck.
func (s *State) colourAt(i int8) Colour { return s.Deck[s.Session-1][i] }

// reset sets s up for n players with the given first start player and
// session decks, and opens session 1. rec, when not nil, records it.
func (s *State) reset(n, first int, decks *[sessions][deckSize]Colour, rec *engine.Recorder) {
	*s = State{N: int8(n), First: int8(first), Session: 1, Deck: *decks}
	s.startSession(rec)
}

// NewState returns a game for n players whose session 1 start player is
// first, with the given session decks (top first). It is the fast path for
// bots and playouts; New checks the same things for people.
func NewState(n, first int, decks *[sessions][deckSize]Colour) State {
	var s State
	s.reset(n, first, decks, nil)
	return s
}

// WaitingMask has a bit for the seat the game waits on.
func (s *State) WaitingMask() uint8 {
	if s.Phase == Over {
		return 0
	}
	return 1 << uint(s.Turn)
}

// pair is the colours of triplet t's face-up cards.
func (s *State) pair(t int) (Colour, Colour) {
	tr := &s.Trip[t]
	return s.colourAt(tr.Up[0]), s.colourAt(tr.Up[1])
}

// Legal appends every legal move of seat p to buf.
func (s *State) Legal(p int, buf []Move) []Move {
	if s.Phase == Over || p != int(s.Turn) {
		return buf
	}
	n := int(s.N)
	if s.Phase == Keeping {
		return s.keeps(p, OpKeep, int(s.Pending), buf)
	}
	for t := 0; t < n; t++ {
		if s.Trip[t].Taker >= 0 {
			continue
		}
		buf = append(buf, Move{Op: OpTake, T: int8(t)})
		buf = s.keeps(p, OpTakeKeep, t, buf)
	}
	return buf
}

// keeps appends the keep-and-give moves of seat p for triplet t.
func (s *State) keeps(p int, op Op, t int, buf []Move) []Move {
	a, b := s.pair(t)
	for q := 0; q < int(s.N); q++ {
		if q == p {
			continue
		}
		buf = append(buf, Move{Op: op, T: int8(t), Keep: a, Give: int8(q)})
		if b != a {
			buf = append(buf, Move{Op: op, T: int8(t), Keep: b, Give: int8(q)})
		}
	}
	return buf
}

// Step applies a move if it is legal and reports whether it was.
func (s *State) Step(p int, m Move) bool {
	if s.check(p, m, nil) != "" {
		return false
	}
	s.step(p, m, nil)
	return true
}

// DefaultMove is the move made for seat p when its deadline passes (see
// docs/gracias.md): the lowest-numbered triplet still there (or the one it
// took); keep the colour of which p has fewer face-up cards, the first
// face-up card on a tie; give the other to the next player clockwise.
func (s *State) DefaultMove(p int) (Move, bool) {
	if s.Phase == Over || p != int(s.Turn) {
		return Move{}, false
	}
	m := Move{Op: OpKeep, T: s.Pending, Give: int8((p + 1) % int(s.N))}
	if s.Phase == Taking {
		m.Op = OpTakeKeep
		for t := 0; t < int(s.N); t++ {
			if s.Trip[t].Taker < 0 {
				m.T = int8(t)
				break
			}
		}
	}
	a, b := s.pair(int(m.T))
	m.Keep = a
	if s.Up[p][b] < s.Up[p][a] {
		m.Keep = b
	}
	return m, true
}

// check returns why seat p may not make move m now, or "" if it may. The
// reason is read by p, who tried, so it speaks to him ("you have taken
// triplet 2 already"); names is only used to name the others.
func (s *State) check(p int, m Move, names []string) string {
	name := func(q int) string {
		if names == nil || q < 0 || q >= len(names) {
			return "?"
		}
		return names[q]
	}
	n := int(s.N)
	if p < 0 || p >= n {
		return "no such player"
	}
	if s.Phase == Over {
		return "the game is over"
	}
	if p != int(s.Turn) {
		if s.Phase == Keeping {
			return fmt.Sprintf("it is %s's turn: %s is choosing what to keep from triplet %d", name(int(s.Turn)), name(int(s.Turn)), s.Pending+1)
		}
		return fmt.Sprintf("it is %s's turn", name(int(s.Turn)))
	}
	t := int(m.T)
	switch m.Op {
	case OpTake, OpTakeKeep:
		if s.Phase == Keeping {
			return fmt.Sprintf("you have taken triplet %d already: now keep one of its face-up cards and give the other to an opponent", s.Pending+1)
		}
		if t < 0 || t >= n {
			return fmt.Sprintf("there is no triplet %d: the triplets are numbered 1 to %d", t+1, n)
		}
		if q := int(s.Trip[t].Taker); q == p {
			return fmt.Sprintf("you have already taken triplet %d", t+1)
		} else if q >= 0 {
			return fmt.Sprintf("triplet %d was already taken by %s", t+1, name(q))
		}
		if m.Op == OpTake {
			return ""
		}
	case OpKeep:
		if s.Phase != Keeping {
			return "you must take a triplet first (or take, keep and give at once: take T keep COLOUR give PLAYER)"
		}
		t = int(s.Pending)
	default:
		return "unknown move"
	}
	a, b := s.pair(t)
	if m.Keep != a && m.Keep != b {
		if a == b {
			return fmt.Sprintf("triplet %d has no %s face-up card: both its face-up cards are %s", t+1, m.Keep, a)
		}
		return fmt.Sprintf("triplet %d has no %s face-up card: its face-up cards are %s and %s", t+1, m.Keep, a, b)
	}
	if int(m.Give) == p {
		return "the other card must go to an opponent, not to you"
	}
	if m.Give < 0 || int(m.Give) >= n {
		return "no such player to give to"
	}
	return ""
}

// step applies a legal move. rec, when not nil, records what happened.
func (s *State) step(p int, m Move, rec *engine.Recorder) {
	switch m.Op {
	case OpTake:
		s.take(p, int(m.T), true, rec)
	case OpKeep:
		s.keep(p, int(s.Pending), m.Keep, int(m.Give), rec)
	case OpTakeKeep:
		s.take(p, int(m.T), false, rec)
		s.keep(p, int(m.T), m.Keep, int(m.Give), rec)
	}
}

// take gives triplet t's face-down card to seat p. alone is a two-step
// turn: the keep decision waits for the next move.
func (s *State) take(p, t int, alone bool, rec *engine.Recorder) {
	tr := &s.Trip[t]
	tr.Taker = int8(p)
	s.Down[p][s.NDown[p]] = tr.Down
	s.NDown[p]++
	if alone {
		s.Phase = Keeping
		s.Pending = int8(t)
	}
	if rec != nil {
		a, b := s.pair(t)
		hidden := s.colourAt(tr.Down)
		// The others read which triplet p took; p reads that and the
		// card only he has seen, once.
		rec.Others(p, "take", "%s takes triplet %d (%s and %s face up, one face down).", rec.Names[p], t+1, logColour(a), logColour(b))
		if alone {
			// The mail that carries it lists the keep-and-give commands.
			rec.Private(p, "peek", "You take triplet %d (%s and %s face up). Its face-down card is %s; it is now face down in your area. Now keep one face-up card and give the other to an opponent.", t+1, logColour(a), logColour(b), logColour(hidden))
		} else {
			rec.Private(p, "peek", "You take triplet %d (%s and %s face up). Its face-down card is %s; it is now face down in your area.", t+1, logColour(a), logColour(b), logColour(hidden))
		}
	}
}

// keep gives seat p the face-up card of colour c from triplet t and seat
// q the other one, and moves the game on.
func (s *State) keep(p, t int, c Colour, q int, rec *engine.Recorder) {
	a, b := s.pair(t)
	other := b
	if c == b {
		other = a
	}
	s.Up[p][c]++
	s.Up[q][other]++
	s.Phase = Taking
	s.Pending = -1
	if rec != nil {
		rec.Public("keep", "%s keeps %s and gives %s to %s. Gracias!", rec.Names[p], logColour(c), logColour(other), rec.Names[q])
	}
	s.Moved++
	if int(s.Moved) < int(s.N) {
		s.Turn = int8((p + 1) % int(s.N))
		if rec != nil {
			rec.Public("turn", "%s chooses next.", rec.Names[s.Turn])
		}
		return
	}
	s.endRound(rec)
}

// startSession passes the large start card on (in session 1 its first
// holder keeps it), gives its holder the small one too, and deals a fresh
// deck: two face-up cards to each player from the dealer on, then the
// first round's triplets.
func (s *State) startSession(rec *engine.Recorder) {
	n := int(s.N)
	s.Large = int8((int(s.First) + int(s.Session) - 1) % n)
	s.Small = s.Large
	s.Round = 1
	s.Pos = 0
	s.Up = [maxPlayers][numColours]int8{}
	s.NDown = [maxPlayers]int8{}
	for i := 0; i < n; i++ {
		p := (int(s.Large) + i) % n
		for k := 0; k < startCards; k++ {
			s.Up[p][s.colourAt(s.Pos)]++
			s.Pos++
		}
	}
	if rec != nil {
		parts := make([]any, n)
		for i := 0; i < n; i++ {
			p := (int(s.Large) + i) % n
			at := int8(i * startCards)
			parts[i] = engine.W("%s %s and %s", rec.Names[p], logColour(s.colourAt(at)), logColour(s.colourAt(at+1)))
		}
		rec.Public("session", "Session %d of %d: %s holds both start cards, shuffles all %d cards and deals two face up to each player: %s.",
			s.Session, sessions, rec.Names[s.Large], deckSize, engine.Join("; ", parts...))
	}
	s.layOut(rec)
}

// layOut opens a round: the small start player lays out one triplet per
// player (first face-up cards, second face-up cards, face-down cards) and
// chooses first.
func (s *State) layOut(rec *engine.Recorder) {
	n := int8(s.N)
	for t := int8(0); t < n; t++ {
		s.Trip[t] = Triplet{Up: [2]int8{s.Pos + t, s.Pos + n + t}, Down: s.Pos + 2*n + t, Taker: -1}
	}
	s.Pos += 3 * n
	s.Phase = Taking
	s.Pending = -1
	s.Turn = s.Small
	s.Moved = 0
	if rec != nil {
		parts := make([]any, n)
		for t := range parts {
			a, b := s.pair(t)
			parts[t] = engine.W("%d: %s and %s", t+1, logColour(a), logColour(b))
		}
		rec.Public("round", "Session %d, round %d of %d: %s, with the small start card, lays out %d triplets, each with a card face down (%s), and chooses first.",
			s.Session, s.Round, rounds, rec.Names[s.Small], n, engine.Join("; ", parts...))
	}
}

// endRound passes the small start card on and opens the next round, or
// scores the session after the fourth.
func (s *State) endRound(rec *engine.Recorder) {
	if s.Round < rounds {
		s.Round++
		s.Small = int8((int(s.Small) + 1) % int(s.N))
		s.layOut(rec)
		return
	}
	s.score(rec)
	if s.Session == sessions {
		s.Phase = Over
		s.Pending = -1
		if rec != nil {
			rec.Public("end", "That was the third and last session: the game is over.")
		}
		return
	}
	s.Session++
	s.startSession(rec)
}

// score scores the session: the face-down cards join the face-up ones,
// every 5 of a colour become a stack, the most face-up cards of each
// colour are discarded, and each remaining card and stack is a point.
// After the last session the areas stay as scored: only the cards that
// were not stacked or discarded face up.
func (s *State) score(rec *engine.Recorder) {
	n := int(s.N)
	si := int(s.Session) - 1
	all := &s.Cards[si]
	for p := 0; p < n; p++ {
		all[p] = s.Up[p]
		for i := 0; i < int(s.NDown[p]); i++ {
			all[p][s.colourAt(s.Down[p][i])]++
		}
	}
	if rec == nil && s.Session < sessions {
		// The playout path: points only, without the words.
		s.Points[si] = sessionPoints(n, all)
		return
	}
	r := scoreCards(n, all)
	for p := 0; p < n; p++ {
		s.Points[si][p] = int8(r.points[p])
	}
	// Tell the scoring before the last session's cards are put away, so
	// the log can name the face-down cards it reveals.
	if rec != nil {
		s.recordScoring(r, rec)
	}
	if s.Session == sessions {
		for p := 0; p < n; p++ {
			for c := Colour(0); c < numColours; c++ {
				s.Up[p][c] = int8(r.kept[p][c])
			}
			s.NDown[p] = 0
		}
	}
}

// sessionPoints is scoreCards' points alone, for playouts.
func sessionPoints(n int, all *[maxPlayers][numColours]int8) [maxPlayers]int8 {
	var pts [maxPlayers]int8
	for c := Colour(0); c < numColours; c++ {
		most := int8(0)
		for p := 0; p < n; p++ {
			most = max(most, all[p][c]%stackSize)
		}
		for p := 0; p < n; p++ {
			k := all[p][c]
			pts[p] += k / stackSize
			if up := k % stackSize; up != most {
				pts[p] += up
			}
		}
	}
	return pts
}

// scoring is one session's scoring worked out from the cards.
type scoring struct {
	cards     [maxPlayers]Counts // all cards after the reveal
	stacks    [maxPlayers]Counts // stacks of 5 by colour
	up        [maxPlayers]Counts // face up after stacking
	discarded [maxPlayers]Counts
	kept      [maxPlayers]Counts // face up after the discards
	most      Counts             // the most face-up cards of each colour
	points    [maxPlayers]int
}

func scoreCards(n int, all *[maxPlayers][numColours]int8) scoring {
	var r scoring
	for p := 0; p < n; p++ {
		for c := Colour(0); c < numColours; c++ {
			k := int(all[p][c])
			r.cards[p][c] = k
			r.stacks[p][c] = k / stackSize
			r.up[p][c] = k % stackSize
			r.most[c] = max(r.most[c], r.up[p][c])
		}
	}
	for p := 0; p < n; p++ {
		for c := Colour(0); c < numColours; c++ {
			if r.up[p][c] > 0 && r.up[p][c] == r.most[c] {
				r.discarded[p][c] = r.up[p][c]
			} else {
				r.kept[p][c] = r.up[p][c]
			}
			r.points[p] += r.stacks[p][c] + r.kept[p][c]
		}
	}
	return r
}

// scoringOf works out scored session si (from 0).
func (s *State) scoringOf(si int) scoring { return scoreCards(int(s.N), &s.Cards[si]) }

func (s *State) recordScoring(r scoring, rec *engine.Recorder) {
	n := int(s.N)
	si := int(s.Session) - 1
	for p := 0; p < n; p++ {
		var hidden []Colour
		for i := 0; i < int(s.NDown[p]); i++ {
			hidden = append(hidden, s.colourAt(s.Down[p][i]))
		}
		var stacks []any
		for c := Colour(0); c < numColours; c++ {
			if k := r.stacks[p][c]; k > 0 {
				stacks = append(stacks, engine.W("%d %s (%s)", k*stackSize, logColour(c), engine.W(stacksKey, k)))
			}
		}
		if len(stacks) > 0 {
			rec.Public("reveal", "%s's face-down cards are %s: with them %s has %s. Stacked face down: %s.", rec.Names[p], logColours(hidden), rec.Names[p], logCounts(r.cards[p]), engine.And(stacks...))
		} else {
			rec.Public("reveal", "%s's face-down cards are %s: with them %s has %s.", rec.Names[p], logColours(hidden), rec.Names[p], logCounts(r.cards[p]))
		}
	}
	for c := Colour(0); c < numColours; c++ {
		if r.most[c] == 0 {
			rec.Public("colour", "%s: nobody has a face-up %s card.", logCapital(c), logColour(c))
			continue
		}
		var who []any
		for p := 0; p < n; p++ {
			if r.discarded[p][c] > 0 {
				who = append(who, rec.Names[p])
			}
		}
		switch {
		case len(who) > 1:
			rec.Public("colour", "%s: %s tie (%d face up each) and discard them.", logCapital(c), engine.And(who...), r.most[c])
		case r.most[c] == 1:
			rec.Public("colour", "%s: %s has the most face up and discards it.", logCapital(c), who[0])
		default:
			rec.Public("colour", "%s: %s has the most face up and discards all %d.", logCapital(c), who[0], r.most[c])
		}
	}
	parts := make([]any, n)
	for p := 0; p < n; p++ {
		// The totals so far are on every mail's table; the session's
		// own points are what this says.
		st := r.stacks[p].Total()
		parts[p] = engine.W("%s %d (%s, %s)", rec.Names[p], r.points[p], engine.W(stacksKey, st), engine.W(cardsKey, r.kept[p].Total()))
	}
	rec.Public("score", "Session %d points: %s.", si+1, engine.Join(", ", parts...))
}

// The log's counts with their nouns, which choose their form by the
// count (engine.EnglishPlural; locales/LANG/events.toml).
var (
	stacksKey = engine.EnglishPlural("%d stack", "%d stacks")
	cardsKey  = engine.EnglishPlural("%d card", "%d cards")
	pointsKey = engine.EnglishPlural("%d point", "%d points")
)

// logCounts lists a player's cards by colour for the log: "3 red and 1
// blue".
func logCounts(n Counts) engine.Phrase {
	var parts []any
	for c := Colour(0); c < numColours; c++ {
		if n[c] > 0 {
			parts = append(parts, engine.W("%d %s", n[c], logColour(c)))
		}
	}
	if len(parts) == 0 {
		return engine.W("no cards")
	}
	return engine.And(parts...)
}

// logColour is a colour for the log, as its word, which the catalogs
// translate (locales/LANG/nouns.toml).
func logColour(c Colour) engine.Phrase { return engine.W(c.String()) }

// logCapital is a colour's word with a capital, at the start of a
// sentence ("Red: ..."): a key of its own (locales/LANG/events.toml).
func logCapital(c Colour) engine.Phrase {
	s := c.String()
	return engine.W(strings.ToUpper(s[:1]) + s[1:])
}

// logColours lists colours for the log: "red, red and blue".
func logColours(cs []Colour) engine.Phrase {
	items := make([]any, len(cs))
	for i, c := range cs {
		items[i] = logColour(c)
	}
	return engine.And(items...)
}

// Totals are the points of the sessions scored so far, by seat.
func (s *State) Totals() []int {
	out := make([]int, s.N)
	for si := 0; si < s.Scored(); si++ {
		for p := range out {
			out[p] += int(s.Points[si][p])
		}
	}
	return out
}

// Winners are the seats with the highest total; a tie goes to the higher
// best session, then the higher second-best; a tie after that is a shared
// win. Empty until the game is over.
func (s *State) Winners() []int {
	if s.Phase != Over {
		return nil
	}
	key := func(p int) [3]int {
		var k [3]int
		a, b, c := int(s.Points[0][p]), int(s.Points[1][p]), int(s.Points[2][p])
		k[0] = a + b + c
		k[1] = max(a, b, c)
		k[2] = a + b + c - k[1] - min(a, b, c) // the middle one
		return k
	}
	best := []int{}
	for p := 0; p < int(s.N); p++ {
		if len(best) == 0 {
			best = []int{p}
			continue
		}
		kp, kb := key(p), key(best[0])
		switch {
		case kp == kb:
			best = append(best, p)
		case kp[0] > kb[0] || kp[0] == kb[0] && (kp[1] > kb[1] || kp[1] == kb[1] && kp[2] > kb[2]):
			best = []int{p}
		}
	}
	return best
}

// validate checks a restored state enough that no method can fail on it:
// first the table (players, phase, turn, deal), then every card's place.
func (s *State) validate() error {
	if what := s.badTable(); what != "" {
		return fmt.Errorf("gracias: restore: %s out of range", what)
	}
	if what := s.badCards(); what != "" {
		return fmt.Errorf("gracias: restore: %s out of range", what)
	}
	return nil
}

// isSeat tells whether v is a seat of an n-player game.
func isSeat(v int8, n int) bool { return v >= 0 && int(v) < n }

// isDeckPos tells whether v is a position in a session's deck.
func isDeckPos(v int8) bool { return v >= 0 && int(v) < deckSize }

// badTable names what of the table is out of range, or is "".
func (s *State) badTable() string {
	n := int(s.N)
	switch {
	case n < minPlayers || n > maxPlayers:
		return "number of players"
	case s.Phase < Taking || s.Phase > Over:
		return "phase"
	case s.Session < 1 || s.Session > sessions || s.Round < 1 || s.Round > rounds:
		return "session or round"
	case !isSeat(s.First, n) || !isSeat(s.Large, n) || !isSeat(s.Small, n) || !isSeat(s.Turn, n):
		return "start player or turn"
	case s.Moved < 0 || int(s.Moved) > n || s.Pos < 0 || int(s.Pos) > deckSize:
		return "deal"
	case s.Phase == Keeping && !isSeat(s.Pending, n):
		return "pending triplet"
	}
	return ""
}

// badCards names what of the triplets, the areas, the scored sessions or
// the decks is out of range, or is "".
func (s *State) badCards() string {
	n := int(s.N)
	for t := 0; t < n; t++ {
		tr := s.Trip[t]
		if !isDeckPos(tr.Up[0]) || !isDeckPos(tr.Up[1]) || !isDeckPos(tr.Down) || tr.Taker < -1 || int(tr.Taker) >= n {
			return "triplet"
		}
	}
	for p := 0; p < n; p++ {
		if what := s.badArea(p); what != "" {
			return what
		}
	}
	for si := range s.Deck {
		for _, c := range s.Deck[si] {
			if c < 0 || c >= numColours {
				return "deck colour"
			}
		}
	}
	return ""
}

// badArea names what of player p's area or scored cards is out of range,
// or is "".
func (s *State) badArea(p int) string {
	if s.NDown[p] < 0 || s.NDown[p] > rounds {
		return "face-down cards"
	}
	for i := 0; i < int(s.NDown[p]); i++ {
		if !isDeckPos(s.Down[p][i]) {
			return "face-down card"
		}
	}
	for c := 0; c < int(numColours); c++ {
		if s.Up[p][c] < 0 {
			return "face-up cards"
		}
		for si := 0; si < sessions; si++ {
			if s.Cards[si][p][c] < 0 {
				return "scored cards"
			}
		}
	}
	return ""
}
