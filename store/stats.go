package store

import (
	"context"
	"fmt"
)

// GamesByStatus counts the games in each status, for metrics. A status no
// game has is absent from the map. Broken games keep their status and are
// counted here too; GamesSetAside counts them apart.
func (r reader) GamesByStatus(ctx context.Context) (map[string]int64, error) {
	rows, err := r.q.QueryContext(ctx, `SELECT status, count(*) FROM games GROUP BY status`)
	if err != nil {
		return nil, fmt.Errorf("store: games by status: %w", wrap(err))
	}
	defer rows.Close()
	out := map[string]int64{}
	for rows.Next() {
		var status string
		var n int64
		if err := rows.Scan(&status, &n); err != nil {
			return nil, fmt.Errorf("store: games by status: %w", wrap(err))
		}
		out[status] = n
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: games by status: %w", wrap(err))
	}
	return out, nil
}

// GamesSetAside counts the games set aside as broken (SetGameAside) and not
// yet repaired, for metrics: each one waits for an admin.
func (r reader) GamesSetAside(ctx context.Context) (int64, error) {
	var n int64
	if err := r.q.QueryRowContext(ctx, `SELECT count(*) FROM games WHERE broken != ''`).Scan(&n); err != nil {
		return 0, fmt.Errorf("store: broken games: %w", wrap(err))
	}
	return n, nil
}
