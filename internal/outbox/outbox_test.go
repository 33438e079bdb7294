package outbox

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/pbem/pbem/store"
)

// TestOutboxFullDisk: while the store cannot write, the sender sends
// nothing it could not mark. The disk fills while a batch is out (after
// its claim, before its marks): that batch goes out, its marks fail to be
// written and are owed, and nothing more goes until a write succeeds,
// not even a claim; then the owed marks are written, and no mail is sent
// twice.
func TestOutboxFullDisk(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	q := newQueue(t)
	// Three answers wait in the outbox.
	q.add(t, "status", "alice@x.test", "bob@y.test", "carol@z.test")
	sent := map[string]int{} // by recipient: one mail each
	send := CourierFunc(func(_ context.Context, _ string, to []string, _ []byte) error {
		sent[to[0]]++
		q.st.FailWrites(store.ErrUnavailable) // the disk fills
		return nil
	})
	obs := &countingObserver{}
	cfg := testConfig()
	cfg.Batch = 2 // the third mail waits for the next batch
	o := q.outbox(t, send, cfg, WithObserver(obs))

	for try := 1; try <= 5; try++ {
		n, err := o.SendDue(ctx)
		if err == nil || !store.Unavailable(err) {
			t.Fatalf("try %d while the disk is full: %d sent, err %v", try, n, err)
		}
	}
	if total(sent) != 2 {
		t.Fatalf("%d mails went out while nothing could be marked, want 2 (the first batch)", total(sent))
	}
	if obs.sent != 0 {
		t.Fatalf("%d mails reported sent before their mark was written", obs.sent)
	}

	send = CourierFunc(func(_ context.Context, _ string, to []string, _ []byte) error {
		sent[to[0]]++
		return nil
	})
	o.courier = send
	q.st.FailWrites(nil)
	for {
		n, err := o.SendDue(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			break
		}
	}
	for to, n := range sent {
		if n != 1 {
			t.Errorf("%s was sent %d mails", to, n)
		}
	}
	if total(sent) != 3 || obs.sent != 3 {
		t.Fatalf("after the outage: %d mails sent, %d reported; want 3", total(sent), obs.sent)
	}
	stats, err := q.st.OutboxStats(ctx, q.clock)
	if err != nil || stats.Pending != 0 {
		t.Fatalf("outbox after the outage: %+v %v", stats, err)
	}
}

// TestOutboxReportsFailures: each attempt is reported, by class, once
// its outcome is recorded: a permanent refusal ends the mail, a temporary
// one defers it.
func TestOutboxReportsFailures(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	q := newQueue(t)
	q.add(t, "help", "alice@x.test", "bob@x.test", "carol@x.test")
	obs := &countingObserver{}
	permanent := errors.New("550 no such user")
	cfg := testConfig()
	cfg.Permanent = func(err error) bool { return err == permanent }
	o := q.outbox(t, CourierFunc(func(_ context.Context, _ string, to []string, _ []byte) error {
		switch to[0] {
		case "bob@x.test":
			return permanent
		case "carol@x.test":
			return errors.New("421 try later")
		}
		return nil
	}), cfg, WithObserver(obs))
	n, err := o.SendDue(ctx)
	if err != nil || n != 3 {
		t.Fatalf("SendDue: %d, %v", n, err)
	}
	if obs.sent != 1 || obs.failed[SendPermanent] != 1 || obs.failed[SendTemporary] != 1 {
		t.Fatalf("reported: %d sent, failures %v", obs.sent, obs.failed)
	}
	stats, err := q.st.OutboxStats(ctx, q.clock)
	if err != nil || stats.Sent != 1 || stats.Dead != 1 || stats.Pending != 1 || stats.Due != 0 {
		t.Fatalf("outbox: %+v %v; want 1 sent, 1 dead, 1 deferred", stats, err)
	}
}

// TestOutboxMarkNoLongerPending: a mail of the batch that is no longer
// pending when the batch is marked (marked by another hand) costs nothing
// owed: the other marks are written, and the outbox goes on.
func TestOutboxMarkNoLongerPending(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	q := newQueue(t)
	q.add(t, "help", "alice@x.test", "bob@x.test", "carol@x.test")
	due, err := q.st.DueOutgoing(ctx, q.clock, 10)
	if err != nil || len(due) != 3 {
		t.Fatalf("due %d, %v", len(due), err)
	}
	o := q.outbox(t, CourierFunc(func(_ context.Context, _ string, to []string, _ []byte) error {
		if to[0] == "bob@x.test" {
			// Another hand marks bob's mail while the batch is out.
			return q.st.Tx(ctx, func(tx *store.Tx) error { return tx.MarkSent(ctx, due[1].ID, q.clock) })
		}
		return nil
	}), testConfig())
	n, err := o.SendDue(ctx)
	if err != nil || n != 3 {
		t.Fatalf("SendDue: %d, %v", n, err)
	}
	stats, err := q.st.OutboxStats(ctx, q.clock)
	if err != nil || stats.Sent != 3 || stats.Pending != 0 {
		t.Fatalf("outbox: %+v %v; want 3 sent, none pending", stats, err)
	}
	if !strings.Contains(q.logs.String(), "no longer pending") {
		t.Error("the skipped mark was not logged")
	}
}

// TestOutboxRefusesEmptyConfig: a zero Config would never send, or never
// stop trying; New refuses it and says where a good one comes from.
func TestOutboxRefusesEmptyConfig(t *testing.T) {
	t.Parallel()
	q := newQueue(t)
	if _, err := New(q.st, "pbem@example.test", nil, Config{}); err == nil || !strings.Contains(err.Error(), "OutboxFrom") {
		t.Errorf("New with a zero Config: %v; want a refusal that points at OutboxFrom", err)
	}
	if _, err := New(q.st, "pbem@example.test", nil, testConfig()); err != nil {
		t.Errorf("New with the defaults: %v", err)
	}
}
