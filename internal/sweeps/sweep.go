package sweeps

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/robfig/cron/v3"
)

// RunDeadlines makes the default moves of passed deadlines on schedule
// (a cron spec such as "@every 1m") until ctx is done.
func (sw *Sweeper) RunDeadlines(ctx context.Context, spec string) error {
	// A panic in a sweep is logged and the schedule goes on; the sweep's
	// transaction was rolled back, so it is simply tried again.
	logger := cronLogger{sw.log}
	sweep := cron.NewChain(cron.Recover(logger), cron.SkipIfStillRunning(logger)).Then(cron.FuncJob(func() {
		n, err := sw.SweepDeadlines(ctx)
		if n > 0 {
			sw.log.Info("deadlines", "default_moves", n)
		}
		if err != nil && ctx.Err() == nil {
			sw.log.Error("deadlines: some could not be handled; the others were", "err", err)
		}
	}))
	schedule, err := cron.ParseStandard(spec)
	if err != nil {
		return fmt.Errorf("daemon: deadline schedule %q: %w", spec, err)
	}
	c := cron.New()
	c.Schedule(schedule, sweep)
	// A daemon that starts sweeps at once: what fell due while it was
	// down (a deadline, a reminder step) is handled now, not at the
	// first tick, which "@every 1h" would put an hour away, and which a
	// daemon restarted often might never reach. The same wrapped job
	// keeps a tick from overlapping this sweep.
	first := make(chan struct{})
	go func() {
		defer close(first)
		sweep.Run()
	}()
	c.Start()
	<-ctx.Done()
	<-c.Stop().Done()
	<-first
	return ctx.Err()
}

// SweepDeadlines makes the default move for every seat whose deadline has
// passed, then sends the reminders and the digests that are due, each in
// a transaction of its own, and reports how many default moves it made. It sweeps again
// while moves fall due at once (a resigned seat's), a bounded number of
// times.
//
// One failing deadline or reminder stops nothing else: it is logged and
// skipped for the rest of the sweep, tried again at the next one, and
// after tries.Max the game is set aside as broken (Acts.SetGameAside).
// The error returned joins what failed.
func (sw *Sweeper) SweepDeadlines(ctx context.Context) (int, error) {
	begin := time.Now()
	failed := map[string]bool{} // keys that failed in this sweep
	made, due := 0, 0
	var errs []error
	// Vacations that ran out end first: the tables hear that the player
	// is back before anything else of the sweep.
	if err := sw.sweepReturns(ctx); err != nil {
		errs = append(errs, err)
	}
	// Undos whose 24 hours are up lapse before the default moves, which
	// would end them too, and say less.
	if err := sw.sweepUndos(ctx); err != nil {
		errs = append(errs, err)
	}
	for range 1000 {
		n, seen, err := sw.sweepOnce(ctx, failed)
		made += n
		due += seen
		if err != nil {
			errs = append(errs, err)
		}
		if n == 0 || ctx.Err() != nil {
			break
		}
	}
	sent, err := sw.SendReminders(ctx)
	due += sent
	if err != nil {
		errs = append(errs, err)
	}
	// The digests go after the default moves and the reminders, so that
	// a digest tells what the sweep's own default moves did.
	if _, err := sw.SendDigests(ctx); err != nil {
		errs = append(errs, err)
	}
	sw.obs.Sweep(time.Since(begin), due)
	return made, errors.Join(errs...)
}

// sweepOnce makes the default moves due now, skipping those that failed
// earlier in the sweep. It returns the moves made and the deadlines seen.
func (sw *Sweeper) sweepOnce(ctx context.Context, failed map[string]bool) (made, seen int, err error) {
	due, err := sw.store.DueDeadlines(ctx, sw.now())
	if err != nil {
		return 0, 0, err
	}
	return sw.MoveDue(ctx, due, failed)
}

// setAside counts a failure of a deadline's or a reminder's work on a
// game, and sets the game aside as broken once it has failed tries.Max
// times: the game cannot be advanced, and the other games go on.
func (sw *Sweeper) setAside(ctx context.Context, key string, what Kind, gameID int64, err error, why string) {
	if !sw.tries.Failed(key, string(what), err, "game", gameID) {
		return
	}
	if serr := sw.acts.SetGameAside(ctx, gameID, err, why); serr != nil {
		sw.log.Error("setting a game aside failed", "game", gameID, "err", serr)
		return
	}
	sw.tries.Forget(key)
	sw.obs.SetAside(what)
}

// cronLogger lets robfig/cron log through slog.
type cronLogger struct{ log *slog.Logger }

func (l cronLogger) Info(msg string, kv ...any) { l.log.Debug("cron: "+msg, kv...) }

func (l cronLogger) Error(err error, msg string, kv ...any) {
	l.log.Error("cron: "+msg, append(kv, "err", err)...)
}
