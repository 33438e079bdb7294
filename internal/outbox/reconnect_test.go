package outbox

import (
	"context"
	"errors"
	"net"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pbem/pbem/mailer"
	"github.com/pbem/pbem/store"
)

// outboxRun runs Outbox.Run in the background with its waits in the
// test's hands: next returns the next wait Run asks for, and Run stays
// in that wait until the next call of next (which ends it at once) or
// stop. Between two calls the test may look at what Run did. The
// queue's clock stands still, so a mail deferred by its backoff stays
// deferred: only what Run does at once is seen.
type outboxRun struct {
	waits  chan time.Duration
	resume chan struct{}
	held   bool
	stop   func()
}

func (r *outboxRun) next() time.Duration {
	if r.held {
		r.resume <- struct{}{}
	}
	d := <-r.waits
	r.held = true
	return d
}

func runOutbox(t *testing.T, q *queue, send CourierFunc, cfg Config) *outboxRun {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	r := &outboxRun{waits: make(chan time.Duration), resume: make(chan struct{})}
	cfg.after = func(d time.Duration) <-chan time.Time {
		fired := make(chan time.Time, 1)
		select {
		case r.waits <- d:
		case <-ctx.Done():
			return fired
		}
		select {
		case <-r.resume:
			fired <- time.Time{}
		case <-ctx.Done():
		}
		return fired
	}
	done := make(chan error, 1)
	o := q.outbox(t, send, cfg)
	go func() { done <- o.Run(ctx) }()
	stopped := false
	r.stop = func() {
		if stopped {
			return
		}
		stopped = true
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Errorf("Run: %v", err)
		}
	}
	t.Cleanup(r.stop)
	return r
}

// unreachableErr is what a real mailer.Sender reports when nothing
// listens on the SMTP port: a refused connection.
func unreachableErr(t *testing.T) error {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	s, err := mailer.NewSender(mailer.SenderConfig{Addr: addr, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	err = s.Send(context.Background(), "pbem@example.test", []string{"alice@x.test"}, []byte("Subject: x\r\n\r\nx\r\n"))
	if err == nil {
		t.Fatal("a send to a closed port succeeded")
	}
	return err
}

// TestOutboxSendsDeferredMailAtStart (issue 23, finding 9): mail that a
// failure deferred before a restart is tried as soon as pbem starts,
// not after the rest of its backoff (50–85 s were seen).
func TestOutboxSendsDeferredMailAtStart(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	q := newQueue(t)
	q.add(t, "help", "alice@x.test")
	// Before the restart: the server refused the mail for now.
	refused := &mailer.SendError{Op: "rcpt to alice@x.test", Code: 451, Err: errors.New("451 4.3.0 try again later")}
	n, err := q.outbox(t, CourierFunc(func(context.Context, string, []string, []byte) error { return refused }), testConfig()).SendDue(ctx)
	if err != nil || n != 1 {
		t.Fatalf("SendDue: %d, %v", n, err)
	}
	if stats, _ := q.st.OutboxStats(ctx, q.clock); stats.Pending != 1 || stats.Due != 0 {
		t.Fatalf("outbox after the refusal: %+v; want the mail deferred", stats)
	}

	// The restart: the first pass sends it.
	var sent []string
	run := runOutbox(t, q, func(_ context.Context, _ string, to []string, _ []byte) error {
		sent = append(sent, to[0])
		return nil
	}, testConfig())
	run.next() // the first pass is over
	run.stop()
	if len(sent) != 1 || sent[0] != "alice@x.test" {
		t.Fatalf("the first pass after the restart sent %v; want the deferred mail to alice", sent)
	}
	if !strings.Contains(q.logs.String(), "deferred mail is due at once") {
		t.Error("the start did not log the deferred mail it made due")
	}
}

// TestOutboxReconnectsWithinSeconds (issue 23, finding 9): while the
// mail server refuses connections, the outbox tries again after 1s, 2s,
// 4s…, capped at retry_min, and not after retry_min (a 4-second Postfix
// outage held answers back 18–25 s). The mails keep their attempts, and
// each goes out once when the server is back. A refusal of one mail by
// a server that answers keeps its backoff (TestOutboxReportsFailures).
func TestOutboxReconnectsWithinSeconds(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	q := newQueue(t)
	players := []string{"alice@x.test", "bob@x.test", "carol@x.test"}
	q.add(t, "help", players...)
	down := unreachableErr(t)
	if !mailer.IsUnreachable(down) || mailer.IsPermanent(down) {
		t.Fatalf("a refused connection: unreachable %t, permanent %t; want unreachable, temporary", mailer.IsUnreachable(down), mailer.IsPermanent(down))
	}
	outage := 7 // sends that find the server down
	tries, sent := 0, map[string]int{}
	run := runOutbox(t, q, func(_ context.Context, _ string, to []string, _ []byte) error {
		tries++
		if tries <= outage {
			return down
		}
		sent[to[0]]++
		return nil
	}, testConfig())
	var waits []time.Duration
	for range outage {
		waits = append(waits, run.next())
	}
	// One look at the outbox costs one try while the server is down.
	if tries != outage {
		t.Errorf("%d sends in %d looks at the outbox while the server was down; want one a look", tries, outage)
	}
	after := run.next() // the server is back: all went
	run.stop()
	retryMin := testConfig().RetryMin
	want := []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 16 * time.Second, retryMin, retryMin}
	if !slices.Equal(waits, want) {
		t.Errorf("waits while the server was down: %v; want %v", waits, want)
	}
	if after != testConfig().Poll {
		t.Errorf("wait once the server was back: %v; want the poll interval %v", after, testConfig().Poll)
	}
	for _, p := range players {
		if sent[p] != 1 {
			t.Errorf("%s got %d mails; want 1", p, sent[p])
		}
	}
	all, err := q.st.AllOutgoing(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range all {
		if o.State != store.OutSent || o.Attempts != 0 {
			t.Errorf("%s: %s after %d failed attempts; want sent, with no attempt counted against it", o.To, o.State, o.Attempts)
		}
	}
}
