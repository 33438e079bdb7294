package store

import (
	"context"
	"fmt"
	"testing"
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
