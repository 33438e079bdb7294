package daemon

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/internal/intake"
	"github.com/pbem/pbem/parser"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// Admin acts repair stalled games (docs/felix.md, "Deadlines and admin acts"): each one is a
// transaction that does the act, writes it to the game's audit log,
// announces it to every player in the game's log, and mails them.

// ErrAdmin is wrapped by every refusal of an admin act, so that callers
// can tell a mistake in the request from a failure of the service.
var ErrAdmin = errors.New("refused")

func adminErr(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrAdmin, fmt.Sprintf(format, args...))
}

// AdminAct names an admin act. Its text is the word an admin writes and
// what the game's audit log keeps (store.Audit.Action).
type AdminAct string

// The admin acts (AdminUsage).
const (
	AdminExtend  AdminAct = "extend"  // move a player's deadline
	AdminMove    AdminAct = "move"    // make a move for a player
	AdminReplace AdminAct = "replace" // give a seat to another address
	AdminPause   AdminAct = "pause"   // stop the clock
	AdminResume  AdminAct = "resume"  // start it again
	AdminAbort   AdminAct = "abort"   // end the game for good
	AdminRetry   AdminAct = "retry"   // take up a game set aside as broken
	AdminUndo    AdminAct = "undo"    // take back a player's last command
	AdminUnrate  AdminAct = "unrate"  // take a finished game out of the ratings
)

// adminFunc does one admin act on a loaded game. It returns what to
// announce to the players and whether it applied a move.
type adminFunc func(w *work, tb *table) (announce string, moved bool, err error)

// admin runs one admin act in a transaction of its own and mails the
// players what happened.
func (s *Service) admin(ctx context.Context, gameID int64, actor string, action AdminAct, detail string, act adminFunc) error {
	var t *work
	err := s.store.Tx(ctx, func(tx *store.Tx) error {
		t = &work{Service: s, ctx: ctx, tx: tx, key: fmt.Sprintf("admin:%d:%s:%s:%d", gameID, action, detail, s.now().UnixNano()), gameID: gameID}
		if err := t.adminIn(gameID, actor, action, detail, act); err != nil {
			return err
		}
		return t.enqueue()
	})
	if err == nil && t != nil && t.out.Len() > 0 {
		s.wakeOutbox()
	}
	return err
}

// adminIn runs one admin act inside tx, queuing its mails in t.
func (w *work) adminIn(gameID int64, actor string, action AdminAct, detail string, act adminFunc) error {
	if actor == "" {
		return adminErr("%s", templates.Say.AdminActNeedsAdmin())
	}
	row, err := w.tx.Game(w.ctx, gameID)
	if errors.Is(err, store.ErrNotFound) {
		return adminErr("%s", templates.Say.ThereNoGame(gameID))
	}
	if err != nil {
		return err
	}
	if row.Broken != "" {
		switch action {
		case AdminRetry:
		case AdminAbort:
			return w.abortBroken(row, actor, detail)
		default:
			return adminErr("%s", templates.Say.GameSetAsideAs(gameID, row.Broken))
		}
	} else if action == AdminRetry {
		return adminErr("%s", templates.Say.GameNotSetAside(gameID))
	}
	tb, err := w.loadTable(gameID)
	var ge *gameError
	if action == AdminRetry && errors.As(err, &ge) {
		return adminErr("%s", templates.Say.GameStillCannotTaken(gameID, ge.what))
	}
	if err != nil {
		return err
	}
	tb.inbound = w.inboundID
	announce, moved, err := act(w, tb)
	if err != nil {
		return err
	}
	if _, err := w.tx.AppendAudit(w.ctx, gameID, actor, string(action), detail, w.now()); err != nil {
		return err
	}
	if announce != "" {
		ev := []store.Event{{To: store.Public, Kind: string(EventAdmin), Text: templates.Say.AdminDid(actor, announce)}}
		if _, err := w.tx.AppendEvents(w.ctx, gameID, tb.row.LastSeq, ev); err != nil {
			return err
		}
	}
	if moved || announce != "" {
		return w.settle(tb, settleAdmin, -1, nil)
	}
	return nil
}

// Retry takes up a game set aside as broken, once it loads again (after a
// deploy that fixed what broke it).
func (s *Service) Retry(ctx context.Context, gameID int64, actor string) error {
	return s.admin(ctx, gameID, actor, AdminRetry, "", retryAct(gameID))
}

// retryAct runs on a game that loads again (adminIn loaded it): it is no
// longer set aside, and everyone it waits on gets a fresh deadline, since
// time stood still for it.
func retryAct(gameID int64) adminFunc {
	return func(w *work, tb *table) (string, bool, error) {
		if err := w.tx.ClearGameBroken(w.ctx, gameID); err != nil {
			return "", false, err
		}
		tb.row.Broken = ""
		if tb.row.Status == store.StatusActive {
			for _, st := range tb.seats {
				if !st.Deadline.IsZero() {
					if err := w.freshDeadline(tb.row, st.Seat); err != nil {
						return "", false, err
					}
				}
			}
		}
		return templates.Say.RepairedGameGoesWhere(), false, nil
	}
}

// abortBroken ends a game set aside as broken. It cannot be loaded, so its
// players are told in a notice, not in a mail of the table.
func (w *work) abortBroken(row store.Game, actor, reason string) error {
	if row.Status == store.StatusActive || row.Status == store.StatusPaused || row.Status == store.StatusInviting {
		if err := w.tx.SetGameStatus(w.ctx, row.ID, store.StatusAborted); err != nil {
			return err
		}
	}
	if err := w.tx.ClearGameBroken(w.ctx, row.ID); err != nil {
		return err
	}
	seats, err := w.tx.Seats(w.ctx, row.ID)
	if err != nil {
		return err
	}
	words := templates.Say.EndedGameBeforeEnd(actor)
	if reason != "" {
		words = templates.Say.WithReason(words, reason)
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
	if _, err := w.tx.AppendAudit(w.ctx, row.ID, actor, string(AdminAbort), reason, w.now()); err != nil {
		return err
	}
	ev := []store.Event{{To: store.Public, Kind: string(EventAdmin), Text: words}}
	_, err = w.tx.AppendEvents(w.ctx, row.ID, row.LastSeq, ev)
	return err
}

// seatNamed finds a seat by the player's name or address.
func seatNamed(tb *table, who string) (store.Seat, error) {
	who = strings.ToLower(strings.TrimSpace(who))
	for _, st := range tb.seats {
		if st.Name == who || st.Address == store.NormalizeAddress(who) {
			return st, nil
		}
	}
	return store.Seat{}, adminErr("%s", templates.Say.GameNoPlayerPlayers(tb.row.ID, who, strings.Join(tb.names, ", ")))
}

// Extend moves a seat's deadline by d (from now if it has none).
func (s *Service) Extend(ctx context.Context, gameID int64, who string, d time.Duration, actor string) error {
	return s.admin(ctx, gameID, actor, AdminExtend, fmt.Sprintf("%s by %s", who, d), extendAct(gameID, who, d))
}

func extendAct(gameID int64, who string, d time.Duration) adminFunc {
	return func(w *work, tb *table) (string, bool, error) {
		st, err := seatNamed(tb, who)
		if err != nil {
			return "", false, err
		}
		if d <= 0 {
			return "", false, adminErr("%s", templates.Say.ExtendPositiveTimeSuch())
		}
		if st.Bot != "" {
			return "", false, adminErr("%s", templates.Say.PbemBotWhichMoves(st.Name))
		}
		from := st.Deadline
		if from.IsZero() || from.Before(w.now()) {
			from = w.now()
		}
		deadline := from.Add(d).Truncate(time.Second)
		if err := w.tx.SetDeadline(w.ctx, gameID, st.Seat, deadline); err != nil {
			return "", false, err
		}
		// The new deadline gets the steps still to come of a decision
		// that runs from its start to the new deadline.
		start := st.WaitingSince
		if start.IsZero() {
			start = w.now()
		}
		if err := w.nextReminder(gameID, st.Seat, deadline, deadline.Sub(start), w.now()); err != nil {
			return "", false, err
		}
		return templates.Say.DeadlineExtended(st.Name, d), false, nil
	}
}

// MoveFor makes a move for a player, as if he had sent it.
func (s *Service) MoveFor(ctx context.Context, gameID int64, who, command, actor string) error {
	return s.admin(ctx, gameID, actor, AdminMove, who+": "+command, moveAct(gameID, who, command, actor))
}

func moveAct(gameID int64, who, command, actor string) adminFunc {
	return func(w *work, tb *table) (string, bool, error) {
		st, err := seatNamed(tb, who)
		if err != nil {
			return "", false, err
		}
		if tb.row.Status != store.StatusActive {
			return "", false, adminErr("%s", templates.Say.GameNotActive(gameID, string(tb.row.Status)))
		}
		// The player's language, as his mail would read it.
		c, err := parser.ReadMove(command, w.seatLanguage(tb, st.Seat))
		if err != nil {
			return "", false, adminErr("%v", err)
		}
		events, err := tb.game.Apply(st.Seat, c)
		if err != nil {
			return "", false, adminErr("%v", err)
		}
		// Only the player learns which move was made for him: it may place
		// a hidden card.
		told := []engine.Event{{To: st.Seat, Kind: string(EventAdmin), Text: templates.Say.AdminMadeMoveYou(actor, c.Text)}}
		if err := w.record(tb, st.Seat, c.Text, store.SourceAdmin(actor), append(told, events...)); err != nil {
			return "", false, err
		}
		return templates.Say.MadeMove(st.Name), true, nil
	}
}

// UndoFor takes back a player's last command, by the engine's rule
// (engine.Log.Last) and without the players' vote.
func (s *Service) UndoFor(ctx context.Context, gameID int64, who, actor string) error {
	return s.admin(ctx, gameID, actor, AdminUndo, who, undoAct(gameID, who, actor))
}

func undoAct(gameID int64, who, actor string) adminFunc {
	return func(w *work, tb *table) (string, bool, error) {
		st, err := seatNamed(tb, who)
		if err != nil {
			return "", false, err
		}
		if tb.row.Status != store.StatusActive {
			return "", false, adminErr("%s", templates.Say.GameNotActive(gameID, string(tb.row.Status)))
		}
		l, moves, err := w.tableLog(tb)
		if err != nil {
			return "", false, err
		}
		_, err = l.Last(st.Seat)
		var ue *engine.UndoError
		if errors.As(err, &ue) {
			return "", false, adminErr("%s", templates.Say.LastCommandCannotTaken(st.Name, ue.Reason))
		}
		if err != nil {
			return "", false, err
		}
		// A player's undo being answered gives way to the admin's.
		if _, err := w.tx.EndUndo(w.ctx, tb.row.ID); err != nil {
			return "", false, err
		}
		if err := w.takeBackMove(tb, l, moves, st.Seat, actor); err != nil {
			return "", false, err
		}
		// The table reads the undo's own event; the admin's act is in
		// the audit.
		return "", true, nil
	}
}

// Replace gives a seat to a new address with a new token; the old address
// can no longer play it.
func (s *Service) Replace(ctx context.Context, gameID int64, who, address, actor string) error {
	return s.admin(ctx, gameID, actor, AdminReplace, who+" -> "+address, replaceAct(gameID, who, address))
}

func replaceAct(gameID int64, who, address string) adminFunc {
	return func(w *work, tb *table) (string, bool, error) {
		st, err := seatNamed(tb, who)
		if err != nil {
			return "", false, err
		}
		address = store.NormalizeAddress(address)
		if !strings.Contains(address, "@") {
			return "", false, adminErr("%s", templates.Say.NotMailAddress(address))
		}
		if intake.IsBotAddress(address) {
			return "", false, adminErr("%s", templates.Say.BotSeatAddressWhich(address))
		}
		if err := w.tx.ReplaceSeatAddress(w.ctx, gameID, st.Seat, address, store.NewToken()); err != nil {
			if errors.Is(err, store.ErrDuplicate) {
				return "", false, adminErr("%s", templates.Say.AlreadyPlaysGame(address, gameID))
			}
			return "", false, err
		}
		// The old player's web link showed the seat's hand: it goes with
		// him, and the new player's mails link a new one.
		if err := w.tx.DropLink(w.ctx, gameID, st.Seat); err != nil {
			return "", false, err
		}
		if _, err := w.tx.UpsertPlayer(w.ctx, address, ""); err != nil {
			return "", false, err
		}
		// The new player has seen nothing: his first mail tells him all
		// he may see.
		if err := w.tx.SetSeatLastMailedEvent(w.ctx, gameID, st.Seat, 0); err != nil {
			return "", false, err
		}
		if err := w.tx.SetSeatJoined(w.ctx, gameID, st.Seat); err != nil {
			return "", false, err
		}
		if st.Bot != "" {
			// A person takes the bot's seat: from now on the seat
			// waits for his mail like any other.
			if err := w.tx.SetSeatBot(w.ctx, gameID, st.Seat, ""); err != nil {
				return "", false, err
			}
		}
		for i := range tb.seats {
			if tb.seats[i].Seat == st.Seat {
				tb.seats[i].Address = address
				tb.seats[i].State = store.SeatJoined
				tb.seats[i].Bot = ""
			}
		}
		if st.Bot != "" {
			return templates.Say.SeatPbemBotUntil(st.Name), false, nil
		}
		return templates.Say.SeatNowPlayedFrom(st.Name), false, nil
	}
}

// SetStatus pauses, resumes or aborts a game.
func (s *Service) SetStatus(ctx context.Context, gameID int64, action AdminAct, reason, actor string) error {
	return s.admin(ctx, gameID, actor, action, reason, statusAct(gameID, action, reason))
}

func statusAct(gameID int64, action AdminAct, reason string) adminFunc {
	want := map[AdminAct]store.Status{AdminPause: store.StatusPaused, AdminResume: store.StatusActive, AdminAbort: store.StatusAborted}[action]
	return func(w *work, tb *table) (string, bool, error) {
		if want == "" {
			return "", false, adminErr("%s", templates.Say.NotPauseResumeOr(string(action)))
		}
		from := tb.row.Status
		ok := (action == AdminPause && from == store.StatusActive) ||
			(action == AdminResume && from == store.StatusPaused) ||
			(action == AdminAbort && (from == store.StatusActive || from == store.StatusPaused || from == store.StatusInviting))
		if !ok {
			return "", false, adminErr("%s", templates.Say.CannotGame(string(action), gameID, string(from)))
		}
		if err := w.tx.SetGameStatus(w.ctx, gameID, want); err != nil {
			return "", false, err
		}
		tb.row.Status = want
		words := map[AdminAct]string{AdminPause: templates.Say.PausedGameMovesCount(), AdminResume: templates.Say.ResumedGame(), AdminAbort: templates.Say.EndedGameBeforeEndTakes()}[action]
		if reason != "" {
			words = templates.Say.WithReason(words, reason)
		}
		if action == AdminResume {
			// Time stood still while paused: everyone waited on gets a
			// fresh deadline.
			for _, st := range tb.seats {
				if !st.Deadline.IsZero() {
					if err := w.freshDeadline(tb.row, st.Seat); err != nil {
						return "", false, err
					}
				}
			}
		}
		if action == AdminAbort {
			for _, st := range tb.seats {
				if err := w.tx.ClearDeadline(w.ctx, gameID, st.Seat); err != nil {
					return "", false, err
				}
			}
		}
		return words, false, nil
	}
}
