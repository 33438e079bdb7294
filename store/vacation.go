package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// Vacation is a player's time away, from Start to Until. Until is the
// planned end while he is away, and the time he came back once he sent
// back early.
type Vacation struct {
	ID      int64
	Address string
	Start   time.Time
	Until   time.Time
}

// AwayUntil returns when the player's vacation ends, zero when he is not
// away. A time already past means he is back and the sweep has not yet
// noticed (Returned).
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
	if err := tx.writesShared(); err != nil {
		return Vacation{}, err
	}
	address = NormalizeAddress(address)
	if !until.After(start) {
		return Vacation{}, fmt.Errorf("store: vacation of %s: ends %s, not after its start %s", address, until, start)
	}
	var id int64
	err := tx.q.QueryRowContext(ctx, `INSERT INTO vacations (address, start, until) VALUES (?, ?, ?) RETURNING id`,
		address, unix(start), unix(until)).Scan(&id)
	if err != nil {
		return Vacation{}, fmt.Errorf("store: vacation of %s: %w", address, wrap(err))
	}
	if err := tx.setPlayer(ctx, address, "away_until", unix(until)); err != nil {
		return Vacation{}, err
	}
	return Vacation{ID: id, Address: address, Start: fromUnix(unix(start)), Until: fromUnix(unix(until))}, nil
}

// ExtendVacation moves the end of the player's current vacation to until.
func (tx *Tx) ExtendVacation(ctx context.Context, v Vacation, until time.Time) error {
	if err := tx.writesShared(); err != nil {
		return err
	}
	if err := tx.execOne(ctx, `UPDATE vacations SET until = ? WHERE id = ?`, unix(until), v.ID); err != nil {
		return fmt.Errorf("store: extend vacation %d of %s: %w", v.ID, v.Address, err)
	}
	return tx.setPlayer(ctx, v.Address, "away_until", unix(until))
}

// EndVacation ends the player's vacation at at: he is no longer away, and
// the vacation counts until at (his real return, when he comes back
// early).
func (tx *Tx) EndVacation(ctx context.Context, v Vacation, at time.Time) error {
	if err := tx.writesShared(); err != nil {
		return err
	}
	if at.Before(v.Start) {
		at = v.Start
	}
	if err := tx.execOne(ctx, `UPDATE vacations SET until = ? WHERE id = ?`, unix(at), v.ID); err != nil {
		return fmt.Errorf("store: end vacation %d of %s: %w", v.ID, v.Address, err)
	}
	return tx.setPlayer(ctx, v.Address, "away_until", nil)
}

// CurrentVacation returns the vacation the player is on (his latest,
// while away_until is set), or ErrNotFound.
func (r reader) CurrentVacation(ctx context.Context, address string) (Vacation, error) {
	address = NormalizeAddress(address)
	v := Vacation{Address: address}
	var start, until int64
	err := r.q.QueryRowContext(ctx, `
		SELECT v.id, v.start, v.until FROM vacations v JOIN players p ON p.address = v.address
		WHERE v.address = ? AND p.away_until IS NOT NULL ORDER BY v.start DESC, v.id DESC LIMIT 1`,
		address).Scan(&v.ID, &start, &until)
	if err != nil {
		return Vacation{}, fmt.Errorf("store: current vacation of %s: %w", address, wrap(err))
	}
	v.Start, v.Until = fromUnix(start), fromUnix(until)
	return v, nil
}

// returnedQuery finds the players whose vacation ran out, through the
// partial index players_away_until.
const returnedQuery = `SELECT address FROM players
	WHERE away_until IS NOT NULL AND away_until <= ? ORDER BY away_until`

// Returned lists the players still marked away whose vacation ended at
// or before now, for the sweep to welcome back.
func (r reader) Returned(ctx context.Context, now time.Time) ([]string, error) {
	rows, err := r.q.QueryContext(ctx, returnedQuery, unix(now))
	if err != nil {
		return nil, fmt.Errorf("store: returned players: %w", wrap(err))
	}
	defer rows.Close()
	var as []string
	for rows.Next() {
		var a string
		if err := rows.Scan(&a); err != nil {
			return nil, fmt.Errorf("store: returned players: %w", err)
		}
		as = append(as, a)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: returned players: %w", err)
	}
	return as, nil
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
// games, with its next reminder step, by d (later when d > 0), but never
// earlier than floor, and
// returns how many it moved. Seats of resigned players are left alone:
// pbem moves for them at once.
func (tx *Tx) ShiftDeadlines(ctx context.Context, address string, d time.Duration, floor time.Time) (int64, error) {
	if err := tx.writesShared(); err != nil {
		return 0, err
	}
	address = NormalizeAddress(address)
	res, err := tx.exec(ctx, `
		UPDATE seats SET deadline = CASE WHEN deadline + ?1 > ?2 THEN deadline + ?1 ELSE ?2 END,
			-- The next reminder step keeps its distance before the
			-- deadline (remind_lead): it moves with it. (A CASE, not
			-- SQLite's MAX(a, b) nor PostgreSQL's GREATEST: the text
			-- is shared.)
			remind_at = CASE WHEN remind_at IS NULL THEN NULL
				ELSE CASE WHEN deadline + ?1 > ?2 THEN deadline + ?1 ELSE ?2 END - remind_lead END
		WHERE address = ?3 AND deadline IS NOT NULL AND state != 'resigned'
		-- Each seat's game by its key: "game_id IN (SELECT id FROM games
		-- WHERE status = 'active')" read every game to make the list.
		AND EXISTS (SELECT 1 FROM games WHERE games.id = seats.game_id AND games.status = 'active')`,
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
