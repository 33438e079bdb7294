package daemon

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/bot"
	"github.com/pbem/pbem/internal/loaded"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

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
	if moved, err := w.deadlineOutOfNight(lg.Row, st); moved || err != nil {
		return false, err
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
		return false, loaded.CannotGoOn(d.GameID, err, "%s", templates.Say.StandInMoveRefused(d.Seat))
	}
	if err != nil {
		return false, err
	}
	in := w.standIn()
	told := []engine.Event{
		said(engine.Others(d.Seat), EventDefault, templates.Say.DeadlinePassed(st.Name, in.movedFor(st.Name)),
			templates.Phrases.DeadlinePassed(st.Name, in.movedForP(st.Name))),
		said(d.Seat, EventDefault, templates.Say.YourDeadlinePassed(in.movedForYou(), cmd.Text),
			templates.Phrases.YourDeadlinePassed(in.movedForYouP(), cmd.Text)),
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

// deadlineOutOfNight moves the seat's due deadline to the end of its
// player's quiet hours (or days off) when the sweep finds it due inside
// them: pbem makes no move for him in his night. A deadline set since
// quiet.go's rule never ends there; one set before he changed his quiet
// hours or zone, or a sweep that came late, can find it so. It reports
// whether it moved the deadline.
func (w *work) deadlineOutOfNight(g store.Game, st store.Seat) (bool, error) {
	clock, err := w.seatClock(g, st)
	if err != nil {
		return false, err
	}
	if !clock.Closed(w.now()) {
		return false, nil
	}
	open := openSecond(clock, w.now())
	if err := w.tx.SetDeadline(w.ctx, g.ID, st.Seat, open); err != nil {
		return false, err
	}
	// His last reminder, at their end, if any step is still to come.
	return true, w.nextReminder(g.ID, st.Seat, clock, open, w.decisionSpan(g, st), w.now())
}

// countMissed counts a deadline the seat's player missed, and puts the
// seat on autopilot when he has missed AutopilotAfter in a row, or in a
// game with a time bank at once, since his bank is empty (bank.go): the
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
	banked := lg.Row.Bank.On()
	if !banked && (w.cfg.AutopilotAfter <= 0 || missed < w.cfg.AutopilotAfter) {
		return nil
	}
	if err := w.tx.SetSeatAutopilot(w.ctx, lg.Row.ID, st.Seat, true); err != nil {
		return err
	}
	lg.Seats[st.Seat].Autopilot = true
	ev := []store.Event{
		storeSaid(engine.Others(st.Seat), EventAutopilot, templates.Say.PlayerOnAutopilot(st.Name, missed, w.standIn().playsFor(st.Name)),
			templates.Phrases.PlayerOnAutopilot(st.Name, missed, w.standIn().playsForP(st.Name))),
		storeSaid(st.Seat, EventAutopilot, templates.Say.YouAreOnAutopilot(missed, w.standIn().playsForYou()),
			templates.Phrases.YouAreOnAutopilot(missed, w.standIn().playsForYouP())),
	}
	if banked {
		ev = []store.Event{
			storeSaid(engine.Others(st.Seat), EventAutopilot, templates.Say.PlayerClockRanOut(st.Name, w.standIn().playsFor(st.Name)),
				templates.Phrases.PlayerClockRanOut(st.Name, w.standIn().playsForP(st.Name))),
			storeSaid(st.Seat, EventAutopilot, templates.Say.YourClockRanOut(w.standIn().playsForYou()),
				templates.Phrases.YourClockRanOut(w.standIn().playsForYouP())),
		}
	}
	if err := w.tx.AppendEvents(w.ctx, lg.Row.ID, lg.Row.LastSeq, ev); err != nil {
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
