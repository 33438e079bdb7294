package store

import (
	"context"
	"database/sql"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// Migration 00020 keeps every mail recorded before it known again: an
// LMTP mail without a Message-ID by its digest (which was its
// message_id), any other by its Message-ID with its sender and the seat
// token it was routed to; and its Down makes a Message-ID unique again,
// keeping the first row's.
func TestMigrationKeepsInboundSeen(t *testing.T) {
	sqliteOnly(t)
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	provider := func() (*sql.DB, func(int64) error, func(int64) error) {
		db, err := sql.Open("sqlite", dsn(path, options{busyTimeout: time.Second}, true))
		if err != nil {
			t.Fatal(err)
		}
		db.SetMaxOpenConns(1)
		p, err := newProvider(&sqliteBackend{}, db)
		if err != nil {
			t.Fatal(err)
		}
		up := func(v int64) error { _, err := p.UpTo(ctx, v); return err }
		down := func(v int64) error { _, err := p.DownTo(ctx, v); return err }
		return db, up, down
	}
	db, up, _ := provider()
	if err := up(18); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`INSERT INTO inbound (message_id, mailbox, uid_validity, uid, from_addr, token, outcome, received_at) VALUES
			('lmtp:sha256:abc', 'LMTP', 0, 0, 'ann@x.org', '', 'answered', 0),
			('<p@x>', 'INBOX', 7, 5, 'ann@x.org', 'TOK', 'applied', 0),
			('<q@x>', 'INBOX', 7, 6, 'bob@x.org', '', 'answered', 0)`,
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
	for _, tt := range []struct {
		name string
		in   Inbound
		want bool
	}{
		{"the LMTP mail by its bytes", Inbound{Digest: "lmtp:sha256:abc", Mailbox: "LMTP"}, true},
		{"the seat's mail by Message-ID, sender and token", Inbound{SentAs: SentAs("<p@x>", "ann@x.org", "tok"), Mailbox: "LMTP"}, true},
		{"the lobby mail by Message-ID and sender", Inbound{SentAs: SentAs("<q@x>", "bob@x.org", ""), Mailbox: "LMTP"}, true},
		{"a stranger's mail with the seat mail's Message-ID", Inbound{SentAs: SentAs("<p@x>", "eve@x.org", ""), Mailbox: "LMTP"}, false},
		{"a stranger's mail with the lobby mail's Message-ID", Inbound{SentAs: SentAs("<q@x>", "eve@x.org", ""), Mailbox: "LMTP"}, false},
	} {
		if seen, err := s.InboundSeen(ctx, tt.in); err != nil || seen != tt.want {
			t.Errorf("%s: seen = %v, %v; want %v", tt.name, seen, err, tt.want)
		}
	}
	// The stranger's mail with a seen Message-ID is a mail of its own.
	mustTx(t, s, func(tx *Tx) error {
		_, err := tx.RecordInbound(ctx, Inbound{MessageID: "<p@x>", SentAs: SentAs("<p@x>", "eve@x.org", ""), From: "eve@x.org",
			Mailbox: "INBOX", UIDValidity: 7, UID: 7, Outcome: "answered", ReceivedAt: t0})
		return err
	})
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	db, up, down := provider()
	defer db.Close()
	if err := down(18); err != nil {
		t.Fatalf("migration 00020 down: %v", err)
	}
	var ids []string
	rows, err := db.Query(`SELECT message_id FROM inbound ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	rows.Close()
	if want := []string{"lmtp:sha256:abc", "<p@x>", "<q@x>", ""}; !slices.Equal(ids, want) {
		t.Errorf("Message-IDs after 00020 down = %q, want %q", ids, want)
	}
	if err := up(LatestSchemaVersion()); err != nil {
		t.Fatalf("migrating up again: %v", err)
	}
}
