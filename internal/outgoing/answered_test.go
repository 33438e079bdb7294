package outgoing

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/store/storetest"
)

// TestAnsweredKept: a mailbox read as having answered pbem is kept by
// the Post, and asked of the store no more, under any of its addresses;
// one that had not is asked again, and found when it has.
func TestAnsweredKept(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, err := store.Open(ctx, storetest.Database(t))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	p := testPost()
	now := time.Unix(1_800_000_000, 0)
	// empty is what a transaction counts of its own: on PostgreSQL its
	// BEGIN, pbem's lock and COMMIT.
	before := st.Counts().Statements
	if err := st.Tx(ctx, func(*store.Tx) error { return nil }); err != nil {
		t.Fatal(err)
	}
	empty := st.Counts().Statements - before
	ask := func(addr string) (answered bool, statements int64) {
		t.Helper()
		before := st.Counts().Statements
		err := st.Tx(ctx, func(tx *store.Tx) (err error) {
			answered, err = p.answered(ctx, tx, p.MailboxOf(addr))
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return answered, st.Counts().Statements - before - empty
	}
	if err := st.Tx(ctx, func(tx *store.Tx) error { return tx.MarkAnswered(ctx, p.MailboxOf("ann@x.test"), now) }); err != nil {
		t.Fatal(err)
	}
	if p.KnownAnswered("ann@x.test") {
		t.Error("ann's mailbox is known before it was read")
	}
	if a, n := ask("ann@x.test"); !a || n == 0 {
		t.Errorf("ann's mailbox first: answered %v in %d statements, want true from the store", a, n)
	}
	if a, n := ask("Ann+games@X.test"); !a || n != 0 {
		t.Errorf("ann's mailbox again, by another of its addresses: answered %v in %d statements, want true from the Post", a, n)
	}
	if !p.KnownAnswered("ann+x@x.test") {
		t.Error("ann's mailbox is not known after it was read")
	}

	if a, n := ask("bob@x.test"); a || n == 0 {
		t.Errorf("bob's mailbox: answered %v in %d statements, want false from the store", a, n)
	}
	if a, n := ask("bob@x.test"); a || n == 0 || p.KnownAnswered("bob@x.test") {
		t.Errorf("bob's mailbox again: answered %v in %d statements, want false from the store again", a, n)
	}
	if err := st.Tx(ctx, func(tx *store.Tx) error { return tx.MarkAnswered(ctx, p.MailboxOf("bob@x.test"), now) }); err != nil {
		t.Fatal(err)
	}
	if a, _ := ask("bob@x.test"); !a || !p.KnownAnswered("bob@x.test") {
		t.Error("bob's mailbox is not found answered once he answered")
	}
}

// TestAnsweredBoxesBounded: what the Post keeps is emptied when full.
func TestAnsweredBoxesBounded(t *testing.T) {
	t.Parallel()
	var a answeredBoxes
	for i := range answeredBoxesMax {
		a.add(fmt.Sprintf("p%d@x.test", i))
	}
	if !a.has("p0@x.test") || len(a.m) != answeredBoxesMax {
		t.Fatalf("full: %d kept", len(a.m))
	}
	a.add("one-more@x.test")
	if a.has("p0@x.test") || !a.has("one-more@x.test") || len(a.m) != 1 {
		t.Errorf("past full: %d kept, the first %v", len(a.m), a.has("p0@x.test"))
	}
}
