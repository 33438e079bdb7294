package outbox

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/pbem/pbem/store/storetest"

	"github.com/pbem/pbem/internal/config"
	"github.com/pbem/pbem/mailer"
	"github.com/pbem/pbem/store"
)

// testConfig is the outbox configuration `pbem serve` runs with when
// nothing is configured: wiring.OutboxFrom(config.Default()), which this
// package cannot import (wiring's TestConfigFromDefaults checks that one).
func testConfig() Config {
	c := config.Default().Outbox
	return Config{
		Poll: c.PollInterval.Duration, Batch: c.Batch, MaxAttempts: c.MaxAttempts,
		RetryMin: c.RetryMin.Duration, RetryMax: c.RetryMax.Duration,
		Permanent: mailer.IsPermanent, Unreachable: mailer.IsUnreachable,
		SendTimeout: mailer.DefaultSendTimeout,
	}
}

// queue is a store whose outbox a test fills, with a clock that stands
// still (a mail deferred by its backoff stays deferred) and a log the
// test may read.
type queue struct {
	st    *store.Store
	clock time.Time
	logs  lockedBuffer
	n     int // mails queued
}

func newQueue(t testing.TB) *queue {
	t.Helper()
	st, err := store.Open(context.Background(), storetest.Database(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return &queue{st: st, clock: time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)}
}

// add queues one mail to each address, due now, with body as its text.
func (q *queue) add(t testing.TB, body string, to ...string) {
	t.Helper()
	ctx := context.Background()
	err := q.st.Tx(ctx, func(tx *store.Tx) error {
		for _, a := range to {
			q.n++
			id := fmt.Sprintf("test%d@example.test", q.n)
			raw, err := mailer.Compose(mailer.Envelope{
				From: "pbem@example.test", To: a, Subject: "Felix #1", Date: q.clock, MessageID: id,
			}, body, "")
			if err != nil {
				return err
			}
			if _, _, err := tx.Enqueue(ctx, store.Outgoing{MessageID: id, Seat: -1, To: a, Raw: raw, NotBefore: q.clock}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// outbox is an outbox of the queue's store, delivering through c with
// cfg, on the queue's clock and log.
func (q *queue) outbox(t testing.TB, c Courier, cfg Config, opts ...Option) *Outbox {
	t.Helper()
	opts = append([]Option{
		WithClock(func() time.Time { return q.clock }),
		WithLogger(slog.New(slog.NewTextHandler(&q.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))),
	}, opts...)
	o, err := New(q.st, "pbem@example.test", c, cfg, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// lockedBuffer collects log output from concurrent writers.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// countingObserver counts what the outbox reports.
type countingObserver struct {
	mu     sync.Mutex
	sent   int
	failed map[SendFailure]int
}

func (o *countingObserver) Sent() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.sent++
}

func (o *countingObserver) SendFailed(class SendFailure) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.failed == nil {
		o.failed = map[SendFailure]int{}
	}
	o.failed[class]++
}

func total(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}
