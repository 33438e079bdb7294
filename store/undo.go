package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// UndoProposal is a player's proposal to take back his last command,
// waiting for the other players' answers.
type UndoProposal struct {
	GameID     int64
	Seat       int   // who proposed it: the seat whose command it takes back
	Seq        int64 // the move it takes back
	Agreed     uint64
	ProposedAt time.Time
	ExpiresAt  time.Time // it lapses then, unless everyone agreed
}

// HasAgreed reports whether seat answered agree.
func (u UndoProposal) HasAgreed(seat int) bool { return u.Agreed&(1<<uint(seat)) != 0 }

// ProposeUndo stores a game's proposal; a game has one at most, so a
// second fails.
func (tx *Tx) ProposeUndo(ctx context.Context, u UndoProposal) error {
	if err := tx.writesGame(u.GameID); err != nil {
		return err
	}
	_, err := tx.exec(ctx, `INSERT INTO undos (game_id, seat, seq, agreed, proposed_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)`,
		u.GameID, u.Seat, u.Seq, int64(u.Agreed), unix(u.ProposedAt), unix(u.ExpiresAt))
	if err != nil {
		return fmt.Errorf("store: propose undo in game %d: %w", u.GameID, err)
	}
	return nil
}

const undoColumns = `game_id, seat, seq, agreed, proposed_at, expires_at`

func scanUndo(sc interface{ Scan(...any) error }) (UndoProposal, error) {
	var u UndoProposal
	var agreed, proposed, expires int64
	if err := sc.Scan(&u.GameID, &u.Seat, &u.Seq, &agreed, &proposed, &expires); err != nil {
		return UndoProposal{}, err
	}
	u.Agreed, u.ProposedAt, u.ExpiresAt = uint64(agreed), fromUnix(proposed), fromUnix(expires)
	return u, nil
}

// PendingUndo returns the game's proposal, or ErrNotFound.
func (r reader) PendingUndo(ctx context.Context, gameID int64) (UndoProposal, error) {
	u, err := scanUndo(r.q.QueryRowContext(ctx, `SELECT `+undoColumns+` FROM undos WHERE game_id = ?`, gameID))
	if errors.Is(err, sql.ErrNoRows) {
		return UndoProposal{}, ErrNotFound
	}
	if err != nil {
		return UndoProposal{}, fmt.Errorf("store: undo proposal of game %d: %w", gameID, wrap(err))
	}
	return u, nil
}

// AgreeUndo records that seat agreed to the game's proposal and returns
// it as it is now.
func (tx *Tx) AgreeUndo(ctx context.Context, gameID int64, seat int) (UndoProposal, error) {
	if err := tx.writesGame(gameID); err != nil {
		return UndoProposal{}, err
	}
	u, err := scanUndo(tx.q.QueryRowContext(ctx,
		`UPDATE undos SET agreed = agreed | ? WHERE game_id = ? RETURNING `+undoColumns, int64(1)<<uint(seat), gameID))
	if errors.Is(err, sql.ErrNoRows) {
		return UndoProposal{}, ErrNotFound
	}
	if err != nil {
		return UndoProposal{}, fmt.Errorf("store: agree to undo in game %d: %w", gameID, wrap(err))
	}
	return u, nil
}

// EndUndo deletes the game's proposal, whatever became of it, and
// reports whether there was one.
func (tx *Tx) EndUndo(ctx context.Context, gameID int64) (bool, error) {
	if err := tx.writesGame(gameID); err != nil {
		return false, err
	}
	res, err := tx.exec(ctx, `DELETE FROM undos WHERE game_id = ?`, gameID)
	if err != nil {
		return false, fmt.Errorf("store: end undo proposal of game %d: %w", gameID, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("store: end undo proposal of game %d: %w", gameID, err)
	}
	return n > 0, nil
}

// expiredUndosQuery finds the proposals that lapsed, through undos_expiry.
const expiredUndosQuery = `SELECT u.game_id, u.seat, u.seq, u.agreed, u.proposed_at, u.expires_at
	FROM undos u JOIN games g ON g.id = u.game_id
	WHERE u.expires_at <= ? AND g.status = 'active' AND g.broken = ''
	ORDER BY u.expires_at, u.game_id`

// ExpiredUndos returns the proposals of active, healthy games whose time
// ran out at or before now, earliest first. A paused game's proposal
// lapses when it resumes, and a broken game's once it is repaired.
func (r reader) ExpiredUndos(ctx context.Context, now time.Time) ([]UndoProposal, error) {
	rows, err := r.q.QueryContext(ctx, expiredUndosQuery, unix(now))
	if err != nil {
		return nil, fmt.Errorf("store: lapsed undo proposals: %w", wrap(err))
	}
	defer rows.Close()
	var out []UndoProposal
	for rows.Next() {
		u, err := scanUndo(rows)
		if err != nil {
			return nil, fmt.Errorf("store: lapsed undo proposals: %w", wrap(err))
		}
		out = append(out, u)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: lapsed undo proposals: %w", wrap(err))
	}
	return out, nil
}
