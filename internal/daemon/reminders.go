package daemon

import (
	"slices"
	"time"

	"github.com/pbem/pbem/internal/playclock"
	"github.com/pbem/pbem/internal/sweeps"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// A deadline's reminders come in steps (Config.Reminders): each step is
// due at the deadline less its lead, and is sent at most once per
// deadline. The seat stores only its next step (store.SetReminder), so
// the sweep reads an index of the steps due and touches nothing else;
// sending a step and moving on to the next are one transaction, and the
// step's Message-ID names the deadline and the step, so a redo after a
// crash finds the mail already queued and writes none again.

// turnTime is the game's time for each decision: its own, or the
// service's for a game made before games stored theirs.
func (w *work) turnTime(g store.Game) time.Duration {
	if g.TurnTime > 0 {
		return g.TurnTime
	}
	return w.cfg.TurnTime
}

// turnTimeSentence is what the first mails of a game say of its time
// for each decision.
func turnTimeSentence(turn time.Duration, weekendsOff bool, in standIn) string {
	// "When one passes" read in Felix as "when a player passes": say
	// what runs out.
	s := in.say.TimePerDecision(in.say.Duration(turn), in.movesForYou())
	if weekendsOff {
		s += in.say.WeekendsOff()
	}
	return s
}

// reminderLeads are the steps of a decision of length turn, as how long
// before the deadline each falls due, earliest step first. A step that
// would fall due at or before the decision's start is skipped: it would
// remind of a decision not yet asked for.
func (w *work) reminderLeads(turn time.Duration) []time.Duration {
	var leads []time.Duration
	for _, r := range w.cfg.Reminders {
		if l := r.Lead(turn).Truncate(time.Second); l > 0 && l < turn && !slices.Contains(leads, l) {
			leads = append(leads, l)
		}
	}
	slices.SortFunc(leads, func(a, b time.Duration) int { return int((b - a) / time.Second) })
	return leads
}

// startDecision makes the game wait on the seat afresh from now, for the
// game's turn time counted on the player's clock, with its first reminder
// step.
func (w *work) startDecision(g store.Game, seat int) error {
	now := w.now().Truncate(time.Second)
	deadline, clock, span, err := w.deadlineFrom(g, seat)
	if err != nil {
		return err
	}
	at, lead := w.firstStep(clock, deadline, span, now)
	return w.tx.NewDecisionReminded(w.ctx, g.ID, seat, now, deadline, at, lead)
}

// freshDeadline gives the seat the game's whole turn time again from now
// (a resumed or repaired game: time stood still for it), with its
// reminder steps. It is no new decision.
func (w *work) freshDeadline(g store.Game, seat int) error {
	deadline, clock, span, err := w.deadlineFrom(g, seat)
	if err != nil {
		return err
	}
	if err := w.tx.SetDeadline(w.ctx, g.ID, seat, deadline); err != nil {
		return err
	}
	return w.nextReminder(g.ID, seat, clock, deadline, span, w.now())
}

// deadlineFrom is the deadline of a decision of the seat that starts now,
// the clock of its player it was counted on, and the decision's span for
// its reminder steps (decisionSpan): the game's turn time from now, or
// from the player's return when he is away on vacation (turnStart),
// without the days off of a game with weekends off, and out of his quiet
// hours (quiet.go); in a game with a time bank, when the seat's bank
// runs out, his quiet hours not counted either (bank.go).
func (w *work) deadlineFrom(g store.Game, seat int) (time.Time, playclock.Clock, time.Duration, error) {
	st, err := w.tx.Seat(w.ctx, g.ID, seat)
	if err != nil {
		return time.Time{}, playclock.Clock{}, 0, err
	}
	from, err := w.turnStart(st.Address)
	if err != nil {
		return time.Time{}, playclock.Clock{}, 0, err
	}
	clock, err := w.seatClock(g, st)
	if err != nil {
		return time.Time{}, playclock.Clock{}, 0, err
	}
	from = from.Truncate(time.Second)
	if g.Bank.On() {
		return clock.BankEnd(from, st.Bank), clock, st.Bank, nil
	}
	return clock.DeadlineEnd(from, w.turnTime(g)), clock, w.turnTime(g), nil
}

// nextReminder stores the seat's first step due after after, or none.
func (w *work) nextReminder(gameID int64, seat int, clock playclock.Clock, deadline time.Time, turn time.Duration, after time.Time) error {
	at, lead := w.firstStep(clock, deadline, turn, after)
	return w.tx.SetReminder(w.ctx, gameID, seat, at, lead)
}

// firstStep is the first reminder step of a decision of span turn
// that ends at deadline, due after after: when it is due, and its lead;
// zero for none.
func (w *work) firstStep(clock playclock.Clock, deadline time.Time, turn time.Duration, after time.Time) (time.Time, time.Duration) {
	for _, l := range w.reminderLeads(turn) {
		if at := reminderAt(clock, deadline, l); at.After(after) {
			return at, l
		}
	}
	return time.Time{}, 0
}

// stepsAfter walks the steps leads of the due step d on clock: lead is
// the step to send now (d's, or a later one due too, which supersedes
// it), next and nextLead the first step still to come (zero: none).
func (w *work) stepsAfter(clock playclock.Clock, d store.Reminder, leads []time.Duration) (lead time.Duration, next time.Time, nextLead time.Duration) {
	lead = d.Lead
	for _, l := range leads {
		at := reminderAt(clock, d.Deadline, l)
		if !at.After(d.At) {
			continue // this step or an earlier one
		}
		if !at.After(w.now()) {
			lead = l // due too: it supersedes this one
			continue
		}
		return lead, at, l
	}
	return lead, time.Time{}, 0
}

// remind handles a seat's due step inside tx: it moves the seat on to its
// next step, and writes the reminder unless it was written before, the
// deadline moved, or the player's mail setting leaves it out. When the
// sweep comes late and several steps are due at once, only the latest is
// sent: the earlier ones would say less, and all at once.
func (w *work) remind(d store.Reminder) error {
	w.out.Reset()
	st, err := w.tx.Seat(w.ctx, d.GameID, d.Seat)
	if err != nil {
		return err
	}
	if !st.Deadline.Equal(d.Deadline) || !st.RemindAt.Equal(d.At) || st.RemindLead != d.Lead {
		return nil // moved since it was read
	}
	g, err := w.tx.Game(w.ctx, d.GameID)
	if err != nil {
		return err
	}
	clock, err := w.seatClock(g, st)
	if err != nil {
		return err
	}
	if clock.IsQuiet(w.now()) && d.Deadline.After(w.now()) {
		// The sweep came late, into his quiet hours: the step waits for
		// their end (at the latest the deadline, which is never inside
		// them).
		return w.tx.SetReminder(w.ctx, d.GameID, d.Seat, openSecond(clock, w.now()), d.Lead)
	}
	lead, next, nextLead := w.stepsAfter(clock, d, w.reminderLeads(w.decisionSpan(g, st)))
	if err := w.tx.SetReminder(w.ctx, d.GameID, d.Seat, next, nextLead); err != nil {
		return err
	}
	if lead != d.Lead {
		w.key = sweeps.ReminderKey(d.GameID, d.Seat, d.Deadline, lead)
	}
	if !d.Deadline.After(w.now()) || st.State == store.SeatResigned || st.Autopilot {
		// Falls due now: the default move tells the player instead. Or
		// nobody reads it: pbem makes the seat's moves.
		return nil
	}
	last := next.IsZero()
	p, err := w.tx.Player(w.ctx, st.Address)
	if err != nil {
		return err
	}
	if n := notifyFor(p, st); !last && (n == store.NotifyDigest || n == store.NotifyOff) {
		// Such a player chose few mails: he gets the last reminder only
		// (docs/playing.md, "Which mails you get").
		return nil
	}
	if has, err := w.tx.HasOutgoing(w.ctx, w.post.MessageID(w.key, 0)); err != nil || has {
		return err
	}
	lg, err := w.loadGame(d.GameID)
	if err != nil {
		return err
	}
	say := templates.For(p.Language)
	intro := []string{say.DeadlineNearReminder(w.standIn().in(say).movesForYou())}
	if last {
		intro = append(intro, say.LastReminderBeforeDeadline())
	}
	if err := w.renderGameMail(lg, st, templates.MailReminder, intro, nil, false); err != nil {
		return err
	}
	return w.enqueue()
}
