package store

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/pbem/pbem/store/storetest"
)

// queue enqueues one pending mail to rcpt, due at at, and returns its id.
func queue(t testing.TB, s *Store, mid, rcpt string, at time.Time) int64 {
	t.Helper()
	var id int64
	mustTx(t, s, func(tx *Tx) (err error) {
		id, _, err = tx.Enqueue(context.Background(), Outgoing{MessageID: mid, To: rcpt, Raw: []byte(mid), NotBefore: at})
		return err
	})
	return id
}

// claim claims for node at now for ttl, at most limit mails, and returns
// their ids in the order given.
func claim(t testing.TB, s *Store, node string, now time.Time, ttl time.Duration, limit int) []int64 {
	t.Helper()
	var got []Outgoing
	mustTx(t, s, func(tx *Tx) (err error) {
		got, err = tx.ClaimOutgoing(context.Background(), node, now, now.Add(ttl), limit)
		return err
	})
	ids := make([]int64, len(got))
	for i, o := range got {
		ids[i] = o.ID
		if o.ClaimedBy != node || !o.ClaimedUntil.Equal(now.Add(ttl).Truncate(time.Millisecond)) {
			t.Errorf("claimed %d: by %q until %v, want %q until %v", o.ID, o.ClaimedBy, o.ClaimedUntil, node, now.Add(ttl))
		}
	}
	return ids
}

func TestClaimOutgoing(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t)
	const ttl = time.Minute
	ann1 := queue(t, s, "<a1@pbem>", "ann@example.org", t0)
	bob1 := queue(t, s, "<b1@pbem>", "bob@example.org", t0)
	ann2 := queue(t, s, "<a2@pbem>", "ann@example.org", t0)
	cy1 := queue(t, s, "<c1@pbem>", "cy@example.org", t0)
	later := queue(t, s, "<later@pbem>", "dee@example.org", t0.Add(time.Hour))

	// Node a takes two: ann's first and bob's. Node b may not take ann's
	// second while a holds her first: it takes cy's.
	if got, want := claim(t, s, "a", t0, ttl, 2), []int64{ann1, bob1}; !slices.Equal(got, want) {
		t.Fatalf("a claimed %v, want %v", got, want)
	}
	if got, want := claim(t, s, "b", t0, ttl, 10), []int64{cy1}; !slices.Equal(got, want) {
		t.Fatalf("b claimed %v, want %v (ann's second waits for her first)", got, want)
	}
	if got := claim(t, s, "b", t0, ttl, 10); len(got) != 0 {
		t.Fatalf("b claimed %v again, want nothing: the rest is a's or not due", got)
	}

	// a's mark of ann's first ends its claim, and ann's second is free.
	mustTx(t, s, func(tx *Tx) error { return tx.MarkSent(ctx, ann1, t0) })
	if o, _ := s.Outgoing(ctx, ann1); o.ClaimedBy != "" || !o.ClaimedUntil.IsZero() {
		t.Errorf("sent mail still claimed by %q until %v", o.ClaimedBy, o.ClaimedUntil)
	}
	if got, want := claim(t, s, "b", t0, ttl, 10), []int64{ann2}; !slices.Equal(got, want) {
		t.Fatalf("b claimed %v after ann's first was sent, want %v", got, want)
	}

	// a dies holding bob's mail: nobody takes it until the claim lapses,
	// then anyone may, a itself included.
	if got := claim(t, s, "c", t0.Add(ttl-time.Millisecond), ttl, 10); len(got) != 0 {
		t.Fatalf("c claimed %v a millisecond before a's claim lapsed", got)
	}
	if got, want := claim(t, s, "c", t0.Add(ttl), ttl, 10), []int64{bob1, cy1, ann2}; !equalSet(got, want) {
		t.Fatalf("c claimed %v when the claims lapsed, want %v", got, want)
	}

	// Failed and dead marks end the claim too; a released claim is free
	// at once; a release by another node changes nothing.
	at := t0.Add(ttl)
	mustTx(t, s, func(tx *Tx) error {
		if err := tx.MarkFailed(ctx, bob1, "421", at); err != nil {
			return err
		}
		if err := tx.MarkDead(ctx, cy1, "550"); err != nil {
			return err
		}
		if n, err := tx.ReleaseClaims(ctx, "a", []int64{ann2}); err != nil || n != 0 {
			return fmt.Errorf("a released c's claim: %d, %v", n, err)
		}
		n, err := tx.ReleaseClaims(ctx, "c", []int64{ann2, cy1})
		if err == nil && n != 1 {
			err = fmt.Errorf("c released %d claims, want 1 (cy's is dead)", n)
		}
		return err
	})
	for _, id := range []int64{bob1, cy1, ann2} {
		if o, _ := s.Outgoing(ctx, id); o.ClaimedBy != "" || !o.ClaimedUntil.IsZero() {
			t.Errorf("mail %d still claimed by %q until %v after its mark or release", id, o.ClaimedBy, o.ClaimedUntil)
		}
	}
	if got, want := claim(t, s, "b", at, ttl, 10), []int64{bob1, ann2}; !slices.Equal(got, want) {
		t.Fatalf("b claimed %v after the marks and the release, want %v", got, want)
	}
	if got, want := claim(t, s, "a", t0.Add(time.Hour), ttl, 10), []int64{bob1, ann2, later}; !slices.Equal(got, want) {
		t.Fatalf("a claimed %v an hour on, when b's claims had lapsed, want %v", got, want)
	}

	for _, bad := range []func(tx *Tx) error{
		func(tx *Tx) error { _, err := tx.ClaimOutgoing(ctx, "", t0, t0.Add(ttl), 1); return err },
		func(tx *Tx) error { _, err := tx.ClaimOutgoing(ctx, "a", t0, t0, 1); return err },
		func(tx *Tx) error { _, err := tx.ClaimOutgoing(ctx, "a", t0, t0.Add(ttl), 0); return err },
	} {
		if err := s.Tx(ctx, bad); err == nil {
			t.Error("a claim with no node, no length or no limit was taken")
		}
	}
}

// TestClaimOutgoingWaitsForLaterBatch: a recipient's due mail that a
// claim's limit leaves for a later batch holds back his later mail too.
func TestClaimOutgoingWaitsForLaterBatch(t *testing.T) {
	s, _ := newStore(t)
	// ann's first mail was deferred by a failure and is due again, after
	// bob's: the oldest-due order puts it after the limit.
	ann1 := queue(t, s, "<a1@pbem>", "ann@example.org", t0.Add(time.Second))
	bob1 := queue(t, s, "<b1@pbem>", "bob@example.org", t0)
	ann2 := queue(t, s, "<a2@pbem>", "ann@example.org", t0)
	if got, want := claim(t, s, "a", t0.Add(time.Second), time.Minute, 2), []int64{bob1}; !slices.Equal(got, want) {
		t.Fatalf("claimed %v, want %v: ann's second must not overtake her first", got, want)
	}
	if got, want := claim(t, s, "a", t0.Add(time.Second), time.Minute, 2), []int64{ann1, ann2}; !slices.Equal(got, want) {
		t.Fatalf("then claimed %v, want %v", got, want)
	}
}

func equalSet(a, b []int64) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// TestClaimOutgoingConcurrent: nodes, each on its own handle of the
// database as separate processes are, claim and mark the same outbox at
// once. Every mail is claimed by exactly one node, exactly once, and no
// node ever holds a recipient's mail while another holds an earlier one.
// On PostgreSQL the claims truly overlap (FOR UPDATE SKIP LOCKED); on
// SQLite the writer lock takes them one by one.
func TestClaimOutgoingConcurrent(t *testing.T) {
	ctx := context.Background()
	s, db := newStore(t)
	const mails, rcpts, nodes = 300, 7, 4
	var all []int64
	rcptOf := map[int64]string{}
	for i := range mails {
		rcpt := fmt.Sprintf("p%d@example.org", i%rcpts)
		id := queue(t, s, fmt.Sprintf("<%d@pbem>", i), rcpt, t0)
		all = append(all, id)
		rcptOf[id] = rcpt
	}

	ledger := newClaimLedger(rcptOf)
	var wg sync.WaitGroup
	for n := range nodes {
		node := fmt.Sprintf("node-%d", n)
		st, err := Open(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		wg.Add(1)
		ledger.join()
		go func() {
			defer wg.Done()
			defer ledger.leave()
			for {
				seen := ledger.markCount()
				var got []Outgoing
				err := st.Tx(ctx, func(tx *Tx) (err error) {
					got, err = tx.ClaimOutgoing(ctx, node, t0, t0.Add(time.Hour), 5)
					return err
				})
				if errors.Is(err, ErrBusy) {
					continue // SQLite's busy timeout, under -race
				}
				if err != nil {
					ledger.fail(err)
					return
				}
				if ledger.claimed(node, got) {
					return
				}
				after := ledger.claimCount()
				if len(got) == 0 {
					// Claiming again before a mark would find nothing
					// again, and hold the write lock the marks wait for.
					if !ledger.awaitMark(seen) {
						return
					}
					continue
				}
				ledger.holdUntilClaimed(after)
				// Another node may claim a recipient's next mail only once
				// the marks commit, so the ledger lets go of them first.
				ledger.marking(got)
				if err := markSent(ctx, st, got); err != nil {
					ledger.fail(err)
					return
				}
				ledger.marked()
			}
		}()
	}
	wg.Wait()
	if err := ledger.err(); err != nil {
		t.Fatal(err)
	}
	claimedBy := ledger.claimedBy
	perNode := map[string]int{}
	for _, id := range all {
		if _, ok := claimedBy[id]; !ok {
			t.Errorf("mail %d was never claimed", id)
		}
		perNode[claimedBy[id]]++
	}
	t.Logf("claims by node: %v", perNode)
}

// markSent marks batch sent, in one transaction. A busy database wrote
// nothing (the transaction waits for the write lock as it begins), so the
// marks are tried again, as the outbox tries again the marks it owes.
func markSent(ctx context.Context, st *Store, batch []Outgoing) error {
	for {
		err := st.Tx(ctx, func(tx *Tx) error {
			for _, o := range batch {
				if err := tx.MarkSent(ctx, o.ID, t0); err != nil {
					return err
				}
			}
			return nil
		})
		if !errors.Is(err, ErrBusy) {
			return err
		}
	}
}

// TestClaimOutgoingProperties drives claims, marks, releases and the
// passing of time from several nodes at random, and checks each claim
// against a model: a claim returns exactly the due mails no other node
// holds, those due longest first up to the limit, in the order queued, less those whose recipient has an
// earlier mail that another node holds or that the limit left out.
func TestClaimOutgoingProperties(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	nodes := []string{"a", "b", "c"}
	rcpts := []string{"ann@example.org", "bob@example.org", "cy@example.org"}
	const ttl = 10 * time.Second

	type row struct {
		id        int64
		rcpt      string
		notBefore time.Time
		pending   bool
		by        string
		until     time.Time
	}
	rapid.Check(t, func(rt *rapid.T) {
		rtTx(rt, s, func(tx *Tx) error { _, err := tx.exec(ctx, `DELETE FROM outbox`); return err })
		var rows []*row
		now := t0
		seq := 0
		live := func(r *row, at time.Time) bool { return r.by != "" && at.Before(r.until) }
		for range rapid.IntRange(1, 40).Draw(rt, "steps") {
			switch rapid.IntRange(0, 4).Draw(rt, "op") {
			case 0: // enqueue
				seq++
				r := &row{rcpt: rapid.SampledFrom(rcpts).Draw(rt, "rcpt"), pending: true,
					notBefore: now.Add(time.Duration(rapid.IntRange(-2, 3).Draw(rt, "due")) * time.Second).Truncate(time.Second)}
				rtTx(rt, s, func(tx *Tx) (err error) {
					r.id, _, err = tx.Enqueue(ctx, Outgoing{MessageID: fmt.Sprintf("<%d@p>", seq), To: r.rcpt, Raw: []byte("x"), NotBefore: r.notBefore})
					return err
				})
				rows = append(rows, r)
			case 1: // claim
				node := rapid.SampledFrom(nodes).Draw(rt, "node")
				limit := rapid.IntRange(1, 4).Draw(rt, "limit")
				var cand []*row
				for _, r := range rows {
					if r.pending && !r.notBefore.After(now) && !live(r, now) {
						cand = append(cand, r)
					}
				}
				slices.SortStableFunc(cand, func(a, b *row) int {
					if c := a.notBefore.Compare(b.notBefore); c != 0 {
						return c
					}
					return int(a.id - b.id)
				})
				cand = cand[:min(limit, len(cand))]
				var want []int64
				slices.SortFunc(cand, func(a, b *row) int { return int(a.id - b.id) })
				for _, c := range cand {
					blocked := false
					for _, e := range rows {
						if e.rcpt != c.rcpt || !e.pending || e.id >= c.id || slices.Contains(cand, e) {
							continue
						}
						if (live(e, now) && e.by != node) || (!e.notBefore.After(now) && !live(e, now)) {
							blocked = true
						}
					}
					if !blocked {
						want = append(want, c.id)
					}
				}
				var got []Outgoing
				rtTx(rt, s, func(tx *Tx) (err error) {
					got, err = tx.ClaimOutgoing(ctx, node, now, now.Add(ttl), limit)
					return err
				})
				var gotIDs []int64
				for _, o := range got {
					gotIDs = append(gotIDs, o.ID)
				}
				if !slices.Equal(gotIDs, want) {
					rt.Fatalf("%s claimed %v at +%v, want %v", node, gotIDs, now.Sub(t0), want)
				}
				for _, r := range rows {
					if slices.Contains(want, r.id) {
						r.by, r.until = node, now.Add(ttl)
					}
				}
			case 2: // a mark or a release
				if len(rows) == 0 {
					continue
				}
				r := rapid.SampledFrom(rows).Draw(rt, "row")
				if !r.pending {
					continue
				}
				if rapid.Bool().Draw(rt, "mark") {
					rtTx(rt, s, func(tx *Tx) error { return tx.MarkSent(ctx, r.id, now) })
					r.pending, r.by = false, ""
				} else if r.by != "" {
					rtTx(rt, s, func(tx *Tx) error { _, err := tx.ReleaseClaims(ctx, r.by, []int64{r.id}); return err })
					r.by = ""
				}
			default: // time passes
				now = now.Add(time.Duration(rapid.IntRange(1, 8).Draw(rt, "seconds")) * time.Second)
			}
		}
	})
}

// TestClaimOutgoingSkipsLocked plays two nodes claiming at the same
// instant on PostgreSQL, without the store's write serialization: the
// first node's claim is not yet committed when the second claims. The
// second must not wait on the first's rows, nor take them, nor take a
// recipient's later mail while the first is claiming his earlier one.
func TestClaimOutgoingSkipsLocked(t *testing.T) {
	if !storetest.OnPostgres() {
		t.Skip("FOR UPDATE SKIP LOCKED is PostgreSQL's; SQLite has one writer")
	}
	ctx := context.Background()
	s, _ := newStore(t)
	ann1 := queue(t, s, "<a1@pbem>", "ann@example.org", t0)
	_ = queue(t, s, "<a2@pbem>", "ann@example.org", t0)
	bob1 := queue(t, s, "<b1@pbem>", "bob@example.org", t0)

	// bare begins a transaction that takes no store-wide lock, as two
	// nodes' transactions on different games run at once.
	bare := func() (*Tx, func()) {
		w, _ := s.be.pools()
		sqlTx, err := w.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		memo := &txMemo{}
		return &Tx{reader: reader{q: memoQuerier{q: s.be.inTx(sqlTx), memo: memo}, be: s.be}, tx: sqlTx, memo: memo}, func() {
			if err := sqlTx.Commit(); err != nil {
				t.Fatal(err)
			}
		}
	}
	tx1, commit1 := bare()
	got1, err := tx1.ClaimOutgoing(ctx, "a", t0, t0.Add(time.Minute), 1)
	if err != nil || len(got1) != 1 || got1[0].ID != ann1 {
		t.Fatalf("a claimed %v, %v; want ann's first", got1, err)
	}
	tx2, commit2 := bare()
	type result struct {
		got []Outgoing
		err error
	}
	res := make(chan result, 1)
	go func() {
		got, err := tx2.ClaimOutgoing(ctx, "b", t0, t0.Add(time.Minute), 10)
		res <- result{got, err}
	}()
	var r result
	select {
	case r = <-res:
	case <-time.After(5 * time.Second):
		// A wait on a's rows lasts until a commits.
		t.Error("b's claim waited on a's")
		commit1()
		r = <-res
		commit2()
		return
	}
	got2, err := r.got, r.err
	if err != nil {
		t.Fatalf("b's claim while a's is open: %v", err)
	}
	var ids []int64
	for _, o := range got2 {
		ids = append(ids, o.ID)
	}
	if !slices.Equal(ids, []int64{bob1}) {
		t.Errorf("b claimed %v while a was claiming ann's first, want only bob's %d", ids, bob1)
	}
	commit2()
	commit1()
}

// TestReleaseNodeClaims: a node's claims, and only its, are released.
func TestReleaseNodeClaims(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t)
	ann := queue(t, s, "<a@pbem>", "ann@example.org", t0)
	bob := queue(t, s, "<b@pbem>", "bob@example.org", t0)
	claim(t, s, "a", t0, time.Hour, 1)
	claim(t, s, "b", t0, time.Hour, 1)
	mustTx(t, s, func(tx *Tx) error {
		n, err := tx.ReleaseNodeClaims(ctx, "a")
		if err == nil && n != 1 {
			err = fmt.Errorf("released %d claims of a, want 1", n)
		}
		return err
	})
	if o, _ := s.Outgoing(ctx, ann); o.ClaimedBy != "" {
		t.Errorf("a's claim on ann's mail is still there: %q", o.ClaimedBy)
	}
	if o, _ := s.Outgoing(ctx, bob); o.ClaimedBy != "b" {
		t.Errorf("b's claim on bob's mail was released too: %q", o.ClaimedBy)
	}
}

// TestClaimBindsNoLimit pins that the outbox's claim, run for every
// batch, writes its batch size into the statement rather than binding
// it: SQLite compiles a statement again each time a parameter its
// planner read is bound anew, and it reads a bound LIMIT (issue 40).
// Claims of different sizes, one after the other, each take their own.
func TestClaimBindsNoLimit(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var seen []string
	s, _ := newStore(t, WithStatementHook(func(q string) {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, q)
	}))
	now := time.Unix(1_800_000_000, 0)
	for i := range 5 {
		queue(t, s, fmt.Sprintf("<limit%d@x.test>", i), fmt.Sprintf("p%d@x.test", i), now)
	}
	if got := claim(t, s, "n1", now, time.Minute, 1); len(got) != 1 {
		t.Errorf("a claim of 1 took %d mails", len(got))
	}
	if got := claim(t, s, "n2", now, time.Minute, 3); len(got) != 3 {
		t.Errorf("a claim of 3 took %d mails", len(got))
	}
	boundLimit := regexp.MustCompile(`(?i)LIMIT\s+[?$]`)
	mu.Lock()
	defer mu.Unlock()
	claims := 0
	for _, q := range seen {
		if !strings.Contains(q, "claimed_by = ") || !strings.Contains(q, "RETURNING") {
			continue
		}
		claims++
		if boundLimit.MatchString(q) {
			t.Errorf("the claim binds its LIMIT:\n%s", q)
		}
	}
	if claims != 2 {
		t.Errorf("saw %d claims, want 2", claims)
	}
}

// TestClaimRewritesInPlace checks that on PostgreSQL a claim changes no
// indexed column of the outbox (migration 00032): the claim of a mail is
// then a heap-only update, which adds no index entry, where an index on
// claimed_by had every claim write one into each of the outbox's
// indexes, and the next claim's scan of outbox_due walk past them
// (issue 40). It asks the transaction's own statistics
// (pg_stat_xact_user_tables), which count its updates as it makes them.
// SQLite has no such thing, and keeps its index.
func TestClaimRewritesInPlace(t *testing.T) {
	if !storetest.OnPostgres() {
		t.Skip("PostgreSQL's heap-only updates")
	}
	ctx := context.Background()
	s, _ := newStore(t)
	var indexed []string
	mustTx(t, s, func(tx *Tx) error {
		// The outbox's own indexes first, then their definitions:
		// pg_indexes would write the definition of every index in the
		// database, and one of another test's schema, dropped
		// meanwhile, fails the query ("could not open relation").
		q := `WITH mine AS MATERIALIZED (SELECT indexrelid FROM pg_index WHERE indrelid = 'outbox'::regclass)
			SELECT c.relname, pg_get_indexdef(mine.indexrelid) FROM mine JOIN pg_class c ON c.oid = mine.indexrelid`
		rows, err := tx.q.QueryContext(ctx, q)
		if err != nil {
			return err
		}
		defer rows.Close()
		n := 0
		for rows.Next() {
			var name, def string
			if err := rows.Scan(&name, &def); err != nil {
				return err
			}
			n++
			if strings.Contains(def, "claimed") {
				indexed = append(indexed, name)
			}
		}
		if n == 0 {
			t.Error("the outbox has no index: the query looked elsewhere")
		}
		return rows.Err()
	})
	if len(indexed) > 0 {
		t.Errorf("the outbox's indexes %v name a claim's columns: a claim writes them", indexed)
	}
	queue(t, s, "<in-place@pbem>", "ann@example.org", t0)
	mustTx(t, s, func(tx *Tx) error {
		got, err := tx.ClaimOutgoing(ctx, "a", t0, t0.Add(time.Minute), 10)
		if err != nil || len(got) != 1 {
			return fmt.Errorf("claimed %d mails (%v), want 1", len(got), err)
		}
		var updates, inPlace int64
		if err := tx.q.QueryRowContext(ctx, `SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_xact_user_tables
			WHERE schemaname = current_schema() AND relname = 'outbox'`).Scan(&updates, &inPlace); err != nil {
			return err
		}
		if updates != 1 || inPlace != 1 {
			t.Errorf("the claim updated %d outbox rows, %d of them in place (heap-only); want 1 and 1", updates, inPlace)
		}
		return nil
	})
}

// TestClaimReadsItsRecipientsBounces: what the unreachable table holds
// of a claim's recipients is what UnreachableAmong then answers in the
// claim's transaction, on PostgreSQL without a round trip (the claim
// read it), and from the table again once the transaction writes it or
// asks of another address.
func TestClaimReadsItsRecipientsBounces(t *testing.T) {
	t.Parallel()
	errRollback := errors.New("rolled back")
	ctx := context.Background()
	s, _ := newStore(t)
	pg := s.Engine() == PostgreSQL
	mustTx(t, s, func(tx *Tx) error {
		_, err := tx.RecordBounce(ctx, "Dead@X.test", true, "5.1.1", t0, 3)
		return err
	})
	for i, rcpt := range []string{"ann@x.test", "dead@x.test", "bob@x.test", "ann@x.test"} {
		queue(t, s, fmt.Sprintf("<b%d@x.test>", i), rcpt, t0)
	}
	want, err := s.UnreachableAmong(ctx, []string{"ann@x.test", "dead@x.test", "bob@x.test"})
	if err != nil || len(want) != 1 {
		t.Fatalf("the table: %+v, %v", want, err)
	}
	for round := range 2 { // the first time on a connection, pgx prepares
		err := s.CommuteTx(ctx, func(tx *Tx) error {
			due, err := tx.ClaimOutgoing(ctx, "n1", t0, t0.Add(time.Minute), 10)
			if err != nil || len(due) != 4 {
				return fmt.Errorf("claimed %d: %w", len(due), err)
			}
			to := []string{"Ann@x.test", "dead@x.test", "bob@x.test"}
			before := s.Counts().RoundTrips
			got, err := tx.UnreachableAmong(ctx, to)
			if err != nil {
				return err
			}
			if n := s.Counts().RoundTrips - before; pg && n != 0 {
				t.Errorf("round %d: the claim's recipients' bounces took %d round trips, want none", round, n)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("round %d: with the claim %+v, the table %+v", round, got, want)
			}
			// Another address: from the table.
			if got, err := tx.UnreachableAmong(ctx, append(to, "cat@x.test")); err != nil || !reflect.DeepEqual(got, want) {
				t.Errorf("round %d: with another address %+v (%v)", round, got, err)
			}
			// A bounce written in the transaction is read.
			if _, err := tx.RecordBounce(ctx, "bob@x.test", true, "5.1.1", t0, 3); err != nil {
				return err
			}
			got, err = tx.UnreachableAmong(ctx, to)
			if err != nil {
				return err
			}
			if _, ok := got["bob@x.test"]; !ok || len(got) != 2 {
				t.Errorf("round %d: after bob's bounce %+v", round, got)
			}
			return errRollback
		})
		if !errors.Is(err, errRollback) {
			t.Fatal(err)
		}
	}
}
