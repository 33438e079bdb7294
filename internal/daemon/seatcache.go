package daemon

import (
	"sync"

	"github.com/pbem/pbem/store"
)

// seatCache keeps what gameOf and route found of seat tokens, so that a
// player's next mail costs no look-up before its transaction, and has its
// game read with its record (keptGame): the game a token
// belongs to never changes, and a seat's address rarely does (a
// replacement, which gives the seat a new token). An entry that is wrong
// by then costs nothing but the mail's escalation: route finds the truth
// under the lock. It holds at most seatCacheSize tokens, and starts
// afresh when full.
type seatCache struct {
	mu sync.Mutex
	m  map[string]seatOf
}

type seatOf struct {
	game    int64
	address string
	// invited: the seat's player had not joined when it was read. His
	// mail is then most likely his join, whose first words from him
	// (his language, his time zone) write his player's row, outside
	// the game (store's scopeShared): gameOf sends it to Store.Tx at
	// once, where a game's transaction did the work, gave way
	// (ErrWiderLock) and was rolled back, a third of a join's
	// statements on PostgreSQL (issue 40). An entry wrong either way
	// costs only that: route finds the truth under the lock.
	invited bool
}

const seatCacheSize = 4096

func (c *seatCache) get(token string) (seatOf, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[token]
	return v, ok
}

func (c *seatCache) put(token string, v seatOf) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= seatCacheSize {
		c.m = make(map[string]seatOf)
	}
	c.m[token] = v
}

// learnSeat keeps the seat route found by its token (err nil) in the seat
// cache. Before, only gameOf filled it, which looks up the
// mails of a batch from one sender alone: under a load of games most
// mails come in batches of several games' mail, and 70 % of them then
// paid three round trips (the seat by its token, the game's row, its
// players) that their record's could have carried (issue 40). The
// cache's entry serves only mail from the seat's own address (keptGame,
// gameOf): what a stranger's mail costs does not depend on it. On SQLite
// it serves only the guess a mail's record is inserted with (knownSeat).
func (w *work) learnSeat(seat store.Seat, err error) {
	if err != nil {
		return
	}
	w.seats.put(w.token, seatOfSeat(seat))
}

// learnJoined tells the seat cache that the player of the seat the
// mail's token names joined: his next mail goes to his game's
// transaction. Should the transaction roll back, the entry errs the
// cheap way (seatOf.invited).
func (w *work) learnJoined(seat store.Seat) {
	if seat.Token != w.token {
		return
	}
	seat.State = store.SeatJoined
	w.seats.put(w.token, seatOfSeat(seat))
}

// seatOfSeat is what the seat cache keeps of seat.
func seatOfSeat(seat store.Seat) seatOf {
	return seatOf{game: seat.GameID, address: seat.Address, invited: seat.State == store.SeatInvited}
}
