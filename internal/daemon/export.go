package daemon

import (
	"context"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/store"
)

// Standing is a stored game's result so far (final when it is over).
func (s *Service) Standing(ctx context.Context, gameID int64) (engine.Result, error) {
	var res engine.Result
	err := s.store.Tx(ctx, func(tx *store.Tx) error {
		lg, err := s.workIn(ctx, tx).loadGame(gameID)
		if err != nil {
			return err
		}
		res = lg.State.Result()
		return nil
	})
	return res, err
}
