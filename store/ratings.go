package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"
)

// PlayerRating is a player's rating in one game kind: OpenSkill's Mu and
// Sigma (internal/rating) after Games rated games. A rated player is a
// mailbox (internal/mailbox's Key, which the caller computes): every
// spelling of an address that reaches it is one player, so that one
// person cannot rate himself against himself. Name is the name he chose
// at the address of his latest rated game, else the one he had in that
// game: never an address.
type PlayerRating struct {
	Kind    string
	Mailbox string
	Name    string
	Mu      float64
	Sigma   float64
	Games   int
}

// RatedSeat is one player's place in a rated game: 1 is first. Address
// is the seat's address as the player wrote it, Mailbox the mailbox it
// reaches: the rated player.
type RatedSeat struct {
	Address string
	Mailbox string
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

// Ratings returns the ratings of the mailboxes in kind, by mailbox; a
// mailbox never rated in it is absent.
func (r reader) Ratings(ctx context.Context, kind string, mailboxes []string) (map[string]PlayerRating, error) {
	out := map[string]PlayerRating{}
	for _, a := range mailboxes {
		a = NormalizeAddress(a)
		pr := PlayerRating{Kind: kind, Mailbox: a}
		err := r.q.QueryRowContext(ctx, `SELECT mu, sigma, games FROM ratings WHERE kind = ? AND mailbox = ?`, kind, a).Scan(&pr.Mu, &pr.Sigma, &pr.Games)
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
		if _, err := tx.exec(ctx, `INSERT INTO rated_seats (game_id, address, mailbox, name, rank) VALUES (?, ?, ?, ?, ?)`,
			g.GameID, NormalizeAddress(s.Address), NormalizeAddress(s.Mailbox), s.Name, s.Rank); err != nil {
			return fmt.Errorf("store: rate game %d: %w", g.GameID, err)
		}
	}
	return tx.putRatings(ctx, rated)
}

func (tx *Tx) putRatings(ctx context.Context, rated []PlayerRating) error {
	for _, p := range rated {
		if _, err := tx.exec(ctx, `
			INSERT INTO ratings (kind, mailbox, mu, sigma, games) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (kind, mailbox) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, games = excluded.games`,
			p.Kind, NormalizeAddress(p.Mailbox), p.Mu, p.Sigma, p.Games); err != nil {
			return fmt.Errorf("store: rating of %s in %s: %w", p.Mailbox, p.Kind, err)
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
	games, err := tx.RatedGames(ctx, kind)
	return kind, games, err
}

// RatedGames are kind's games still rated, in the order they were
// rated.
func (r reader) RatedGames(ctx context.Context, kind string) ([]RatedGame, error) {
	rows, err := r.q.QueryContext(ctx, `
		SELECT g.game_id, g.rated_at, s.address, s.mailbox, s.name, s.rank
		FROM rated_games g JOIN rated_seats s ON s.game_id = g.game_id
		WHERE g.kind = ? AND g.removed = 0
		ORDER BY g.rated_at, g.game_id, s.rank, s.address`, kind)
	if err != nil {
		return nil, fmt.Errorf("store: rated games of %s: %w", kind, err)
	}
	defer rows.Close()
	var games []RatedGame
	for rows.Next() {
		var id, at int64
		var s RatedSeat
		if err := rows.Scan(&id, &at, &s.Address, &s.Mailbox, &s.Name, &s.Rank); err != nil {
			return nil, fmt.Errorf("store: rated games of %s: %w", kind, err)
		}
		if n := len(games); n == 0 || games[n-1].GameID != id {
			games = append(games, RatedGame{GameID: id, Kind: kind, At: fromUnix(at)})
		}
		games[len(games)-1].Seats = append(games[len(games)-1].Seats, s)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: rated games of %s: %w", kind, err)
	}
	return games, nil
}

// RekeyRatedSeats gives every rated seat the mailbox key(address)
// where it has another (the rows migration 00021 keyed by the address,
// or a changed rule), and returns the kinds whose seats it changed, for
// the caller to compute their ratings again (RatedGames, ResetRatings).
// It reads every rated seat: pbem serve runs it once as it starts.
func (tx *Tx) RekeyRatedSeats(ctx context.Context, key func(address string) string) ([]string, error) {
	if err := tx.writesShared(); err != nil {
		return nil, err
	}
	type seat struct {
		game                   int64
		kind, address, mailbox string
	}
	rows, err := tx.q.QueryContext(ctx, `
		SELECT s.game_id, g.kind, s.address, s.mailbox
		FROM rated_seats s JOIN rated_games g ON g.game_id = s.game_id
		ORDER BY s.game_id, s.address`)
	if err != nil {
		return nil, fmt.Errorf("store: rated seats: %w", err)
	}
	var stale []seat
	for rows.Next() {
		var st seat
		if err := rows.Scan(&st.game, &st.kind, &st.address, &st.mailbox); err != nil {
			rows.Close()
			return nil, fmt.Errorf("store: rated seats: %w", err)
		}
		if k := NormalizeAddress(key(st.address)); k != st.mailbox {
			st.mailbox = k
			stale = append(stale, st)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: rated seats: %w", err)
	}
	var kinds []string
	for _, st := range stale {
		if err := tx.execOne(ctx, `UPDATE rated_seats SET mailbox = ? WHERE game_id = ? AND address = ?`, st.mailbox, st.game, st.address); err != nil {
			return nil, fmt.Errorf("store: rekey rated seat of game %d: %w", st.game, err)
		}
		if !slices.Contains(kinds, st.kind) {
			kinds = append(kinds, st.kind)
		}
	}
	return kinds, nil
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

// Standings returns the ratings of the mailbox and of everyone it played
// a rated game with, in the kinds they played together, by kind and then
// best first (Mu - 3 Sigma).
func (r reader) Standings(ctx context.Context, mailbox string) ([]PlayerRating, error) {
	mailbox = NormalizeAddress(mailbox)
	rows, err := r.q.QueryContext(ctx, `
		WITH pairs AS (
			SELECT DISTINCT g.kind AS kind, o.mailbox AS mailbox
			FROM rated_seats me
			JOIN rated_games g ON g.game_id = me.game_id AND g.removed = 0
			JOIN rated_seats o ON o.game_id = me.game_id
			WHERE me.mailbox = ?
		)
		SELECT r.kind, r.mailbox, r.mu, r.sigma, r.games,
			COALESCE(
				(SELECT NULLIF(p.name, '') FROM rated_seats s JOIN players p ON p.address = s.address
					WHERE s.mailbox = r.mailbox ORDER BY s.game_id DESC LIMIT 1),
				(SELECT s.name FROM rated_seats s WHERE s.mailbox = r.mailbox ORDER BY s.game_id DESC LIMIT 1))
		FROM pairs JOIN ratings r ON r.kind = pairs.kind AND r.mailbox = pairs.mailbox
		ORDER BY r.kind, r.mu - 3 * r.sigma DESC, r.mailbox`, mailbox)
	if err != nil {
		return nil, fmt.Errorf("store: standings of %s: %w", mailbox, err)
	}
	defer rows.Close()
	var out []PlayerRating
	for rows.Next() {
		var p PlayerRating
		if err := rows.Scan(&p.Kind, &p.Mailbox, &p.Mu, &p.Sigma, &p.Games, &p.Name); err != nil {
			return nil, fmt.Errorf("store: standings of %s: %w", mailbox, err)
		}
		out = append(out, p)
	}
	return out, rows.Err()
}
