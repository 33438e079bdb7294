package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// PlayerRating is a player's rating in one game kind: OpenSkill's Mu and
// Sigma (internal/rating) after Games rated games. Name is the name he
// chose, else the one he had in his latest rated game: never his address.
type PlayerRating struct {
	Kind    string
	Address string
	Name    string
	Mu      float64
	Sigma   float64
	Games   int
}

// RatedSeat is one player's place in a rated game: 1 is first.
type RatedSeat struct {
	Address string
	Name    string
	Rank    int
}

// RatedGame is a rated game: its kind, when it was rated and its seats.
type RatedGame struct {
	GameID int64
	Kind   string
	At     time.Time
	Seats  []RatedSeat
}

// Ratings returns the ratings of the addresses in kind; an address never
// rated in it is absent.
func (r reader) Ratings(ctx context.Context, kind string, addresses []string) (map[string]PlayerRating, error) {
	out := map[string]PlayerRating{}
	for _, a := range addresses {
		a = NormalizeAddress(a)
		pr := PlayerRating{Kind: kind, Address: a}
		err := r.q.QueryRowContext(ctx, `SELECT mu, sigma, games FROM ratings WHERE kind = ? AND address = ?`, kind, a).Scan(&pr.Mu, &pr.Sigma, &pr.Games)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("store: rating of %s in %s: %w", a, kind, err)
		}
		out[a] = pr
	}
	return out, nil
}

// RateGame records a finished game's result and its players' new
// ratings. A game is rated once: rating it again is an error.
func (tx *Tx) RateGame(ctx context.Context, g RatedGame, rated []PlayerRating) error {
	if err := tx.writesShared(); err != nil {
		return err
	}
	if _, err := tx.exec(ctx, `INSERT INTO rated_games (game_id, kind, rated_at) VALUES (?, ?, ?)`, g.GameID, g.Kind, unix(g.At)); err != nil {
		return fmt.Errorf("store: rate game %d: %w", g.GameID, err)
	}
	for _, s := range g.Seats {
		if _, err := tx.exec(ctx, `INSERT INTO rated_seats (game_id, address, name, rank) VALUES (?, ?, ?, ?)`,
			g.GameID, NormalizeAddress(s.Address), s.Name, s.Rank); err != nil {
			return fmt.Errorf("store: rate game %d: %w", g.GameID, err)
		}
	}
	return tx.putRatings(ctx, rated)
}

func (tx *Tx) putRatings(ctx context.Context, rated []PlayerRating) error {
	for _, p := range rated {
		if _, err := tx.exec(ctx, `
			INSERT INTO ratings (kind, address, mu, sigma, games) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (kind, address) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, games = excluded.games`,
			p.Kind, NormalizeAddress(p.Address), p.Mu, p.Sigma, p.Games); err != nil {
			return fmt.Errorf("store: rating of %s in %s: %w", p.Address, p.Kind, err)
		}
	}
	return nil
}

// UnrateGame takes a game out of the ratings and returns its kind, and
// the kind's games still rated, in the order they were rated, for the
// caller to compute the kind's ratings again (ResetRatings). ErrNotFound
// for a game that is not rated.
func (tx *Tx) UnrateGame(ctx context.Context, gameID int64) (string, []RatedGame, error) {
	if err := tx.writesShared(); err != nil {
		return "", nil, err
	}
	var kind string
	err := tx.q.QueryRowContext(ctx, `SELECT kind FROM rated_games WHERE game_id = ? AND removed = 0`, gameID).Scan(&kind)
	if err != nil {
		return "", nil, fmt.Errorf("store: unrate game %d: %w", gameID, wrap(err))
	}
	if err := tx.execOne(ctx, `UPDATE rated_games SET removed = 1 WHERE game_id = ?`, gameID); err != nil {
		return "", nil, fmt.Errorf("store: unrate game %d: %w", gameID, err)
	}
	rows, err := tx.q.QueryContext(ctx, `
		SELECT g.game_id, g.rated_at, s.address, s.name, s.rank
		FROM rated_games g JOIN rated_seats s ON s.game_id = g.game_id
		WHERE g.kind = ? AND g.removed = 0
		ORDER BY g.rated_at, g.game_id, s.rank, s.address`, kind)
	if err != nil {
		return "", nil, fmt.Errorf("store: rated games of %s: %w", kind, err)
	}
	defer rows.Close()
	var games []RatedGame
	for rows.Next() {
		var id, at int64
		var s RatedSeat
		if err := rows.Scan(&id, &at, &s.Address, &s.Name, &s.Rank); err != nil {
			return "", nil, fmt.Errorf("store: rated games of %s: %w", kind, err)
		}
		if n := len(games); n == 0 || games[n-1].GameID != id {
			games = append(games, RatedGame{GameID: id, Kind: kind, At: fromUnix(at)})
		}
		games[len(games)-1].Seats = append(games[len(games)-1].Seats, s)
	}
	if err := rows.Err(); err != nil {
		return "", nil, fmt.Errorf("store: rated games of %s: %w", kind, err)
	}
	return kind, games, nil
}

// ResetRatings replaces every rating of kind with rated.
func (tx *Tx) ResetRatings(ctx context.Context, kind string, rated []PlayerRating) error {
	if err := tx.writesShared(); err != nil {
		return err
	}
	if _, err := tx.exec(ctx, `DELETE FROM ratings WHERE kind = ?`, kind); err != nil {
		return fmt.Errorf("store: reset ratings of %s: %w", kind, err)
	}
	return tx.putRatings(ctx, rated)
}

// Standings returns the player's ratings and those of everyone he played
// a rated game with, in the kinds they played together, by kind and
// then best first (Mu - 3 Sigma).
func (r reader) Standings(ctx context.Context, address string) ([]PlayerRating, error) {
	address = NormalizeAddress(address)
	rows, err := r.q.QueryContext(ctx, `
		WITH pairs AS (
			SELECT DISTINCT g.kind AS kind, o.address AS address
			FROM rated_seats me
			JOIN rated_games g ON g.game_id = me.game_id AND g.removed = 0
			JOIN rated_seats o ON o.game_id = me.game_id
			WHERE me.address = ?
		)
		SELECT r.kind, r.address, r.mu, r.sigma, r.games,
			COALESCE(NULLIF(p.name, ''), (SELECT s.name FROM rated_seats s WHERE s.address = r.address ORDER BY s.game_id DESC LIMIT 1))
		FROM pairs JOIN ratings r ON r.kind = pairs.kind AND r.address = pairs.address
		LEFT JOIN players p ON p.address = r.address
		ORDER BY r.kind, r.mu - 3 * r.sigma DESC, r.address`, address)
	if err != nil {
		return nil, fmt.Errorf("store: standings of %s: %w", address, err)
	}
	defer rows.Close()
	var out []PlayerRating
	for rows.Next() {
		var p PlayerRating
		if err := rows.Scan(&p.Kind, &p.Address, &p.Mu, &p.Sigma, &p.Games, &p.Name); err != nil {
			return nil, fmt.Errorf("store: standings of %s: %w", address, err)
		}
		out = append(out, p)
	}
	return out, rows.Err()
}
