package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// mail queues one outgoing mail of size bytes at the time at, threaded
// under seat 1 of game g, and returns its id.
func queueMail(t *testing.T, s *Store, g int64, msgID string, size int, at time.Time) int64 {
	t.Helper()
	var id int64
	mustTx(t, s, func(tx *Tx) error {
		var err error
		id, _, err = tx.Enqueue(context.Background(), Outgoing{
			MessageID: msgID, GameID: g, Seat: 1, Decision: 3, SeenEvent: 17,
			// Letters that do not pack smaller: the file's size is the
			// messages' (messagecodec.go).
			To: "bob@example.org", Raw: letters(size), NotBefore: at,
		})
		return err
	})
	return id
}

// A pass empties the bodies of old sent and dead mails and nothing else,
// keeps every field stale-reply detection and idempotence read, trims old
// inbound details, keeps inbound identity, and expires refusal and budget
// rows past their windows.
func TestRetainDropsOldBodiesOnly(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	g := newGame(t, s, "ann@example.org", "bob@example.org")
	now := t0.Add(40 * 24 * time.Hour)
	keep := 30 * 24 * time.Hour

	oldSent := queueMail(t, s, g, "<old-sent@p>", 1000, t0)
	oldDead := queueMail(t, s, g, "<old-dead@p>", 2000, t0)
	newSent := queueMail(t, s, g, "<new-sent@p>", 3000, now.Add(-time.Hour))
	oldPending := queueMail(t, s, g, "<old-pending@p>", 4000, t0)
	// Sent recently, though queued long ago: its age is when it went.
	lateSent := queueMail(t, s, g, "<late-sent@p>", 5000, t0)
	mustTx(t, s, func(tx *Tx) error {
		if err := tx.MarkSent(ctx, oldSent, t0.Add(time.Minute)); err != nil {
			return err
		}
		if err := tx.MarkDead(ctx, oldDead, "550 no such user"); err != nil {
			return err
		}
		if err := tx.MarkSent(ctx, newSent, now.Add(-time.Hour)); err != nil {
			return err
		}
		return tx.MarkSent(ctx, lateSent, now.Add(-time.Minute))
	})
	before := map[int64]Outgoing{}
	for _, id := range []int64{oldSent, oldDead, newSent, oldPending, lateSent} {
		o, err := s.Outgoing(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		before[id] = o
	}

	mustTx(t, s, func(tx *Tx) error {
		for i, at := range []time.Time{t0, now.Add(-time.Hour)} {
			msgID := fmt.Sprintf("<in%d@x>", i)
			if _, err := tx.RecordInbound(ctx, Inbound{MessageID: msgID, Mailbox: "INBOX", UIDValidity: 7,
				UID: uint32(10 + i), From: "bob@example.org", GameID: g, Outcome: "refused", Detail: "not your turn", ReceivedAt: at,
				SentAs: SentAs(msgID, "bob@example.org", "tok"), Digest: fmt.Sprintf("sha256:in%d", i)}); err != nil {
				return err
			}
		}
		// The recent row first: the limits drop older rows as they go.
		for _, at := range []time.Time{now.Add(-time.Hour), now.Add(-25 * time.Hour)} {
			if _, err := tx.AllowRefusal(ctx, "eve@example.org", at, 24*time.Hour, 10); err != nil {
				return err
			}
			if _, err := tx.Note(ctx, "eve@example.org", "answers", at, 24*time.Hour); err != nil {
				return err
			}
		}
		return nil
	})

	got, err := s.Retain(ctx, Retention{Now: now, MailBodies: keep, RefusalWindow: 24 * time.Hour, BudgetWindow: 24 * time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if got.MailBodies != 2 || got.MailBodyBytes != 3000 || got.Details != 1 || got.DetailBytes != int64(len("not your turn")) ||
		got.Refusals != 1 || got.Budget != 1 {
		t.Errorf("Retain dropped %+v; want 2 bodies of 3000 bytes, 1 detail, 1 refusal, 1 budget row", got)
	}

	for id, o := range before {
		after, err := s.OutgoingByMessageID(ctx, o.MessageID)
		if err != nil {
			t.Fatalf("%s after retention: %v", o.MessageID, err)
		}
		dropped := id == oldSent || id == oldDead
		if dropped != (len(after.Raw) == 0) {
			t.Errorf("%s: body of %d bytes left, want dropped %v", o.MessageID, len(after.Raw), dropped)
		}
		after.Raw, o.Raw = nil, nil
		if fmt.Sprint(after) != fmt.Sprint(o) {
			t.Errorf("%s changed beyond its body:\n%+v\n%+v", o.MessageID, o, after)
		}
		if has, err := s.HasOutgoing(ctx, o.MessageID); err != nil || !has {
			t.Errorf("HasOutgoing(%s) = %v, %v after retention", o.MessageID, has, err)
		}
	}
	// Enqueueing a dropped mail again is still a no-op.
	mustTx(t, s, func(tx *Tx) error {
		id, added, err := tx.Enqueue(ctx, Outgoing{MessageID: "<old-sent@p>", GameID: g, Seat: 1, To: "bob@example.org", Raw: []byte("again"), NotBefore: now})
		if err == nil && (added || id != oldSent) {
			err = fmt.Errorf("Enqueue of a dropped mail: id %d, added %v", id, added)
		}
		return err
	})

	for i, wantDetail := range []string{"", "not your turn"} {
		in, err := s.InboundByMessageID(ctx, fmt.Sprintf("<in%d@x>", i))
		if err != nil {
			t.Fatal(err)
		}
		if in.Detail != wantDetail || in.Outcome != "refused" || in.UID != uint32(10+i) || in.UIDValidity != 7 || in.Mailbox != "INBOX" {
			t.Errorf("inbound %d after retention: %+v", i, in)
		}
		// Retention keeps every key that makes a mail seen.
		for _, by := range []struct {
			name string
			key  Inbound
		}{
			{"Message-ID, sender and address", Inbound{SentAs: SentAs(in.MessageID, "bob@example.org", "tok"), Mailbox: "INBOX"}},
			{"bytes", Inbound{Digest: fmt.Sprintf("sha256:in%d", i), Mailbox: "INBOX"}},
			{"UID", Inbound{Mailbox: "INBOX", UIDValidity: 7, UID: in.UID}},
		} {
			if seen, err := s.InboundSeen(ctx, by.key); err != nil || !seen {
				t.Errorf("inbound %d not seen by its %s after retention: %v", i, by.name, err)
			}
		}
	}
	if n := count(t, s, "refusals"); n != 1 {
		t.Errorf("%d refusal rows, want the 1 in the window", n)
	}
	if n := count(t, s, "budget"); n != 1 {
		t.Errorf("%d budget rows, want the 1 in the window", n)
	}

	again, err := s.Retain(ctx, Retention{Now: now, MailBodies: keep, RefusalWindow: 24 * time.Hour, BudgetWindow: 24 * time.Hour})
	if err != nil || !again.Zero() {
		t.Errorf("a second pass dropped %+v, %v; want nothing", again, err)
	}
}

// Zero ages keep everything.
func TestRetainZeroKeeps(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	g := newGame(t, s, "ann@example.org", "bob@example.org")
	id := queueMail(t, s, g, "<m@p>", 1000, t0)
	mustTx(t, s, func(tx *Tx) error {
		if _, err := tx.AllowRefusal(ctx, "eve@example.org", t0, time.Hour, 10); err != nil {
			return err
		}
		return tx.MarkSent(ctx, id, t0)
	})
	got, err := s.Retain(ctx, Retention{Now: t0.Add(1000 * 24 * time.Hour)})
	if err != nil || !got.Zero() {
		t.Fatalf("Retain with no ages dropped %+v, %v", got, err)
	}
	if o, _ := s.Outgoing(ctx, id); len(o.Raw) != 1000 {
		t.Errorf("body of %d bytes left, want 1000", len(o.Raw))
	}
	if count(t, s, "refusals") != 1 {
		t.Error("a refusal row was dropped")
	}
}

// A backlog larger than a batch is worked off in several transactions,
// all of it in one pass.
func TestRetainBatches(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	g := newGame(t, s, "ann@example.org", "bob@example.org")
	for i := 0; i < 10; i++ {
		id := queueMail(t, s, g, fmt.Sprintf("<m%d@p>", i), 100, t0)
		mustTx(t, s, func(tx *Tx) error { return tx.MarkSent(ctx, id, t0) })
	}
	mustTx(t, s, func(tx *Tx) error {
		for i := 0; i < 7; i++ {
			if _, err := tx.Note(ctx, fmt.Sprintf("a%d@x.org", i), "answers", t0, time.Hour); err != nil {
				return err
			}
		}
		return nil
	})
	got, err := s.Retain(ctx, Retention{Now: t0.Add(time.Hour), MailBodies: time.Minute, BudgetWindow: time.Minute, Batch: 3})
	if err != nil {
		t.Fatal(err)
	}
	if got.MailBodies != 10 || got.MailBodyBytes != 1000 || got.Budget != 7 {
		t.Errorf("dropped %+v; want 10 bodies of 1000 bytes and 7 budget rows", got)
	}
}

// The pass finds its rows through the partial indexes, not by reading
// every row of the outbox or inbound table.
func TestRetainUsesIndexes(t *testing.T) {
	sqliteOnly(t)
	t.Parallel()
	s, _ := newStore(t)
	for _, tc := range []struct {
		query, index string
	}{{dropBodies.find, "outbox_bodies"}, {dropDetails.find, "inbound_details"}} {
		rows, err := s.r.Query(`EXPLAIN QUERY PLAN `+tc.query, 0, 1)
		if err != nil {
			t.Fatal(err)
		}
		var plan []string
		for rows.Next() {
			var id, parent, unused int
			var detail string
			if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
				t.Fatal(err)
			}
			plan = append(plan, detail)
		}
		rows.Close()
		if p := strings.Join(plan, "; "); !strings.Contains(p, "USING INDEX "+tc.index) || strings.Contains(p, "TEMP B-TREE") {
			t.Errorf("plan of\n%s\nis %q; want a walk of %s in order", tc.query, p, tc.index)
		}
	}
}

// The file shrinks: the space of dropped bodies goes back to the file
// system, not only onto SQLite's free list.
func TestRetainReclaimsSpace(t *testing.T) {
	sqliteOnly(t)
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	var mode int
	if err := s.r.QueryRow(`PRAGMA auto_vacuum`).Scan(&mode); err != nil || mode != 2 {
		t.Fatalf("auto_vacuum = %d (%v), want 2 (incremental)", mode, err)
	}
	g := newGame(t, s, "ann@example.org", "bob@example.org")
	for i := 0; i < 400; i++ {
		id := queueMail(t, s, g, fmt.Sprintf("<m%d@p>", i), 24000, t0)
		mustTx(t, s, func(tx *Tx) error { return tx.MarkSent(ctx, id, t0) })
	}
	if err := s.Checkpoint(ctx); err != nil {
		t.Fatal(err)
	}
	before, err := s.FileBytes(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Retain(ctx, Retention{Now: t0.Add(time.Hour), MailBodies: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	after, err := s.FileBytes(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d bytes before, %d after; %+v", before, after, got)
	// After retention the file is about the schema's own pages: every
	// table and index takes at least one (about 65 of them, 4 kB each).
	if before < 400*24000 || after > 400_000 || got.ReclaimedBytes < before-after-100_000 {
		t.Errorf("%d bytes before retention, %d after, %d reported reclaimed; want at least %d before, at most 400000 after",
			before, after, got.ReclaimedBytes, 400*24000)
	}
	var free int
	if err := s.r.QueryRow(`PRAGMA freelist_count`).Scan(&free); err != nil || free != 0 {
		t.Errorf("%d free pages left (%v)", free, err)
	}
}

// Migration 00004 turns incremental vacuum on for a database made before
// it, rows intact, and the pass then shrinks it.
func TestMigrationTurnsOnIncrementalVacuum(t *testing.T) {
	sqliteOnly(t)
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := sql.Open("sqlite", dsn(path, options{busyTimeout: time.Second}, true))
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	p, err := newProvider(&sqliteBackend{}, db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.UpTo(ctx, 3); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 50; i++ {
		if _, err := db.Exec(`INSERT INTO outbox (message_id, rcpt, raw, state, not_before, sent_at) VALUES (?, 'bob@x.org', zeroblob(20000), 'sent', ?, ?)`,
			fmt.Sprintf("<m%d@p>", i), unix(t0), unix(t0)); err != nil {
			t.Fatal(err)
		}
	}
	var mode int
	if err := db.QueryRow(`PRAGMA auto_vacuum`).Scan(&mode); err != nil || mode != 0 {
		t.Fatalf("before the migration auto_vacuum = %d (%v), want 0", mode, err)
	}
	db.Close()

	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.r.QueryRow(`PRAGMA auto_vacuum`).Scan(&mode); err != nil || mode != 2 {
		t.Fatalf("after the migration auto_vacuum = %d (%v), want 2", mode, err)
	}
	if v, err := s.SchemaVersion(ctx); err != nil || v < 4 {
		t.Fatalf("schema version %d (%v)", v, err)
	}
	if n := count(t, s, "outbox"); n != 50 {
		t.Fatalf("%d outbox rows after the migration, want 50", n)
	}
	got, err := s.Retain(ctx, Retention{Now: t0.Add(time.Hour), MailBodies: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if got.MailBodies != 50 || got.ReclaimedBytes < 50*20000*9/10 {
		t.Errorf("retention after the migration: %+v", got)
	}
}

// The rows of old sent and dead mails about a game that is over go
// whole; pending mails, recent ones, and those of running games or of no
// game stay (their bodies dropped when old).
func TestRetainForgetsMailOfGamesOver(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	over := newGame(t, s, "ann@example.org", "bob@example.org")
	running := newGame(t, s, "cid@example.org", "dan@example.org")
	mustTx(t, s, func(tx *Tx) error {
		if err := tx.SetGameStatus(ctx, over, StatusFinished); err != nil {
			return err
		}
		return tx.SetGameStatus(ctx, running, StatusActive)
	})
	now := t0.Add(40 * 24 * time.Hour)
	ids := map[string]int64{
		"over-old-sent":    queueMail(t, s, over, "<a@p>", 1000, t0),
		"over-old-dead":    queueMail(t, s, over, "<b@p>", 1000, t0),
		"over-old-pending": queueMail(t, s, over, "<c@p>", 1000, t0),
		"over-new-sent":    queueMail(t, s, over, "<d@p>", 1000, now),
		"running-old-sent": queueMail(t, s, running, "<e@p>", 1000, t0),
		"lobby-old-sent":   queueMail(t, s, 0, "<f@p>", 1000, t0),
	}
	mustTx(t, s, func(tx *Tx) error {
		for name, id := range ids {
			var err error
			switch {
			case strings.HasSuffix(name, "old-sent"):
				err = tx.MarkSent(ctx, id, t0)
			case strings.HasSuffix(name, "new-sent"):
				err = tx.MarkSent(ctx, id, now)
			case strings.HasSuffix(name, "dead"):
				err = tx.MarkDead(ctx, id, "550 gone")
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
	got, err := s.Retain(ctx, Retention{Now: now, MailBodies: 30 * 24 * time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if got.MailRows != 2 || got.MailBodies != 4 || got.MailBodyBytes != 4000 {
		t.Errorf("dropped %+v; want 2 rows deleted and 4 bodies of 4000 bytes dropped", got)
	}
	for name, id := range ids {
		o, err := s.Outgoing(ctx, id)
		gone := name == "over-old-sent" || name == "over-old-dead"
		if gone != errors.Is(err, ErrNotFound) {
			t.Errorf("%s: %v; want gone %v", name, err, gone)
			continue
		}
		if gone {
			continue
		}
		emptied := strings.Contains(name, "old") && !strings.HasSuffix(name, "pending")
		if emptied != (len(o.Raw) == 0) {
			t.Errorf("%s: body of %d bytes, want dropped %v", name, len(o.Raw), emptied)
		}
	}
	// A forgotten mail's message went with its row.
	var orphans int
	if err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM outbox_messages WHERE id NOT IN (SELECT id FROM outbox)`).Scan(&orphans); err != nil || orphans != 0 {
		t.Errorf("%d messages without their outbox row (%v)", orphans, err)
	}
}

// The mail of games that are over is found through ended_games, never by
// reading the whole outbox (issue 15): a game leaves the table once its
// mail is all forgotten, and comes back if mail about it is queued later
// (a late player told the game is over), which is then forgotten too.
func TestRetainForgetsThroughEndedGames(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	g := newGame(t, s, "ann@example.org", "bob@example.org")
	mustTx(t, s, func(tx *Tx) error { return tx.SetGameStatus(ctx, g, StatusFinished) })
	ended := func() int { t.Helper(); return count(t, s, "ended_games") }
	if n := ended(); n != 1 {
		t.Fatalf("%d ended games after the game ended, want 1", n)
	}
	keep := 30 * 24 * time.Hour
	sent := func(msgID string, at time.Time) {
		t.Helper()
		id := queueMail(t, s, g, msgID, 100, at)
		mustTx(t, s, func(tx *Tx) error { return tx.MarkSent(ctx, id, at) })
	}
	sent("<last@p>", t0)

	now := t0.Add(keep + time.Hour)
	if got, err := s.Retain(ctx, Retention{Now: now, MailBodies: keep}); err != nil || got.MailRows != 1 {
		t.Fatalf("first pass: %+v, %v; want the game's one mail forgotten", got, err)
	}
	if n := ended(); n != 0 {
		t.Errorf("%d ended games once their mail is gone, want 0", n)
	}

	sent("<late@p>", now)
	if n := ended(); n != 1 {
		t.Fatalf("%d ended games after mail about one was queued, want 1", n)
	}
	if got, err := s.Retain(ctx, Retention{Now: now.Add(keep + time.Hour), MailBodies: keep}); err != nil || got.MailRows != 1 {
		t.Fatalf("second pass: %+v, %v; want the late mail forgotten", got, err)
	}
	if n, m := ended(), count(t, s, "outbox"); n != 0 || m != 0 {
		t.Errorf("%d ended games and %d mails left, want none", n, m)
	}

	if s.Engine() != SQLite {
		return // the plan below is SQLite's
	}
	plan := strings.Join(explain(t, s, forgetOverGames.find, 0, 1), "; ")
	if !strings.Contains(plan, "outbox_game") || strings.Contains(plan, "SCAN outbox") {
		t.Errorf("plan of forgetting the mail of games over is %q; want a search of outbox_game", plan)
	}
}

// Migration 00013 lists the games already over that have mail left, so
// that the first pass after the upgrade forgets their mail as before.
func TestMigrationListsEndedGames(t *testing.T) {
	sqliteOnly(t)
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := sql.Open("sqlite", dsn(path, options{busyTimeout: time.Second}, true))
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	p, err := newProvider(&sqliteBackend{}, db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.UpTo(ctx, 12); err != nil {
		t.Fatal(err)
	}
	// Games 1 (over, with mail), 2 (over, none) and 3 (running, with mail).
	for _, q := range []string{
		`INSERT INTO players (address) VALUES ('ann@x.org')`,
		`INSERT INTO games (id, kind, setup, creator, status, created_at) VALUES
			(1, 'felix', x'7b7d', 'ann@x.org', 'finished', 0),
			(2, 'felix', x'7b7d', 'ann@x.org', 'aborted', 0),
			(3, 'felix', x'7b7d', 'ann@x.org', 'active', 0)`,
		`INSERT INTO outbox (message_id, game_id, rcpt, raw, state, not_before, sent_at) VALUES
			('<a@p>', 1, 'bob@x.org', x'', 'sent', 0, 0),
			('<b@p>', 3, 'bob@x.org', x'', 'sent', 0, 0)`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()

	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var ended []int64
	rows, err := s.r.Query(`SELECT game_id FROM ended_games ORDER BY game_id`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		ended = append(ended, id)
	}
	rows.Close()
	if !equalInts(ended, []int64{1}) {
		t.Errorf("ended_games after the migration = %v, want [1]", ended)
	}
	got, err := s.Retain(ctx, Retention{Now: t0, MailBodies: time.Minute})
	if err != nil || got.MailRows != 1 {
		t.Errorf("first pass after the migration: %+v, %v; want game 1's mail forgotten", got, err)
	}
}

// Migration 00019 keys what earlier versions knew by mailbox: a `never`
// and the addresses that answered (joined a game they were invited to,
// or mailed their seat's address from it) carry over under the default
// rule's key; a creator who only started a game at the bare address, and
// an invited address that never joined, did not answer.
func TestMigrationKeysMailboxes(t *testing.T) {
	sqliteOnly(t)
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := sql.Open("sqlite", dsn(path, options{busyTimeout: time.Second}, true))
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	p, err := newProvider(&sqliteBackend{}, db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.UpTo(ctx, 18); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`INSERT INTO players (address, no_invitations) VALUES ('ann@x.org', 0), ('bob+games@x.org', 0),
			('carol@x.org', 0), ('j.doe@googlemail.com', 0), ('nev+1@x.org', 1), ('dan@x.org', 0)`,
		`INSERT INTO games (id, kind, setup, creator, status, created_at) VALUES (1, 'felix', x'7b7d', 'ann@x.org', 'active', 0),
			(2, 'felix', x'7b7d', 'dan@x.org', 'inviting', 0)`,
		`INSERT INTO seats (game_id, seat, address, name, token, state) VALUES
			(1, 0, 'ann@x.org', 'ann', 'tann', 'joined'), (1, 1, 'bob+games@x.org', 'bob', 'tbob', 'joined'),
			(1, 2, 'j.doe@googlemail.com', 'jd', 'tjd', 'resigned'),
			(2, 0, 'dan@x.org', 'dan', 'tdan', 'joined'), (2, 1, 'carol@x.org', 'carol', 'tcarol', 'invited')`,
		// ann mailed her own seat; someone else used dan's token.
		`INSERT INTO inbound (message_id, mailbox, uid_validity, uid, from_addr, token, outcome, received_at) VALUES
			('<1@a>', 'INBOX', 1, 1, 'ann@x.org', 'TANN', 'applied', 0),
			('<2@a>', 'INBOX', 1, 2, 'eve@x.org', 'tdan', 'refused', 0)`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()

	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, tc := range []struct {
		key             string
		never, answered bool
	}{
		{"ann@x.org", false, true},
		{"bob@x.org", false, true},
		{"jdoe@gmail.com", false, true},
		{"nev@x.org", true, false},
		{"carol@x.org", false, false},
		{"dan@x.org", false, false},
	} {
		never, answered, err := s.InviteStatus(ctx, tc.key)
		if err != nil || never != tc.never || answered != tc.answered {
			t.Errorf("%s after the migration: never %v, answered %v (%v); want %v, %v", tc.key, never, answered, err, tc.never, tc.answered)
		}
	}
}
