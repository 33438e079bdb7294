package store

import (
	"context"
	"testing"
	"time"
)

func TestAllInboundAndOutgoing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	if in, err := s.AllInbound(ctx); err != nil || len(in) != 0 {
		t.Fatalf("AllInbound of an empty store = %v, %v", in, err)
	}
	if out, err := s.AllOutgoing(ctx); err != nil || len(out) != 0 {
		t.Fatalf("AllOutgoing of an empty store = %v, %v", out, err)
	}
	g := newGame(t, s, "ann@example.org", "bob@example.org")
	var sentID int64
	mustTx(t, s, func(tx *Tx) error {
		for i, in := range []Inbound{
			{MessageID: "a@x", Mailbox: "INBOX", UIDValidity: 7, UID: 1, From: "Ann@Example.org", GameID: g, Outcome: "applied", ReceivedAt: t0},
			{MessageID: "b@x", Mailbox: "INBOX", UIDValidity: 7, UID: 2, From: "bob@example.org", Outcome: "refused", Detail: "why", ReceivedAt: t0.Add(time.Second)},
		} {
			if _, err := tx.RecordInbound(ctx, in); err != nil {
				return err
			}
			id, _, err := tx.Enqueue(ctx, Outgoing{MessageID: "out" + string(rune('1'+i)), GameID: g, To: in.From, Raw: []byte("x"), NotBefore: t0})
			if err != nil {
				return err
			}
			if i == 0 {
				sentID = id
			}
		}
		return tx.MarkSent(ctx, sentID, t0)
	})
	in, err := s.AllInbound(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(in) != 2 || in[0].MessageID != "a@x" || in[0].From != "ann@example.org" || in[0].GameID != g ||
		in[1].MessageID != "b@x" || in[1].GameID != 0 || in[1].Outcome != "refused" || in[1].Detail != "why" || in[1].UID != 2 {
		t.Errorf("AllInbound = %+v", in)
	}
	out, err := s.AllOutgoing(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 2 || out[0].MessageID != "out1" || out[0].State != OutSent || out[0].To != "ann@example.org" ||
		out[1].MessageID != "out2" || out[1].State != OutPending || string(out[1].Raw) != "x" {
		t.Errorf("AllOutgoing = %+v", out)
	}
}
