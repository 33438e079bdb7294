package store

import (
	"context"
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// BenchmarkMessageTx measures the daemon's transaction for one inbound
// message: record it, append its move, enqueue four mails and advance the
// IMAP cursor, committed durably (WAL, synchronous FULL).
func BenchmarkMessageTx(b *testing.B) {
	ctx := context.Background()
	s, _ := newStore(b)
	game := newGame(b, s, "ann@example.org", "bob@example.org", "cat@example.org", "dan@example.org")
	raw := make([]byte, 3000) // a typical summary mail
	var uid uint32
	for b.Loop() {
		uid++
		err := s.Tx(ctx, func(tx *Tx) error {
			in, err := tx.RecordInbound(ctx, Inbound{MessageID: fmt.Sprintf("<in-%d@x>", uid), Mailbox: "INBOX",
				UIDValidity: 1, UID: uid, From: "ann@example.org", GameID: game, Outcome: "applied", ReceivedAt: t0})
			if err != nil {
				return err
			}
			if _, err := tx.AppendMove(ctx, game, Move{Seat: int(uid % 4), Command: "bid 5", Source: SourceMail, InboundID: in, At: t0}); err != nil {
				return err
			}
			for r := range 4 {
				if _, _, err := tx.Enqueue(ctx, Outgoing{MessageID: fmt.Sprintf("<out-%d-%d@x>", uid, r), GameID: game,
					To: "bob@example.org", Raw: raw, NotBefore: t0}); err != nil {
					return err
				}
			}
			return tx.SetCursor(ctx, "INBOX", 1, uid)
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(uid)/b.Elapsed().Seconds(), "tx/s")
}

// BenchmarkGamesAtOnce runs a mail's transaction (record the mail,
// append a move, queue four answers, each spending its recipient's
// budget) from 8 goroutines at once, each on a game of its own: under
// Store.Tx, one at a time as before GameTx; under Store.GameTx, beside
// each other on PostgreSQL (on SQLite GameTx is Tx). tx/s is the
// throughput of transactions.
func BenchmarkGamesAtOnce(b *testing.B) {
	for _, kind := range []string{"Tx", "GameTx"} {
		b.Run(kind, func(b *testing.B) {
			ctx := context.Background()
			s, _ := newStore(b)
			const workers = 8
			var games []int64
			for i := range workers {
				games = append(games, newGame(b, s, fmt.Sprintf("a%d@example.org", i), fmt.Sprintf("b%d@example.org", i)))
			}
			raw := make([]byte, 3000)
			var next atomic.Int64
			var worker atomic.Int32
			b.SetParallelism((workers + runtime.GOMAXPROCS(0) - 1) / runtime.GOMAXPROCS(0))
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				game := games[int(worker.Add(1)-1)%workers]
				for pb.Next() {
					n := next.Add(1)
					fn := func(tx *Tx) error {
						in, err := tx.RecordInbound(ctx, Inbound{MessageID: fmt.Sprintf("<in-%d@x>", n), Mailbox: "LMTP",
							From: "a@example.org", GameID: game, Outcome: "applied", ReceivedAt: t0})
						if err != nil {
							return err
						}
						if _, err := tx.AppendMove(ctx, game, Move{Seat: 0, Command: "bid 5", Source: SourceMail, InboundID: in, At: t0}); err != nil {
							return err
						}
						for r := range 4 {
							to := fmt.Sprintf("p%d-%d@example.org", game, r)
							// A moving clock keeps each budget to a minute's units.
							if _, err := tx.Spend(ctx, to, "answers", t0.Add(time.Duration(n)*time.Second), time.Minute, 1<<30); err != nil {
								return err
							}
							if _, _, err := tx.Enqueue(ctx, Outgoing{MessageID: fmt.Sprintf("<out-%d-%d@x>", n, r), GameID: game,
								To: to, Raw: raw, NotBefore: t0}); err != nil {
								return err
							}
						}
						return nil
					}
					var err error
					if kind == "Tx" {
						err = s.Tx(ctx, fn)
					} else {
						err = s.GameTx(ctx, game, fn)
					}
					if err != nil {
						b.Error(err)
						return
					}
				}
			})
			b.ReportMetric(float64(next.Load())/b.Elapsed().Seconds(), "tx/s")
		})
	}
}
