package sweeps

import (
	"context"
	"fmt"
	"time"

	"github.com/pbem/pbem/store"
)

// RunRetention runs a retention pass (store.Retain) at once and then every
// `every` until ctx is done, and returns ctx's error. keep is how long the
// bodies of sent mails and the details of inbound mails are kept; zero
// keeps them for ever, while refusal and budget rows past their windows
// are dropped all the same. A pass that fails is logged and tried again at
// the next tick: retention only saves space, and nothing it could meet is
// worth stopping the service for.
func (sw *Sweeper) RunRetention(ctx context.Context, every, keep time.Duration) error {
	if every <= 0 {
		return fmt.Errorf("daemon: retention every %s: must be positive", every)
	}
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		got, err := sw.Retain(ctx, keep)
		switch {
		case ctx.Err() != nil:
			return ctx.Err()
		case err != nil:
			sw.log.Error("retention pass failed; trying again later", "err", err, "every", every)
		case !got.Zero():
			sw.log.Info("retention", "mail_bodies", got.MailBodies, "mail_body_bytes", got.MailBodyBytes, "mail_rows", got.MailRows,
				"inbound_details", got.Details, "inbound_detail_bytes", got.DetailBytes,
				"refusals", got.Refusals, "budget_rows", got.Budget, "reclaimed_bytes", got.ReclaimedBytes)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
}

// Retain runs one retention pass now, by the sweeper's clock, with the
// refusal and budget windows it was made with.
func (sw *Sweeper) Retain(ctx context.Context, keep time.Duration) (store.Retained, error) {
	return sw.store.Retain(ctx, store.Retention{
		Now:           sw.now(),
		MailBodies:    keep,
		RefusalWindow: sw.cfg.RefusalWindow,
		BudgetWindow:  sw.cfg.BudgetWindow,
	})
}
