package daemon

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/robfig/cron/v3"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/bot"
	"github.com/pbem/pbem/internal/loaded"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// RunDeadlines makes the default moves of passed deadlines on schedule
// (a cron spec such as "@every 1m") until ctx is done.
func (s *Service) RunDeadlines(ctx context.Context, spec string) error {
	// A panic in a sweep is logged and the schedule goes on; the sweep's
	// transaction was rolled back, so it is simply tried again.
	logger := cronLogger{s.log}
	sweep := cron.NewChain(cron.Recover(logger), cron.SkipIfStillRunning(logger)).Then(cron.FuncJob(func() {
		n, err := s.SweepDeadlines(ctx)
		if n > 0 {
			s.log.Info("deadlines", "default_moves", n)
		}
		if err != nil && ctx.Err() == nil {
			s.log.Error("deadlines: some could not be handled; the others were", "err", err)
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
// after maxTries the game is set aside as broken (quarantine.go). The
// error returned joins what failed.
func (s *Service) SweepDeadlines(ctx context.Context) (int, error) {
	begin := time.Now()
	failed := map[string]bool{} // keys that failed in this sweep
	made, due := 0, 0
	var errs []error
	// Vacations that ran out end first: the tables hear that the player
	// is back before anything else of the sweep.
	if err := s.sweepReturns(ctx); err != nil {
		errs = append(errs, err)
	}
	// Undos whose 24 hours are up lapse before the default moves, which
	// would end them too, and say less.
	if err := s.sweepUndos(ctx); err != nil {
		errs = append(errs, err)
	}
	for range 1000 {
		n, seen, err := s.sweepOnce(ctx, failed)
		made += n
		due += seen
		if err != nil {
			errs = append(errs, err)
		}
		if n == 0 || ctx.Err() != nil {
			break
		}
	}
	sent, err := s.SendReminders(ctx)
	due += sent
	if err != nil {
		errs = append(errs, err)
	}
	// The digests go after the default moves and the reminders, so that
	// a digest tells what the sweep's own default moves did.
	if _, err := s.SendDigests(ctx); err != nil {
		errs = append(errs, err)
	}
	s.obs.Sweep(time.Since(begin), due)
	return made, errors.Join(errs...)
}

// sweepOnce makes the default moves due now, skipping those that failed
// earlier in the sweep. It returns the moves made and the deadlines seen.
func (s *Service) sweepOnce(ctx context.Context, failed map[string]bool) (made, seen int, err error) {
	due, err := s.store.DueDeadlines(ctx, s.now())
	if err != nil {
		return 0, 0, err
	}
	return s.moveDue(ctx, due, failed)
}

// moveDue makes the default moves of the deadlines due, as read before.
// Another node may have made one meanwhile, or the player moved:
// defaultMove reads the seat again inside its transaction, and moves only
// if its deadline is still passed.
func (s *Service) moveDue(ctx context.Context, due []store.Deadline, failed map[string]bool) (made, seen int, err error) {
	return runDue(ctx, s, due, dueWork[store.Deadline]{
		key: func(d store.Deadline) string {
			return fmt.Sprintf("deadline:%d:%d:%d", d.GameID, d.Seat, d.At.Unix())
		},
		work: func(key string, d store.Deadline) *work { return &work{Service: s, key: key, gameID: d.GameID} },
		game: func(d store.Deadline) int64 { return d.GameID },
		do: func(w *work, d store.Deadline) (bool, error) {
			moved, err := w.defaultMove(d)
			if err != nil {
				return false, err
			}
			return moved, w.enqueue()
		},
		failed: func(ctx context.Context, key string, d store.Deadline, err error) {
			s.setAside(ctx, key, QuarantineDeadline, d.GameID, err,
				templates.Say.DeadlineSeatCouldNot(d.Seat, d.At.Format(time.RFC3339)))
		},
		stopIfUnavailable: true,
		skip:              failed,
	})
}

// setAside counts a failure of a deadline's or a reminder's work on a
// game, and sets the game aside as broken once it has failed maxTries
// times: the game cannot be advanced, and the other games go on.
func (s *Service) setAside(ctx context.Context, key string, what QuarantineSubject, gameID int64, err error, why string) {
	if !s.failure(key, string(what), err, "game", gameID) {
		return
	}
	var ge *loaded.Error
	if errors.As(err, &ge) {
		why = ge.What
	} else {
		why += ": " + err.Error()
	}
	if berr := s.breakGameAlone(ctx, gameID, why); berr != nil {
		s.log.Error("setting a game aside failed", "game", gameID, "err", berr)
		return
	}
	s.tries.forget(key)
	s.obs.Quarantined(what)
}

// defaultMove applies the game's default for a seat whose deadline passed,
// tells everyone that pbem moved for the player (only the player learns
// which move, since it may be a hidden card), and mails the results.
func (w *work) defaultMove(d store.Deadline) (bool, error) {
	st, err := w.tx.Seat(w.ctx, d.GameID, d.Seat)
	if err != nil {
		return false, err
	}
	if st.Deadline.IsZero() || st.Deadline.After(w.now()) {
		return false, nil // moved or extended since
	}
	lg, err := w.loadGame(d.GameID)
	if err != nil {
		return false, err
	}
	// Several defaults can fall due in the same second (a resigned seat's):
	// the log's length keeps their mails' ids apart.
	w.key = fmt.Sprintf("%s:%d", w.key, lg.Row.LastSeq)
	if lg.Row.Status != store.StatusActive || !slices.Contains(lg.State.Waiting(), d.Seat) {
		return false, w.tx.ClearDeadline(w.ctx, d.GameID, d.Seat)
	}
	if _, ok := lg.State.Default(d.Seat); !ok {
		return false, w.tx.ClearDeadline(w.ctx, d.GameID, d.Seat)
	}
	var cmd engine.Command
	var ok bool
	if st.Bot != "" {
		cmd, ok, err = w.botMove(lg, d.Seat, bot.Level(st.Bot))
	} else {
		cmd, ok, err = w.standInMove(lg, d.Seat)
	}
	if err != nil {
		return false, err
	}
	if !ok {
		return false, w.tx.ClearDeadline(w.ctx, d.GameID, d.Seat)
	}
	events, err := lg.State.Apply(d.Seat, cmd)
	var ie *engine.IllegalError
	if errors.As(err, &ie) {
		return false, loaded.Broken(d.GameID, err, "%s", templates.Say.PbemMoveSeatRefused(d.Seat))
	}
	if err != nil {
		return false, err
	}
	in := w.standIn()
	told := []engine.Event{
		{To: engine.Others(d.Seat), Kind: string(EventDefault), Text: templates.Say.DeadlinePassed(st.Name, in.movedFor(st.Name))},
		{To: d.Seat, Kind: string(EventDefault), Text: templates.Say.YourDeadlinePassed(in.movedForYou(), cmd.Text)},
	}
	if st.Bot != "" || st.State == store.SeatResigned {
		// A bot's move, or a resigned seat's, made due at once
		// (moveDeadlines): nobody's deadline passed.
		told = nil
	}
	if err := w.recordMachine(lg, d.Seat, cmd, told, events); err != nil {
		return false, err
	}
	// In the same transaction as the move that missed the deadline: a
	// sweep that crashes before its commit does neither, one that commits
	// does both, and the deadline is gone for the next sweep.
	if err := w.countMissed(lg, st); err != nil {
		return false, err
	}
	return true, w.settle(lg, settleDeadline, d.Seat, nil)
}

// countMissed counts a deadline the seat's player missed, and puts the
// seat on autopilot when he has missed AutopilotAfter in a row: the
// table and the admins are told, and settle's autoplay makes the seat's
// default moves at once from then on. A resigned seat, a bot's, or one
// already on autopilot, missed nothing: nobody was expected to answer.
func (w *work) countMissed(lg *loaded.Game, st store.Seat) error {
	if st.State == store.SeatResigned || st.Autopilot || st.Bot != "" {
		return nil
	}
	missed := st.Missed + 1
	if err := w.tx.SetSeatMissed(w.ctx, lg.Row.ID, st.Seat, missed); err != nil {
		return err
	}
	lg.Seats[st.Seat].Missed = missed
	if w.cfg.AutopilotAfter <= 0 || missed < w.cfg.AutopilotAfter {
		return nil
	}
	if err := w.tx.SetSeatAutopilot(w.ctx, lg.Row.ID, st.Seat, true); err != nil {
		return err
	}
	lg.Seats[st.Seat].Autopilot = true
	ev := []store.Event{
		{To: engine.Others(st.Seat), Kind: string(EventAutopilot), Text: templates.Say.MissedDeadlinesRowOnce(st.Name, missed, w.standIn().playsFor(st.Name))},
		{To: st.Seat, Kind: string(EventAutopilot), Text: templates.Say.YouMissedDeadlinesRow(missed, w.standIn().playsForYou())},
	}
	if _, err := w.tx.AppendEvents(w.ctx, lg.Row.ID, lg.Row.LastSeq, ev); err != nil {
		return err
	}
	return w.noticeAdmins(templates.Say.AdminSeatOnAutopilot(), templates.Say.GameSeatMissedDeadlines(lg.Row.ID, lg.Rules.Name(), st.Name, st.Seat, missed, w.standIn().playsTheSeat()))
}

// noticeAdmins queues an admin notice to every configured admin: news
// of a game, rendered like the answers to admin mail (tellAdmins, for
// failures, writes plain words instead).
func (w *work) noticeAdmins(reason, line string) error {
	for _, admin := range strings.Split(w.cfg.Admins, ",") {
		admin = store.NormalizeAddress(admin)
		if admin == "" {
			continue
		}
		if err := w.adminNotice(admin, reason, line); err != nil {
			return err
		}
	}
	return nil
}

// cronLogger lets robfig/cron log through slog.
type cronLogger struct{ log *slog.Logger }

func (l cronLogger) Info(msg string, kv ...any) { l.log.Debug("cron: "+msg, kv...) }

func (l cronLogger) Error(err error, msg string, kv ...any) {
	l.log.Error("cron: "+msg, append(kv, "err", err)...)
}
