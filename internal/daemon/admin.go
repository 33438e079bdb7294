package daemon

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/internal/admin"
	"github.com/pbem/pbem/internal/loaded"
	"github.com/pbem/pbem/parser"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// Admin acts repair stalled games (docs/felix.md, "Deadlines and admin
// acts"). The acts and their words are package admin's; here each one is
// a transaction that loads the game, lends it to the act (adminTable),
// writes the act to the game's audit log, announces it to every player in
// the game's log, and mails them.

// adminErr is a refusal of an admin act: say is a sentence of
// templates.Say, the admin reads it.
func adminErr(say string) error {
	return fmt.Errorf("%w: %s", admin.ErrRefused, say)
}

// Admin runs one admin act on the game gameID in a transaction of its
// own, for the admin actor, as pbem admin does, and queues the players'
// mail of it. A refusal wraps admin.ErrRefused.
func (s *Service) Admin(ctx context.Context, gameID int64, act admin.Act, actor string) error {
	var t *work
	err := s.store.Tx(ctx, func(tx *store.Tx) error {
		t = &work{Service: s, ctx: ctx, tx: tx, key: fmt.Sprintf("admin:%d:%s:%s:%d", gameID, act.Word(), act.Detail(), s.now().UnixNano()), gameID: gameID}
		if err := t.adminIn(gameID, actor, act); err != nil {
			return err
		}
		return t.enqueue()
	})
	if err == nil && t != nil && t.out.Len() > 0 {
		s.wakeOutbox()
	}
	if err == nil {
		s.changes.Publish(gameID)
	}
	return err
}

// adminIn runs one admin act inside w's transaction, queuing its mails in w.
func (w *work) adminIn(gameID int64, actor string, act admin.Act) error {
	if actor == "" {
		return adminErr(w.words.AdminNameMissing())
	}
	row, err := w.tx.Game(w.ctx, gameID)
	if errors.Is(err, store.ErrNotFound) {
		return adminErr(w.words.NoSuchGame(gameID))
	}
	if err != nil {
		return err
	}
	word := act.Word()
	if row.Aside != "" {
		switch word {
		case admin.Retry:
		case admin.Abort:
			return w.abortSetAside(row, actor, act.Detail())
		default:
			return adminErr(w.words.GameAsideRetryOrAbort(gameID, row.Aside))
		}
	} else if word == admin.Retry {
		return adminErr(w.words.GameNotSetAside(gameID))
	}
	lg, err := w.loadGame(gameID)
	var ge *loaded.Error
	if word == admin.Retry && errors.As(err, &ge) {
		return adminErr(w.words.RetryStillFails(gameID, ge.What))
	}
	if err != nil {
		return err
	}
	lg.Inbound = w.inboundID
	out, err := act.Do(w.ctx, adminTable{w: w, lg: lg}, actor)
	if err != nil {
		return err
	}
	if _, err := w.tx.AppendAudit(w.ctx, gameID, actor, string(word), act.Detail(), w.now()); err != nil {
		return err
	}
	if out.Announce != "" {
		ev := []store.Event{{To: store.Public, Kind: string(EventAdmin), Text: templates.Say.AdminDid(out.Announce)}}
		if out.Say != nil {
			ev[0] = storeSaid(store.Public, EventAdmin, ev[0].Text, templates.Phrases.AdminDid(*out.Say))
		}
		if err := w.tx.AppendEvents(w.ctx, gameID, lg.Row.LastSeq, ev); err != nil {
			return err
		}
	}
	if out.Moved || out.Announce != "" {
		return w.settle(lg, settleAdmin, -1, nil)
	}
	return nil
}

// abortSetAside ends a game set aside as broken. It cannot be loaded, so its
// players are told in a notice, not in a mail of the table.
func (w *work) abortSetAside(row store.Game, actor, reason string) error {
	if row.Status == store.StatusActive || row.Status == store.StatusPaused || row.Status == store.StatusInviting {
		if err := w.tx.SetGameStatus(w.ctx, row.ID, store.StatusAborted); err != nil {
			return err
		}
	}
	if err := w.tx.ClearGameAside(w.ctx, row.ID); err != nil {
		return err
	}
	seats, err := w.tx.Seats(w.ctx, row.ID)
	if err != nil {
		return err
	}
	words := w.words.AdminAbortedBrokenGame()
	if reason != "" {
		words = w.words.WithReason(words, reason)
	}
	for _, st := range seats {
		if err := w.tx.ClearDeadline(w.ctx, row.ID, st.Seat); err != nil {
			return err
		}
		if st.State == store.SeatDeclined || st.State == store.SeatResigned {
			continue
		}
		if err := w.repairNotice(row, st, words); err != nil {
			return err
		}
	}
	if _, err := w.tx.AppendAudit(w.ctx, row.ID, actor, string(admin.Abort), reason, w.now()); err != nil {
		return err
	}
	ev := []store.Event{{To: store.Public, Kind: string(EventAdmin), Text: words}}
	err = w.tx.AppendEvents(w.ctx, row.ID, row.LastSeq, ev)
	return err
}

// adminTable lends a loaded game, in w's transaction, to an admin act.
type adminTable struct {
	w  *work
	lg *loaded.Game
}

var _ admin.Table = adminTable{}

func (a adminTable) Row() *store.Game                { return &a.lg.Row }
func (a adminTable) Seats() []store.Seat             { return a.lg.Seats }
func (a adminTable) Names() []string                 { return a.lg.Names }
func (a adminTable) Store() admin.Store              { return a.w.tx }
func (a adminTable) Now() time.Time                  { return a.w.now() }
func (a adminTable) Grammar(seat int) parser.Grammar { return a.w.seatGrammar(a.lg, seat) }
func (a adminTable) FreshDeadline(seat int) error    { return a.w.freshDeadline(a.lg.Row, seat) }
func (a adminTable) Unrate() error                   { return a.w.unrate(a.lg.Row.ID) }

func (a adminTable) Apply(seat int, c engine.Command) ([]engine.Event, error) {
	return a.lg.State.Apply(seat, c)
}

func (a adminTable) Record(seat int, command, source string, events []engine.Event) error {
	return a.w.record(a.lg, seat, command, source, events)
}

// ExtendedDeadline is from moved later by by on the seat's player's
// clock: by added as it is, then out of his quiet hours and days off
// (docs/commands.md, "Which clock wins"); in a game with a time bank, by
// of counting time added to his clock (playclock.Clock.BankEnd), so that
// `extend bob 24h` gives him 24 hours more on it.
func (a adminTable) ExtendedDeadline(seat int, from time.Time, by time.Duration) (time.Time, error) {
	clock, err := a.w.seatClock(a.lg.Row, a.lg.Seats[seat])
	if err != nil {
		return time.Time{}, err
	}
	from = from.Truncate(time.Second)
	if a.lg.Row.Bank.On() {
		return openSecond(clock, clock.BankEnd(from, by.Truncate(time.Second))), nil
	}
	return openSecond(clock, from.Add(by).Truncate(time.Second)), nil
}

func (a adminTable) NextReminder(seat int, deadline time.Time, span time.Duration, after time.Time) error {
	clock, err := a.w.seatClock(a.lg.Row, a.lg.Seats[seat])
	if err != nil {
		return err
	}
	return a.w.nextReminder(a.lg.Row.ID, seat, clock, deadline, span, after)
}

// TakeBack takes back the seat's last command if the engine's rule
// allows it; a players' undo being answered gives way to the admin's.
func (a adminTable) TakeBack(seat int, actor string) error {
	w, lg := a.w, a.lg
	l, moves, err := lg.Replay(w.ctx, w.tx)
	if err != nil {
		return err
	}
	if _, err := l.Last(seat); err != nil {
		return err
	}
	if _, err := w.tx.EndUndo(w.ctx, lg.Row.ID); err != nil {
		return err
	}
	return w.takeBackMove(lg, l, moves, seat, actor)
}
