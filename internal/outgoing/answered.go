package outgoing

import (
	"context"
	"sync"

	"github.com/pbem/pbem/store"
)

// answeredBoxes is the mailboxes this process has read as having
// answered pbem (store's Answered): a fact about the world that stays
// true, so it is kept across units of work, where each transaction read
// it again (issue 40). The mailboxes a move's mails go to were asked in
// the round trip after the move's writes, which only that question still
// needed once a transaction keeps its game's event log (store's
// txevents.go).
//
// What the store says of a mailbox can turn false in two ways, neither
// of which makes a kept answer untrue: an address change moves the
// mailbox's row to the new address (store's moveMailboxRow), and then no
// seat is at the old one, and the new mailbox takes the old one's state,
// although pbem read its confirmation from it; an alias makes a mailbox
// read as its player's, whose game mails go to the player's address.
// Either way the mailbox kept did answer pbem, and only a mailbox that
// never did is a stranger whom withinLimit protects.
type answeredBoxes struct {
	mu sync.Mutex
	m  map[string]struct{}
}

// answeredBoxesMax bounds what is kept: when full it is emptied, and
// the mailboxes are read again as they are met.
const answeredBoxesMax = 1 << 16

func (a *answeredBoxes) has(box string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	_, ok := a.m[box]
	return ok
}

func (a *answeredBoxes) add(box string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.m == nil || len(a.m) >= answeredBoxesMax {
		a.m = make(map[string]struct{})
	}
	a.m[box] = struct{}{}
}

// answered reports whether the mailbox box ever answered pbem: from what
// the process keeps, or else from the store, kept when it did.
func (p *Post) answered(ctx context.Context, tx *store.Tx, box string) (bool, error) {
	if p.answeredBoxes.has(box) {
		return true, nil
	}
	a, err := tx.Answered(ctx, box)
	if err == nil && a {
		p.answeredBoxes.add(box)
	}
	return a, err
}

// KnownAnswered reports whether the process knows that the mailbox of
// addr answered pbem, without asking the store: the daemon leaves such
// mailboxes out of what it reads with a move's events.
func (p *Post) KnownAnswered(addr string) bool {
	return p.answeredBoxes.has(p.MailboxOf(addr))
}
