package store

import (
	"context"
	"maps"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pbem/pbem/store/storetest"
)

// fillEveryTable writes at least one row to every table Copy copies, with
// NULLs, blobs, floats and text a copy could mangle.
func fillEveryTable(t *testing.T, s *Store) {
	t.Helper()
	ctx := context.Background()
	g := newGame(t, s, "ann@example.org", "bob@example.org", "cat@example.org")
	if _, err := s.BounceKey(ctx); err != nil {
		t.Fatal(err)
	}
	mustTx(t, s, func(tx *Tx) error {
		if _, err := tx.UpsertPlayer(ctx, "dan@example.org", "Dän \"the\" 'odd' ?1"); err != nil {
			return err
		}
		in, err := tx.RecordInbound(ctx, Inbound{MessageID: "<a@x>", Mailbox: "INBOX", UIDValidity: 7, UID: 1,
			From: "ann@example.org", Outcome: "applied", Detail: "bytes \xff\x00 kept", ReceivedAt: t0})
		if err != nil {
			return err
		}
		seq, err := tx.AppendMove(ctx, g, Move{Seat: 0, Command: "bid 4", Source: SourceMail, InboundID: in, At: t0})
		if err != nil {
			return err
		}
		if err := tx.AppendEvents(ctx, g, seq, []Event{{Seq: seq, To: -1, Kind: "bid", Text: "ann bids 4"}, {Seq: seq, To: -3, Kind: "x", Text: "not to bob"}}); err != nil {
			return err
		}
		if _, _, err := tx.Enqueue(ctx, Outgoing{MessageID: "<o@x>", GameID: g, Seat: 1, To: "bob@example.org",
			Raw: []byte("Subject: hi\r\n\r\n\x00\xff"), NotBefore: t0}); err != nil {
			return err
		}
		if err := tx.SetCursor(ctx, "INBOX", 7, 1); err != nil {
			return err
		}
		if _, err := tx.AllowRefusal(ctx, "eve@example.org", t0, time.Hour, 5); err != nil {
			return err
		}
		if _, err := tx.AppendAudit(ctx, 0, "admin@example.org", "pause", "", t0); err != nil {
			return err
		}
		if _, err := tx.Spend(ctx, "ann@example.org", "answers", t0, time.Hour, 5); err != nil {
			return err
		}
		if err := tx.MarkAnswered(ctx, "ann@example.org", t0); err != nil {
			return err
		}
		if err := tx.AskAddressChange(ctx, AddressChange{Token: "addr-copy", Address: "ann@example.org", NewAddress: "ann@new.example", AskedAt: t0}); err != nil {
			return err
		}
		if err := tx.AddAlias(ctx, Alias{Alias: "ann@work.example", Address: "ann@example.org", AliasMailbox: "ann@work.example", Mailbox: "ann@example.org"}); err != nil {
			return err
		}
		if err := tx.Talk(ctx, g, 0, TalkSay, t0); err != nil {
			return err
		}
		if _, err := tx.StartVacation(ctx, "cat@example.org", t0, t0.Add(48*time.Hour)); err != nil {
			return err
		}
		if _, err := tx.RecordBounce(ctx, "cat@example.org", false, "4.2.2", t0, 3); err != nil {
			return err
		}
		if _, err := tx.RecordBounce(ctx, "dan@example.org", true, "5.1.1", t0, 3); err != nil {
			return err
		}
		if err := tx.ProposeUndo(ctx, UndoProposal{GameID: g, Seat: 0, Seq: seq, Agreed: 1, ProposedAt: t0, ExpiresAt: t0.Add(time.Hour)}); err != nil {
			return err
		}
		if _, err := tx.NewLink(ctx, g, 1); err != nil {
			return err
		}
		if _, err := tx.EnsureCalendarFeed(ctx, "bob@example.org"); err != nil {
			return err
		}
		if err := tx.SetDeadline(ctx, g, 1, t0.Add(time.Hour)); err != nil {
			return err
		}
		if _, _, err := tx.AcquireLease(ctx, "reader", "node-a", t0, time.Minute); err != nil {
			return err
		}
		if err := tx.SetGameStatus(ctx, g, StatusFinished); err != nil {
			return err
		}
		return tx.RateGame(ctx, RatedGame{GameID: g, Kind: "felix", At: t0, Seats: []RatedSeat{{Address: "ann@example.org", Mailbox: "ann@example.org", Name: "Ann", Rank: 1}, {Address: "bob@example.org", Mailbox: "bob@example.org", Name: "Bob", Rank: 2}}},
			[]PlayerRating{{Kind: "felix", Mailbox: "ann@example.org", Name: "Ann", Mu: 27.123456789012345, Sigma: 1.0 / 3, Games: 1}})
	})
}

// pbem store copy: every row of every table arrives, the digests of the
// two databases are equal, and the copy goes on numbering after the rows
// it received. Run with PBEM_TEST_POSTGRES set, it copies SQLite to
// PostgreSQL and back; without, SQLite to SQLite.
func TestCopyBothWays(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	open := func(db string) *Store {
		s, err := Open(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	sqlite1 := open(filepath.Join(t.TempDir(), "from.db"))
	fillEveryTable(t, sqlite1)
	want, err := sqlite1.Digest(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for table, d := range want {
		if strings.HasPrefix(d, "0 rows") {
			t.Errorf("the fill left %s empty: the test would not show it copied", table)
		}
	}
	middle := open(storetest.Database(t)) // PostgreSQL when the tests run there
	back := open(filepath.Join(t.TempDir(), "back.db"))
	for _, hop := range []struct {
		name     string
		dst, src *Store
	}{{"there", middle, sqlite1}, {"back", back, middle}} {
		copied, err := Copy(ctx, hop.dst, hop.src)
		if err != nil {
			t.Fatalf("%s: %v", hop.name, err)
		}
		if copied["outbox"] != 1 || copied["events"] != 2 {
			t.Errorf("%s: copied %v", hop.name, copied)
		}
		got, err := hop.dst.Digest(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !maps.Equal(got, want) {
			t.Errorf("%s (%s to %s): digests differ:\n got %v\nwant %v", hop.name, hop.src.Engine(), hop.dst.Engine(), got, want)
		}
	}
	// The copy numbers new rows after those it holds.
	for _, s := range []*Store{middle, back} {
		before, _ := s.AllGames(ctx)
		g := newGame(t, s, "fay@example.org")
		if g <= before[len(before)-1].ID {
			t.Errorf("%s: new game %d, not after the copied %d", s.Engine(), g, before[len(before)-1].ID)
		}
	}
	// A destination that holds anything is refused, and keeps what it had.
	if _, err := Copy(ctx, back, sqlite1); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Errorf("Copy into a full database = %v, want a refusal", err)
	}
}
