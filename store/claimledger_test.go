package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// claimLedger is TestClaimOutgoingConcurrent's record of the claims its
// nodes made, and its check of each claim against ClaimOutgoing's
// promise: a mail is claimed once; a recipient's mail is claimed in the
// order it was queued, and not while another node holds an earlier mail
// to him. One node may hold several of his mails: a batch may take his
// earliest pending mail and the ones after it, which the node sends in
// order.
//
// The ledger sees a claim after it commits, and lets go of a batch
// before its marks commit, so what it holds is always held in the
// database too, and it reports no violation that did not happen. In the
// test every mail is due, none fails and no claim lapses (the nodes'
// clock stands still), so a mail claimed while an earlier one to the
// same recipient is unclaimed, or held by another node, is a violation
// whichever order the commits and the ledger's records came in.
type claimLedger struct {
	mu        sync.Mutex
	changed   *sync.Cond // a mark committed, every mail was claimed, or a node failed
	rcptOf    map[int64]string
	byRcpt    map[string][]int64 // recipient → his mails, in the order queued
	claimedBy map[int64]string
	holder    map[int64]string // mail → the node holding it now
	marks     int              // batches marked so far
	claims    int              // claims made so far, empty or not
	active    int              // nodes taking part
	idle      int              // nodes waiting for a mark, or gone
	errs      []error
}

func newClaimLedger(rcptOf map[int64]string) *claimLedger {
	l := &claimLedger{rcptOf: rcptOf, byRcpt: map[string][]int64{}, claimedBy: map[int64]string{}, holder: map[int64]string{}}
	l.changed = sync.NewCond(&l.mu)
	for id, rcpt := range rcptOf {
		l.byRcpt[rcpt] = append(l.byRcpt[rcpt], id)
	}
	for _, ids := range l.byRcpt {
		slices.Sort(ids)
	}
	return l
}

// claimed records node's batch, once its claim has committed, checks it,
// and reports whether every mail has now been claimed.
func (l *claimLedger) claimed(node string, batch []Outgoing) (all bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, o := range batch {
		if prev, ok := l.claimedBy[o.ID]; ok {
			l.errs = append(l.errs, fmt.Errorf("mail %d claimed by %s and by %s", o.ID, prev, node))
		}
		l.claimedBy[o.ID] = node
		l.holder[o.ID] = node
	}
	l.claims++
	l.changed.Broadcast()
	for _, o := range batch {
		for _, e := range l.byRcpt[o.To] {
			if e >= o.ID {
				break
			}
			if _, ok := l.claimedBy[e]; !ok {
				l.errs = append(l.errs, fmt.Errorf("%s claimed mail %d to %s before mail %d to the same", node, o.ID, o.To, e))
			} else if h, ok := l.holder[e]; ok && h != node {
				l.errs = append(l.errs, fmt.Errorf("%s claimed mail %d to %s while %s held mail %d to the same", node, o.ID, o.To, h, e))
			}
		}
	}
	all = len(l.claimedBy) == len(l.rcptOf)
	if all {
		l.changed.Broadcast()
	}
	return all
}

// join counts a node in; the node calls leave as it stops.
func (l *claimLedger) join() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.active++
}

func (l *claimLedger) leave() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.idle++
	l.changed.Broadcast()
}

// claimCount is how many claims have been made so far.
func (l *claimLedger) claimCount() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.claims
}

// holdUntilClaimed keeps a node's batch held, as a node's sending does,
// until another node has claimed since (after is claimCount after the
// node's own claim), or every other node waits for a mark or is gone.
// Without it a node marks at once, and another node's claim would
// seldom meet a batch held: a claim that took a recipient's mail while
// another node held his earlier one would go unseen.
func (l *claimLedger) holdUntilClaimed(after int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for l.claims == after && l.idle < l.active-1 && len(l.errs) == 0 && len(l.claimedBy) < len(l.rcptOf) {
		l.changed.Wait()
	}
}

// marking lets go of batch before its marks are written.
func (l *claimLedger) marking(batch []Outgoing) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, o := range batch {
		delete(l.holder, o.ID)
	}
}

// marked records that a batch's marks committed.
func (l *claimLedger) marked() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.marks++
	l.changed.Broadcast()
}

// markCount is how many batches have been marked so far.
func (l *claimLedger) markCount() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.marks
}

// awaitMark waits, after a claim that found nothing to take, for a mark
// to commit after the claim began (seen is markCount then): only a mark
// frees mail for it. Such a claim means every mail left is held, or
// waits for mail held, so some node will mark, or fail. It reports false
// if the nodes are to stop instead: every mail is claimed, or a node
// failed, leaving its claims to lapse only after the test.
func (l *claimLedger) awaitMark(seen int) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.idle++
	l.changed.Broadcast()
	defer func() { l.idle-- }()
	for l.marks == seen && len(l.claimedBy) < len(l.rcptOf) && len(l.errs) == 0 {
		l.changed.Wait()
	}
	return l.marks != seen && len(l.claimedBy) < len(l.rcptOf) && len(l.errs) == 0
}

// fail records an error a node met, and stops the other nodes.
func (l *claimLedger) fail(err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.errs = append(l.errs, err)
	l.changed.Broadcast()
}

// err is every error recorded.
func (l *claimLedger) err() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return errors.Join(l.errs...)
}

// TestClaimLedgerAcceptsOneNodesBatch plays, one claim after the other,
// an interleaving TestClaimOutgoingConcurrent met under load: while
// other nodes hold some of the oldest mail, a node's batch of five
// reaches past them and takes two mails to one recipient, his earliest
// pending and his next. ClaimOutgoing allows that (the node sends its
// batch in the order queued), and so must the ledger.
func TestClaimLedgerAcceptsOneNodesBatch(t *testing.T) {
	s, _ := newStore(t)
	rcptOf := map[int64]string{}
	for i := range 9 {
		rcpt := fmt.Sprintf("p%d@example.org", i%3)
		rcptOf[queue(t, s, fmt.Sprintf("<%d@pbem>", i), rcpt, t0)] = rcpt
	}
	ledger := newClaimLedger(rcptOf)
	take := func(node string, limit int) []Outgoing {
		var got []Outgoing
		mustTx(t, s, func(tx *Tx) (err error) {
			got, err = tx.ClaimOutgoing(context.Background(), node, t0, t0.Add(time.Hour), limit)
			return err
		})
		ledger.claimed(node, got)
		return got
	}
	first := take("node-0", 1) // mail 1, to p0
	take("node-1", 2)          // mails 2 and 3, to p1 and p2
	ledger.marking(first)
	mustTx(t, s, func(tx *Tx) error { return tx.MarkSent(context.Background(), first[0].ID, t0) })
	// node-2's batch is mails 4 to 8; node-1 holds p1's and p2's
	// earliest, so it takes p0's two: 4 and 7.
	got := take("node-2", 5)
	if len(got) != 2 || got[0].To != got[1].To {
		t.Fatalf("node-2 claimed %v, want two mails to one recipient", got)
	}
	if err := ledger.err(); err != nil {
		t.Errorf("the ledger calls one node's batch a violation: %v", err)
	}
}

// TestClaimLedgerCatches: the ledger reports every way a claim can break
// the promise, given as the batches nodes claimed (ids, recipient
// p<id%2>) and let go of, one after the other.
func TestClaimLedgerCatches(t *testing.T) {
	type step struct {
		node    string
		ids     []int64
		marking bool // the node lets go of ids, else it claims them
	}
	for _, tc := range []struct {
		name  string
		steps []step
		want  string // in the error; "" for none
	}{
		{"in order, node after node", []step{{"a", []int64{1, 2}, false}, {"a", []int64{1, 2}, true}, {"b", []int64{3, 4}, false}}, ""},
		{"one node, a recipient's two mails in one batch", []step{{"a", []int64{1, 2, 3}, false}}, ""},
		{"the same mail twice", []step{{"a", []int64{1}, false}, {"a", []int64{1}, true}, {"b", []int64{1}, false}}, "claimed by a and by b"},
		{"a later mail while another node holds an earlier one", []step{{"a", []int64{1}, false}, {"b", []int64{2, 3}, false}}, "b claimed mail 3 to p1@example.org while a held mail 1"},
		{"a later mail before an earlier one", []step{{"a", []int64{3}, false}}, "a claimed mail 3 to p1@example.org before mail 1"},
		{"an earlier mail after another node took a later one", []step{{"a", []int64{3}, false}, {"b", []int64{1}, false}}, "a claimed mail 3 to p1@example.org before mail 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rcptOf := map[int64]string{}
			for id := int64(1); id <= 4; id++ {
				rcptOf[id] = fmt.Sprintf("p%d@example.org", id%2)
			}
			ledger := newClaimLedger(rcptOf)
			for _, st := range tc.steps {
				batch := make([]Outgoing, len(st.ids))
				for i, id := range st.ids {
					batch[i] = Outgoing{ID: id, To: rcptOf[id]}
				}
				if st.marking {
					ledger.marking(batch)
				} else {
					ledger.claimed(st.node, batch)
				}
			}
			err := ledger.err()
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("the ledger reports %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("the ledger reports %v, want %q", err, tc.want)
			}
		})
	}
}
