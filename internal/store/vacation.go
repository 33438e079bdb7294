package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Vacation is a player's time away, from Start to Until. Until is the
// planned end while he is away, and the time he came back once he sent
// back.
type Vacation struct {
	ID      int64
	Address string
	Start   time.Time
	Until   time.Time
}

// AwayUntil returns the end of the player's latest vacation, zero if he
// never took one. A time in the past means he is back.
func (r reader) AwayUntil(ctx context.Context, address string) (time.Time, error) {
	address = NormalizeAddress(address)
	var until sql.NullInt64
	err := r.q.QueryRowContext(ctx, `SELECT away_until FROM players WHERE address = ?`, address).Scan(&until)
	if err != nil {
		return time.Time{}, fmt.Errorf("store: away of %s: %w", address, wrap(err))
	}
	return fromNullUnix(until), nil
}

// StartVacation records a vacation from start until until and marks the
// player away until then.
func (tx *Tx) StartVacation(ctx context.Context, address string, start, until time.Time) (Vacation, error) {
	address = NormalizeAddress(address)
	if !until.After(start) {
		return Vacation{}, fmt.Errorf("store: vacation of %s: ends %s, not after its start %s", address, until, start)
	}
	res, err := tx.exec(ctx, `INSERT INTO vacations (address, start, until) VALUES (?, ?, ?)`, address, unix(start), unix(until))
	if err != nil {
		return Vacation{}, fmt.Errorf("store: vacation of %s: %w", address, err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return Vacation{}, fmt.Errorf("store: vacation of %s: %w", address, err)
	}
	if err := tx.setPlayer(ctx, address, "away_until", unix(until)); err != nil {
		return Vacation{}, err
	}
	return Vacation{ID: id, Address: address, Start: fromUnix(unix(start)), Until: fromUnix(unix(until))}, nil
}

// EndVacation sets the end of the vacation, and the player's away_until
// with it: later to extend it, or now when he is back early.
func (tx *Tx) EndVacation(ctx context.Context, v Vacation, until time.Time) error {
	if err := tx.execOne(ctx, `UPDATE vacations SET until = ? WHERE id = ?`, unix(until), v.ID); err != nil {
		return fmt.Errorf("store: end vacation %d of %s: %w", v.ID, v.Address, err)
	}
	return tx.setPlayer(ctx, v.Address, "away_until", unix(until))
}

// CurrentVacation returns the player's vacation that runs at now, or
// ErrNotFound.
func (r reader) CurrentVacation(ctx context.Context, address string, now time.Time) (Vacation, error) {
	address = NormalizeAddress(address)
	v := Vacation{Address: address}
	var start, until int64
	err := r.q.QueryRowContext(ctx,
		`SELECT id, start, until FROM vacations WHERE address = ? AND start <= ? AND until > ? ORDER BY start DESC LIMIT 1`,
		address, unix(now), unix(now)).Scan(&v.ID, &start, &until)
	if errors.Is(err, sql.ErrNoRows) {
		return Vacation{}, ErrNotFound
	}
	if err != nil {
		return Vacation{}, fmt.Errorf("store: current vacation of %s: %w", address, wrap(err))
	}
	v.Start, v.Until = fromUnix(start), fromUnix(until)
	return v, nil
}

// Vacations returns the player's vacations that start in [from, to),
// earliest first.
func (r reader) Vacations(ctx context.Context, address string, from, to time.Time) ([]Vacation, error) {
	address = NormalizeAddress(address)
	rows, err := r.q.QueryContext(ctx,
		`SELECT id, start, until FROM vacations WHERE address = ? AND start >= ? AND start < ? ORDER BY start`,
		address, unix(from), unix(to))
	if err != nil {
		return nil, fmt.Errorf("store: vacations of %s: %w", address, wrap(err))
	}
	defer rows.Close()
	var vs []Vacation
	for rows.Next() {
		v := Vacation{Address: address}
		var start, until int64
		if err := rows.Scan(&v.ID, &start, &until); err != nil {
			return nil, fmt.Errorf("store: vacations of %s: %w", address, err)
		}
		v.Start, v.Until = fromUnix(start), fromUnix(until)
		vs = append(vs, v)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: vacations of %s: %w", address, err)
	}
	return vs, nil
}

// ShiftDeadlines moves every deadline of the player's seats in active
// games by d (later when d > 0), but never earlier than floor, and
// returns how many it moved. Seats of resigned players are left alone:
// pbem moves for them at once.
func (tx *Tx) ShiftDeadlines(ctx context.Context, address string, d time.Duration, floor time.Time) (int64, error) {
	address = NormalizeAddress(address)
	res, err := tx.exec(ctx, `
		UPDATE seats SET deadline = MAX(deadline + ?, ?)
		WHERE address = ? AND deadline IS NOT NULL AND state != 'resigned'
		AND game_id IN (SELECT id FROM games WHERE status = 'active')`,
		int64(d/time.Second), unix(floor), address)
	if err != nil {
		return 0, fmt.Errorf("store: shift deadlines of %s by %s: %w", address, d, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("store: shift deadlines of %s: %w", address, err)
	}
	return n, nil
}
