package store

import (
	"context"
	"fmt"
	"time"
)

// TalkKind is what a seat did at the table besides playing.
type TalkKind string

const (
	TalkSay  TalkKind = "say"  // said something to the other players
	TalkPoke TalkKind = "poke" // reminded the players the game waits on
)

// Talked returns when the seat did kind in the window before now, oldest
// first, dropping older rows on the way: each seat keeps at most a
// window's worth, so the call costs bounded work.
func (tx *Tx) Talked(ctx context.Context, gameID int64, seat int, kind TalkKind, now time.Time, window time.Duration) ([]time.Time, error) {
	if err := tx.writesGame(gameID); err != nil {
		return nil, err
	}
	since := unix(now.Add(-window))
	if _, err := tx.exec(ctx, `DELETE FROM talk WHERE game_id = ? AND seat = ? AND kind = ? AND at <= ?`, gameID, seat, string(kind), since); err != nil {
		return nil, fmt.Errorf("store: talk of game %d seat %d: %w", gameID, seat, err)
	}
	rows, err := tx.q.QueryContext(ctx,
		`SELECT at FROM talk WHERE game_id = ? AND seat = ? AND kind = ? AND at > ? ORDER BY at`, gameID, seat, string(kind), since)
	if err != nil {
		return nil, fmt.Errorf("store: talk of game %d seat %d: %w", gameID, seat, wrap(err))
	}
	defer rows.Close()
	var out []time.Time
	for rows.Next() {
		var at int64
		if err := rows.Scan(&at); err != nil {
			return nil, fmt.Errorf("store: talk of game %d seat %d: %w", gameID, seat, wrap(err))
		}
		out = append(out, fromUnix(at))
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: talk of game %d seat %d: %w", gameID, seat, wrap(err))
	}
	return out, nil
}

// Talk records that the seat did kind at at.
func (tx *Tx) Talk(ctx context.Context, gameID int64, seat int, kind TalkKind, at time.Time) error {
	if err := tx.writesGame(gameID); err != nil {
		return err
	}
	if _, err := tx.exec(ctx, `INSERT INTO talk (game_id, seat, kind, at) VALUES (?, ?, ?, ?)`, gameID, seat, string(kind), unix(at)); err != nil {
		return fmt.Errorf("store: record %s of game %d seat %d: %w", kind, gameID, seat, err)
	}
	return nil
}
