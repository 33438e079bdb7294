package store

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestAppendMoveAndMoves appends moves, each in a transaction that has
// not read the game, and again in one that has and keeps its row, whose
// last move's number AppendMove then takes the next from.
func TestAppendMoveAndMoves(t *testing.T) {
	t.Parallel()
	for _, read := range []bool{false, true} {
		t.Run(map[bool]string{false: "game not read", true: "game kept"}[read], func(t *testing.T) {
			t.Parallel()
			appendMoveAndMoves(t, read)
		})
	}
}

func appendMoveAndMoves(t *testing.T, read bool) {
	ctx := context.Background()
	s, _ := newStore(t)
	g1 := newGame(t, s, "ann@example.org", "bob@example.org")
	g2 := newGame(t, s, "cat@example.org", "dan@example.org")
	var inbound int64
	mustTx(t, s, func(tx *Tx) error {
		var err error
		inbound, err = tx.RecordInbound(ctx, Inbound{MessageID: "<m@x>", From: "ann@example.org", Outcome: "applied", ReceivedAt: t0})
		return err
	})
	for _, tt := range []struct {
		name    string
		game    int64
		m       Move
		wantSeq int64
		wantErr error
	}{
		{"first", g1, Move{Seat: 0, Command: "bid 5", Source: SourceMail, InboundID: inbound, At: t0}, 1, nil},
		{"other game starts at 1", g2, Move{Seat: 1, Command: "pass", Source: SourceDeadline, At: t0}, 1, nil},
		{"second", g1, Move{Seat: 1, Command: "pass", Source: SourceDeadline, At: t0.Add(time.Minute)}, 2, nil},
		{"admin", g1, Move{Seat: 0, Command: "play 3", Source: SourceAdmin("root"), At: t0.Add(2 * time.Minute)}, 3, nil},
		{"bad source", g1, Move{Seat: 0, Command: "pass", Source: "admin:", At: t0}, 0, errAny},
		{"unknown source", g1, Move{Seat: 0, Command: "pass", Source: "carrier pigeon", At: t0}, 0, errAny},
		{"empty command", g1, Move{Seat: 0, Source: SourceMail, At: t0}, 0, errAny},
		{"no such seat", g1, Move{Seat: 5, Command: "pass", Source: SourceMail, At: t0}, 0, errAny},
		{"no such game", g2 + 1, Move{Seat: 0, Command: "pass", Source: SourceMail, At: t0}, 0, errAny},
		{"no such inbound", g1, Move{Seat: 0, Command: "pass", Source: SourceMail, InboundID: 99, At: t0}, 0, errAny},
		{"after failures", g1, Move{Seat: 1, Command: "bid 6", Source: SourceMail, At: t0.Add(3 * time.Minute)}, 4, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var seq int64
			err := s.Tx(ctx, func(tx *Tx) error {
				if read {
					if _, err := tx.Game(ctx, tt.game); err != nil && !errors.Is(err, ErrNotFound) {
						return err
					}
				}
				var err error
				seq, err = tx.AppendMove(ctx, tt.game, tt.m)
				return err
			})
			checkErr(t, err, tt.wantErr)
			// A move the transaction fails on has no number: on PostgreSQL
			// the insert of a kept game's move goes with the next
			// statement (Tx.later), so AppendMove numbers it before the
			// server refuses it, and the transaction fails then.
			if tt.wantErr == nil && seq != tt.wantSeq {
				t.Errorf("seq = %d, want %d", seq, tt.wantSeq)
			}
		})
	}

	for _, tt := range []struct {
		after int64
		want  []string
	}{
		{0, []string{"bid 5", "pass", "play 3", "bid 6"}},
		{2, []string{"play 3", "bid 6"}},
		{4, nil},
	} {
		ms, err := s.Moves(ctx, g1, tt.after)
		if err != nil {
			t.Fatal(err)
		}
		var cmds []string
		for i, m := range ms {
			cmds = append(cmds, m.Command)
			if m.Seq != tt.after+int64(i)+1 {
				t.Errorf("Moves(%d)[%d].Seq = %d", tt.after, i, m.Seq)
			}
		}
		if !equalInts(cmds, tt.want) {
			t.Errorf("Moves(after %d) = %v, want %v", tt.after, cmds, tt.want)
		}
	}
	ms, _ := s.Moves(ctx, g1, 0)
	want := Move{Seq: 1, Seat: 0, Command: "bid 5", Source: SourceMail, InboundID: inbound, At: t0}
	if ms[0] != want {
		t.Errorf("first move = %+v, want %+v", ms[0], want)
	}
	if ms[2].Source != "admin:root" || ms[1].InboundID != 0 {
		t.Errorf("moves = %+v", ms)
	}
}

// TestAppendMoveKeptTwice appends two moves in one transaction that
// keeps the game's row: the second takes the number after the first's,
// and the row kept then has it. A kept row whose last move is stale
// (which nothing but a bug could make) is refused by the log's key, and
// nothing is appended.
func TestAppendMoveKeptTwice(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	g := newGame(t, s, "ann@example.org", "bob@example.org")
	mustTx(t, s, func(tx *Tx) error {
		if _, err := tx.Game(ctx, g); err != nil {
			return err
		}
		for want := int64(1); want <= 2; want++ {
			seq, err := tx.AppendMove(ctx, g, Move{Seat: 0, Command: "pass", Source: SourceMail, At: t0})
			if err != nil || seq != want {
				t.Errorf("move %d appended as %d (%v)", want, seq, err)
			}
		}
		if row, err := tx.Game(ctx, g); err != nil || row.LastSeq != 2 {
			t.Errorf("the kept row's last move is %d (%v), want 2", row.LastSeq, err)
		}
		return nil
	})
	err := s.Tx(ctx, func(tx *Tx) error {
		row, err := tx.Game(ctx, g)
		if err != nil {
			return err
		}
		row.LastSeq = 1 // stale
		tx.memo.games[g] = row
		_, err = tx.AppendMove(ctx, g, Move{Seat: 0, Command: "bid 5", Source: SourceMail, At: t0})
		return err
	})
	if !errors.Is(err, ErrDuplicate) {
		t.Errorf("a move appended after a stale kept row: %v, want ErrDuplicate", err)
	}
	if ms, _ := s.Moves(ctx, g, 0); len(ms) != 2 {
		t.Errorf("%d moves in the log, want 2", len(ms))
	}
}

func TestEvents(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	g := newGame(t, s, "ann@example.org", "bob@example.org")
	other := newGame(t, s, "cat@example.org", "dan@example.org")
	mustTx(t, s, func(tx *Tx) error {
		var err error
		if err = tx.AppendEvents(ctx, g, 0, []Event{
			{To: Public, Kind: "deal", Text: "The cards are dealt."},
			{To: 1, Kind: "hand", Text: "You hold 3 and 5."},
		}); err != nil {
			return err
		}
		if err = tx.AppendEvents(ctx, other, 0, []Event{{To: Public, Kind: "deal", Text: "Other game."}}); err != nil {
			return err
		}
		if err = tx.AppendEvents(ctx, g, 1, []Event{{To: Public, Kind: "bid", Text: "Ann bids 5."}}); err != nil {
			return err
		}
		return tx.AppendEvents(ctx, g, 1, nil)
	})
	all, err := s.Events(ctx, g, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 3 || all[0].ID >= all[1].ID || all[1].ID >= all[2].ID {
		t.Fatalf("Events = %+v, want three, their ids rising in the order appended", all)
	}
	last1, last2 := all[1].ID, all[2].ID
	want := Event{ID: last1, Seq: 0, To: 1, Kind: "hand", Text: "You hold 3 and 5."}
	if all[1] != want {
		t.Errorf("event = %+v, want %+v", all[1], want)
	}
	since, err := s.Events(ctx, g, last1)
	if err != nil || len(since) != 1 || since[0].Text != "Ann bids 5." || since[0].Seq != 1 {
		t.Errorf("Events since %d = %+v, %v", last1, since, err)
	}
	if none, err := s.Events(ctx, g, last2); err != nil || len(none) != 0 {
		t.Errorf("Events since the last = %+v, %v", none, err)
	}
	// -2-N is every seat but N (engine.Others): stored as it is.
	mustTx(t, s, func(tx *Tx) error {
		return tx.AppendEvents(ctx, g, 2, []Event{{To: -2, Kind: "place", Text: "Ann puts a card face down."}})
	})
	if got, err := s.Events(ctx, g, last2); err != nil || len(got) != 1 || got[0].To != -2 || got[0].Seq != 2 {
		t.Errorf("an event for everyone but seat 0 reads back as %+v, %v", got, err)
	}
}

// TestEventPhrases: an event's phrase (its words for each reader's
// language, JSON) reads back as it was written, byte for byte, and an
// event without one is NULL in the database and "" when read.
func TestEventPhrases(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	g := newGame(t, s, "ann@example.org", "bob@example.org")
	const say = `{"k":"%s keeps %s.","a":[{"s":"Ann"},{"p":{"l":", ","a":[{"p":{"k":"rabbit"}},{"s":"3"}]}}]}`
	in := []Event{
		{To: Public, Kind: "won", Text: "Ann keeps rabbit, 3.", Say: say},
		{To: 1, Kind: "say", Text: "Ann says: „grüß dich“"},
		{To: -2, Kind: "place", Text: "Ann puts a card face down into the row (position 1).", Say: `{"k":"%s puts a card face down into the row (position %d).","a":[{"s":"Ann"},{"n":1}]}`},
	}
	mustTx(t, s, func(tx *Tx) error {
		err := tx.AppendEvents(ctx, g, 1, in)
		return err
	})
	got, err := s.Events(ctx, g, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(in) {
		t.Fatalf("Events = %+v", got)
	}
	for i := range in {
		want := in[i]
		want.ID, want.Seq = got[i].ID, 1
		if got[i] != want {
			t.Errorf("event %d reads back as %+v, want %+v", i, got[i], want)
		}
	}
	var nulls int
	if err := s.q.QueryRowContext(ctx, `SELECT count(*) FROM events WHERE game_id = ? AND say IS NULL`, g).Scan(&nulls); err != nil {
		t.Fatal(err)
	}
	if nulls != 1 {
		t.Errorf("%d events without a phrase are NULL, want 1", nulls)
	}
}

func TestAudit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	g := newGame(t, s, "ann@example.org", "bob@example.org")
	mustTx(t, s, func(tx *Tx) error {
		for _, a := range []AuditEntry{
			{GameID: g, Actor: "root", Action: "pause", At: t0},
			{GameID: 0, Actor: "root", Action: "reload", Detail: "config", At: t0},
			{GameID: g, Actor: "root", Action: "extend", Detail: "bob +24h", At: t0.Add(time.Hour)},
		} {
			if _, err := tx.AppendAudit(ctx, a.GameID, a.Actor, a.Action, a.Detail, a.At); err != nil {
				return err
			}
		}
		return nil
	})
	got, err := s.Audit(ctx, g)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Action != "pause" || got[1].Detail != "bob +24h" || got[1].GameID != g || !got[1].At.Equal(t0.Add(time.Hour)) {
		t.Errorf("Audit(game) = %+v", got)
	}
	global, err := s.Audit(ctx, 0)
	if err != nil || len(global) != 1 || global[0].Action != "reload" || global[0].GameID != 0 {
		t.Errorf("Audit(0) = %+v, %v", global, err)
	}
	for _, tt := range []struct {
		name                  string
		game                  int64
		actor, action         string
		wantErr               error
		wantRowsAfterFailures int
	}{
		{"no actor", g, "", "pause", errAny, 3},
		{"no action", g, "root", "", errAny, 3},
		{"no such game", g + 5, "root", "pause", errAny, 3},
	} {
		err := s.Tx(ctx, func(tx *Tx) error { _, err := tx.AppendAudit(ctx, tt.game, tt.actor, tt.action, "", t0); return err })
		checkErr(t, err, tt.wantErr)
		if n := count(t, s, "audit"); n != tt.wantRowsAfterFailures {
			t.Errorf("%s: %d audit rows", tt.name, n)
		}
	}
	if got, err := s.Audit(ctx, g+5); err != nil || len(got) != 0 {
		t.Errorf("Audit of an unknown game = %+v, %v; want none", got, err)
	}
}
