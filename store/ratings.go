package store

import (
	"context"
	"fmt"
	"slices"
	"strings"
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
// mailbox never rated in it is absent. A game's seats are read in one
// statement (issue 40: a statement and a round trip each, at every
// game's end).
func (r reader) Ratings(ctx context.Context, kind string, mailboxes []string) (map[string]PlayerRating, error) {
	out := map[string]PlayerRating{}
	boxes := normalizedSet(mailboxes)
	for len(boxes) > 0 {
		n := min(len(boxes), maxRatingsRead)
		args := make([]any, 0, n+1)
		args = append(args, kind)
		for _, b := range boxes[:n] {
			args = append(args, b)
		}
		if err := r.readRatings(ctx, ratingsSQL[n-1], args, out); err != nil {
			return nil, fmt.Errorf("store: ratings of %d mailboxes in %s: %w", n, kind, err)
		}
		boxes = boxes[n:]
	}
	return out, nil
}

// readRatings adds the rows of a ratingsSQL to out.
func (r reader) readRatings(ctx context.Context, query string, args []any, out map[string]PlayerRating) error {
	rows, err := r.q.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var pr PlayerRating
		if err := rows.Scan(&pr.Kind, &pr.Mailbox, &pr.Mu, &pr.Sigma, &pr.Games); err != nil {
			return err
		}
		out[pr.Mailbox] = pr
	}
	return rows.Err()
}

// maxRatingsRead is how many mailboxes one statement of Ratings or
// StandingsEach reads: a game's seats, and more in several statements.
// The statement texts, one per number of mailboxes, stay few, each
// prepared once.
const maxRatingsRead = 8

// inList is "?, ?, …", n of them.
func inList(n int) string { return "?" + strings.Repeat(", ?", n-1) }

// ratingsSQL holds the read of a kind's ratings of n mailboxes at n-1.
var ratingsSQL = func() (qs [maxRatingsRead]string) {
	for n := range qs {
		qs[n] = `SELECT kind, mailbox, mu, sigma, games FROM ratings WHERE kind = ? AND mailbox IN (` + inList(n+1) + `)`
	}
	return qs
}()

// normalizedSet is the mailboxes normalized, each once, in their order.
func normalizedSet(mailboxes []string) []string {
	out := make([]string, 0, len(mailboxes))
	for _, a := range mailboxes {
		if a = NormalizeAddress(a); !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	return out
}

// RateGame records a finished game's result and its players' new
// ratings. A game is rated once: rating it again is an error, the
// transaction's. Nothing waits for the writes' answers (Tx.later): on
// PostgreSQL they go with the next statement, where each was a round trip
// of its own at every game's end (issue 40); a read of the rated tables
// goes after them (pipeline.go).
func (tx *Tx) RateGame(ctx context.Context, g RatedGame, rated []PlayerRating) error {
	if err := tx.writesShared(); err != nil {
		return err
	}
	if err := tx.later(ctx, fmt.Sprintf("rate game %d", g.GameID), `INSERT INTO rated_games (game_id, kind, rated_at) VALUES (?, ?, ?)`,
		g.GameID, g.Kind, unix(g.At)); err != nil {
		return err
	}
	for _, s := range g.Seats {
		if err := tx.later(ctx, fmt.Sprintf("rate game %d", g.GameID), `INSERT INTO rated_seats (game_id, address, mailbox, name, rank) VALUES (?, ?, ?, ?, ?)`,
			g.GameID, NormalizeAddress(s.Address), NormalizeAddress(s.Mailbox), s.Name, s.Rank); err != nil {
			return err
		}
	}
	return tx.putRatings(ctx, rated)
}

func (tx *Tx) putRatings(ctx context.Context, rated []PlayerRating) error {
	for _, p := range rated {
		if err := tx.later(ctx, fmt.Sprintf("rating of %s in %s", p.Mailbox, p.Kind), `
			INSERT INTO ratings (kind, mailbox, mu, sigma, games) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (kind, mailbox) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, games = excluded.games`,
			p.Kind, NormalizeAddress(p.Mailbox), p.Mu, p.Sigma, p.Games); err != nil {
			return err
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
	all, err := r.StandingsEach(ctx, []string{mailbox})
	return all[NormalizeAddress(mailbox)], err
}

// StandingsEach is Standings of each of the mailboxes, by mailbox
// normalized: a game's seats in one statement, where each was a
// statement and a round trip at every game's end (issue 40).
func (r reader) StandingsEach(ctx context.Context, mailboxes []string) (map[string][]PlayerRating, error) {
	out := map[string][]PlayerRating{}
	boxes := normalizedSet(mailboxes)
	for len(boxes) > 0 {
		n := min(len(boxes), maxRatingsRead)
		args := make([]any, n)
		for i, b := range boxes[:n] {
			args[i] = b
		}
		if err := r.readStandings(ctx, standingsSQL[n-1], args, out); err != nil {
			return nil, fmt.Errorf("store: standings of %d mailboxes: %w", n, err)
		}
		boxes = boxes[n:]
	}
	return out, nil
}

// readStandings adds the rows of a standingsSQL to out, by the mailbox
// they are the standings of.
func (r reader) readStandings(ctx context.Context, query string, args []any, out map[string][]PlayerRating) error {
	rows, err := r.q.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var of string
		var p PlayerRating
		if err := rows.Scan(&of, &p.Kind, &p.Mailbox, &p.Mu, &p.Sigma, &p.Games, &p.Name); err != nil {
			return err
		}
		out[of] = append(out[of], p)
	}
	return rows.Err()
}

// standingsSQL holds the standings of n mailboxes at n-1: each row with
// the mailbox it is of, whose rows are in Standings' order.
var standingsSQL = func() (qs [maxRatingsRead]string) {
	for n := range qs {
		qs[n] = `
		WITH pairs AS (
			SELECT DISTINCT me.mailbox AS of, g.kind AS kind, o.mailbox AS mailbox
			FROM rated_seats me
			JOIN rated_games g ON g.game_id = me.game_id AND g.removed = 0
			JOIN rated_seats o ON o.game_id = me.game_id
			WHERE me.mailbox IN (` + inList(n+1) + `)
		)
		SELECT pairs.of, r.kind, r.mailbox, r.mu, r.sigma, r.games,
			COALESCE(
				(SELECT NULLIF(p.name, '') FROM rated_seats s JOIN players p ON p.address = s.address
					WHERE s.mailbox = r.mailbox ORDER BY s.game_id DESC LIMIT 1),
				(SELECT s.name FROM rated_seats s WHERE s.mailbox = r.mailbox ORDER BY s.game_id DESC LIMIT 1))
		FROM pairs JOIN ratings r ON r.kind = pairs.kind AND r.mailbox = pairs.mailbox
		ORDER BY pairs.of, r.kind, r.mu - 3 * r.sigma DESC, r.mailbox`
	}
	return qs
}()
