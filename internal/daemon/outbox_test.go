package daemon

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/pbem/pbem/mailer"
	"github.com/pbem/pbem/store"
)

// TestOutboxFullDisk: while the store cannot write, the sender sends
// nothing it could not mark. One batch goes out before its marks fail to
// be written; nothing more goes until a write succeeds; then the owed
// marks are written, and no mail is sent twice.
func TestOutboxFullDisk(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test"}
	reply, _ := w.startGame("felix", players...)
	// Three answers wait in the outbox.
	for _, p := range players {
		w.uid++
		raw := "From: " + p + "\r\nTo: " + reply[p] + "\r\nMessage-ID: <s" + p + ">\r\n\r\nstatus\r\n"
		if err := w.svc.HandleMail(ctx, mailMessage(w.uid, raw)); err != nil {
			t.Fatal(err)
		}
	}
	sent := map[string]int{} // by Message-ID
	send := func(_ context.Context, _ string, _ []string, raw []byte) error {
		sent[readMail(t, raw).MessageID]++
		return nil
	}
	obs := &countingObserver{}
	w.svc.obs = obs
	cfg := testOutbox()
	cfg.Batch = 2 // the third mail waits for the next batch

	w.st.FailWrites(store.ErrUnavailable)
	for try := 1; try <= 5; try++ {
		n, err := w.svc.SendDue(ctx, send, cfg)
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

	w.st.FailWrites(nil)
	for {
		n, err := w.svc.SendDue(ctx, send, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			break
		}
	}
	for id, n := range sent {
		if n != 1 {
			t.Errorf("%s was sent %d times", id, n)
		}
	}
	if total(sent) != 3 || obs.sent != 3 {
		t.Fatalf("after the outage: %d mails sent, %d reported; want 3", total(sent), obs.sent)
	}
	stats, err := w.st.OutboxStats(ctx, w.clock)
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
	w := newWorld(t)
	for i, from := range []string{"alice@x.test", "bob@x.test", "carol@x.test"} {
		raw := "From: " + from + "\r\nTo: pbem@example.test\r\nMessage-ID: <h" + from + ">\r\n\r\nhelp\r\n"
		if err := w.svc.HandleMail(ctx, mailMessage(uint32(i+1), raw)); err != nil {
			t.Fatal(err)
		}
	}
	obs := &countingObserver{}
	w.svc.obs = obs
	permanent := errors.New("550 no such user")
	oc := testOutbox()
	oc.Permanent = func(err error) bool { return err == permanent }
	n, err := w.svc.SendDue(ctx, func(_ context.Context, _ string, to []string, _ []byte) error {
		switch to[0] {
		case "bob@x.test":
			return permanent
		case "carol@x.test":
			return errors.New("421 try later")
		}
		return nil
	}, oc)
	if err != nil || n != 3 {
		t.Fatalf("SendDue: %d, %v", n, err)
	}
	if obs.sent != 1 || obs.failed[SendPermanent] != 1 || obs.failed[SendTemporary] != 1 {
		t.Fatalf("reported: %d sent, failures %v", obs.sent, obs.failed)
	}
	stats, err := w.st.OutboxStats(ctx, w.clock)
	if err != nil || stats.Sent != 1 || stats.Dead != 1 || stats.Pending != 1 || stats.Due != 0 {
		t.Fatalf("outbox: %+v %v; want 1 sent, 1 dead, 1 deferred", stats, err)
	}
}

// countingObserver counts what the service reports.
type countingObserver struct {
	nopObserver
	sent   int
	failed map[SendFailure]int
}

func (o *countingObserver) Sent() { o.sent++ }
func (o *countingObserver) SendFailed(class SendFailure) {
	if o.failed == nil {
		o.failed = map[SendFailure]int{}
	}
	o.failed[class]++
}

func mailMessage(uid uint32, raw string) mailer.Message {
	return mailer.Message{Mailbox: "INBOX", UIDValidity: 1, UID: uid, Raw: []byte(raw)}
}

func total(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// TestOutboxMarkNoLongerPending: a mail of the batch that is no longer
// pending when the batch is marked (marked by another hand) costs nothing
// owed: the other marks are written, and the outbox goes on.
func TestOutboxMarkNoLongerPending(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	for i, from := range []string{"alice@x.test", "bob@x.test", "carol@x.test"} {
		raw := "From: " + from + "\r\nTo: pbem@example.test\r\nMessage-ID: <p" + from + ">\r\n\r\nhelp\r\n"
		if err := w.svc.HandleMail(ctx, mailMessage(uint32(i+1), raw)); err != nil {
			t.Fatal(err)
		}
	}
	due, err := w.st.DueOutgoing(ctx, w.clock, 10)
	if err != nil || len(due) != 3 {
		t.Fatalf("due %d, %v", len(due), err)
	}
	n, err := w.svc.SendDue(ctx, func(_ context.Context, _ string, to []string, _ []byte) error {
		if to[0] == "bob@x.test" {
			// Another hand marks bob's mail while the batch is out.
			return w.st.Tx(ctx, func(tx *store.Tx) error { return tx.MarkSent(ctx, due[1].ID, w.clock) })
		}
		return nil
	}, testOutbox())
	if err != nil || n != 3 {
		t.Fatalf("SendDue: %d, %v", n, err)
	}
	stats, err := w.st.OutboxStats(ctx, w.clock)
	if err != nil || stats.Sent != 3 || stats.Pending != 0 {
		t.Fatalf("outbox: %+v %v; want 3 sent, none pending", stats, err)
	}
	if !strings.Contains(w.logs.String(), "no longer pending") {
		t.Error("the skipped mark was not logged")
	}
}
