package felix

import (
	"fmt"

	"github.com/pbem/pbem/engine"
)

// Standing orders (docs/felix.md, "Proxy bids and standing passes"). During
// an auction's bidding a player who has not passed may leave pbem an
// order for it, on his turn or ahead of it:
//
//   - "bid up to N": whenever the auction comes to him, pbem bids for him
//     the lowest legal stake (the highest stake plus one) while that is
//     at most N, and passes for him once it would be above N. N is a total
//     stake, as in "bid N", and must be a bid he could make when he gives
//     it: above the highest stake and at most what he owns. What he owns
//     cannot change while he takes part in the auction (a bid only moves
//     his mice onto his stake), so a proxy can always pay what it bids.
//   - "pass" ahead of his turn: pbem passes for him when his turn comes.
//     He cannot pass at once: the order of passes decides who takes which
//     mouse card and which card turns up.
//
// An order is carried out in the same Apply call as the move that brought
// the auction to him, so the auction never waits on it; the command log
// holds only the order itself, and replaying the log makes the same moves
// again. A new order of his replaces the old one; the order ends when he
// passes and when the bidding ends, and none covers the buy-for-1 choice.
//
// The order is his secret: the bid or pass it makes reads to everyone
// else exactly as if he had sent it by hand, and only his own view and
// his private log entries show the limit.

// aheadWords tells a player who tried a move out of turn what he may
// send ahead of his turn instead.
func aheadWords(ph Phase) string {
	if ph != Bidding {
		return ""
	}
	return `; ahead of your turn you may send "bid up to N" (pbem then bids for you up to a total stake of N) or "pass" (pbem passes for you when your turn comes)`
}

// checkProxy says why seat p, who takes part in the auction, may not give
// the order "bid up to n" now, or "" if he may.
func (s *State) checkProxy(p int, n int16) string {
	if s.Phase != Bidding {
		if int(s.Turn) == p {
			return "everyone else passed without a bid: the row can only be bought for exactly 1 (buy) or passed; pbem does not buy for you"
		}
		return "the auction is over"
	}
	if n < 1 {
		return "a limit must be at least 1"
	}
	if n <= s.High {
		return fmt.Sprintf("the highest stake is already %d: a limit must be above it (send pass to pass when your turn comes)", s.High)
	}
	if n > s.owned(p) {
		return s.onlyOwned(p)
	}
	return ""
}

// setProxy records p's order "bid up to n" (checked), replacing any other
// order of his. On his turn step then carries it out at once.
func (s *State) setProxy(p int, n int16, rec *engine.Recorder) {
	s.Orders |= 1 << uint(p)
	s.Limit[p] = n
	if rec != nil {
		rec.Private(p, "order", "pbem will bid for you in this auction up to a total stake of %d: each time the auction comes to you, the highest stake plus 1, and a pass once that would be above %d. Only you know this limit. It ends with the auction; bid up to another limit, or pass, replaces it.", n, n)
	}
}

// standingPass records p's order to pass when his turn comes.
func (s *State) standingPass(p int, rec *engine.Recorder) {
	s.Orders |= 1 << uint(p)
	s.Limit[p] = 0
	if rec != nil {
		rec.Private(p, "order", "pbem will pass for you when the auction comes to you. Only you know this. To bid after all, send bid up to N before your turn comes.")
	}
}

// clearOrders ends every standing order: the bidding is over.
func (s *State) clearOrders() {
	s.Orders = 0
	s.Limit = [maxPlayers]int16{}
}

// maxOrderMoves bounds the moves one call of runOrders makes. Each proxy
// bid raises the highest stake by one, which never exceeds the money in
// the game, and each pass removes a bidder, so the loop ends long before;
// the bound only makes that plain.
const maxOrderMoves = 1 << 12

// runOrders carries out the standing orders of the seats the auction
// comes to, one after the other, until it comes to a seat without one or
// the bidding ends. Proxies may bid against each other for several
// rounds of the table.
func (s *State) runOrders(rec *engine.Recorder) {
	for i := 0; i < maxOrderMoves && s.Phase == Bidding && s.Orders&(1<<uint(s.Turn)) != 0; i++ {
		p := int(s.Turn)
		lim, next := s.Limit[p], s.High+1
		if lim > 0 && next <= lim && next <= s.owned(p) {
			if rec != nil {
				// The others read what a bid by hand reads; he reads it
				// once, in words of his own.
				rec.Others(p, "bid", "%s bids %d.", rec.Names[p], next)
				rec.Private(p, "bid", "pbem bids %d for you (your limit: %d).", next, lim)
			}
			s.bid(p, next, nil)
			continue
		}
		if rec != nil {
			if lim > 0 {
				rec.Private(p, "order", "The next stake, %d, would be above your limit of %d: pbem passes for you.", next, lim)
			} else {
				rec.Private(p, "order", "The auction comes to you: pbem passes for you, as you asked.")
			}
		}
		s.pass(p, rec) // clears his order
	}
}
