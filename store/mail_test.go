package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"pgregory.net/rapid"
)

func TestInbound(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	g := newGame(t, s, "ann@example.org", "bob@example.org")
	first := Inbound{MessageID: "<a@x>", Mailbox: "INBOX", UIDValidity: 7, UID: 10, From: "Ann@Example.org",
		Token: "tok", GameID: g, Outcome: "applied", ReceivedAt: t0,
		SentAs: SentAs("<a@x>", "Ann@Example.org", "tok"), Digest: "sha256:a"}
	mustTx(t, s, func(tx *Tx) error { _, err := tx.RecordInbound(ctx, first); return err })

	for _, tt := range []struct {
		name string
		in   Inbound
		want bool
	}{
		{"same message", first, true},
		{"same Message-ID, sender and address, other UID and bytes",
			Inbound{SentAs: SentAs("<a@x>", "ann@example.org", "TOK"), Mailbox: "INBOX", UIDValidity: 7, UID: 11}, true},
		{"same bytes, other UID", Inbound{Digest: "sha256:a", Mailbox: "INBOX", UIDValidity: 7, UID: 11}, true},
		{"same UID, other Message-ID", Inbound{SentAs: SentAs("<b@x>", "ann@example.org", "tok"), Mailbox: "INBOX", UIDValidity: 7, UID: 10}, true},
		{"same UID, no key", Inbound{Mailbox: "INBOX", UIDValidity: 7, UID: 10}, true},
		{"same Message-ID, another sender", Inbound{SentAs: SentAs("<a@x>", "eve@example.org", "tok"), Mailbox: "INBOX", UIDValidity: 7, UID: 11}, false},
		{"same Message-ID and sender, the bare address", Inbound{SentAs: SentAs("<a@x>", "ann@example.org", ""), Mailbox: "INBOX", UIDValidity: 7, UID: 11}, false},
		{"same Message-ID and sender, another seat", Inbound{SentAs: SentAs("<a@x>", "ann@example.org", "other"), Mailbox: "INBOX", UIDValidity: 7, UID: 11}, false},
		{"other UID", Inbound{SentAs: SentAs("<b@x>", "ann@example.org", "tok"), Digest: "sha256:b", Mailbox: "INBOX", UIDValidity: 7, UID: 11}, false},
		{"other UIDVALIDITY", Inbound{Mailbox: "INBOX", UIDValidity: 8, UID: 10}, false},
		{"other mailbox", Inbound{Mailbox: "Archive", UIDValidity: 7, UID: 10}, false},
		{"no key, no UID", Inbound{Mailbox: "INBOX", UIDValidity: 7}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			seen, err := s.InboundSeen(ctx, tt.in)
			if err != nil || seen != tt.want {
				t.Errorf("InboundSeen = %v, %v; want %v", seen, err, tt.want)
			}
		})
	}

	for _, tt := range []struct {
		name    string
		in      Inbound
		wantErr error
	}{
		{"same Message-ID, sender and address", Inbound{MessageID: "<a@x>", SentAs: first.SentAs, Mailbox: "INBOX", UIDValidity: 7, UID: 99, Outcome: "applied", ReceivedAt: t0}, ErrDuplicate},
		{"same bytes", Inbound{Digest: first.Digest, Mailbox: "INBOX", UIDValidity: 7, UID: 98, Outcome: "applied", ReceivedAt: t0}, ErrDuplicate},
		{"same UID", Inbound{MessageID: "<c@x>", Mailbox: "INBOX", UIDValidity: 7, UID: 10, Outcome: "applied", ReceivedAt: t0}, ErrDuplicate},
		{"no outcome", Inbound{MessageID: "<d@x>", Mailbox: "INBOX", UIDValidity: 7, UID: 12, ReceivedAt: t0}, errAny},
		{"no such game", Inbound{MessageID: "<e@x>", GameID: g + 1, Outcome: "refused", ReceivedAt: t0}, errAny},
		{"new", Inbound{MessageID: "<f@x>", Mailbox: "INBOX", UIDValidity: 7, UID: 11, Outcome: "refused", Detail: "no token", ReceivedAt: t0}, nil},
		// Another sender's mail with the same Message-ID is another mail.
		{"same Message-ID, another sender", Inbound{MessageID: "<a@x>", SentAs: SentAs("<a@x>", "eve@example.org", ""),
			From: "eve@example.org", Mailbox: "INBOX", UIDValidity: 7, UID: 13, Outcome: "answered", ReceivedAt: t0}, nil},
		// Messages without keys or UID do not collide with each other.
		{"anonymous 1", Inbound{Outcome: "refused", ReceivedAt: t0}, nil},
		{"anonymous 2", Inbound{Outcome: "refused", ReceivedAt: t0}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := s.Tx(ctx, func(tx *Tx) error { _, err := tx.RecordInbound(ctx, tt.in); return err })
			checkErr(t, err, tt.wantErr)
		})
	}

	got, err := s.InboundByMessageID(ctx, "<a@x>")
	if err != nil {
		t.Fatal(err)
	}
	want := first // the first of the two with the Message-ID
	want.ID, want.From = got.ID, "ann@example.org"
	if got != want || got.ID == 0 {
		t.Errorf("InboundByMessageID = %+v, want %+v", got, want)
	}
	if _, err := s.InboundByMessageID(ctx, ""); !errors.Is(err, ErrNotFound) {
		t.Errorf("InboundByMessageID(\"\") = %v, want ErrNotFound", err)
	}
}

func TestCursor(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	if v, u, err := s.Cursor(ctx, "INBOX"); v != 0 || u != 0 || err != nil {
		t.Errorf("Cursor of a new mailbox = %d, %d, %v", v, u, err)
	}
	for _, tt := range []struct {
		mailbox string
		v, uid  uint32
	}{
		{"INBOX", 7, 10},
		{"INBOX", 7, 11},
		{"Other", 1, 2},
		{"INBOX", 8, 1}, // UIDVALIDITY changed
		{"INBOX", 4294967295, 4294967295},
	} {
		mustTx(t, s, func(tx *Tx) error { return tx.SetCursor(ctx, tt.mailbox, tt.v, tt.uid) })
		if v, u, err := s.Cursor(ctx, tt.mailbox); v != tt.v || u != tt.uid || err != nil {
			t.Errorf("Cursor(%s) = %d, %d, %v; want %d, %d", tt.mailbox, v, u, err, tt.v, tt.uid)
		}
	}
	if v, u, _ := s.Cursor(ctx, "Other"); v != 1 || u != 2 {
		t.Errorf("Cursor(Other) = %d, %d; want 1, 2", v, u)
	}
}

func TestAllowRefusal(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	const window, max = time.Hour, 2
	for i, tt := range []struct {
		addr string
		at   time.Time
		want bool
	}{
		{"ann@example.org", t0, true},
		{"ANN@example.org", t0.Add(time.Minute), true},
		{"ann@example.org", t0.Add(2 * time.Minute), false},
		{"bob@example.org", t0.Add(2 * time.Minute), true}, // per address
		{"ann@example.org", t0.Add(59 * time.Minute), false},
		{"ann@example.org", t0.Add(time.Hour), true}, // the first fell out of the window
		{"ann@example.org", t0.Add(time.Hour + 30*time.Second), false},
		{"ann@example.org", t0.Add(3 * time.Hour), true},
	} {
		var got bool
		mustTx(t, s, func(tx *Tx) error {
			var err error
			got, err = tx.AllowRefusal(ctx, tt.addr, tt.at, window, max)
			return err
		})
		if got != tt.want {
			t.Errorf("step %d: AllowRefusal(%s, +%v) = %v, want %v", i, tt.addr, tt.at.Sub(t0), got, tt.want)
		}
	}
	// Old records of an address are dropped when it is refused again:
	// ann keeps the one at +3h, bob the one at +2m.
	if n := count(t, s, "refusals"); n != 2 {
		t.Errorf("%d refusal records kept, want 2", n)
	}
}

func TestOutbox(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	g := newGame(t, s, "ann@example.org", "bob@example.org")
	enqueue := func(o Outgoing) (int64, bool, error) {
		var id int64
		var added bool
		err := s.Tx(ctx, func(tx *Tx) error {
			var err error
			id, added, err = tx.Enqueue(ctx, o)
			return err
		})
		return id, added, err
	}

	ids := map[string]int64{}
	for _, tt := range []struct {
		name      string
		o         Outgoing
		wantAdded bool
		wantErr   error
	}{
		{"first", Outgoing{MessageID: "<1@pbem>", GameID: g, To: "Bob@Example.org", Raw: []byte("one"), NotBefore: t0}, true, nil},
		{"later", Outgoing{MessageID: "<2@pbem>", To: "ann@example.org", Raw: []byte("two"), NotBefore: t0.Add(time.Hour)}, true, nil},
		{"same time", Outgoing{MessageID: "<3@pbem>", GameID: g, To: "ann@example.org", Raw: []byte("three"), NotBefore: t0}, true, nil},
		{"again", Outgoing{MessageID: "<1@pbem>", GameID: g, To: "bob@example.org", Raw: []byte("changed"), NotBefore: t0}, false, nil},
		{"no Message-ID", Outgoing{To: "ann@example.org", Raw: []byte("x"), NotBefore: t0}, false, errAny},
		{"no recipient", Outgoing{MessageID: "<4@pbem>", Raw: []byte("x"), NotBefore: t0}, false, errAny},
		{"no message", Outgoing{MessageID: "<4@pbem>", To: "ann@example.org", NotBefore: t0}, false, errAny},
		{"no such game", Outgoing{MessageID: "<4@pbem>", GameID: g + 1, To: "ann@example.org", Raw: []byte("x"), NotBefore: t0}, false, errAny},
	} {
		t.Run(tt.name, func(t *testing.T) {
			id, added, err := enqueue(tt.o)
			checkErr(t, err, tt.wantErr)
			if added != tt.wantAdded {
				t.Errorf("added = %v, want %v", added, tt.wantAdded)
			}
			if err == nil {
				if prev, ok := ids[tt.o.MessageID]; ok && prev != id {
					t.Errorf("id = %d, want the existing %d", id, prev)
				}
				ids[tt.o.MessageID] = id
			}
		})
	}
	one, err := s.Outgoing(ctx, ids["<1@pbem>"])
	if err != nil {
		t.Fatal(err)
	}
	if string(one.Raw) != "one" || one.To != "bob@example.org" || one.State != OutPending || one.GameID != g || !one.NotBefore.Equal(t0) {
		t.Errorf("Outgoing = %+v", one)
	}

	due := func(now time.Time, limit int) []string {
		t.Helper()
		os, err := s.DueOutgoing(ctx, now, limit)
		if err != nil {
			t.Fatal(err)
		}
		var mids []string
		for _, o := range os {
			mids = append(mids, o.MessageID)
		}
		return mids
	}
	for _, tt := range []struct {
		now   time.Time
		limit int
		want  []string
	}{
		{t0.Add(-time.Second), 10, nil},
		{t0, 10, []string{"<1@pbem>", "<3@pbem>"}},
		{t0, 1, []string{"<1@pbem>"}},
		{t0.Add(time.Hour), 10, []string{"<1@pbem>", "<3@pbem>", "<2@pbem>"}},
	} {
		if got := due(tt.now, tt.limit); !equalInts(got, tt.want) {
			t.Errorf("DueOutgoing(+%v, %d) = %v, want %v", tt.now.Sub(t0), tt.limit, got, tt.want)
		}
	}

	// <1> fails once and is deferred, then is sent; <3> fails and dies.
	id1, id2, id3 := ids["<1@pbem>"], ids["<2@pbem>"], ids["<3@pbem>"]
	for _, tt := range []struct {
		name    string
		do      func(tx *Tx) error
		wantErr error
	}{
		{"fail 1", func(tx *Tx) error { return tx.MarkFailed(ctx, id1, "421 try later", t0.Add(2*time.Hour)) }, nil},
		{"fail 3", func(tx *Tx) error { return tx.MarkFailed(ctx, id3, "timeout", t0.Add(time.Minute)) }, nil},
		{"dead 3", func(tx *Tx) error { return tx.MarkDead(ctx, id3, "550 no such user") }, nil},
		{"sent 1", func(tx *Tx) error { return tx.MarkSent(ctx, id1, t0.Add(2*time.Hour)) }, nil},
		{"sent 1 again", func(tx *Tx) error { return tx.MarkSent(ctx, id1, t0.Add(3*time.Hour)) }, ErrNotFound},
		{"fail sent", func(tx *Tx) error { return tx.MarkFailed(ctx, id1, "x", t0) }, ErrNotFound},
		{"dead sent", func(tx *Tx) error { return tx.MarkDead(ctx, id1, "x") }, ErrNotFound},
		{"sent dead", func(tx *Tx) error { return tx.MarkSent(ctx, id3, t0) }, ErrNotFound},
		{"unknown", func(tx *Tx) error { return tx.MarkSent(ctx, 999, t0) }, ErrNotFound},
	} {
		t.Run(tt.name, func(t *testing.T) {
			checkErr(t, s.Tx(ctx, tt.do), tt.wantErr)
		})
	}
	if got := due(t0.Add(time.Hour), 10); !equalInts(got, []string{"<2@pbem>"}) {
		t.Errorf("DueOutgoing after marks = %v, want [<2@pbem>]", got)
	}
	o1, _ := s.Outgoing(ctx, id1)
	if o1.State != OutSent || o1.Attempts != 1 || o1.LastError != "421 try later" || !o1.SentAt.Equal(t0.Add(2*time.Hour)) {
		t.Errorf("sent mail = %+v", o1)
	}
	o3, _ := s.Outgoing(ctx, id3)
	if o3.State != OutDead || o3.Attempts != 1 || o3.LastError != "550 no such user" || !o3.SentAt.IsZero() {
		t.Errorf("dead mail = %+v", o3)
	}
	// A dead or sent Message-ID is not enqueued again.
	if _, added, err := enqueue(Outgoing{MessageID: "<3@pbem>", To: "ann@example.org", Raw: []byte("x"), NotBefore: t0}); added || err != nil {
		t.Errorf("re-enqueue of a dead mail: added %v, %v", added, err)
	}

	stats, err := s.OutboxStats(ctx, t0.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if want := (OutboxStats{Pending: 1, Sent: 1, Dead: 1, Due: 1, OldestDue: t0.Add(time.Hour)}); stats != want {
		t.Errorf("OutboxStats = %+v, want %+v", stats, want)
	}
	stats, _ = s.OutboxStats(ctx, t0)
	if want := (OutboxStats{Pending: 1, Sent: 1, Dead: 1}); stats != want {
		t.Errorf("OutboxStats before due = %+v, want %+v", stats, want)
	}
	if o2, err := s.Outgoing(ctx, id2); err != nil || o2.State != OutPending || o2.Attempts != 0 {
		t.Errorf("untouched mail = %+v, %v", o2, err)
	}
}

func TestNewToken(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for range 1000 {
		tok := NewToken()
		if len(tok) != 16 || strings.Trim(tok, "abcdefghijklmnopqrstuvwxyz234567") != "" {
			t.Fatalf("NewToken() = %q, want 16 lower-case base32 characters", tok)
		}
		if seen[tok] {
			t.Fatalf("NewToken() repeated %q", tok)
		}
		seen[tok] = true
	}
}

func TestSetInboundOutcome(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t)
	ctx := context.Background()
	var id int64
	mustTx(t, s, func(tx *Tx) error {
		var err error
		id, err = tx.RecordInbound(ctx, Inbound{MessageID: "x@y", Mailbox: "INBOX", UIDValidity: 1, UID: 5, From: "a@b.test", Outcome: "handling", ReceivedAt: t0})
		if err != nil {
			return err
		}
		return tx.SetInboundOutcome(ctx, id, Inbound{Token: "tok", Outcome: "refused", Detail: "why"})
	})
	in, err := s.InboundByMessageID(ctx, "x@y")
	if err != nil || in.ID != id || in.Outcome != "refused" || in.Detail != "why" || in.Token != "tok" {
		t.Fatalf("%+v %v", in, err)
	}
	if err := s.Tx(ctx, func(tx *Tx) error { return tx.SetInboundOutcome(ctx, id+100, Inbound{Outcome: "x"}) }); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown inbound: %v", err)
	}
	if err := s.Tx(ctx, func(tx *Tx) error { return tx.SetInboundOutcome(ctx, id, Inbound{}) }); err == nil {
		t.Error("empty outcome accepted")
	}
}

// Receive and Settle are a mail's record in the transaction that
// applies it: a new mail is recorded, a mail seen before is not, and the
// cursor moves past an IMAP mail however it went, never for LMTP mail.
func TestReceiveSettle(t *testing.T) {
	t.Parallel()
	s, _ := newStore(t)
	ctx := context.Background()
	imap := Inbound{MessageID: "<r@x>", Mailbox: "INBOX", UIDValidity: 3, UID: 20, From: "a@b.test", Outcome: "handling", ReceivedAt: t0, Digest: "sha256:r"}
	var id int64
	mustTx(t, s, func(tx *Tx) error {
		var seen bool
		var err error
		id, seen, err = tx.Receive(ctx, imap)
		if err != nil || seen || id == 0 {
			t.Errorf("Receive of a new mail = %d, %v, %v", id, seen, err)
		}
		if v, u, _ := tx.Cursor(ctx, "INBOX"); v != 0 || u != 0 {
			t.Errorf("Receive moved the cursor of a mail not yet settled to %d/%d", v, u)
		}
		settled := imap
		settled.Outcome, settled.Detail, settled.Token = "applied", "bid 4", "tok"
		return tx.Settle(ctx, id, settled)
	})
	in, err := s.InboundByMessageID(ctx, "<r@x>")
	if err != nil || in.ID != id || in.Outcome != "applied" || in.Detail != "bid 4" || in.Token != "tok" {
		t.Errorf("the settled record is %+v, %v", in, err)
	}
	if v, u, _ := s.Cursor(ctx, "INBOX"); v != 3 || u != 20 {
		t.Errorf("the cursor is %d/%d after Settle, want 3/20", v, u)
	}

	// The same bytes again under a later UID: seen, not recorded, and
	// the cursor moves past it.
	again := imap
	again.UID = 21
	mustTx(t, s, func(tx *Tx) error {
		id, seen, err := tx.Receive(ctx, again)
		if err != nil || !seen || id != 0 {
			t.Errorf("Receive of a mail seen before = %d, %v, %v", id, seen, err)
		}
		return nil
	})
	if v, u, _ := s.Cursor(ctx, "INBOX"); v != 3 || u != 21 {
		t.Errorf("the cursor is %d/%d after a mail seen before, want 3/21", v, u)
	}

	// LMTP mail has no UID: recorded and settled, no cursor.
	lmtp := Inbound{MessageID: "<l@x>", Mailbox: "INBOX", From: "a@b.test", Outcome: "handling", ReceivedAt: t0, Digest: "sha256:l"}
	mustTx(t, s, func(tx *Tx) error {
		id, seen, err := tx.Receive(ctx, lmtp)
		if err != nil || seen {
			return fmt.Errorf("Receive of LMTP mail = %d, %v, %w", id, seen, err)
		}
		lmtp.Outcome = "answered"
		return tx.Settle(ctx, id, lmtp)
	})
	if v, u, _ := s.Cursor(ctx, "INBOX"); v != 3 || u != 21 {
		t.Errorf("LMTP mail moved the cursor to %d/%d", v, u)
	}
	if err := s.Tx(ctx, func(tx *Tx) error { return tx.Settle(ctx, id+100, Inbound{Outcome: "x", UID: 99, Mailbox: "INBOX"}) }); !errors.Is(err, ErrNotFound) {
		t.Errorf("Settle of an unknown mail: %v, want ErrNotFound", err)
	}
	if v, u, _ := s.Cursor(ctx, "INBOX"); v != 3 || u != 21 {
		t.Errorf("a failed Settle moved the cursor to %d/%d", v, u)
	}
}

// A mail's record inserted with what became of it is settled without a
// statement (issue 40: the daemon records a mail acted on as applied at
// its seat, which it most often is); one that differs in any of what
// Settle writes is updated, in the same commit, and reads back as
// settled. After a write to the inbound table the transaction no longer
// trusts what it inserted, and updates.
func TestSettleWritesOnlyWhatDiffers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	var mu sync.Mutex
	updates := 0
	s, _ := newStore(t, WithStatementHook(func(q string) {
		if strings.HasPrefix(q, "UPDATE inbound") {
			mu.Lock()
			updates++
			mu.Unlock()
		}
	}))
	counted := func() int { mu.Lock(); defer mu.Unlock(); n := updates; updates = 0; return n }
	g := newGame(t, s, "ann@example.org", "bob@example.org")
	other := newGame(t, s, "cat@example.org", "dan@example.org")
	guess := Inbound{Mailbox: "INBOX", From: "ann@example.org", Token: "tok", GameID: g, Outcome: "applied", ReceivedAt: t0}
	n := 0
	for _, c := range []struct {
		name    string
		settled func(Inbound) Inbound
		between func(tx *Tx, id int64) error // a write between Receive and Settle
		updates int
	}{
		{"as guessed", func(in Inbound) Inbound { return in }, nil, 0},
		{"as guessed, after another write", func(in Inbound) Inbound { return in },
			func(tx *Tx, _ int64) error {
				_, err := tx.AppendAudit(ctx, g, "ann@example.org", "x", "y", t0)
				return err
			}, 0},
		{"another outcome", func(in Inbound) Inbound { in.Outcome = "refused"; return in }, nil, 1},
		{"a detail", func(in Inbound) Inbound { in.Detail = "over the limit"; return in }, nil, 1},
		{"a detail with a NUL", func(in Inbound) Inbound { in.Detail = "a\x00b"; return in }, nil, 1},
		{"another token", func(in Inbound) Inbound { in.Token = "tok2"; return in }, nil, 1},
		{"another game", func(in Inbound) Inbound { in.GameID = other; return in }, nil, 1},
		{"no game", func(in Inbound) Inbound { in.GameID, in.Token = 0, ""; return in }, nil, 1},
		{"as guessed, after a write of the inbound table", func(in Inbound) Inbound { return in },
			func(tx *Tx, id int64) error { return tx.SetInboundOutcome(ctx, id, guess) }, 2},
	} {
		n++
		in := guess
		in.MessageID, in.Digest = fmt.Sprintf("<settle%d@x>", n), fmt.Sprintf("sha256:settle%d", n)
		want := c.settled(in)
		counted()
		var id int64
		mustTx(t, s, func(tx *Tx) error {
			var err error
			if id, _, err = tx.Receive(ctx, in); err != nil {
				return err
			}
			if c.between != nil {
				if err := c.between(tx, id); err != nil {
					return err
				}
			}
			return tx.Settle(ctx, id, want)
		})
		if got := counted(); got != c.updates {
			t.Errorf("%s: %d UPDATEs of the record, want %d", c.name, got, c.updates)
		}
		got, err := s.InboundByMessageID(ctx, in.MessageID)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got.ID != id || got.Outcome != want.Outcome || got.Detail != textDetail(want.Detail) || got.Token != want.Token || got.GameID != want.GameID {
			t.Errorf("%s: the record reads %+v, want it settled as %+v", c.name, got, want)
		}
	}
}

// An empty key and a UID of 0 mean "none": they never match, not even
// rows recorded with the same empty key or UID 0, and the query finds
// what it compares through the partial indexes that hold only real keys
// and UIDs (issue 15).
func TestInboundSeenIgnoresNone(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	for _, in := range []Inbound{
		{Mailbox: "INBOX", UIDValidity: 7, Outcome: "refused", ReceivedAt: t0},                                         // none
		{MessageID: "<m@x>", SentAs: SentAs("<m@x>", "a@x", ""), Mailbox: "INBOX", Outcome: "refused", ReceivedAt: t0}, // no UID
		{Digest: "sha256:d", Mailbox: "INBOX", Outcome: "refused", ReceivedAt: t0},
		{Mailbox: "INBOX", UIDValidity: 7, UID: 3, Outcome: "refused", ReceivedAt: t0},
	} {
		mustTx(t, s, func(tx *Tx) error { _, err := tx.RecordInbound(ctx, in); return err })
	}
	for _, tt := range []struct {
		name string
		in   Inbound
		want bool
	}{
		{"no key, UID 0", Inbound{Mailbox: "INBOX", UIDValidity: 7}, false},
		{"no key, UID 0, no UIDVALIDITY", Inbound{Mailbox: "INBOX"}, false},
		{"no key, unseen UID", Inbound{Mailbox: "INBOX", UIDValidity: 7, UID: 4}, false},
		{"unseen key, UID 0", Inbound{SentAs: SentAs("<n@x>", "a@x", ""), Digest: "sha256:e", Mailbox: "INBOX", UIDValidity: 7}, false},
		{"seen Message-ID, no sender's key", Inbound{MessageID: "<m@x>", Mailbox: "INBOX"}, false},
		{"seen key, UID 0", Inbound{SentAs: SentAs("<m@x>", "a@x", ""), Mailbox: "INBOX"}, true},
		{"seen digest, UID 0", Inbound{Digest: "sha256:d", Mailbox: "INBOX"}, true},
		{"no key, seen UID", Inbound{Mailbox: "INBOX", UIDValidity: 7, UID: 3}, true},
	} {
		seen, err := s.InboundSeen(ctx, tt.in)
		if err != nil || seen != tt.want {
			t.Errorf("%s: InboundSeen = %v, %v; want %v", tt.name, seen, err, tt.want)
		}
	}

	if s.Engine() != SQLite {
		return // the plan below is SQLite's
	}
	plan := strings.Join(explain(t, s, inboundSeenQuery, SentAs("<m@x>", "a@x", ""), "sha256:d", "INBOX", 7, 3), "; ")
	for _, index := range []string{"inbound_sent_as", "inbound_digest", "inbound_uid"} {
		if !strings.Contains(plan, "USING COVERING INDEX "+index) && !strings.Contains(plan, "USING INDEX "+index) {
			t.Errorf("InboundSeen's plan %q does not use %s", plan, index)
		}
	}
}

// A duplicate is an answer, not a failure of the transaction: the daemon
// records a mail whose Message-ID was seen under another UID by its UID
// alone, in the same transaction (daemon/aside.go), and an admin's
// replace to an address already seated goes on to say so. PostgreSQL
// aborts a transaction at its first error unless the statement ran in a
// savepoint of its own.
func TestDuplicateLeavesTransactionUsable(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	game := newGame(t, s, "ann@example.org", "bob@example.org")
	first := Inbound{MessageID: "<a@x>", SentAs: SentAs("<a@x>", "a@x", ""), Mailbox: "INBOX", UIDValidity: 7, UID: 1, Outcome: "applied", ReceivedAt: t0}
	mustTx(t, s, func(tx *Tx) error { _, err := tx.RecordInbound(ctx, first); return err })
	mustTx(t, s, func(tx *Tx) error {
		again := first
		again.UID = 2
		if _, err := tx.RecordInbound(ctx, again); !errors.Is(err, ErrDuplicate) {
			t.Fatalf("RecordInbound of a seen Message-ID = %v, want ErrDuplicate", err)
		}
		again.SentAs = ""
		if _, err := tx.RecordInbound(ctx, again); err != nil {
			return err
		}
		if err := tx.ReplaceSeatAddress(ctx, game, 1, "ann@example.org", NewToken()); !errors.Is(err, ErrDuplicate) {
			t.Fatalf("ReplaceSeatAddress to a seated address = %v, want ErrDuplicate", err)
		}
		if err := tx.AddSeat(ctx, game, 2, "bob@example.org", "b", NewToken()); !errors.Is(err, ErrDuplicate) {
			t.Fatalf("AddSeat of a seated address = %v, want ErrDuplicate", err)
		}
		_, err := tx.UpsertPlayer(ctx, "cat@example.org", "Cat")
		return err
	})
	if seen, err := s.InboundSeen(ctx, Inbound{Mailbox: "INBOX", UIDValidity: 7, UID: 2}); err != nil || !seen {
		t.Errorf("UID 2 seen = %v, %v; want it recorded after the duplicate", seen, err)
	}
	if p, err := s.Player(ctx, "cat@example.org"); err != nil || p.Name != "Cat" {
		t.Errorf("Player = %+v, %v; want Cat written after the duplicates", p, err)
	}
}

// Two mails have one SentAs key exactly when they have one Message-ID,
// one sender and one address of pbem's, the addresses compared
// lower-case: a mail from another sender, or to another of pbem's
// addresses, never takes the key of a player's mail (issue 33).
func TestSentAsKeysTheSameMailOnly(t *testing.T) {
	t.Parallel()
	// Small alphabets, so that equal parts and near misses (case, a
	// part that ends where another begins) both come up.
	part := func(chars string) *rapid.Generator[string] {
		return rapid.StringOfN(rapid.SampledFrom([]rune(chars)), 0, 4, -1)
	}
	address, id := part("aA@."), part("aA@<> ")
	rapid.Check(t, func(t *rapid.T) {
		m1, f1, t1 := id.Draw(t, "id1"), address.Draw(t, "from1"), address.Draw(t, "to1")
		m2, f2, t2 := id.Draw(t, "id2"), address.Draw(t, "from2"), address.Draw(t, "to2")
		same := m1 == m2 && strings.EqualFold(f1, f2) && strings.EqualFold(t1, t2)
		k1, k2 := SentAs(m1, f1, t1), SentAs(m2, f2, t2)
		if m1 == "" && k1 != "" {
			t.Fatalf("SentAs(%q, %q, %q) = %q for no Message-ID, want none", m1, f1, t1, k1)
		}
		if m1 != "" && m2 != "" && (k1 == k2) != same {
			t.Fatalf("SentAs(%q, %q, %q) = %q, SentAs(%q, %q, %q) = %q; the same mail: %v",
				m1, f1, t1, k1, m2, f2, t2, k2, same)
		}
	})
}
