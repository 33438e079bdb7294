package felix

import (
	"fmt"
	"math/bits"
	"math/rand/v2"

	"github.com/pbem/pbem/engine"
)

const (
	minPlayers = 3
	maxPlayers = 5
	rounds     = 9
	startMoney = 15
)

// Phase is what the current round waits for.
type Phase int8

const (
	// Placing: every player who has not yet placed a card may do so.
	Placing Phase = iota
	// Bidding: the auction; Turn must bid or pass.
	Bidding
	// Buying: everyone else passed without a stake; Turn may buy the row
	// for 1 or pass (and the row goes to the box).
	Buying
	// Over: the ninth auction is done.
	Over
)

var phaseNames = [...]string{"placing", "bidding", "buying", "finished"}

func (p Phase) String() string { return phaseNames[p] }

// Op is the kind of a Move.
type Op int8

const (
	OpPlay Op = iota
	OpBid
	OpPass
	OpBuy
	// OpProxy is "bid up to N": a standing order for this auction (see
	// orders.go).
	OpProxy
)

// Move is a command in the engine's compact form, for bots and playouts.
type Move struct {
	Op Op
	N  int16 // OpPlay: the Kind; OpBid: the total stake; OpProxy: the limit
}

// State is the whole game as plain values: no pointers, so copying it is
// a cheap copy of a small struct, and it serializes as it is.
type State struct {
	N          int8                 // number of players
	Phase      Phase                // what the round waits for
	Round      int8                 // auction number, 1..9 (a voided round counts)
	Start      int8                 // start player of this round
	FirstStart int8                 // start player of round 1
	Turn       int8                 // seat to act when Bidding or Buying
	Hand       [maxPlayers]uint16   // kinds in each hand, as bits
	Removed    [maxPlayers + 1]Kind // each colour's card set aside unseen; the last is the dummy's
	Dummy      [rounds]Kind         // 3 players: the dummy pile, top first
	Row        [maxPlayers]cardID   // the row's cards by position; valid where placed
	RowLen     int8                 // positions in the row
	Filled     uint8                // row positions that hold a card
	Up         uint8                // row positions turned face up
	Passed     uint8                // seats that passed this round
	Money      [maxPlayers]int16    // mice in hand, stake not included
	Stake      [maxPlayers]int16    // each seat's stake this round
	High       int16                // the highest stake
	Bank       int16
	NMouse     int8
	MouseValue [4]int8 // face value of each mouse card, ascending
	Mice       [4]int8 // mice on each mouse card
	MouseIn    uint8   // mouse cards still in the row
	Won        [maxPlayers]uint64
	Box        uint64
	// Orders has a bit for every seat with a standing order for this
	// auction, which pbem carries out when the auction comes to him
	// (orders.go): with Limit[p] > 0, "bid up to Limit[p]"; with 0, a
	// standing pass. Both are his secret: only his own view shows them.
	Orders uint8
	Limit  [maxPlayers]int16
}

// bankFor is the bank's money at the start, before it pays the mouse cards.
func bankFor(n int) int16 { return [...]int16{3: 21, 4: 27, 5: 33}[n] }

func mouseCardsFor(n int) []int8 {
	switch n {
	case 3:
		return []int8{3, 6}
	case 4:
		return []int8{2, 4, 6}
	default:
		return []int8{2, 3, 4, 6}
	}
}

// TotalMoney is what is conserved: players, stakes, bank and mouse cards.
func (s *State) TotalMoney() int {
	t := int(s.Bank)
	for p := 0; p < int(s.N); p++ {
		t += int(s.Money[p]) + int(s.Stake[p])
	}
	for i := 0; i < int(s.NMouse); i++ {
		t += int(s.Mice[i])
	}
	return t
}

// slotOf is the row position of seat p's card this round: seat order from
// the start player; with 3 players the dummy's card comes first.
func (s *State) slotOf(p int) int {
	n := int(s.N)
	i := (p - int(s.Start) + n) % n
	if n == 3 {
		return i + 1
	}
	return i
}

// ownerOf is the seat whose card is at position slot, or -1 for the dummy.
func (s *State) ownerOf(slot int) int {
	n := int(s.N)
	if n == 3 {
		if slot == 0 {
			return -1
		}
		slot--
	}
	return (int(s.Start) + slot) % n
}

func (s *State) active() uint8 { return (uint8(1)<<uint(s.N) - 1) &^ s.Passed }

// nextActive is the next seat clockwise after p that has not passed.
func (s *State) nextActive(p int) int {
	n := int(s.N)
	for i := 1; i <= n; i++ {
		q := (p + i) % n
		if s.Passed&(1<<uint(q)) == 0 {
			return q
		}
	}
	return p
}

// WaitingMask has a bit for every seat the game waits on.
func (s *State) WaitingMask() uint8 {
	switch s.Phase {
	case Placing:
		var m uint8
		for p := 0; p < int(s.N); p++ {
			if s.Filled&(1<<uint(s.slotOf(p))) == 0 {
				m |= 1 << uint(p)
			}
		}
		return m
	case Bidding, Buying:
		return 1 << uint(s.Turn)
	}
	return 0
}

// owned is what seat p could stake in all: money in hand plus stake.
func (s *State) owned(p int) int16 { return s.Money[p] + s.Stake[p] }

// Legal appends every legal move of seat p to buf.
func (s *State) Legal(p int, buf []Move) []Move {
	if s.WaitingMask()&(1<<uint(p)) == 0 {
		return buf
	}
	switch s.Phase {
	case Placing:
		for k := Kind(0); k < numKinds; k++ {
			if s.Hand[p]&(1<<uint(k)) != 0 {
				buf = append(buf, Move{OpPlay, int16(k)})
			}
		}
	case Bidding:
		for n := s.High + 1; n <= s.owned(p); n++ {
			buf = append(buf, Move{OpBid, n})
		}
		buf = append(buf, Move{Op: OpPass})
	case Buying:
		if s.Money[p] >= 1 {
			buf = append(buf, Move{Op: OpBuy})
		}
		buf = append(buf, Move{Op: OpPass})
	}
	return buf
}

// RandomMove returns one of seat p's legal moves, each equally likely,
// without building the list: the cheap policy of random playouts. ok is
// false when the game does not wait on p.
func (s *State) RandomMove(p int, rng *rand.Rand) (m Move, ok bool) {
	if s.WaitingMask()&(1<<uint(p)) == 0 {
		return Move{}, false
	}
	switch s.Phase {
	case Placing:
		h := s.Hand[p]
		for i := rng.IntN(bits.OnesCount16(h)); i > 0; i-- {
			h &= h - 1
		}
		return Move{OpPlay, int16(bits.TrailingZeros16(h))}, true
	case Bidding:
		bids := int(s.owned(p) - s.High)
		if bids < 0 {
			bids = 0
		}
		if i := rng.IntN(bids + 1); i < bids {
			return Move{OpBid, s.High + 1 + int16(i)}, true
		}
		return Move{Op: OpPass}, true
	default: // Buying
		if s.Money[p] >= 1 && rng.IntN(2) == 0 {
			return Move{Op: OpBuy}, true
		}
		return Move{Op: OpPass}, true
	}
}

// DefaultMove is the deadline's move for seat p (Game.Default): pass in an
// auction; when placing, the first card p holds in defaultOrder. ok is
// false when the game does not wait on p.
func (s *State) DefaultMove(p int) (m Move, ok bool) {
	if p < 0 || p >= int(s.N) || s.WaitingMask()&(1<<uint(p)) == 0 {
		return Move{}, false
	}
	if s.Phase == Placing {
		for _, k := range defaultOrder {
			if s.Hand[p]&(1<<uint(k)) != 0 {
				return Move{OpPlay, int16(k)}, true
			}
		}
	}
	return Move{Op: OpPass}, true
}

// Step applies a move if it is legal and reports whether it was.
func (s *State) Step(p int, m Move) bool {
	if s.check(p, m, nil) != "" {
		return false
	}
	s.step(p, m, nil)
	return true
}

// check returns why seat p may not make move m now, or "" if it may. The
// reason is read by p, who tried, so it speaks to him ("you have only 13
// mice"); names is only used to name the others.
func (s *State) check(p int, m Move, names []string) string {
	if p < 0 || p >= int(s.N) {
		return "no such player"
	}
	if s.Phase == Over {
		return "the game is over"
	}
	switch m.Op {
	case OpPlay:
		return s.checkPlay(p, m)
	case OpBid, OpBuy, OpPass, OpProxy:
		if why, decided := s.checkAuctionTurn(p, m, names); decided {
			return why
		}
		return s.checkPrice(p, m)
	}
	return "unknown move"
}

// checkPlay is check for a card placed into the row.
func (s *State) checkPlay(p int, m Move) string {
	if s.Phase != Placing {
		return "all cards of this round are placed and the auction is under way"
	}
	if s.Filled&(1<<uint(s.slotOf(p))) != 0 {
		return "you have already placed a card this round"
	}
	if m.N < 0 || m.N >= int16(numKinds) || s.Hand[p]&(1<<uint(m.N)) == 0 {
		return s.notHeld(p, Kind(m.N))
	}
	return ""
}

// checkAuctionTurn is the part of check that an auction move shares:
// whether the auction runs, p is still in it and it is p's turn. decided
// is true when that settles the move (a refusal, a proxy limit, or a
// standing pass); otherwise checkPrice has the last word.
func (s *State) checkAuctionTurn(p int, m Move, names []string) (why string, decided bool) {
	if s.Phase == Placing {
		return "the auction has not started: waiting for " + waitingWords(s.WaitingMask(), p, names) + " to place a card", true
	}
	if s.Passed&(1<<uint(p)) != 0 {
		return "you have passed this round", true
	}
	if m.Op == OpProxy {
		return s.checkProxy(p, m.N), true
	}
	if int(s.Turn) != p {
		if s.Phase == Bidding && m.Op == OpPass {
			return "", true // a standing pass (orders.go)
		}
		turn := "?"
		if names != nil {
			turn = names[s.Turn]
		}
		return "it is " + turn + "'s turn" + aheadWords(s.Phase), true
	}
	return "", false
}

// checkPrice is check for a bid, a buy or a pass made in turn: what p
// offers against the stakes and his money.
func (s *State) checkPrice(p int, m Move) string {
	switch m.Op {
	case OpBid:
		if s.Phase == Buying {
			if m.N != 1 {
				return "everyone else passed without a bid: the row can only be bought for exactly 1 (buy) or passed"
			}
			if s.Money[p] < 1 {
				return "you have no mice left to pay with"
			}
			return ""
		}
		if m.N < 1 {
			return "a bid must be at least 1"
		}
		if m.N <= s.High {
			return fmt.Sprintf("the highest stake is %d", s.High)
		}
		if m.N > s.owned(p) {
			return s.onlyOwned(p)
		}
	case OpBuy:
		if s.Phase != Buying {
			return "buy is only possible when every other player has passed without any bid"
		}
		if s.Money[p] < 1 {
			return "you have no mice left to pay with"
		}
	}
	return ""
}

// notHeld says why p cannot play k: a card leaves a hand only when it is
// set aside at the start or placed, and a card placed this round is
// caught before, so it went in an earlier round.
func (s *State) notHeld(p int, k Kind) string {
	if k < 0 || k >= numKinds {
		return "there is no such card"
	}
	if s.Removed[p] == k {
		return fmt.Sprintf("you do not hold the %s: it was set aside from your set at the start", k.Word())
	}
	return fmt.Sprintf("you do not hold the %s: you placed it in an earlier round", k.Word())
}

// onlyOwned says how much p could stake in all: the stake already on the
// table counts, since a bid is the total stake.
func (s *State) onlyOwned(p int) string {
	msg := "you have only " + miceWords(int(s.owned(p)))
	if s.Stake[p] > 0 {
		msg += fmt.Sprintf(", your stake of %d included", s.Stake[p])
	}
	return msg
}

// The log's counts with their nouns, which choose their form by the
// count (engine.EnglishPlural; locales/LANG/events.toml).
var (
	miceKey   = engine.EnglishPlural("%d mouse", "%d mice")
	remainKey = engine.EnglishPlural("%d remains", "%d remain")
)

func miceWords(n int) string { return logMice(n).English() }

// refillWords tells the table that the bank refilled the mouse cards.
func refillWords(need, bank int) engine.Phrase {
	return engine.W("The bank refills the mouse cards with %s; %s in the bank.", logMice(need), engine.W(remainKey, bank))
}

// logMice is a count of mice for the log: "1 mouse", "3 mice".
func logMice(n int) engine.Phrase { return engine.W(miceKey, n) }

// logCard is a card for the log: a cat's number as written ("-8"), the
// rabbit and the dogs as their words, which the catalogs translate
// (locales/LANG/nouns.toml).
func logCard(k Kind) any {
	if k.IsCat() {
		return k.Word()
	}
	return engine.W(k.Word())
}

// logCards is a list of cards for the log, as the row lists them: "rabbit,
// 3, large dog".
func logCards(ks []Kind) engine.Phrase {
	items := make([]any, len(ks))
	for i, k := range ks {
		items[i] = logCard(k)
	}
	return engine.Join(", ", items...)
}

// waitingWords names the seats of mask for seat p's eyes: p as "you",
// first, then the others in seat order ("you, bob and carol").
func waitingWords(mask uint8, p int, names []string) string {
	var out []string
	if mask&(1<<uint(p)) != 0 {
		out = append(out, "you")
	}
	for q := 0; q < 8; q++ {
		if mask&(1<<uint(q)) == 0 || q == p {
			continue
		}
		if names == nil {
			out = append(out, "?")
		} else {
			out = append(out, names[q])
		}
	}
	return engine.JoinAnd(out)
}

// step applies a legal move. rec, when not nil, records what happened.
func (s *State) step(p int, m Move, rec *engine.Recorder) {
	switch m.Op {
	case OpPlay:
		s.play(p, Kind(m.N), rec)
	case OpBid:
		if s.Phase == Buying {
			s.buy(p, rec)
			return
		}
		s.bid(p, m.N, rec)
	case OpBuy:
		s.buy(p, rec)
	case OpPass:
		if s.Phase == Buying {
			s.void(p, rec)
			return
		}
		if int(s.Turn) != p {
			s.standingPass(p, rec)
			return
		}
		s.pass(p, rec)
	case OpProxy:
		s.setProxy(p, m.N, rec)
	}
	// A move may bring the auction to a seat with a standing order, which
	// is carried out at once; playouts give none, and pay one test.
	if s.Orders != 0 {
		s.runOrders(rec)
	}
}

// openRound lays out an empty row for the next round.
func (s *State) openRound(rec *engine.Recorder) {
	s.Phase = Placing
	s.Filled, s.Up, s.Passed, s.High = 0, 0, 0, 0
	s.MouseIn = uint8(1)<<uint(s.NMouse) - 1
	if s.N == 3 {
		s.RowLen = 4
		s.Row[0] = mkCard(dummyColour, s.Dummy[s.Round-1])
		s.Filled = 1
	} else {
		s.RowLen = s.N
	}
	if rec != nil {
		rec.Public("round", "Round %d of %d: %s is the start player. Everyone puts one card face down into the row.", s.Round, rounds, rec.Names[s.Start])
	}
}

func (s *State) play(p int, k Kind, rec *engine.Recorder) {
	slot := s.slotOf(p)
	s.Hand[p] &^= 1 << uint(k)
	s.Row[slot] = mkCard(p, k)
	s.Filled |= 1 << uint(slot)
	if rec != nil {
		// The others read where the card went; p reads that and which
		// card it is, once.
		rec.Others(p, "place", "%s puts a card face down into the row (position %d).", rec.Names[p], slot+1)
		rec.Private(p, "place", "You put your %s face down into the row (position %d).", logCard(k), slot+1)
	}
	if s.Filled != uint8(1)<<uint(s.RowLen)-1 {
		return
	}
	s.Phase = Bidding
	s.Turn = s.Start
	if rec != nil {
		rec.Public("placed", "All cards are in the row.")
	}
	s.reveal(0, rec)
	if rec != nil {
		rec.Public("turn", "The auction begins: %s bids first.", rec.Names[s.Turn])
	}
}

func (s *State) reveal(slot int, rec *engine.Recorder) {
	if s.Up&(1<<uint(slot)) != 0 {
		return
	}
	s.Up |= 1 << uint(slot)
	if rec == nil {
		return
	}
	k := s.Row[slot].kind()
	if o := s.ownerOf(slot); o >= 0 {
		rec.Public("reveal", "%s's card is turned up: %s.", rec.Names[o], logCard(k))
	} else {
		rec.Public("reveal", "The dummy's card is turned up: %s.", logCard(k))
	}
}

func (s *State) bid(p int, n int16, rec *engine.Recorder) {
	s.Money[p] -= n - s.Stake[p]
	s.Stake[p] = n
	s.High = n
	s.Turn = int8(s.nextActive(p))
	if rec != nil {
		rec.Public("bid", "%s bids %d.", rec.Names[p], n)
	}
}

func (s *State) pass(p int, rec *engine.Recorder) {
	back := s.Stake[p]
	s.Money[p] += back
	s.Stake[p] = 0
	s.Passed |= 1 << uint(p)
	s.Orders &^= 1 << uint(p)
	took := -1
	if s.MouseIn != 0 {
		took = bits.TrailingZeros8(s.MouseIn)
		s.MouseIn &^= 1 << uint(took)
		s.Money[p] += int16(s.Mice[took])
	}
	if rec != nil {
		// An empty card adds nothing: the table was told once that the
		// bank did not refill it.
		name := rec.Names[p]
		switch gained := took >= 0 && s.Mice[took] > 0; {
		case back > 0 && gained:
			rec.Public("pass", "%s passes, takes back a stake of %d and takes the %d-mouse card with %s.", name, back, s.MouseValue[took], logMice(int(s.Mice[took])))
		case back > 0:
			rec.Public("pass", "%s passes, takes back a stake of %d.", name, back)
		case gained:
			rec.Public("pass", "%s passes and takes the %d-mouse card with %s.", name, s.MouseValue[took], logMice(int(s.Mice[took])))
		default:
			rec.Public("pass", "%s passes.", name)
		}
	}
	if took >= 0 {
		s.Mice[took] = 0
	}
	active := s.active()
	if bits.OnesCount8(active) > 1 {
		s.reveal(bits.TrailingZeros8(^s.Up), rec)
		s.Turn = int8(s.nextActive(p))
		if rec != nil {
			rec.Public("turn", "%s to bid.", rec.Names[s.Turn])
		}
		return
	}
	for slot := 0; slot < int(s.RowLen); slot++ {
		s.reveal(slot, rec)
	}
	// The bidding is over: standing orders end with it, and none covers
	// the buy-for-1 choice (orders.go).
	s.clearOrders()
	last := bits.TrailingZeros8(active)
	if s.High > 0 {
		s.settle(last, rec)
		return
	}
	s.Phase = Buying
	s.Turn = int8(last)
	if rec != nil {
		rec.Public("buying", "Everyone but %s passed without a bid. %s may buy the whole row for 1 mouse (buy) or pass, and then the row goes to the box.", rec.Names[last], rec.Names[last])
	}
}

func (s *State) buy(p int, rec *engine.Recorder) {
	s.Money[p]--
	s.Stake[p] = 1
	s.High = 1
	if rec != nil {
		rec.Public("buy", "%s buys the row for 1 mouse.", rec.Names[p])
	}
	s.settle(p, rec)
}

// void ends a round nobody bought: the row goes to the box, the start
// player stays and the mouse cards are not refilled.
func (s *State) void(p int, rec *engine.Recorder) {
	for slot := 0; slot < int(s.RowLen); slot++ {
		s.Box |= s.Row[slot].bit()
	}
	if rec != nil {
		rec.Public("void", "%s passes too: nobody takes the row, and its cards go to the box. The next round keeps the same start player, and its mouse cards are not refilled.", rec.Names[p])
	}
	s.endRound(false, rec)
}

// settle gives the row to winner w after the dogs act.
func (s *State) settle(w int, rec *engine.Recorder) {
	paid := s.Stake[w]
	s.Bank += paid
	s.Stake[w] = 0
	var row uint64
	for slot := 0; slot < int(s.RowLen); slot++ {
		row |= s.Row[slot].bit()
	}
	kept, gone, dogs, dog, chased := s.dogs(row)
	s.Won[w] |= kept
	s.Box |= gone
	s.Start = int8(w)
	if rec != nil {
		rec.Public("win", "%s wins the row for %d: %s.", rec.Names[w], paid, logCards(s.rowKinds()))
		recordDogs(rec, dogs, dog, chased)
		if kept == 0 {
			rec.Public("won", "%s takes nothing home from this row.", rec.Names[w])
		} else {
			rec.Public("won", "%s keeps %s.", rec.Names[w], logCards(kindsInRowOrder(s, kept)))
		}
	}
	s.endRound(true, rec)
}

// rowKinds are the row's cards, in the row's order.
func (s *State) rowKinds() []Kind {
	var ks []Kind
	for slot := 0; slot < int(s.RowLen); slot++ {
		ks = append(ks, s.Row[slot].kind())
	}
	return ks
}

func kindsInRowOrder(s *State, mask uint64) []Kind {
	var ks []Kind
	for slot := 0; slot < int(s.RowLen); slot++ {
		if mask&s.Row[slot].bit() != 0 {
			ks = append(ks, s.Row[slot].kind())
		}
	}
	return ks
}

// dogs splits the row into what the winner keeps and what goes to the
// box. Of equal cats the dog chases the one furthest left. dogs is the
// number of dogs, dog the kind of a lone dog, chased the cat it chased
// (-1 for none).
func (s *State) dogs(row uint64) (kept, gone uint64, dogs int, dog Kind, chased cardID) {
	chased = -1
	var dogMask uint64
	for slot := 0; slot < int(s.RowLen); slot++ {
		c := s.Row[slot]
		if c.kind().IsDog() {
			dogs++
			dogMask |= c.bit()
			dog = c.kind()
		}
	}
	if dogs == 0 {
		return row, 0, 0, 0, -1
	}
	if dogs >= 2 {
		return row &^ dogMask, dogMask, dogs, 0, -1
	}
	for slot := 0; slot < int(s.RowLen); slot++ {
		c := s.Row[slot]
		if !c.kind().IsCat() {
			continue
		}
		if chased < 0 ||
			(dog == LargeDog && c.kind().Value() > chased.kind().Value()) ||
			(dog == SmallDog && c.kind().Value() < chased.kind().Value()) {
			chased = c
		}
	}
	gone = dogMask
	if chased >= 0 {
		gone |= chased.bit()
	}
	return row &^ gone, gone, 1, dog, chased
}

// recordDogs tells the table what the dogs did.
func recordDogs(rec *engine.Recorder, dogs int, dog Kind, chased cardID) {
	switch {
	case dogs == 0:
	case dogs >= 2:
		rec.Public("dogs", "%d dogs in the row chase each other away; no cat leaves.", dogs)
	case chased < 0:
		rec.Public("dogs", "The %s finds no cat to chase and leaves alone.", logCard(dog))
	default:
		rec.Public("dogs", "The %s chases away the %s; both go to the box.", logCard(dog), logCard(chased.kind()))
	}
}

// endRound refills the mouse cards (all or nothing) unless the round was
// voided, and opens the next round or ends the game.
func (s *State) endRound(refill bool, rec *engine.Recorder) {
	if s.Round == rounds {
		s.Phase = Over
		s.Filled, s.Up, s.Passed, s.High = 0, 0, 0, 0
		if rec != nil {
			rec.Public("end", "That was the ninth and last auction: the game is over.")
		}
		return
	}
	if refill {
		need := int16(0)
		for i := 0; i < int(s.NMouse); i++ {
			need += int16(s.MouseValue[i] - s.Mice[i])
		}
		if s.Bank >= need {
			s.Bank -= need
			for i := 0; i < int(s.NMouse); i++ {
				s.Mice[i] = s.MouseValue[i]
			}
			if rec != nil && need > 0 {
				rec.Add(engine.Public, "refill", refillWords(int(need), int(s.Bank)))
			}
		} else if rec != nil {
			rec.Public("refill", "The bank holds only %s, not the %d the mouse cards need: none is refilled this round, and an empty card stays empty.", logMice(int(s.Bank)), need)
		}
	}
	s.Round++
	s.openRound(rec)
}

// Scores are cats won plus money, by seat.
func (s *State) Scores() []int {
	out := make([]int, s.N)
	for p := range out {
		out[p] = catTotal(s.Won[p]) + int(s.Money[p]) + int(s.Stake[p])
	}
	return out
}

// Winners are the seats with the highest score; the higher cat total
// breaks a tie, and a tie after that is a shared win.
func (s *State) Winners() []int {
	if s.Phase != Over {
		return nil
	}
	scores := s.Scores()
	best := []int{}
	for p := range scores {
		if len(best) == 0 {
			best = []int{p}
			continue
		}
		b := best[0]
		cp, cb := catTotal(s.Won[p]), catTotal(s.Won[b])
		switch {
		case scores[p] > scores[b] || (scores[p] == scores[b] && cp > cb):
			best = []int{p}
		case scores[p] == scores[b] && cp == cb:
			best = append(best, p)
		}
	}
	return best
}
