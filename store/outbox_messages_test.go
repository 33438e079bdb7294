package store

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// Migration 00031 moves each mail's message out of its outbox row into
// outbox_messages, with its size beside the row; a message retention
// had dropped (an empty one) is not moved, and its size is 0. The
// store then reads every mail as before, claims the pending one with its
// message, and retention finds the old one still to drop. Its Down puts
// the messages back into the rows. On either engine.
func TestMigrationMovesOutboxMessages(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, where := newStore(t)
	p, err := newProvider(s.be, s.w)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.DownTo(ctx, 30); err != nil {
		t.Fatal(err)
	}
	pending, sent := bytes.Repeat([]byte("p"), 20000), bytes.Repeat([]byte("s"), 3000)
	mustTx(t, s, func(tx *Tx) error {
		for _, row := range []struct {
			mid, state string
			raw        []byte
		}{{"<pending@p>", "pending", pending}, {"<sent@p>", "sent", sent}, {"<trimmed@p>", "sent", []byte{}}} {
			if _, err := tx.exec(ctx, `INSERT INTO outbox (message_id, rcpt, raw, state, not_before, sent_at) VALUES (?, 'bob@x.org', ?, ?, ?, ?)`,
				row.mid, row.raw, row.state, unix(t0), unix(t0)); err != nil {
				return err
			}
		}
		return nil
	})
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s, err = Open(ctx, where) // migrates, as pbem does as it starts
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for mid, want := range map[string][]byte{"<pending@p>": pending, "<sent@p>": sent, "<trimmed@p>": nil} {
		o, err := s.OutgoingByMessageID(ctx, mid)
		if err != nil || !bytes.Equal(o.Raw, want) {
			t.Errorf("%s after the migration: %d bytes, %v; want %d", mid, len(o.Raw), err, len(want))
		}
	}
	if n := count(t, s, "outbox_messages"); n != 2 {
		t.Errorf("%d messages moved, want 2 (not the trimmed one)", n)
	}
	var claimed []Outgoing
	mustTx(t, s, func(tx *Tx) (err error) {
		claimed, err = tx.ClaimOutgoing(ctx, "n1", t0, t0.Add(time.Minute), 10)
		return err
	})
	if len(claimed) != 1 || !bytes.Equal(claimed[0].Raw, pending) {
		t.Fatalf("claimed %d mails after the migration, want the pending one with its message", len(claimed))
	}
	got, err := s.Retain(ctx, Retention{Now: t0.Add(40 * 24 * time.Hour), MailBodies: 24 * time.Hour})
	if err != nil || got.MailBodies != 1 || got.MailBodyBytes != int64(len(sent)) {
		t.Errorf("retention after the migration dropped %+v, %v; want the sent mail's %d bytes", got, err, len(sent))
	}
	if n := count(t, s, "outbox_messages"); n != 1 {
		t.Errorf("%d messages after retention, want the pending one", n)
	}

	down, err := newProvider(s.be, s.w)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := down.DownTo(ctx, 30); err != nil {
		t.Fatal(err)
	}
	var raw []byte
	mustTx(t, s, func(tx *Tx) error {
		return tx.q.QueryRowContext(ctx, `SELECT raw FROM outbox WHERE message_id = ?`, "<pending@p>").Scan(&raw)
	})
	if !bytes.Equal(raw, pending) {
		t.Errorf("after Down the pending mail's row holds %d bytes, want %d", len(raw), len(pending))
	}
}

// TestPostListsOnlyGamesOver checks that Post lists a game for
// retention (ended_games) unless the transaction read it not over, and
// nothing since could have ended it: a game read not over is listed when
// it ends (SetGameStatus), which forgets that it was not; a game over
// is listed again whenever mail about it is queued; and a game's
// transaction trusts only what it read of its own game.
func TestPostListsOnlyGamesOver(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	var mu sync.Mutex
	listings := 0
	s, _ := newStore(t, WithStatementHook(func(q string) {
		if strings.HasPrefix(q, "INSERT INTO ended_games") {
			mu.Lock()
			listings++
			mu.Unlock()
		}
	}))
	listed := func() int { mu.Lock(); defer mu.Unlock(); n := listings; listings = 0; return n }
	g := newGame(t, s, "ann@example.org", "bob@example.org")
	other := newGame(t, s, "cat@example.org", "dan@example.org")
	n := 0
	post := func(tx *Tx, game int64) error {
		n++
		return tx.Post(ctx, Outgoing{MessageID: fmt.Sprintf("<post%d@p>", n), To: "ann@example.org", GameID: game, Seat: 0, Raw: []byte("Subject: x\r\n\r\nx\r\n"), NotBefore: t0})
	}
	read := func(tx *Tx, game int64) error { _, err := tx.Game(ctx, game); return err }
	listed()

	// Read not over: nothing to list.
	mustTx(t, s, func(tx *Tx) error {
		if err := read(tx, g); err != nil {
			return err
		}
		return post(tx, g)
	})
	if got := listed(); got != 0 {
		t.Errorf("mail about a game read not over listed it %d times", got)
	}
	// Not read: listed, which lists nothing while it is not over.
	mustTx(t, s, func(tx *Tx) error { return post(tx, g) })
	if got := listed(); got != 1 {
		t.Errorf("mail about a game not read: %d listings, want 1", got)
	}
	// Read not over, then ended in the same transaction, and its listing
	// lost (as retention drops it once the game's mail is gone): mail
	// about it lists it again.
	mustTx(t, s, func(tx *Tx) error {
		if err := read(tx, g); err != nil {
			return err
		}
		if err := tx.SetGameStatus(ctx, g, StatusFinished); err != nil {
			return err
		}
		if _, err := tx.exec(ctx, `DELETE FROM ended_games WHERE game_id = ?`, g); err != nil {
			return err
		}
		return post(tx, g)
	})
	if got, rows := listed(), count(t, s, "ended_games"); got != 2 || rows != 1 {
		t.Errorf("a game ended in the transaction: %d listings and %d rows, want 2 and 1", got, rows)
	}
	// Over when read: listed again.
	mustTx(t, s, func(tx *Tx) error {
		if err := read(tx, g); err != nil {
			return err
		}
		return post(tx, g)
	})
	if got := listed(); got != 1 {
		t.Errorf("mail about a game read over: %d listings, want 1", got)
	}
	// In another game's transaction, a game read not over may have ended
	// meanwhile (on PostgreSQL): listed.
	if err := s.GameTx(ctx, g, func(tx *Tx) error {
		if err := read(tx, other); err != nil {
			return err
		}
		return post(tx, other)
	}); err != nil {
		t.Fatal(err)
	}
	if got := listed(); got != 1 {
		t.Errorf("mail about another game than the transaction's: %d listings, want 1", got)
	}
}
