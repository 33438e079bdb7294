package daemon

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/robfig/cron/v3"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/store"
)

// RunDeadlines makes the default moves of passed deadlines on schedule
// (a cron spec such as "@every 1m") until ctx is done.
func (s *Service) RunDeadlines(ctx context.Context, spec string) error {
	// A panic in a sweep is logged and the schedule goes on; the sweep's
	// transaction was rolled back, so it is simply tried again.
	logger := cronLogger{s.log}
	c := cron.New(cron.WithChain(cron.Recover(logger), cron.SkipIfStillRunning(logger)))
	_, err := c.AddFunc(spec, func() {
		if n, err := s.SweepDeadlines(ctx); err != nil && ctx.Err() == nil {
			s.log.Error("deadlines", "err", err)
		} else if n > 0 {
			s.log.Info("deadlines", "default_moves", n)
		}
	})
	if err != nil {
		return fmt.Errorf("daemon: deadline schedule %q: %w", spec, err)
	}
	c.Start()
	<-ctx.Done()
	<-c.Stop().Done()
	return ctx.Err()
}

// SweepDeadlines makes the default move for every seat whose deadline has
// passed, one transaction each, and reports how many it made. It sweeps
// again while moves fall due at once (a resigned seat's), a bounded number
// of times.
func (s *Service) SweepDeadlines(ctx context.Context) (int, error) {
	made := 0
	for range 1000 {
		n, err := s.sweepOnce(ctx)
		made += n
		if err != nil {
			return made, err
		}
		if n == 0 {
			break
		}
	}
	_, err := s.SendReminders(ctx)
	return made, err
}

// SendReminders mails every seat whose deadline falls due within
// ReminderBefore, once per deadline: the reminder's Message-ID comes from
// the deadline, and a mail already queued under it is not written again.
func (s *Service) SendReminders(ctx context.Context) (int, error) {
	if s.cfg.ReminderBefore <= 0 {
		return 0, nil
	}
	due, err := s.store.DueDeadlines(ctx, s.now().Add(s.cfg.ReminderBefore))
	if err != nil {
		return 0, err
	}
	sent := 0
	for _, d := range due {
		if !d.At.After(s.now()) {
			continue // falls due now: the default move tells the player instead
		}
		t := &turn{key: fmt.Sprintf("reminder:%d:%d:%d", d.GameID, d.Seat, d.At.Unix()), gameID: d.GameID}
		err := s.store.Tx(ctx, func(tx *store.Tx) error {
			t.mails = nil
			if has, err := tx.HasOutgoing(ctx, s.messageID(t.key, 0)); err != nil || has {
				return err
			}
			st, err := tx.Seat(ctx, d.GameID, d.Seat)
			if err != nil {
				return err
			}
			if !st.Deadline.Equal(d.At) || st.State == store.SeatResigned {
				return nil
			}
			tb, err := s.loadTable(ctx, tx, d.GameID)
			if err != nil {
				return err
			}
			intro := []string{"Reminder: the game is waiting for you, and your deadline is near (below). When it passes, pbem makes the default move for you."}
			if err := s.renderGameMail(ctx, tx, t, tb, st, "reminder", intro, nil, false); err != nil {
				return err
			}
			return s.enqueue(ctx, tx, t)
		})
		if err != nil {
			return sent, err
		}
		if len(t.mails) > 0 {
			sent++
			s.wakeOutbox()
		}
	}
	return sent, nil
}

func (s *Service) sweepOnce(ctx context.Context) (int, error) {
	due, err := s.store.DueDeadlines(ctx, s.now())
	if err != nil {
		return 0, err
	}
	made := 0
	for _, d := range due {
		t := &turn{key: fmt.Sprintf("deadline:%d:%d:%d", d.GameID, d.Seat, d.At.Unix()), gameID: d.GameID}
		moved := false
		err := s.store.Tx(ctx, func(tx *store.Tx) error {
			t.mails, moved = nil, false
			var err error
			moved, err = s.defaultMove(ctx, tx, t, d)
			if err != nil {
				return err
			}
			return s.enqueue(ctx, tx, t)
		})
		if err != nil {
			return made, err
		}
		if moved {
			made++
			s.wakeOutbox()
		}
	}
	return made, nil
}

// defaultMove applies the game's default for a seat whose deadline passed,
// tells everyone that pbem moved for the player (only the player learns
// which move, since it may be a hidden card), and mails the results.
func (s *Service) defaultMove(ctx context.Context, tx *store.Tx, t *turn, d store.Deadline) (bool, error) {
	st, err := tx.Seat(ctx, d.GameID, d.Seat)
	if err != nil {
		return false, err
	}
	if st.Deadline.IsZero() || st.Deadline.After(s.now()) {
		return false, nil // moved or extended since
	}
	tb, err := s.loadTable(ctx, tx, d.GameID)
	if err != nil {
		return false, err
	}
	// Several defaults can fall due in the same second (a resigned seat's):
	// the log's length keeps their mails' ids apart.
	t.key = fmt.Sprintf("%s:%d", t.key, tb.row.LastSeq)
	cmd, ok := tb.game.Default(d.Seat)
	if tb.row.Status != store.StatusActive || !ok {
		return false, tx.ClearDeadline(ctx, d.GameID, d.Seat)
	}
	events, err := tb.game.Apply(d.Seat, cmd)
	var ie *engine.IllegalError
	if errors.As(err, &ie) {
		return false, fmt.Errorf("daemon: game %d: the default move %q of %s is illegal: %w", d.GameID, cmd.Text, st.Name, err)
	}
	if err != nil {
		return false, err
	}
	told := []engine.Event{
		{To: engine.Others(d.Seat), Kind: string(EventDefault), Text: fmt.Sprintf("%s's deadline passed, so pbem made the default move for %s.", st.Name, st.Name)},
		{To: d.Seat, Kind: string(EventDefault), Text: fmt.Sprintf("Your deadline passed, so pbem made the default move for you: %s.", cmd.Text)},
	}
	if err := s.record(ctx, tx, tb, d.Seat, cmd.Text, store.SourceDeadline, append(told, events...)); err != nil {
		return false, err
	}
	return true, s.settle(ctx, tx, t, tb, d.Seat, nil)
}

// cronLogger lets robfig/cron log through slog.
type cronLogger struct{ log *slog.Logger }

func (l cronLogger) Info(msg string, kv ...any) { l.log.Debug("cron: "+msg, kv...) }

func (l cronLogger) Error(err error, msg string, kv ...any) {
	l.log.Error("cron: "+msg, append(kv, "err", err)...)
}
