package store

import (
	"context"
	"fmt"
)

// LogStamp is where a game's log stands: its last move and its last
// event. Moves and events are only ever appended (retention keeps them;
// a rename rewrites commands, but in the transaction that rewrites the
// game's set-up too), so two reads with the same stamp and set-up read
// the same log: what the web pages keep of a game's replay is keyed on
// it (internal/webpage), which a commit of another node changes too.
type LogStamp struct {
	Setup       []byte // the game's set-up, as stored (Game.Setup)
	LastSeq     int64  // the last move's seq; 0 before the first
	LastEventID int64  // the last event's id; 0 before the first
}

// LogStamp reads where the game's log stands, in one statement: the
// set-up and both numbers are of the same moment. A game that does not
// exist is ErrNotFound.
func (r reader) LogStamp(ctx context.Context, gameID int64) (LogStamp, error) {
	var s LogStamp
	err := r.q.QueryRowContext(ctx, `
		SELECT setup, (SELECT coalesce(max(seq), 0) FROM moves WHERE game_id = ?1),
			(SELECT coalesce(max(id), 0) FROM events WHERE game_id = ?1)
		FROM games WHERE id = ?1`, gameID).Scan(&s.Setup, &s.LastSeq, &s.LastEventID)
	if err != nil {
		return LogStamp{}, fmt.Errorf("store: log stamp of game %d: %w", gameID, wrap(err))
	}
	return s, nil
}
