package store

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// TestColumnChecksHold writes a value each column's check refuses, and
// one it allows, into a row of every table whose checks PostgreSQL's
// migration 00033 made domains: the rules must be the same on both
// engines, CHECK constraints on SQLite and domains on PostgreSQL, and
// an update that leaves a checked column alone must not be refused
// either.
func TestColumnChecksHold(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t)
	game := newGame(t, s, "ann@example.org", "bob@example.org", "cat@example.org")
	queue(t, s, "<checked@pbem>", "ann@example.org", t0)
	mustTx(t, s, func(tx *Tx) error {
		in, err := tx.RecordInbound(ctx, Inbound{MessageID: "<in-checked@x>", Mailbox: "INBOX",
			UIDValidity: 1, UID: 1, From: "ann@example.org", GameID: game, Outcome: "applied", ReceivedAt: t0})
		if err != nil {
			return err
		}
		if _, err := tx.AppendMove(ctx, game, Move{Seat: 0, Command: "bid 5", Source: SourceMail, InboundID: in, At: t0}); err != nil {
			return err
		}
		_, err = tx.Spend(ctx, "ann@example.org", "answers", t0, time.Hour, 5)
		return err
	})
	where := map[string]string{
		"games":   fmt.Sprintf("id = %d", game),
		"seats":   fmt.Sprintf("game_id = %d AND seat = 1", game),
		"players": "address = 'bob@example.org'",
		"inbound": "message_id = '<in-checked@x>'",
		"moves":   fmt.Sprintf("game_id = %d", game),
		"outbox":  "id = (SELECT min(id) FROM outbox)",
		"budget":  "id = (SELECT min(id) FROM budget)",
	}
	for _, c := range []struct {
		table, column, bad, good string
	}{
		{"games", "bank_increment", "-1", "0"},
		{"games", "bank_max", "-1", "60"},
		{"games", "bank_start", "-1", "30"},
		{"games", "kind", "''", "'felix'"},
		{"games", "snapshot_seq", "-1", "0"},
		{"games", "status", "'over'", "'paused'"},
		{"games", "turn_time", "0", "NULL"},
		{"games", "turn_time", "-5", "86400"},
		{"games", "weekends_off", "2", "1"},
		{"seats", "autopilot", "2", "1"},
		{"seats", "bank", "-1", "10"},
		{"seats", "bot", "'genius'", "'easy'"},
		{"seats", "decision", "-1", "3"},
		{"seats", "missed", "-1", "2"},
		{"seats", "state", "'gone'", "'resigned'"},
		{"seats", "token", "''", "'another-token'"},
		{"players", "confirm", "2", "0"},
		{"players", "digest_hour", "24", "23"},
		{"players", "digest_hour", "-1", "0"},
		{"players", "mail_notify", "'some'", "'digest'"},
		{"players", "no_invitations", "2", "1"},
		{"players", "notify", "'normal'", "'turns'"},
		{"players", "quiet_end", "24", "7"},
		{"players", "quiet_start", "-1", "22"},
		{"players", "zone_asked", "2", "1"},
		{"inbound", "outcome", "''", "'ignored'"},
		{"moves", "clock_left", "-1", "100"},
		{"moves", "command", "''", "'bid 6'"},
		{"moves", "seq", "0", "1"},
		{"moves", "source", "'admin:'", "'admin:x'"},
		{"moves", "source", "'robot'", "'deadline'"},
		{"outbox", "message_id", "''", "'<other@pbem>'"},
		{"outbox", "rcpt", "''", "'bob@example.org'"},
		{"outbox", "state", "'lost'", "'dead'"},
		{"budget", "address", "''", "'bob@example.org'"},
		{"budget", "bucket", "''", "'lobby'"},
	} {
		set := func(v string) error {
			return s.Tx(ctx, func(tx *Tx) error {
				res, err := tx.exec(ctx, `UPDATE `+c.table+` SET `+c.column+` = `+v+` WHERE `+where[c.table])
				if err != nil {
					return err
				}
				if n, err := res.RowsAffected(); err != nil || n != 1 {
					t.Fatalf("%s.%s = %s updated %d rows (%v), want 1", c.table, c.column, v, n, err)
				}
				return nil
			})
		}
		if err := set(c.bad); err == nil {
			t.Errorf("%s.%s = %s was allowed", c.table, c.column, c.bad)
		}
		if err := set(c.good); err != nil {
			t.Errorf("%s.%s = %s: %v", c.table, c.column, c.good, err)
		}
	}
	// A write of other columns of a row is checked only for them.
	mustTx(t, s, func(tx *Tx) error {
		_, err := tx.exec(ctx, `UPDATE seats SET deadline = 5 WHERE `+where["seats"])
		return err
	})
}
