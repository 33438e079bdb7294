package outbox

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/pbem/pbem/mailer"
	"github.com/pbem/pbem/mailer/embedded"
	"github.com/pbem/pbem/store"
)

// BenchmarkOutboxSend measures the outbox sending 400 mails of about
// 16 kB (a game mail's size, text and HTML) through the real Sender to
// the embedded SMTP server on loopback, with the defaults (outbox.batch
// 20) and a bounce key, as `pbem serve` runs it: SendDue, the SMTP
// conversations, the bounce checks and the claims' and marks' durable
// transactions (issues 15 and 40). The embedded server keeps the mail in
// memory, so its own disk is not measured. A proxy in front of it counts
// the connections. Transactions are not counted here: run the benchmark
// under strace to count the fsyncs of pbem.db-wal (BENCHMARKS.md).
//
// Two shapes of queue:
//
//   - drain: the 400 mails are queued at once, and sent in full batches.
//   - trickle: one mail is queued, and each one sent queues the next, as
//     the turn loop queues answers while the outbox sends: every batch
//     is one mail, and more is due when it has gone. The queueing is
//     timed too (a transaction per mail).
//
// cpu-ms/op is the process's CPU time, user and system, all threads
// (the garbage collector's and the SMTP server's too), over the timed
// part (getrusage, as internal/daemon's processCPU).
func BenchmarkOutboxSend(b *testing.B) {
	b.Run("drain", func(b *testing.B) { benchOutboxSend(b, false) })
	b.Run("trickle", func(b *testing.B) { benchOutboxSend(b, true) })
}

func benchOutboxSend(b *testing.B, trickle bool) {
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
	b.Cleanup(func() { sender.Close() })
	body := strings.Repeat("A line of a game mail, as long as most of them are.\r\n", 300)
	n := 0 // mails queued
	enqueue := func(k int) error {
		return q.st.Tx(ctx, func(tx *store.Tx) error {
			for range k {
				n++
				to := fmt.Sprintf("p%d@example.test", n%4)
				id := fmt.Sprintf("bench%d@example.test", n)
				raw, err := mailer.Compose(mailer.Envelope{
					From: "pbem@example.test", To: to, Subject: "Felix #1", Date: q.clock, MessageID: id,
				}, body, "")
				if err != nil {
					return err
				}
				if _, _, err := tx.Enqueue(ctx, store.Outgoing{MessageID: id, Seat: -1, To: to, Raw: raw, NotBefore: q.clock}); err != nil {
					return err
				}
			}
			return nil
		})
	}
	var courier Courier = sender
	left := 0 // trickle: mails still to queue in this round
	if trickle {
		courier = CourierFunc(func(ctx context.Context, from string, to []string, raw []byte) error {
			if left > 0 {
				left--
				if err := enqueue(1); err != nil {
					return err
				}
			}
			return sender.Deliver(ctx, from, to, raw)
		})
	}
	key := []byte("0123456789abcdef0123456789abcdef")
	o := q.outbox(b, courier, testConfig(), WithBounceKey(key, "+"))
	var cpu time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		first := mails
		if trickle {
			first, left = 1, mails-1
		}
		if err := enqueue(first); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		start := processCPU(b)
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
		cpu += processCPU(b) - start
	}
	b.StopTimer()
	stats, err := q.st.OutboxStats(ctx, q.clock)
	if err != nil || stats.Sent != int64(n) {
		b.Fatalf("outbox: %+v, %v; want %d sent", stats, err, n)
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "mails/s")
	b.ReportMetric(float64(conns.Load())/float64(n), "conns/mail")
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(cpu.Microseconds())/float64(n), "cpu-us/mail")
}

// processCPU is the CPU time the process has used, user and system, all
// threads.
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatalf("getrusage: %v", err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
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
