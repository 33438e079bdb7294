package store

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"strings"
)

// PublicLink is the seat of a game's public page in web_links: what every
// player and spectator may see (engine.Public).
const PublicLink = -1

// Link is what a web link shows: one seat's page of a game, or its public
// page (Seat == PublicLink).
type Link struct {
	GameID int64
	Seat   int
}

// NewLinkToken returns a new secret web link token: 128 random bits from
// crypto/rand as 26 lower-case base32 characters. It is drawn apart from
// the seat's mail token (NewToken), so that knowing a page's address
// gives no way to play the seat.
func NewLinkToken() string {
	var b [16]byte
	rand.Read(b[:]) // never fails; see crypto/rand.Read
	return tokenEncoding.EncodeToString(b[:])
}

// LinkByToken returns what the web link token shows, or ErrNotFound.
func (r reader) LinkByToken(ctx context.Context, token string) (Link, error) {
	var l Link
	err := r.q.QueryRowContext(ctx, `SELECT game_id, seat FROM web_links WHERE token = ?`, strings.ToLower(token)).Scan(&l.GameID, &l.Seat)
	if err != nil {
		// The token is a secret: keep it out of error messages and logs.
		return Link{}, fmt.Errorf("store: web link by token: %w", wrap(err))
	}
	return l, nil
}

// LinkToken returns the token of the seat's page (or, for PublicLink, of
// the game's public page), or ErrNotFound when it has none.
func (r reader) LinkToken(ctx context.Context, gameID int64, seat int) (string, error) {
	var tok string
	err := r.q.QueryRowContext(ctx, `SELECT token FROM web_links WHERE game_id = ? AND seat = ?`, gameID, seat).Scan(&tok)
	if err != nil {
		return "", fmt.Errorf("store: web link of seat %d of game %d: %w", seat, gameID, wrap(err))
	}
	return tok, nil
}

// EnsureLink returns the token of the seat's page, making one the first
// time it is asked for.
func (tx *Tx) EnsureLink(ctx context.Context, gameID int64, seat int) (string, error) {
	if err := tx.writesGame(gameID); err != nil {
		return "", err
	}
	tok, err := tx.LinkToken(ctx, gameID, seat)
	if err == nil {
		return tok, nil
	}
	if !errors.Is(err, ErrNotFound) {
		return "", err
	}
	return tx.NewLink(ctx, gameID, seat)
}

// NewLink gives the seat's page (or the public page) a new token; the old
// one, if any, leads nowhere from now on.
func (tx *Tx) NewLink(ctx context.Context, gameID int64, seat int) (string, error) {
	if err := tx.writesGame(gameID); err != nil {
		return "", err
	}
	if err := tx.DropLink(ctx, gameID, seat); err != nil {
		return "", err
	}
	tok := NewLinkToken()
	if _, err := tx.exec(ctx, `INSERT INTO web_links (token, game_id, seat) VALUES (?, ?, ?)`, tok, gameID, seat); err != nil {
		return "", fmt.Errorf("store: new web link of seat %d of game %d: %w", seat, gameID, err)
	}
	return tok, nil
}

// DropLink removes the seat's page link (for PublicLink: closes the game
// to spectators). Dropping a link that does not exist is no error.
func (tx *Tx) DropLink(ctx context.Context, gameID int64, seat int) error {
	if err := tx.writesGame(gameID); err != nil {
		return err
	}
	if _, err := tx.exec(ctx, `DELETE FROM web_links WHERE game_id = ? AND seat = ?`, gameID, seat); err != nil {
		return fmt.Errorf("store: drop web link of seat %d of game %d: %w", seat, gameID, err)
	}
	return nil
}
