package store

import (
	"context"
	"fmt"
)

// GamesByStatus counts the games in each status, for metrics. A status no
// game has is absent from the map, so that a status added by a later
// migration (such as "broken") is counted without the store listing it.
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
