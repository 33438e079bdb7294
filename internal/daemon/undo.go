package daemon

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/internal/loaded"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// Undo by agreement (issue 14, item 5; docs/commands.md "Taking a move back").
//
// A player's `undo` asks to take back his own last command. The engine
// decides whether it may be taken back at all (engine.Log.Last): not once
// the table saw another seat move, nor when the command brought hidden
// information to light or decided a round. The service adds who decides:
//
//   - every other player still in the game answers agree or refuse; the
//     last agree takes the command back, the first refuse keeps it, and
//     so do a move by anyone the table sees and 24 hours without every
//     answer (the deadline sweep, sweeps.Sweeper.LapseDue);
//   - a command nobody else could see anything of (a standing order) is
//     taken back at once: asking the others would tell them it was given;
//   - an admin's undo follows the engine's rule without the vote.
//
// What is taken back stays in the move log, and an "undo" line follows
// it (engine.UndoCommand), so that export and replay give the same game
// and the audit shows what was taken back.

// undoWindow is how long the others have to answer an undo.
const undoWindow = 24 * time.Hour

// The service's events about an undo.
const (
	// EventUndoAsked: a player asked the table to let him take a move
	// back. Every player who must answer is mailed it, whatever his
	// notify setting, as a poke is.
	EventUndoAsked EventKind = "undo-asked"
	// EventUndone: a command was taken back.
	EventUndone EventKind = "undone"
	// EventUndoEnded: an undo ended without taking anything back:
	// refused, withdrawn, lapsed or overtaken by a move.
	EventUndoEnded EventKind = "undo-ended"
)

// seenText is what the table saw of a step, as one line: "alice bids 2."
// A step with several events gives them in order.
func seenText(step engine.Step) string {
	var parts []string
	for _, e := range step.Seen() {
		parts = append(parts, e.Text)
	}
	return strings.Join(parts, " ")
}

// voters are the seats that must agree to seat's undo: every other
// player still in the game. A bot seat does not vote: it takes back
// whatever the rules allow.
func voters(lg *loaded.Game, seat int) []store.Seat {
	var out []store.Seat
	for _, st := range lg.Seats {
		if st.Seat != seat && st.State == store.SeatJoined && st.Bot == "" {
			out = append(out, st)
		}
	}
	return out
}

// undoNews is what an undo command did that the others hear of.
type undoNews int

const (
	undoNone      undoNews = iota // nothing: only the sender is answered
	undoAsked                     // the others are asked to agree: mailed whatever their notify setting
	undoAnnounced                 // a move was taken back, or the undo ended: the table is told
)

// proposeUndo handles a player's undo. It returns what to tell him, and
// what the others hear of it.
func (w *work) proposeUndo(lg *loaded.Game, seat store.Seat) (string, undoNews, error) {
	if lg.Row.Status != store.StatusActive {
		return w.words.NothingTakenBack(lowerFirst(notActive(lg, seat.Seat, w.words))), undoNone, nil
	}
	if seat.State == store.SeatResigned {
		return w.words.NothingTakenBackResigned(), undoNone, nil
	}
	if u, err := w.tx.PendingUndo(w.ctx, lg.Row.ID); err == nil {
		if u.Seat == seat.Seat {
			return w.words.UndoAlreadyAsked(w.timeFor(seat.Address, u.ExpiresAt)), undoNone, nil
		}
		return w.words.NothingTakenBackUndoPending(lg.Names[u.Seat]), undoNone, nil
	} else if !errors.Is(err, store.ErrNotFound) {
		return "", undoNone, err
	}
	l, moves, err := lg.Replay(w.ctx, w.tx)
	if err != nil {
		return "", undoNone, err
	}
	step, err := l.Last(seat.Seat)
	var ue *engine.UndoError
	if errors.As(err, &ue) {
		// The reason may quote what the command showed the player
		// alone: what is stored names no reason.
		w.detail = "undo refused"
		return w.words.NothingTakenBackBecause(ue.Reason), undoNone, nil
	}
	if err != nil {
		return "", undoNone, err
	}
	move := moves[step.Line]
	if move.Source != store.SourceMail {
		w.detail = "undo refused: not the player's own command"
		who := w.words.MadeAtYourDeadline()
		if strings.HasPrefix(move.Source, "admin:") {
			who = w.words.MadeByAdmin()
		}
		return w.words.NothingTakenBackNotYours(w.commandIn(lg, step.Command.Text), who), undoNone, nil
	}
	asked := voters(lg, seat.Seat)
	if step.Private() || len(asked) == 0 {
		if err := w.takeBackMove(lg, l, moves, seat.Seat, ""); err != nil {
			return "", undoNone, err
		}
		w.outcome = OutcomeApplied
		w.detail = "undo applied"
		if step.Private() {
			return w.words.TakenBackUnseen(w.commandIn(lg, step.Command.Text)), undoAnnounced, nil
		}
		return w.words.TakenBackNobodyToAsk(w.commandIn(lg, step.Command.Text)), undoAnnounced, nil
	}
	// The others are mailed the question whatever their notify setting:
	// a seat may ask a table a few times a day (bounds.go).
	ok, err := w.tx.Spend(w.ctx, w.post.MailboxOf(w.from), bucketUndoAskPfx+strconv.FormatInt(lg.Row.ID, 10), w.now(), boundsWindow, undoAsksPerDay)
	if err != nil {
		return "", undoNone, err
	}
	if !ok {
		w.detail = "undo refused: daily limit"
		return w.words.NothingTakenBackDailyLimit(undoAsksPerDay, w.timeFor(seat.Address, w.now().Add(-boundsWindow))), undoNone, nil
	}
	now := w.now().Truncate(time.Second)
	u := store.UndoProposal{GameID: lg.Row.ID, Seat: seat.Seat, Seq: move.Seq, ProposedAt: now, ExpiresAt: now.Add(undoWindow)}
	if err := w.tx.ProposeUndo(w.ctx, u); err != nil {
		return "", undoNone, err
	}
	names := make([]string, len(asked))
	for i, st := range asked {
		names[i] = st.Name
	}
	ev := storeSaid(store.Public, EventUndoAsked, templates.Say.UndoAsked(seat.Name, seenText(step), names),
		templates.Phrases.UndoAsked(seat.Name, seenPhrase(step), names))
	if err := w.tx.AppendEvents(w.ctx, lg.Row.ID, lg.Row.LastSeq, []store.Event{ev}); err != nil {
		return "", undoNone, err
	}
	w.outcome = OutcomeApplied
	w.detail = "undo asked"
	return w.words.YouAskedUndo(names, w.commandIn(lg, step.Command.Text), w.timeFor(seat.Address, u.ExpiresAt)), undoAsked, nil
}

// answerUndo handles agree and refuse. It returns what to tell the
// player, and what the others hear of it.
func (w *work) answerUndo(lg *loaded.Game, seat store.Seat, agree bool) (string, undoNews, error) {
	u, err := w.tx.PendingUndo(w.ctx, lg.Row.ID)
	if errors.Is(err, store.ErrNotFound) {
		return w.words.NoUndoToAnswer(), undoNone, nil
	}
	if err != nil {
		return "", undoNone, err
	}
	proposer := lg.Names[u.Seat]
	switch {
	case u.Seat == seat.Seat && agree:
		return w.words.CannotAnswerOwnUndo(), undoNone, nil
	case u.Seat == seat.Seat:
		if err := w.endUndo(lg, templates.Say.UndoWithdrawn(proposer), templates.Phrases.UndoWithdrawn(proposer)); err != nil {
			return "", undoNone, err
		}
		w.outcome, w.detail = OutcomeApplied, "undo withdrawn"
		return w.words.YouWithdrewUndo(), undoAnnounced, nil
	case seat.State != store.SeatJoined:
		return w.words.ResignedCannotAnswerUndo(proposer), undoNone, nil
	case !agree:
		if err := w.endUndo(lg, templates.Say.UndoRefused(seat.Name, proposer), templates.Phrases.UndoRefused(seat.Name, proposer)); err != nil {
			return "", undoNone, err
		}
		w.outcome, w.detail = OutcomeApplied, "undo refused by a player"
		return w.words.YouRefusedUndo(proposer), undoAnnounced, nil
	}
	u, err = w.tx.AgreeUndo(w.ctx, lg.Row.ID, seat.Seat)
	if err != nil {
		return "", undoNone, err
	}
	w.outcome = OutcomeApplied
	var missing []string
	for _, st := range voters(lg, u.Seat) {
		if !u.HasAgreed(st.Seat) {
			missing = append(missing, st.Name)
		}
	}
	if len(missing) > 0 {
		w.detail = "undo agreed"
		return w.words.YouAgreedUndo(proposer, missing, w.timeFor(seat.Address, u.ExpiresAt)), undoNone, nil
	}
	said, err := w.applyUndo(lg, u, "")
	if err != nil {
		return "", undoNone, err
	}
	w.detail = "undo applied"
	if said != "" {
		return said, undoAnnounced, nil
	}
	return w.words.YouAgreedMoveTakenBack(proposer), undoAnnounced, nil
}

// applyUndo takes back the command of u once everyone agreed, or an
// admin said so (admin is his name). It checks the engine's rule again:
// nothing the table saw has happened since the undo was asked (a move
// would have ended it), but a private command may no longer fit. It
// returns what to tell the one who made it apply when it could not.
func (w *work) applyUndo(lg *loaded.Game, u store.UndoProposal, admin string) (string, error) {
	l, moves, err := lg.Replay(w.ctx, w.tx)
	if err != nil {
		return "", err
	}
	step, err := l.Last(u.Seat)
	var ue *engine.UndoError
	if err == nil && moves[step.Line].Seq != u.Seq {
		err = &engine.UndoError{Player: lg.Names[u.Seat], Reason: engine.ErrMovedOn.Error()}
	}
	if errors.As(err, &ue) {
		if err := w.endUndo(lg, templates.Say.UndoNotPossible(lg.Names[u.Seat], engine.ErrMovedOn), templates.Phrases.UndoNotPossible(lg.Names[u.Seat], engine.ErrMovedOn)); err != nil {
			return "", err
		}
		return w.words.NothingTakenBackMovedOn(engine.ErrMovedOn), nil
	}
	if err != nil {
		return "", err
	}
	if _, err := w.tx.EndUndo(w.ctx, lg.Row.ID); err != nil {
		return "", err
	}
	return "", w.takeBackMove(lg, l, moves, u.Seat, admin)
}

// takeBackMove takes seat's last command back: it appends the undo line
// to the move log, rebuilds the game, tells the table (or the seat alone,
// when nobody else saw anything of the command) and writes the audit.
// l and moves are the game's log as tableLog built it in this
// transaction, whose Last allowed the undo; admin is the admin who did
// it, "" when the players agreed.
func (w *work) takeBackMove(lg *loaded.Game, l *engine.Log, moves []store.Move, seat int, admin string) error {
	taken, err := l.Undo(seat)
	if err != nil {
		// Not the engine's reason: it may quote what only that seat saw,
		// and this error reaches the log. Last allowed it a moment ago
		// in the same transaction, so this is not expected.
		return fmt.Errorf("daemon: game %d: seat %d's last command no longer comes back", lg.Row.ID, seat)
	}
	source, actor := store.SourceMail, lg.Seats[seat].Address
	if admin != "" {
		source, actor = store.SourceAdmin(admin), admin
	}
	seq, err := w.tx.AppendMove(w.ctx, lg.Row.ID, store.Move{Seat: seat, Command: engine.UndoCommand, Source: source, InboundID: lg.Inbound, At: w.now()})
	if err != nil {
		return err
	}
	lg.Row.LastSeq = seq
	lg.Acted[seat] = true // his decision again: a fresh deadline (moveDeadlines)
	lg.State = l.Game()
	name := lg.Names[seat]
	own := storeSaid(seat, EventUndone, templates.Say.YourCommandTakenBack(taken.Command.Text), templates.Phrases.YourCommandTakenBack(taken.Command.Text))
	evs := []store.Event{own}
	if clock, err := w.restoreClock(lg, seat, moves[taken.Line]); err != nil {
		return err
	} else if clock != "" {
		evs = append(evs, store.Event{To: seat, Kind: string(EventUndone), Text: clock})
	}
	if !taken.Private() {
		why, whyP := templates.Say.AsEveryoneAgreed(), templates.Phrases.AsEveryoneAgreed()
		if admin != "" {
			why, whyP = templates.Say.ByAdmin(), templates.Phrases.ByAdmin()
		}
		evs = append(evs, storeSaid(int(engine.Others(seat)), EventUndone,
			templates.Say.MoveTakenBack(name, why, seenText(taken)), templates.Phrases.MoveTakenBack(name, whyP, seenPhrase(taken))))
	}
	if err := w.tx.AppendEvents(w.ctx, lg.Row.ID, seq, evs); err != nil {
		return err
	}
	// The audit is the admin's: it names the command taken back.
	detail := fmt.Sprintf("move %d of %s taken back, as the others agreed: %s", moves[taken.Line].Seq, name, taken.Command.Text)
	if admin != "" {
		detail = fmt.Sprintf("move %d of %s taken back: %s", moves[taken.Line].Seq, name, taken.Command.Text)
	}
	if _, err := w.tx.AppendAudit(w.ctx, lg.Row.ID, actor, engine.UndoCommand, detail, w.now()); err != nil {
		return err
	}
	return nil
}

// endUndo ends the game's undo without taking anything back and tells the
// table why.
func (w *work) endUndo(lg *loaded.Game, why string, whyP engine.Phrase) error {
	if _, err := w.tx.EndUndo(w.ctx, lg.Row.ID); err != nil {
		return err
	}
	ev := storeSaid(store.Public, EventUndoEnded, why, whyP)
	if err := w.tx.AppendEvents(w.ctx, lg.Row.ID, lg.Row.LastSeq, []store.Event{ev}); err != nil {
		return err
	}
	return nil
}

// overtakeUndo ends the game's undo, if there is one, when seat made a
// move the table saw: the command to take back is no longer the last.
// A private move (a standing order) leaves it: nobody may learn of it,
// and the engine keeps it in effect across the undo.
func (w *work) overtakeUndo(lg *loaded.Game, seat int, events []engine.Event) error {
	seen := false
	for _, e := range events {
		if e.To != seat {
			seen = true
			break
		}
	}
	if !seen {
		return nil
	}
	u, err := w.tx.PendingUndo(w.ctx, lg.Row.ID)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	return w.endUndo(lg, templates.Say.UndoLapsedByMove(lg.Names[u.Seat], lg.Names[seat]), templates.Phrases.UndoLapsedByMove(lg.Names[u.Seat], lg.Names[seat]))
}

// lapseUndo ends an undo whose 24 hours are up and tells the table who
// did not answer.
func (w *work) lapseUndo(u store.UndoProposal) error {
	lg, err := w.loadGame(u.GameID)
	if err != nil {
		return err
	}
	cur, err := w.tx.PendingUndo(w.ctx, u.GameID)
	if errors.Is(err, store.ErrNotFound) || (err == nil && !cur.ProposedAt.Equal(u.ProposedAt)) {
		return nil // ended since it was found
	}
	if err != nil {
		return err
	}
	var silent []string
	for _, st := range voters(lg, cur.Seat) {
		if !cur.HasAgreed(st.Seat) {
			silent = append(silent, st.Name)
		}
	}
	// Everyone left may have agreed when the last who had not answered
	// resigned since: then only the time is up.
	why, whyP := templates.Say.UndoLapsedByTime(lg.Names[cur.Seat]), templates.Phrases.UndoLapsedByTime(lg.Names[cur.Seat])
	if len(silent) > 0 {
		why, whyP = templates.Say.UndoLapsedUnanswered(lg.Names[cur.Seat], silent), templates.Phrases.UndoLapsedUnanswered(lg.Names[cur.Seat], silent)
	}
	if err := w.endUndo(lg, why, whyP); err != nil {
		return err
	}
	w.outcome, w.detail = OutcomeApplied, "undo lapsed"
	return w.settle(lg, settleUndoLapse, -1, nil)
}

// undoStatus says, for status, which undo the table is answering: who
// asked, who has not answered yet and until when.
func (w *work) undoStatus(lg *loaded.Game, seat store.Seat) ([]string, error) {
	u, err := w.tx.PendingUndo(w.ctx, lg.Row.ID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var missing []string
	mine := false
	for _, st := range voters(lg, u.Seat) {
		if !u.HasAgreed(st.Seat) {
			missing = append(missing, st.Name)
			mine = mine || st.Seat == seat.Seat
		}
	}
	until := w.timeFor(seat.Address, u.ExpiresAt)
	switch {
	case u.Seat == seat.Seat:
		return []string{w.words.YourUndoPending(missing, until)}, nil
	case mine:
		return []string{w.words.UndoAwaitsYourAnswer(lg.Names[u.Seat], until, missing)}, nil
	}
	return []string{w.words.UndoAwaitsOthers(lg.Names[u.Seat], missing, until)}, nil
}
