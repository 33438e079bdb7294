package outbox

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pbem/pbem/mailer"
	"github.com/pbem/pbem/mailer/embedded"
	"github.com/pbem/pbem/store"
)

// BenchmarkOutboxSend measures the outbox draining 400 queued mails of
// about 16 kB (a game mail's size, text and HTML) through the real
// Sender to the embedded SMTP server on loopback, with the defaults
// (outbox.batch 20): SendDue, the SMTP conversations and the marks'
// durable transactions (issue 15). The embedded server keeps the mail in
// memory, so its own disk is not measured. A proxy in front of it counts
// the connections. Transactions are not counted here: run the benchmark
// under strace to count the fsyncs of pbem.db-wal (BENCHMARKS.md).
func BenchmarkOutboxSend(b *testing.B) {
	const mails = 400
	ctx := context.Background()
	q := newQueue(b)
	srv, err := embedded.Start(ctx, embedded.Config{
		IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0", Domain: "example.test",
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { srv.Close() })
	addr, conns := countingProxy(b, srv.SMTPAddr())
	sender, err := mailer.NewSender(mailer.SenderConfig{Addr: addr, Security: mailer.SecurityNone})
	if err != nil {
		b.Fatal(err)
	}
	// Closed if the Sender has sessions to close (from issue 15 on).
	if c, ok := any(sender).(interface{ Close() error }); ok {
		b.Cleanup(func() { c.Close() })
	}
	body := strings.Repeat("A line of a game mail, as long as most of them are.\r\n", 300)
	o := q.outbox(b, sender, testConfig())
	n := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		err := q.st.Tx(ctx, func(tx *store.Tx) error {
			for j := 0; j < mails; j++ {
				n++
				to := fmt.Sprintf("p%d@example.test", j%4)
				raw, err := mailer.Compose(mailer.Envelope{
					From: "pbem@example.test", To: to, Subject: "Felix #1", Date: q.clock,
					MessageID: fmt.Sprintf("bench%d@example.test", n),
				}, body, "")
				if err != nil {
					return err
				}
				if _, _, err := tx.Enqueue(ctx, store.Outgoing{MessageID: fmt.Sprintf("bench%d@example.test", n),
					Seat: -1, To: to, Raw: raw, NotBefore: q.clock}); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		for sent := 0; sent < mails; {
			k, err := o.SendDue(ctx)
			if err != nil {
				b.Fatal(err)
			}
			if k == 0 {
				b.Fatalf("outbox empty after %d of %d mails", sent, mails)
			}
			sent += k
		}
	}
	b.StopTimer()
	stats, err := q.st.OutboxStats(ctx, q.clock)
	if err != nil || stats.Sent != int64(n) {
		b.Fatalf("outbox: %+v, %v; want %d sent", stats, err, n)
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "mails/s")
	b.ReportMetric(float64(conns.Load())/float64(n), "conns/mail")
}

// countingProxy forwards connections to target and counts them.
func countingProxy(b *testing.B, target string) (string, *atomic.Int64) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { ln.Close() })
	var n atomic.Int64
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			n.Add(1)
			s, err := net.DialTimeout("tcp", target, 5*time.Second)
			if err != nil {
				c.Close()
				continue
			}
			go func() { io.Copy(s, c); s.Close() }()
			go func() { io.Copy(c, s); c.Close() }()
		}
	}()
	return ln.Addr().String(), &n
}
