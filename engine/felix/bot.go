package felix

import (
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/pbem/pbem/engine"
)

// Bots (engine.Sampling): what a seat knows of a Felix game, and how the
// rest is drawn.
//
// A seat knows its own hand, money, set-aside card and standing order,
// everything public in its view (the row's face-up cards, stakes, passes,
// mouse cards, the bank, the cards each player won) and, from the public
// log, every card that was ever turned up and whose it was, and what each
// player paid and took. It does not know:
//
//   - an opponent's hand and set-aside card, and his card face down in
//     the row: the seat knows which kinds of his set are still unseen
//     (his ten kinds less every card of his ever turned up), and these
//     are dealt out at random, as many to the hand as his hand count, one
//     to the row if he placed a card not yet turned up, one set aside;
//   - with three players, the dummy's pile and set-aside card (and its
//     card in the row while the round's cards are placed): its unseen
//     kinds are shuffled in the same way;
//   - an opponent's money, which the rules keep secret although the
//     public log tells it: it is worked out from the log (15, plus the
//     mice taken on passing, less what was paid for rows won, less the
//     stake on the table). Should the log be short of that (it is checked
//     against the total money, which never changes), what the opponents
//     hold in all is shared evenly among them;
//   - an opponent's standing order ("bid up to N", or a standing pass):
//     a sample gives the opponents none, so they act when the auction
//     comes to them by the bot's playout policy. No sample ever holds one.
//
// Every unseen arrangement is equally likely: the draw does not try to
// read the opponents' choices of card or bid for what they hold. The log
// does shape how the playouts make the opponents bid: see Policy.

var _ engine.Sampling = Rules{}

// NewSampler reads what k's seat knows: first the table in its view, then
// what the public log adds (the cards turned up, who paid and took what),
// then the row, the players and the seat's own cards; and from all that,
// which kinds of each set are still unseen and what the opponents hold in
// money. Sample then deals the unseen cards.
func (Rules) NewSampler(k engine.Knowledge) (engine.Sampler, error) {
	v, ok := k.View().(View)
	if !ok {
		return nil, fmt.Errorf("felix: the knowledge holds a %T, not a Felix view", k.View())
	}
	names := k.Players()
	n, seat := len(names), k.Seat()
	switch {
	case n < minPlayers || n > maxPlayers || len(v.Players) != n:
		return nil, errors.New("felix: the knowledge's players do not match its view")
	case seat < 0 || seat >= n || v.Seat != seat || v.Money == nil:
		return nil, errors.New("felix: the knowledge is not a player's")
	}
	sm := &sampler{seat: seat}
	sm.base.N = int8(n)
	if err := readTable(&sm.base, v, names); err != nil {
		return nil, err
	}
	known := readLog(k.Log(), names)
	if err := sm.readRow(v, &known); err != nil {
		return nil, err
	}
	if err := sm.readPlayers(v, &known); err != nil {
		return nil, err
	}
	if sm.base.Phase == Over {
		return sm, nil
	}
	if err := sm.findUnseen(&known); err != nil {
		return nil, err
	}
	if err := sm.countMoney(&known); err != nil {
		return nil, err
	}
	return sm, nil
}

// readTable copies what the view shows of the table into s: phase,
// round, start player, the player to bid, the stakes' top, the bank and
// the mouse cards; and, once the game is over, everyone's money.
func readTable(s *State, v View, names []string) error {
	phase, ok := parsePhase(v.Phase)
	if !ok {
		return fmt.Errorf("felix: unknown phase %q", v.Phase)
	}
	s.Phase = phase
	if v.Round < 1 || v.Round > rounds {
		return fmt.Errorf("felix: round %d out of range", v.Round)
	}
	s.Round = int8(v.Round)
	start := indexOf(names, v.Start)
	if start < 0 {
		return fmt.Errorf("felix: the start player %q is not a player", v.Start)
	}
	s.Start, s.FirstStart = int8(start), int8(start)
	if s.Phase == Bidding || s.Phase == Buying {
		t := indexOf(names, v.Turn)
		if t < 0 {
			return fmt.Errorf("felix: the player to bid %q is not a player", v.Turn)
		}
		s.Turn = int8(t)
	}
	s.High = int16(v.HighStake)
	s.Bank = int16(v.Bank)
	if len(v.MouseCards) > len(s.MouseValue) {
		return errors.New("felix: too many mouse cards")
	}
	s.NMouse = int8(len(v.MouseCards))
	for i, mc := range v.MouseCards {
		s.MouseValue[i], s.Mice[i] = int8(mc.Value), int8(mc.Mice)
		if mc.InRow {
			s.MouseIn |= 1 << uint(i)
		}
	}
	if s.Phase == Over {
		// Nothing is hidden any more and nothing is left to decide: keep
		// the scores only (each player's money is in the view).
		for p, pv := range v.Players {
			if pv.Money != nil {
				s.Money[p] = int16(*pv.Money)
			}
		}
	}
	return nil
}

// parsePhase is the Phase whose String is name.
func parsePhase(name string) (Phase, bool) {
	for _, p := range []Phase{Placing, Bidding, Buying, Over} {
		if p.String() == name {
			return p, true
		}
	}
	return 0, false
}

// logKnowledge is what a seat learns from the public log.
type logKnowledge struct {
	seen      [dummyColour + 1]uint16 // per colour: the kinds ever turned up
	gained    [maxPlayers]int         // per player: the mice taken on passing
	paid      [maxPlayers]int         // per player: what he paid for rows won
	decisions [maxPlayers]int         // per player: his bids and passes
	jumps     [maxPlayers]int         // per player: his bids above the highest stake plus 1
}

// readLog reads every card ever turned up, by colour, and each player's
// bids, passes and payments from the public log.
func readLog(log []engine.Event, names []string) logKnowledge {
	var lk logKnowledge
	high := 0
	for _, e := range log {
		switch e.Kind {
		case "round":
			high = 0
		case "bid":
			if p, bid, ok := readBid(e.Text, names); ok {
				lk.decisions[p]++
				if bid > high+1 {
					lk.jumps[p]++
				}
				high = bid
			}
		case "reveal":
			if c, kind, ok := readReveal(e.Text, names); ok {
				lk.seen[c] |= 1 << uint(kind)
			}
		case "pass":
			if p, mice, ok := readPass(e.Text, names); ok {
				lk.gained[p] += mice
				lk.decisions[p]++
			}
		case "win":
			if p, paidNow, ok := readWin(e.Text, names); ok {
				lk.paid[p] += paidNow
			}
		}
	}
	return lk
}

// readRow copies the row into the base state, notes the slot of each
// colour's card still face down and unknown, and adds the face-up cards
// to those seen.
func (sm *sampler) readRow(v View, known *logKnowledge) error {
	s := &sm.base
	if len(v.Row) > maxPlayers {
		return errors.New("felix: the row is too long")
	}
	s.RowLen = int8(len(v.Row))
	for i := range sm.downSlot {
		sm.downSlot[i] = -1
	}
	for slot, rc := range v.Row {
		colour := s.ownerOf(slot)
		if colour < 0 {
			colour = dummyColour
		}
		if !rc.Placed {
			continue
		}
		s.Filled |= 1 << uint(slot)
		if rc.FaceUp {
			s.Up |= 1 << uint(slot)
		}
		if rc.Card == "" {
			sm.downSlot[colour] = int8(slot)
			continue
		}
		kind, ok := ParseKind(rc.Card)
		if !ok {
			return fmt.Errorf("felix: %q in the row is not a card", rc.Card)
		}
		s.Row[slot] = mkCard(colour, kind)
		if rc.FaceUp {
			known.seen[colour] |= 1 << uint(kind)
		}
	}
	return nil
}

// readPlayers copies each player's stake, pass and won cards, each
// opponent's hand count and bidding habit, and the seat's own hand,
// set-aside card, money and standing order.
func (sm *sampler) readPlayers(v View, known *logKnowledge) error {
	s := &sm.base
	var wonIDs uint64
	for p, pv := range v.Players {
		s.Stake[p] = int16(pv.Stake)
		if pv.Passed {
			s.Passed |= 1 << uint(p)
		}
		if err := readWon(s, p, pv, &wonIDs); err != nil {
			return err
		}
		if p == sm.seat {
			continue
		}
		sm.handSize[p] = int8(pv.HandCount)
		sm.wild[p] = float64(known.jumps[p]) / float64(known.decisions[p]+2)
	}
	seat := sm.seat
	for _, h := range v.Hand {
		kind, ok := ParseKind(h)
		if !ok {
			return fmt.Errorf("felix: %q in the hand is not a card", h)
		}
		s.Hand[seat] |= 1 << uint(kind)
	}
	if kind, ok := ParseKind(v.SetAside); ok {
		s.Removed[seat] = kind
	}
	s.Money[seat] = int16(*v.Money)
	if v.Limit > 0 || v.StandingPass {
		s.Orders = 1 << uint(seat)
		s.Limit[seat] = int16(v.Limit)
	}
	return nil
}

// readWon gives player p the cards pv won. Only the kinds of won cards
// count; each gets a colour not used yet (wonIDs holds those used), so
// that two equal cats stay two cards.
func readWon(s *State, p int, pv PlayerView, wonIDs *uint64) error {
	for _, w := range pv.Won {
		kind, ok := ParseKind(w)
		if !ok {
			return fmt.Errorf("felix: %q won by %s is not a card", w, pv.Name)
		}
		for c := 0; c <= dummyColour; c++ {
			if id := mkCard(c, kind).bit(); *wonIDs&id == 0 {
				*wonIDs |= id
				s.Won[p] |= id
				break
			}
		}
	}
	return nil
}

// findUnseen works out, for each colour but the seat's, the kinds of its
// set that are still unseen, and checks there are enough of them for the
// places Sample deals them to.
func (sm *sampler) findUnseen(known *logKnowledge) error {
	s := &sm.base
	n := int(s.N)
	for c := 0; c <= dummyColour; c++ {
		if c == sm.seat || (c >= n && c != dummyColour) || (c == dummyColour && n != 3) {
			continue
		}
		sm.pool[c] = allKinds &^ known.seen[c]
		need := 1 + rounds - int(s.Round) // the dummy's set-aside card and pile
		if c != dummyColour {
			need = 1 + int(sm.handSize[c]) // the set-aside card and the hand
		}
		if sm.downSlot[c] >= 0 {
			need++
		}
		if bits.OnesCount16(sm.pool[c]) < need {
			return fmt.Errorf("felix: the view and the log leave too few unseen cards for colour %d", c)
		}
	}
	return nil
}

// countMoney gives the opponents their money from the log if it adds up
// to what the total money leaves them, and shares that rest evenly among
// them if not.
func (sm *sampler) countMoney(known *logKnowledge) error {
	s := &sm.base
	n, seat := int(s.N), sm.seat
	total := startMoney*n + int(bankFor(n))
	rest := total - int(s.Money[seat]) - int(s.Bank)
	for p := 0; p < n; p++ {
		rest -= int(s.Stake[p])
	}
	for i := 0; i < int(s.NMouse); i++ {
		rest -= int(s.Mice[i])
	}
	sum, fits := 0, true
	for p := 0; p < n; p++ {
		if p == seat {
			continue
		}
		m := startMoney + known.gained[p] - known.paid[p] - int(s.Stake[p])
		fits = fits && m >= 0
		s.Money[p] = int16(m)
		sum += m
	}
	if fits && sum == rest {
		return nil
	}
	if rest < 0 {
		return errors.New("felix: the view's money does not add up")
	}
	i := 0
	for p := 0; p < n; p++ {
		if p == seat {
			continue
		}
		s.Money[p] = int16(rest / (n - 1))
		if i < rest%(n-1) {
			s.Money[p]++
		}
		i++
	}
	return nil
}

// readReveal reads "bob's card is turned up: 5." (or "The dummy's ...")
// into the card's colour and kind.
func readReveal(text string, names []string) (colour int, kind Kind, ok bool) {
	owner, card, found := strings.Cut(text, " card is turned up: ")
	if !found {
		return 0, 0, false
	}
	kind, ok = ParseKind(strings.TrimSuffix(card, "."))
	if !ok {
		return 0, 0, false
	}
	if owner == "The dummy's" {
		return dummyColour, kind, true
	}
	p := indexOf(names, strings.TrimSuffix(owner, "'s"))
	return p, kind, p >= 0
}

// readPass reads "bob passes, ... and takes the 4-mouse card with 4 mice."
// into the passer and the mice he took (0 for none or an empty card).
func readPass(text string, names []string) (p, mice int, ok bool) {
	name, rest, _ := strings.Cut(text, " ")
	if p = indexOf(names, name); p < 0 || !strings.HasPrefix(rest, "passes") {
		return 0, 0, false
	}
	if _, after, found := strings.Cut(rest, "-mouse card with "); found {
		num, _, _ := strings.Cut(after, " ")
		if mice, err := strconv.Atoi(num); err == nil {
			return p, mice, true
		}
	}
	return p, 0, true
}

// readBid reads "bob bids 3." into the bidder and his stake.
func readBid(text string, names []string) (p, bid int, ok bool) {
	name, rest, _ := strings.Cut(text, " ")
	if p = indexOf(names, name); p < 0 {
		return 0, 0, false
	}
	rest, found := strings.CutPrefix(rest, "bids ")
	if !found {
		return 0, 0, false
	}
	bid, err := strconv.Atoi(strings.TrimSuffix(rest, "."))
	return p, bid, err == nil
}

// readWin reads "bob wins the row for 3: ..." into the winner and price.
func readWin(text string, names []string) (p, price int, ok bool) {
	name, rest, _ := strings.Cut(text, " ")
	if p = indexOf(names, name); p < 0 {
		return 0, 0, false
	}
	rest, found := strings.CutPrefix(rest, "wins the row for ")
	if !found {
		return 0, 0, false
	}
	num, _, _ := strings.Cut(rest, ":")
	price, err := strconv.Atoi(num)
	return p, price, err == nil
}

// sampler deals the unseen cards of one seat's knowledge.
type sampler struct {
	base     State // what the seat knows; the unseen cards still to deal
	seat     int
	pool     [dummyColour + 1]uint16 // per colour: the kinds the seat has not seen
	handSize [maxPlayers]int8        // per opponent: cards in his hand
	downSlot [dummyColour + 1]int8   // per colour: the row position of its unseen card, or -1
	wild     [maxPlayers]float64     // per opponent: how often his bids jump (Policy)
}

func (sm *sampler) Sample(rng *rand.Rand) engine.Playout {
	pl := &botPlayout{s: sm.base, wild: sm.wild}
	s := &pl.s
	var kinds [numKinds]Kind
	for c := 0; c <= dummyColour; c++ {
		pool := sm.pool[c]
		if pool == 0 {
			continue
		}
		// A random order of the unseen kinds; they are dealt from the
		// front, and any surplus (a short log) stays undealt.
		k := 0
		for m := pool; m != 0; m &= m - 1 {
			kinds[k] = Kind(bits.TrailingZeros16(m))
			k++
		}
		for i := k - 1; i > 0; i-- {
			j := rng.IntN(i + 1)
			kinds[i], kinds[j] = kinds[j], kinds[i]
		}
		next := 0
		deal := func() Kind { next++; return kinds[next-1] }
		if slot := sm.downSlot[c]; slot >= 0 {
			s.Row[slot] = mkCard(c, deal())
		}
		if c == dummyColour {
			for r := int(s.Round); r < rounds; r++ {
				s.Dummy[r] = deal()
			}
		} else { // c < maxPlayers
			for i := 0; i < int(sm.handSize[c]); i++ {
				s.Hand[c] |= 1 << uint(deal())
			}
		}
		s.Removed[c] = deal()
	}
	return pl
}

// botPlayout is a Felix position for a bot's simulations.
type botPlayout struct {
	s    State
	wild [maxPlayers]float64
}

// A Move packs a Felix Move: the Op above the number.
func packMove(m Move) engine.Move   { return engine.Move(uint32(m.Op)<<16 | uint32(uint16(m.N))) }
func unpackMove(m engine.Move) Move { return Move{Op: Op(m >> 16), N: int16(uint16(m))} }

// maxRaise is how far above the highest stake the bot looks at bids. A
// higher bid only gives away mice that a raise by 1 keeps, unless it
// scares the others off; to look at every bid up to a player's 40 mice
// would spread the search thin over moves that are almost never best.
const maxRaise = 3

func (pl *botPlayout) Waiting() uint64 { return uint64(pl.s.WaitingMask()) }

func (pl *botPlayout) Moves(p int, buf []engine.Move) []engine.Move {
	s := &pl.s
	if s.WaitingMask()&(1<<uint(p)) == 0 {
		return buf
	}
	switch s.Phase {
	case Placing:
		for h := s.Hand[p]; h != 0; h &= h - 1 {
			buf = append(buf, packMove(Move{OpPlay, int16(bits.TrailingZeros16(h))}))
		}
	case Bidding:
		buf = append(buf, packMove(Move{Op: OpPass}))
		for b := s.High + 1; b <= s.owned(p) && b <= s.High+maxRaise; b++ {
			buf = append(buf, packMove(Move{OpBid, b}))
		}
	case Buying:
		buf = append(buf, packMove(Move{Op: OpPass}))
		if s.Money[p] >= 1 {
			buf = append(buf, packMove(Move{Op: OpBuy}))
		}
	}
	return buf
}

func (pl *botPlayout) Default(p int) engine.Move {
	m, _ := pl.s.DefaultMove(p)
	return packMove(m)
}

// Policy plays a card at random, and bids in one of two ways. With the
// chance wild[p] (opponents only: how often their bids in the public log
// jumped above the highest stake plus 1, out of all their bids and passes
// plus 2), it makes a uniformly random legal move, as a player who bids
// wildly does; the bot's own model of the table then matches players who
// throw their mice around, and it stops waiting for cheap rows that such
// a table never leaves (against three random players this took its win
// rate from about 87% to 93%). Otherwise it bids by a rough worth of the row:
// the face-up cats' points, 2 for each card still face down (the mean of
// a set is 2.9, less for what dogs chase), 3 less for a face-up dog. It
// raises by 1 while the stake stays below that worth times a random
// factor, and passes otherwise. It reads only what the player to move
// sees of the row, not the sample's face-down cards.
func (pl *botPlayout) Policy(p int, rng *rand.Rand) engine.Move {
	s := &pl.s
	switch s.Phase {
	case Placing:
		h := s.Hand[p]
		for i := rng.IntN(bits.OnesCount16(h)); i > 0; i-- {
			h &= h - 1
		}
		return packMove(Move{OpPlay, int16(bits.TrailingZeros16(h))})
	case Bidding:
		if rng.Float64() < pl.wild[p] {
			m, _ := s.RandomMove(p, rng)
			return packMove(m)
		}
		worth := 0
		for slot := 0; slot < int(s.RowLen); slot++ {
			if s.Up&(1<<uint(slot)) == 0 {
				worth += 2
				continue
			}
			k := s.Row[slot].kind()
			if k.IsDog() {
				worth -= 3
			} else {
				worth += kindValues[k]
			}
		}
		bid := s.High + 1
		if bid <= s.owned(p) && float64(bid) < float64(worth)*(0.3+0.8*rng.Float64()) {
			return packMove(Move{OpBid, bid})
		}
		return packMove(Move{Op: OpPass})
	default: // Buying: every card is up; buy what is worth a mouse.
		var row uint64
		for slot := 0; slot < int(s.RowLen); slot++ {
			row |= s.Row[slot].bit()
		}
		kept, _, _, _, _ := s.dogs(row)
		if s.Money[p] >= 1 && catPoints(kept) > 1 {
			return packMove(Move{Op: OpBuy})
		}
		return packMove(Move{Op: OpPass})
	}
}

func (pl *botPlayout) Play(p int, m engine.Move) { pl.s.step(p, unpackMove(m), nil) }

// Reward is mostly the win (shared on a tie, as the rules share it) and a
// little of the margin over the best other score, so that the search
// still tells moves apart when the win is safe or out of reach.
func (pl *botPlayout) Reward(p int) float64 {
	s := &pl.s
	var score, cats [maxPlayers]int
	for q := 0; q < int(s.N); q++ {
		cats[q] = catPoints(s.Won[q])
		score[q] = cats[q] + int(s.Money[q]) + int(s.Stake[q])
	}
	best, ahead, shared := -1<<30, true, 1
	for q := 0; q < int(s.N); q++ {
		if q == p {
			continue
		}
		best = max(best, score[q])
		switch {
		case score[q] > score[p] || score[q] == score[p] && cats[q] > cats[p]:
			ahead = false
		case score[q] == score[p] && cats[q] == cats[p]:
			shared++
		}
	}
	win := 0.0
	if ahead {
		win = 1 / float64(shared)
	}
	margin := min(max(0.5+float64(score[p]-best)/40, 0), 1)
	return 0.85*win + 0.15*margin
}

func (pl *botPlayout) Command(_ int, m engine.Move) engine.Command { return command(unpackMove(m)) }

func (pl *botPlayout) Clone() engine.Playout { c := *pl; return &c }

// catPoints is catTotal without building a list: the points of the cats
// in a mask of card ids.
func catPoints(mask uint64) int {
	t := 0
	for ; mask != 0; mask &= mask - 1 {
		t += kindValues[bits.TrailingZeros64(mask)%int(numKinds)]
	}
	return t
}
