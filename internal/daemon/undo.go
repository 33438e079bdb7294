package daemon

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/store"
)

// Undo by agreement (issue 14, item 5; README "Taking a move back").
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

// tableLog rebuilds the game from its set-up and its whole move log,
// undo lines included, so that a command can be taken back. The moves
// are returned too: step.Line of the log is an index into them.
func (w *work) tableLog(tb *table) (*engine.Log, []store.Move, error) {
	var setup engine.Setup
	if err := json.Unmarshal(tb.row.Setup, &setup); err != nil {
		return nil, nil, brokenGame(tb.row.ID, err, "its set-up does not read")
	}
	moves, err := w.tx.Moves(w.ctx, tb.row.ID, 0)
	if err != nil {
		return nil, nil, err
	}
	l, err := replayMoves(tb.rules, setup, moves)
	if err != nil {
		return nil, nil, brokenGame(tb.row.ID, err, "its move log does not replay")
	}
	return l, moves, nil
}

// replayMoves applies a stored move log to a set-up. The error names the
// move that failed, never its command: it may name a hidden card.
func replayMoves(rules engine.Rules, setup engine.Setup, moves []store.Move) (*engine.Log, error) {
	l, _, err := engine.NewLog(rules, setup)
	if err != nil {
		return nil, err
	}
	for _, m := range moves {
		if _, err := l.Do(m.Seat, m.Command); err != nil {
			return nil, fmt.Errorf("move %d (seat %d) is refused", m.Seq, m.Seat)
		}
	}
	return l, nil
}

// seenText is what the table saw of a step, as one line: "alice bids 2."
// A step with several events gives them in order.
func seenText(step engine.Step) string {
	var parts []string
	for _, e := range step.Seen() {
		parts = append(parts, e.Text)
	}
	return strings.Join(parts, " ")
}

// quoted puts a player's command or the table's words for it in quotes.
func quoted(s string) string { return "\"" + s + "\"" }

// voters are the seats that must agree to seat's undo: every other
// player still in the game. A bot seat does not vote: it takes back
// whatever the rules allow.
func voters(tb *table, seat int) []store.Seat {
	var out []store.Seat
	for _, st := range tb.seats {
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
func (w *work) proposeUndo(tb *table, seat store.Seat) (string, undoNews, error) {
	if tb.row.Status != store.StatusActive {
		return "Nothing was taken back: " + lowerFirst(w.notActive(tb, seat.Seat)), undoNone, nil
	}
	if seat.State == store.SeatResigned {
		return "Nothing was taken back: you resigned from this game.", undoNone, nil
	}
	if u, err := w.tx.PendingUndo(w.ctx, tb.row.ID); err == nil {
		if u.Seat == seat.Seat {
			return fmt.Sprintf("You have already asked to take back your last command; the others have until %s to answer.", w.timeFor(seat.Address, u.ExpiresAt)), undoNone, nil
		}
		return fmt.Sprintf("Nothing was taken back: %s has asked to take back a move, and the table answers one undo at a time. Answer agree or refuse first.", tb.names[u.Seat]), undoNone, nil
	} else if !errors.Is(err, store.ErrNotFound) {
		return "", undoNone, err
	}
	l, moves, err := w.tableLog(tb)
	if err != nil {
		return "", undoNone, err
	}
	step, err := l.Last(seat.Seat)
	var ue *engine.UndoError
	if errors.As(err, &ue) {
		// The reason may quote what the command showed the player
		// alone: what is stored names no reason.
		w.detail = "undo refused"
		return "Nothing was taken back: " + ue.Reason + ".", undoNone, nil
	}
	if err != nil {
		return "", undoNone, err
	}
	move := moves[step.Line]
	if move.Source != store.SourceMail {
		w.detail = "undo refused: not the player's own command"
		who := "pbem made it for you when your deadline passed"
		if strings.HasPrefix(move.Source, "admin:") {
			who = "an admin made it for you"
		}
		return fmt.Sprintf("Nothing was taken back: your last command, %s, was not yours: %s. Only a command you sent yourself can be taken back.", step.Command.Text, who), undoNone, nil
	}
	asked := voters(tb, seat.Seat)
	if step.Private() || len(asked) == 0 {
		if err := w.takeBackMove(tb, l, moves, seat.Seat, ""); err != nil {
			return "", undoNone, err
		}
		w.outcome = OutcomeApplied
		w.detail = "undo applied"
		if step.Private() {
			return fmt.Sprintf("Taken back: %s. Nobody else could see anything of it, so nobody was asked.", step.Command.Text), undoAnnounced, nil
		}
		return fmt.Sprintf("Taken back: %s. No other person is left in the game to ask.", step.Command.Text), undoAnnounced, nil
	}
	// The others are mailed the question whatever their notify setting:
	// a seat may ask a table a few times a day (bounds.go).
	ok, err := w.tx.Spend(w.ctx, w.mailboxOf(w.from), bucketUndoAskPfx+strconv.FormatInt(tb.row.ID, 10), w.now(), boundsWindow, undoAsksPerDay)
	if err != nil {
		return "", undoNone, err
	}
	if !ok {
		w.detail = "undo refused: daily limit"
		return fmt.Sprintf("Nothing was taken back: you may ask this table to take a move back at most %d times a day, and you have asked it %d times since %s. Ask again later, or play on.",
			undoAsksPerDay, undoAsksPerDay, w.timeFor(seat.Address, w.now().Add(-boundsWindow))), undoNone, nil
	}
	now := w.now().Truncate(time.Second)
	u := store.UndoProposal{GameID: tb.row.ID, Seat: seat.Seat, Seq: move.Seq, ProposedAt: now, ExpiresAt: now.Add(undoWindow)}
	if err := w.tx.ProposeUndo(w.ctx, u); err != nil {
		return "", undoNone, err
	}
	names := make([]string, len(asked))
	for i, st := range asked {
		names[i] = st.Name
	}
	ev := store.Event{To: store.Public, Kind: string(EventUndoAsked), Text: fmt.Sprintf(
		"%s asks to take back a move: %s Everyone else, answer agree or refuse: it is taken back when %s all agree within 24 hours, and it stands at the first refuse, at any move the table can see, or when the time is up.",
		seat.Name, quoted(seenText(step)), joinAnd(names))}
	if _, err := w.tx.AppendEvents(w.ctx, tb.row.ID, tb.row.LastSeq, []store.Event{ev}); err != nil {
		return "", undoNone, err
	}
	w.outcome = OutcomeApplied
	w.detail = "undo asked"
	return fmt.Sprintf("You asked %s to let you take back %s. It is taken back when all of them answer agree by %s; a single refuse, or any move the table can see, keeps it.",
		joinAnd(names), step.Command.Text, w.timeFor(seat.Address, u.ExpiresAt)), undoAsked, nil
}

// answerUndo handles agree and refuse. It returns what to tell the
// player, and what the others hear of it.
func (w *work) answerUndo(tb *table, seat store.Seat, agree bool) (string, undoNews, error) {
	u, err := w.tx.PendingUndo(w.ctx, tb.row.ID)
	if errors.Is(err, store.ErrNotFound) {
		return "Nobody has asked to take a move back in this game: there is nothing to agree to or refuse.", undoNone, nil
	}
	if err != nil {
		return "", undoNone, err
	}
	proposer := tb.names[u.Seat]
	switch {
	case u.Seat == seat.Seat && agree:
		return "It is your own undo: the others answer it.", undoNone, nil
	case u.Seat == seat.Seat:
		if err := w.endUndo(tb, fmt.Sprintf("%s withdrew the undo: the move stands.", proposer)); err != nil {
			return "", undoNone, err
		}
		w.outcome, w.detail = OutcomeApplied, "undo withdrawn"
		return "You withdrew your undo: your move stands.", undoAnnounced, nil
	case seat.State != store.SeatJoined:
		return fmt.Sprintf("You resigned from this game, so %s's undo is for the others to answer.", proposer), undoNone, nil
	case !agree:
		if err := w.endUndo(tb, fmt.Sprintf("%s refused the undo %s asked for: the move stands.", seat.Name, proposer)); err != nil {
			return "", undoNone, err
		}
		w.outcome, w.detail = OutcomeApplied, "undo refused by a player"
		return fmt.Sprintf("You refused: %s's move stands.", proposer), undoAnnounced, nil
	}
	u, err = w.tx.AgreeUndo(w.ctx, tb.row.ID, seat.Seat)
	if err != nil {
		return "", undoNone, err
	}
	w.outcome = OutcomeApplied
	var missing []string
	for _, st := range voters(tb, u.Seat) {
		if !u.HasAgreed(st.Seat) {
			missing = append(missing, st.Name)
		}
	}
	if len(missing) > 0 {
		w.detail = "undo agreed"
		return fmt.Sprintf("You agreed to take back %s's move. It still needs the agreement of %s, by %s.",
			proposer, joinAnd(missing), w.timeFor(seat.Address, u.ExpiresAt)), undoNone, nil
	}
	said, err := w.applyUndo(tb, u, "")
	if err != nil {
		return "", undoNone, err
	}
	w.detail = "undo applied"
	if said != "" {
		return said, undoAnnounced, nil
	}
	return fmt.Sprintf("You agreed, and so has everyone: %s's move is taken back.", proposer), undoAnnounced, nil
}

// applyUndo takes back the command of u once everyone agreed, or an
// admin said so (admin is his name). It checks the engine's rule again:
// nothing the table saw has happened since the undo was asked (a move
// would have ended it), but a private command may no longer fit. It
// returns what to tell the one who made it apply when it could not.
func (w *work) applyUndo(tb *table, u store.UndoProposal, admin string) (string, error) {
	l, moves, err := w.tableLog(tb)
	if err != nil {
		return "", err
	}
	step, err := l.Last(u.Seat)
	var ue *engine.UndoError
	if err == nil && moves[step.Line].Seq != u.Seq {
		err = &engine.UndoError{Player: tb.names[u.Seat], Reason: engine.ErrMovedOn.Error()}
	}
	if errors.As(err, &ue) {
		if err := w.endUndo(tb, fmt.Sprintf("The move %s asked to take back stands: %s.", tb.names[u.Seat], engine.ErrMovedOn)); err != nil {
			return "", err
		}
		return fmt.Sprintf("Nothing was taken back: %s.", engine.ErrMovedOn), nil
	}
	if err != nil {
		return "", err
	}
	if _, err := w.tx.EndUndo(w.ctx, tb.row.ID); err != nil {
		return "", err
	}
	return "", w.takeBackMove(tb, l, moves, u.Seat, admin)
}

// takeBackMove takes seat's last command back: it appends the undo line
// to the move log, rebuilds the game, tells the table (or the seat alone,
// when nobody else saw anything of the command) and writes the audit.
// l and moves are the game's log as tableLog built it in this
// transaction, whose Last allowed the undo; admin is the admin who did
// it, "" when the players agreed.
func (w *work) takeBackMove(tb *table, l *engine.Log, moves []store.Move, seat int, admin string) error {
	taken, err := l.Undo(seat)
	if err != nil {
		// Not the engine's reason: it may quote what only that seat saw,
		// and this error reaches the log. Last allowed it a moment ago
		// in the same transaction, so this is not expected.
		return fmt.Errorf("daemon: game %d: seat %d's last command no longer comes back", tb.row.ID, seat)
	}
	source, actor := store.SourceMail, tb.seats[seat].Address
	if admin != "" {
		source, actor = store.SourceAdmin(admin), admin
	}
	seq, err := w.tx.AppendMove(w.ctx, tb.row.ID, store.Move{Seat: seat, Command: engine.UndoCommand, Source: source, InboundID: tb.inbound, At: w.now()})
	if err != nil {
		return err
	}
	tb.row.LastSeq = seq
	tb.acted[seat] = true // his decision again: a fresh deadline (moveDeadlines)
	tb.game = l.Game()
	name := tb.names[seat]
	own := store.Event{To: seat, Kind: string(EventUndone), Text: fmt.Sprintf("Your command %s is taken back: it is as if you had not sent it.", quoted(taken.Command.Text))}
	evs := []store.Event{own}
	if !taken.Private() {
		why := "as everyone agreed"
		if admin != "" {
			why = "by admin " + admin
		}
		evs = append(evs, store.Event{To: int(engine.Others(seat)), Kind: string(EventUndone),
			Text: fmt.Sprintf("%s's move is taken back, %s: %s", name, why, quoted(seenText(taken)))})
	}
	if _, err := w.tx.AppendEvents(w.ctx, tb.row.ID, seq, evs); err != nil {
		return err
	}
	// The audit is the admin's: it names the command taken back.
	detail := fmt.Sprintf("move %d of %s taken back, as the others agreed: %s", moves[taken.Line].Seq, name, taken.Command.Text)
	if admin != "" {
		detail = fmt.Sprintf("move %d of %s taken back: %s", moves[taken.Line].Seq, name, taken.Command.Text)
	}
	if _, err := w.tx.AppendAudit(w.ctx, tb.row.ID, actor, engine.UndoCommand, detail, w.now()); err != nil {
		return err
	}
	return nil
}

// endUndo ends the game's undo without taking anything back and tells the
// table why.
func (w *work) endUndo(tb *table, why string) error {
	if _, err := w.tx.EndUndo(w.ctx, tb.row.ID); err != nil {
		return err
	}
	ev := store.Event{To: store.Public, Kind: string(EventUndoEnded), Text: why}
	if _, err := w.tx.AppendEvents(w.ctx, tb.row.ID, tb.row.LastSeq, []store.Event{ev}); err != nil {
		return err
	}
	return nil
}

// overtakeUndo ends the game's undo, if there is one, when seat made a
// move the table saw: the command to take back is no longer the last.
// A private move (a standing order) leaves it: nobody may learn of it,
// and the engine keeps it in effect across the undo.
func (w *work) overtakeUndo(tb *table, seat int, events []engine.Event) error {
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
	u, err := w.tx.PendingUndo(w.ctx, tb.row.ID)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	return w.endUndo(tb, fmt.Sprintf("The undo %s asked for has lapsed: %s has moved since, so the move stands.", tb.names[u.Seat], tb.names[seat]))
}

// lapseUndo ends an undo whose 24 hours are up and tells the table who
// did not answer.
func (w *work) lapseUndo(u store.UndoProposal) error {
	tb, err := w.loadTable(u.GameID)
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
	for _, st := range voters(tb, cur.Seat) {
		if !cur.HasAgreed(st.Seat) {
			silent = append(silent, st.Name)
		}
	}
	// Everyone left may have agreed when the last who had not answered
	// resigned since: then only the time is up.
	why := fmt.Sprintf("The undo %s asked for has lapsed after 24 hours, so the move stands.", tb.names[cur.Seat])
	if len(silent) > 0 {
		why = fmt.Sprintf("The undo %s asked for has lapsed: not everyone answered within 24 hours (%s did not), so the move stands.", tb.names[cur.Seat], joinAnd(silent))
	}
	if err := w.endUndo(tb, why); err != nil {
		return err
	}
	w.outcome, w.detail = OutcomeApplied, "undo lapsed"
	return w.settle(tb, settleUndoLapse, -1, nil)
}

// undoStatus says, for status, which undo the table is answering: who
// asked, who has not answered yet and until when.
func (w *work) undoStatus(tb *table, seat store.Seat) ([]string, error) {
	u, err := w.tx.PendingUndo(w.ctx, tb.row.ID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var missing []string
	mine := false
	for _, st := range voters(tb, u.Seat) {
		if !u.HasAgreed(st.Seat) {
			missing = append(missing, st.Name)
			mine = mine || st.Seat == seat.Seat
		}
	}
	until := w.timeFor(seat.Address, u.ExpiresAt)
	switch {
	case u.Seat == seat.Seat:
		return []string{fmt.Sprintf("You asked to take back your last command; still to agree: %s, by %s.", joinAnd(missing), until)}, nil
	case mine:
		return []string{fmt.Sprintf("%s asks to take back a move: answer agree or refuse by %s (still to agree: %s).", tb.names[u.Seat], until, joinAnd(missing))}, nil
	}
	return []string{fmt.Sprintf("%s asks to take back a move; still to agree: %s, by %s.", tb.names[u.Seat], joinAnd(missing), until)}, nil
}
