// Package storetest fills a pbem database with many games at once, for the
// tests and benchmarks that show the deadline sweep's cost does not grow
// with the number of games (issue 14). Creating 100,000 games through the
// store's methods, let alone the mail loop, would take minutes; these
// statements write the same rows in one transaction in a few seconds.
//
// It writes SQL against the store's schema, so it must change with the
// migrations; the store's own tests use it, so a schema change that
// breaks it fails them.
package storetest

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	_ "modernc.org/sqlite" // the driver the store uses, for FillFile
)

// Kind is the game kind of the games Fill adds. No rules of that name
// exist: a sweep that tried to load one of them would fail, which is what
// a benchmark wants if the sweep ever touches a game that is not due.
const Kind = "filler"

// MovesPerGame is how many moves of history Fill gives each game.
const MovesPerGame = 6

// Fill adds n games of four seats each, and n players to sit in them,
// none of which the sweep has anything to do with at any time before
// quiet:
//
//   - 96% of the games are active, each waiting on one seat whose
//     deadline and reminder step come after quiet, spread over 5,000
//     minutes;
//   - 2% are paused, with such a deadline too, and 2% finished, with
//     none; one game in 211 is set aside as broken, whatever its status;
//   - one player in 40 has notify digest with his digest due after quiet,
//     and one in 100 is away on vacation until after quiet;
//   - each game has a history of MovesPerGame moves, each carried by an
//     inbound mail (with Message-ID and UID) and telling one public
//     event, besides the opening's event; each game that is not finished
//     has one sent mail per seat still in the outbox, without its body,
//     as retention leaves them.
//
// The history is short beside a real game's (a Felix game has some
// hundred moves), so that 100,000 games fill in seconds; it is there so
// that inbound, moves, events and the outbox are big tables, as they are
// in production, for the plans and timings measured on them.
//
// The games' ids follow those already in the database. now is the games'
// creation and their seats' waiting start.
func Fill(ctx context.Context, db *sql.DB, n int, now, quiet time.Time) error {
	if n < 4 {
		return fmt.Errorf("storetest: fill %d games: at least 4", n)
	}
	// One connection: the cache size is a connection's, and the
	// transaction must run where it was raised.
	conn, err := db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("storetest: fill: %w", err)
	}
	defer conn.Close()
	// The fill writes a few hundred megabytes in one transaction. With
	// SQLite's default cache of 2 MB it would spill pages to the WAL and
	// read them back all along, taking several times as long.
	var cache int64
	if err := conn.QueryRowContext(ctx, `PRAGMA cache_size`).Scan(&cache); err != nil {
		return fmt.Errorf("storetest: fill: %w", err)
	}
	if _, err := conn.ExecContext(ctx, `PRAGMA cache_size = -1000000`); err != nil {
		return fmt.Errorf("storetest: fill: %w", err)
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), fmt.Sprintf(`PRAGMA cache_size = %d`, cache))
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("storetest: fill: %w", err)
	}
	defer tx.Rollback()
	var base, inBase int64
	err = tx.QueryRowContext(ctx, `SELECT (SELECT coalesce(max(id), 0) FROM games), (SELECT coalesce(max(id), 0) FROM inbound)`).Scan(&base, &inBase)
	if err != nil {
		return fmt.Errorf("storetest: fill: %w", err)
	}
	q, at := quiet.Unix(), now.Unix()
	steps := []struct{ what, sql string }{
		{"players", `
			WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ?1 - 1)
			INSERT INTO players (address, mail_notify, digest_due, away_until)
			SELECT 'fill' || i || '@fill.test',
				CASE WHEN i % 40 = 9 THEN 'digest' ELSE 'normal' END,
				CASE WHEN i % 40 = 9 THEN ?2 + 3600 * (1 + i % 24) END,
				CASE WHEN i % 100 = 7 THEN ?2 + 86400 * (1 + i % 10) END
			FROM n`},
		{"games", `
			WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ?1 - 1)
			INSERT INTO games (id, kind, setup, creator, status, created_at, broken, broken_at)
			SELECT ?4 + 1 + i, '` + Kind + `', x'7b7d', 'fill' || i || '@fill.test',
				CASE i % 50 WHEN 1 THEN 'paused' WHEN 2 THEN 'finished' ELSE 'active' END, ?3,
				CASE WHEN i % 211 = 3 THEN 'filler: set aside' ELSE '' END,
				CASE WHEN i % 211 = 3 THEN ?3 END
			FROM n`},
		// Seat j of game i is player 4i+j (mod n); the game waits on seat
		// i mod 4, as a game waits on one player at a time.
		{"seats", `
			WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ?1 - 1),
			j(j) AS (VALUES (0), (1), (2), (3)),
			s(game_id, i, j, deadline) AS (
				SELECT ?4 + 1 + i, i, j,
					CASE WHEN i % 50 <> 2 AND j = i % 4 THEN ?2 + 43200 + 60 * (1 + i % 5000) END
				FROM n, j)
			INSERT INTO seats (game_id, seat, address, name, token, state, deadline, waiting_since, remind_at, remind_lead)
			SELECT game_id, j, 'fill' || ((4 * i + j) % ?1) || '@fill.test', 'p' || j, 'fill-' || game_id || '-' || j,
				'joined', deadline,
				CASE WHEN deadline IS NOT NULL THEN ?3 END,
				deadline - 43200,
				CASE WHEN deadline IS NOT NULL THEN 43200 ELSE 0 END
			FROM s`},
		// Move k of game i came in inbound mail inBase + MovesPerGame*i + k,
		// from the seat's player, a minute after the one before.
		{"inbound", `
			WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ?1 * ?6 - 1)
			INSERT INTO inbound (id, message_id, mailbox, uid_validity, uid, from_addr, token, game_id, outcome, received_at)
			SELECT ?5 + 1 + i, printf('<fill-%010d@fill.test>', i), 'fill', 1, 1 + i,
				'fill' || ((4 * (i / ?6) + i % 4) % ?1) || '@fill.test',
				'fill-' || (?4 + 1 + i / ?6) || '-' || (i % 4), ?4 + 1 + i / ?6, 'applied', ?3 + 60 * (i % ?6)
			FROM n`},
		{"moves", `
			INSERT INTO moves (game_id, seq, seat, command, source, inbound_id, at)
			SELECT game_id, id - ?5 - (game_id - ?4 - 1) * ?6, (id - ?5 - 1) % 4, 'move', 'mail', id, received_at
			FROM inbound WHERE id > ?5`},
		{"events", `
			INSERT INTO events (game_id, seq, to_seat, kind, text)
			SELECT id, 0, -1, 'start', 'The game begins.' FROM games WHERE id > ?4
			UNION ALL
			SELECT game_id, seq, -1, 'move', 'A move.' FROM moves WHERE game_id > ?4
			ORDER BY 1, 2`},
		{"outbox", `
			INSERT INTO outbox (message_id, game_id, rcpt, state, not_before, sent_at, seat, decision, seen_event)
			SELECT printf('<fill-%010d-%d@fill.test>', game_id, seat), game_id, address, 'sent', ?3, ?3, seat, 0, 0
			FROM seats WHERE game_id > ?4 AND game_id IN (SELECT id FROM games WHERE id > ?4 AND status <> 'finished')`},
	}
	for _, st := range steps {
		if _, err := tx.ExecContext(ctx, st.sql, n, q, at, base, inBase, MovesPerGame); err != nil {
			return fmt.Errorf("storetest: fill %s: %w", st.what, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("storetest: fill: %w", err)
	}
	return nil
}

// FillFile is Fill on the database file at path, through a connection of
// its own: a store may have the file open meanwhile (WAL lets it read
// alongside, and the busy timeout waits for its writes).
func FillFile(ctx context.Context, path string, n int, now, quiet time.Time) error {
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)&_pragma=foreign_keys(1)")
	if err != nil {
		return fmt.Errorf("storetest: open %s: %w", path, err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	return Fill(ctx, db, n, now, quiet)
}
