package store

import (
	"context"
	"fmt"
	"strings"
)

// Notify says which mails a player wants.
type Notify string

const (
	NotifyAll   Notify = "all"   // every event
	NotifyTurns Notify = "turns" // only when it is the player's turn, and the end
	NotifyOff   Notify = "off"   // nothing but replies to the player's own mail
)

func (n Notify) valid() bool { return n == NotifyAll || n == NotifyTurns || n == NotifyOff }

// Player is a person known by mail address.
type Player struct {
	Address  string // normalised
	Name     string // display name; may be empty
	TimeZone string // IANA name, "UTC" by default
	Notify   Notify
}

// NormalizeAddress returns the form of a mail address that the store keys
// on: trimmed and lower-case. Strictly the local part is case-sensitive,
// but no mail system in use treats it so, and players do not type it
// consistently.
func NormalizeAddress(addr string) string {
	return strings.ToLower(strings.TrimSpace(addr))
}

// UpsertPlayer adds the player if the address is new and returns the
// player. For a known address, name replaces the stored name only when the
// stored one is empty, so a name set with SetPlayerName is not overwritten
// by whatever a mail client puts in From.
func (tx *Tx) UpsertPlayer(ctx context.Context, address, name string) (Player, error) {
	address = NormalizeAddress(address)
	if address == "" {
		return Player{}, fmt.Errorf("store: upsert player: empty address")
	}
	_, err := tx.exec(ctx, `
		INSERT INTO players (address, name) VALUES (?, ?)
		ON CONFLICT (address) DO UPDATE SET name = excluded.name WHERE players.name = ''`,
		address, strings.TrimSpace(name))
	if err != nil {
		return Player{}, fmt.Errorf("store: upsert player %s: %w", address, err)
	}
	return tx.Player(ctx, address)
}

// ensurePlayer adds a player with no name unless the address is known.
func (tx *Tx) ensurePlayer(ctx context.Context, address string) error {
	_, err := tx.exec(ctx, `INSERT INTO players (address) VALUES (?) ON CONFLICT DO NOTHING`, address)
	return err
}

// Player returns the player with the address.
func (r reader) Player(ctx context.Context, address string) (Player, error) {
	address = NormalizeAddress(address)
	var p Player
	err := r.q.QueryRowContext(ctx,
		`SELECT address, name, time_zone, notify FROM players WHERE address = ?`, address,
	).Scan(&p.Address, &p.Name, &p.TimeZone, &p.Notify)
	if err != nil {
		return Player{}, fmt.Errorf("store: player %s: %w", address, wrap(err))
	}
	return p, nil
}

// SetPlayerName sets the player's display name.
func (tx *Tx) SetPlayerName(ctx context.Context, address, name string) error {
	return tx.setPlayer(ctx, address, "name", strings.TrimSpace(name))
}

// SetPlayerTimeZone sets the player's time zone. The caller checks that tz
// is a valid IANA name; the store keeps it as text.
func (tx *Tx) SetPlayerTimeZone(ctx context.Context, address, tz string) error {
	if tz == "" {
		return fmt.Errorf("store: set time zone of %s: empty time zone", NormalizeAddress(address))
	}
	return tx.setPlayer(ctx, address, "time_zone", tz)
}

// SetPlayerNotify sets which mails the player wants.
func (tx *Tx) SetPlayerNotify(ctx context.Context, address string, n Notify) error {
	if !n.valid() {
		return fmt.Errorf("store: set notify of %s: invalid value %q", NormalizeAddress(address), n)
	}
	return tx.setPlayer(ctx, address, "notify", string(n))
}

// setPlayer sets one column; column is one of the constants above, never
// input.
func (tx *Tx) setPlayer(ctx context.Context, address, column string, value any) error {
	address = NormalizeAddress(address)
	err := tx.execOne(ctx, `UPDATE players SET `+column+` = ? WHERE address = ?`, value, address)
	if err != nil {
		return fmt.Errorf("store: set %s of player %s: %w", column, address, err)
	}
	return nil
}
