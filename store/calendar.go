package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// A player's calendar feed (issue 38, part 4) is /c/TOKEN.ics on the web
// server: the deadlines of the decisions he owes, in all his games. The
// token, drawn as a seat page's (NewLinkToken), leads to one player, by
// his address; `link new` replaces it (NewCalendarFeed).

// CalendarFeed is what a feed token leads to: its player and the
// decisions he owes now.
type CalendarFeed struct {
	Address   string
	Decisions []OwedDecision
}

// OwedDecision is one decision a player owes: a seat of his in an active
// game, a person's (no bot), not resigned, not on autopilot (pbem plays
// that at once), whose deadline is set. Its event in the feed is
// identified by the game, the seat and the decision's number.
type OwedDecision struct {
	GameID   int64
	Kind     string        // the game's kind, "felix"
	TurnTime time.Duration // the game's time for each decision; 0: the service's
	// Bank, in a game with a time bank, is the bank the decision began
	// with (Seat.Bank), which it lasts; 0 in a game without one.
	Bank     time.Duration
	Seat     int
	Decision int64 // Seat.Decision
	Deadline time.Time
	// PageToken is the seat's web page token (web_links), "" when the
	// seat has none yet.
	PageToken string
}

// CalendarFeed returns the player and the decisions the feed token leads
// to, earliest deadline first, or ErrNotFound. It is one statement, so
// the decisions are as they were at one instant.
func (r reader) CalendarFeed(ctx context.Context, token string) (CalendarFeed, error) {
	rows, err := r.q.QueryContext(ctx, `
		SELECT f.address, s.game_id, g.kind, g.turn_time, CASE WHEN g.bank_start > 0 THEN s.bank ELSE 0 END,
			s.seat, s.decision, s.deadline, l.token
		FROM calendar_feeds f
		LEFT JOIN seats s ON s.address = f.address AND s.deadline IS NOT NULL AND s.bot = ''
			AND s.state <> 'resigned' AND s.autopilot = 0
		LEFT JOIN games g ON g.id = s.game_id AND g.status = 'active'
		LEFT JOIN web_links l ON l.game_id = s.game_id AND l.seat = s.seat
		WHERE f.token = ?
		ORDER BY s.deadline, s.game_id, s.seat`, strings.ToLower(token))
	if err != nil {
		// The token is a secret: keep it out of error messages and logs.
		return CalendarFeed{}, fmt.Errorf("store: calendar feed: %w", wrap(err))
	}
	defer rows.Close()
	var feed CalendarFeed
	found := false
	for rows.Next() {
		var game, turn, bank, seat, decision, deadline sql.NullInt64
		var kind, page sql.NullString
		if err := rows.Scan(&feed.Address, &game, &kind, &turn, &bank, &seat, &decision, &deadline, &page); err != nil {
			return CalendarFeed{}, fmt.Errorf("store: calendar feed: %w", err)
		}
		found = true
		if !kind.Valid {
			continue // he owes nothing, or the seat's game is not active
		}
		feed.Decisions = append(feed.Decisions, OwedDecision{GameID: game.Int64, Kind: kind.String,
			TurnTime: time.Duration(turn.Int64) * time.Second, Bank: time.Duration(bank.Int64) * time.Second,
			Seat: int(seat.Int64), Decision: decision.Int64,
			Deadline: fromNullUnix(deadline), PageToken: page.String})
	}
	if err := rows.Err(); err != nil {
		return CalendarFeed{}, fmt.Errorf("store: calendar feed: %w", wrap(err))
	}
	if !found {
		return CalendarFeed{}, fmt.Errorf("store: calendar feed: %w", ErrNotFound)
	}
	return feed, nil
}

// CalendarToken returns the token of the player's feed, or ErrNotFound
// when he has none yet.
func (r reader) CalendarToken(ctx context.Context, address string) (string, error) {
	address = NormalizeAddress(address)
	var tok string
	err := r.q.QueryRowContext(ctx, `SELECT token FROM calendar_feeds WHERE address = ?`, address).Scan(&tok)
	if errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("store: calendar feed of %s: %w", address, ErrNotFound)
	}
	if err != nil {
		return "", fmt.Errorf("store: calendar feed of %s: %w", address, wrap(err))
	}
	return tok, nil
}

// EnsureCalendarFeed returns the token of the player's feed, making one
// the first time it is asked for. The player must be known (players).
// Two transactions that make it at once keep the first one's (ON
// CONFLICT DO NOTHING, then read).
func (tx *Tx) EnsureCalendarFeed(ctx context.Context, address string) (string, error) {
	tok, err := tx.CalendarToken(ctx, address)
	if !errors.Is(err, ErrNotFound) {
		return tok, err
	}
	address = NormalizeAddress(address)
	if _, err := tx.exec(ctx, `INSERT INTO calendar_feeds (token, address) VALUES (?, ?) ON CONFLICT DO NOTHING`,
		NewLinkToken(), address); err != nil {
		return "", fmt.Errorf("store: new calendar feed of %s: %w", address, err)
	}
	return tx.CalendarToken(ctx, address)
}

// NewCalendarFeed gives the player's feed a new token (or a first one):
// the old one, if any, leads nowhere from now on.
func (tx *Tx) NewCalendarFeed(ctx context.Context, address string) (string, error) {
	if err := tx.writesShared(); err != nil {
		return "", err
	}
	address = NormalizeAddress(address)
	tok := NewLinkToken()
	if err := tx.execAll(ctx, "new calendar feed of "+address,
		stmtArgs{`DELETE FROM calendar_feeds WHERE address = ?`, []any{address}},
		stmtArgs{`INSERT INTO calendar_feeds (token, address) VALUES (?, ?)`, []any{tok, address}},
	); err != nil {
		return "", err
	}
	return tok, nil
}
