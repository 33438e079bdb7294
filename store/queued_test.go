package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestQueuedMessagesTakeAndBounds(t *testing.T) {
	q := newQueuedMessages()
	q.add([]queuedMessage{{"<a@x>", "ann@x", []byte("A")}, {"<b@x>", "bob@x", []byte("B")}})
	if got := q.take("<a@x>", "ann@x"); string(got) != "A" {
		t.Errorf("take <a@x> = %q, want A", got)
	}
	if got := q.take("<a@x>", "ann@x"); got != nil {
		t.Errorf("a second take of <a@x> = %q, want nil: a take forgets", got)
	}
	// A Message-ID to another recipient is not the mail posted: nothing,
	// and it is forgotten.
	if got := q.take("<b@x>", "eve@x"); got != nil {
		t.Errorf("take <b@x> to eve = %q, want nil", got)
	}
	if got := q.take("<b@x>", "bob@x"); got != nil {
		t.Errorf("take <b@x> after the wrong take = %q, want nil", got)
	}
	if q.len() != 0 || q.bytes != 0 {
		t.Errorf("after taking everything: %d messages, %d bytes kept", q.len(), q.bytes)
	}

	// The oldest leave first, past the count and past the bytes.
	var ms []queuedMessage
	for i := range maxQueuedMessages + 10 {
		ms = append(ms, queuedMessage{fmt.Sprintf("<%d@x>", i), "ann@x", []byte("m")})
	}
	q.add(ms)
	if q.len() != maxQueuedMessages {
		t.Errorf("kept %d messages, want %d", q.len(), maxQueuedMessages)
	}
	if got := q.take("<9@x>", "ann@x"); got != nil {
		t.Errorf("the 10th oldest is still kept")
	}
	if got := q.take("<10@x>", "ann@x"); got == nil {
		t.Errorf("the 11th oldest is gone")
	}
	big := bytes.Repeat([]byte("x"), maxQueuedBytes/2+1)
	q.add([]queuedMessage{{"<big1@x>", "ann@x", big}, {"<big2@x>", "ann@x", big}})
	if q.bytes > maxQueuedBytes {
		t.Errorf("kept %d bytes, more than %d", q.bytes, maxQueuedBytes)
	}
	if got := q.take("<big2@x>", "ann@x"); got == nil {
		t.Errorf("the newest message is gone")
	}
}

// TestClaimTakesPostedMessages: the outbox's claim of a mail this store
// posted (Tx.Post) has its message from memory, the bytes the database
// holds, without reading outbox_messages; a mail whose transaction or
// savepoint rolled back leaves nothing behind; a Message-ID posted twice
// keeps its first message, in memory as in the database; a mail another
// store posted is read from the database. On PostgreSQL the post's
// statement goes with the transaction's next, and the message is kept
// once the server says it added the mail (pgTx.laterThen).
func TestClaimTakesPostedMessages(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	var mu sync.Mutex
	reads := 0
	s, path := newStore(t, WithStatementHook(func(q string) {
		if strings.Contains(q, "FROM outbox_messages") && strings.HasPrefix(strings.TrimSpace(q), "SELECT") {
			mu.Lock()
			reads++
			mu.Unlock()
		}
	}))
	now := time.Unix(1_800_000_000, 0)
	post := func(tx *Tx, mid, rcpt, raw string) error {
		return tx.Post(ctx, Outgoing{MessageID: mid, To: rcpt, Raw: []byte(raw), NotBefore: now})
	}
	mustTx(t, s, func(tx *Tx) error {
		if err := post(tx, "<one@x>", "Ann@X.test", "first message"); err != nil {
			return err
		}
		// A savepoint that fails takes its mail with it.
		tx.Savepoint(ctx, func() error {
			if err := post(tx, "<undone@x>", "bob@x.test", "undone"); err != nil {
				return err
			}
			return errors.New("the work failed")
		})
		return post(tx, "<one@x>", "ann@x.test", "a second message with the same Message-ID")
	})
	failed := errors.New("the transaction failed")
	if err := s.Tx(ctx, func(tx *Tx) error {
		if err := post(tx, "<rolled@x>", "cat@x.test", "rolled back"); err != nil {
			return err
		}
		return failed
	}); !errors.Is(err, failed) {
		t.Fatal(err)
	}
	if n := s.queued.len(); n != 1 {
		t.Errorf("the store keeps %d messages, want 1 (the committed mail's)", n)
	}

	// A second store on the file posts a mail this one never saw.
	other, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	mustTx(t, other, func(tx *Tx) error { return post(tx, "<other@x>", "dan@x.test", "the other node's") })

	var got []Outgoing
	mustTx(t, s, func(tx *Tx) (err error) {
		got, err = tx.ClaimOutgoing(ctx, "n1", now, now.Add(time.Minute), 10)
		return err
	})
	want := map[string]string{"<one@x>": "first message", "<other@x>": "the other node's"}
	if len(got) != len(want) {
		t.Fatalf("claimed %d mails, want %d: %+v", len(got), len(want), got)
	}
	for _, o := range got {
		if string(o.Raw) != want[o.MessageID] {
			t.Errorf("%s claimed with %q, want %q", o.MessageID, o.Raw, want[o.MessageID])
		}
		stored, err := other.Outgoing(ctx, o.ID) // read by the other store: not counted below
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(stored.Raw, o.Raw) {
			t.Errorf("%s claimed with %q, the database holds %q", o.MessageID, o.Raw, stored.Raw)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	// One read, for the other store's mail alone (the test's own reads
	// above go to the pool unmetered).
	if reads != 1 {
		t.Errorf("the claim read outbox_messages %d times, want once", reads)
	}
	if n := s.queued.len(); n != 0 {
		t.Errorf("after the claim the store keeps %d messages, want 0", n)
	}
}
