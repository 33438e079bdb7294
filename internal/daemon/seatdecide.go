package daemon

import (
	"github.com/pbem/pbem/internal/loaded"
	"github.com/pbem/pbem/parser"
	"github.com/pbem/pbem/store"
)

// What a seat's mail does is decided here, without the store: each
// command's step from what the table is like when it comes (decideStep),
// and at the end what the sender's answer is (decideFinish). seatMail in
// seat.go does what these return.

// seatAct is what one command of a seat's mail does.
type seatAct int

const (
	actMove          seatAct = iota // apply a move of the game
	actRefuseMoves                  // the mail's moves from here are not applied (seatStep.refusal says why)
	actInvalid                      // a command that has no meaning in a game's thread (new)
	actUndo                         // ask to take the sender's last command back
	actAnswerUndo                   // agree or refuse another's undo, or withdraw one's own
	actTalk                         // say or poke: the others are mailed after the mail is read
	actSetting                      // notify, timezone, confirm: a line of the answer
	actBack                         // back from vacation and from autopilot
	actBounded                      // name, vacation: once per mail and within the lobby budget, then a line of the answer
	actAnswer                       // a command answered by a mail of its own (seatAnswers)
	actBoundedAnswer                // rematch of a finished game: bounded like actBounded, then answered like actAnswer
)

// seatActs is the dispatch table of the lobby's commands in a game's
// thread, by kind; a kind it lacks is actInvalid.
var seatActs = map[parser.Kind]seatAct{
	parser.KindUndo:       actUndo,
	parser.KindAgree:      actAnswerUndo,
	parser.KindRefuse:     actAnswerUndo,
	parser.KindSay:        actTalk,
	parser.KindPoke:       actTalk,
	parser.KindNotify:     actSetting,
	parser.KindTimezone:   actSetting,
	parser.KindQuiet:      actSetting,
	parser.KindConfirm:    actSetting,
	parser.KindLanguage:   actSetting,
	parser.KindBack:       actBack,
	parser.KindName:       actBounded,
	parser.KindVacation:   actBounded,
	parser.KindJoin:       actAnswer,
	parser.KindDecline:    actAnswer,
	parser.KindNever:      actAnswer,
	parser.KindHelp:       actAnswer,
	parser.KindRules:      actAnswer,
	parser.KindGames:      actAnswer,
	parser.KindStatus:     actAnswer,
	parser.KindHistory:    actAnswer,
	parser.KindStandings:  actAnswer,
	parser.KindLink:       actAnswer,
	parser.KindSpectators: actAnswer,
	parser.KindResign:     actAnswer,
	parser.KindRematch:    actAnswer,
	parser.KindAddress:    actAnswer,
}

// seatSnapshot is what deciding a command's step reads of the table: the
// game's and the sender's seat's state as the mail's earlier commands
// left them.
type seatSnapshot struct {
	status store.Status
	seat   store.SeatState
	stale  bool // the mail answers a mail older than the seat's current decision
}

// snapshotOf is the snapshot of lg for seat.
func snapshotOf(lg *loaded.Game, seat store.Seat, stale bool) seatSnapshot {
	return seatSnapshot{status: lg.Row.Status, seat: seat.State, stale: stale}
}

// seatStep is the decision for one command.
type seatStep struct {
	act     seatAct
	refusal moveRefusal // actRefuseMoves: why
}

// decideStep decides what command c of a seat's mail does, given the
// table as the commands before it left it.
func decideStep(c parser.Command, snap seatSnapshot) seatStep {
	if c.Kind == parser.KindMove {
		if r := snap.refusal(); r != "" {
			return seatStep{act: actRefuseMoves, refusal: r}
		}
		return seatStep{act: actMove}
	}
	act, ok := seatActs[c.Kind]
	switch {
	case !ok:
		return seatStep{act: actInvalid}
	case c.Kind == parser.KindRematch && snap.status == store.StatusFinished:
		// A rematch starts a game: one per mail, within the budget.
		return seatStep{act: actBoundedAnswer}
	}
	return seatStep{act: act}
}

// refusal says why no move of the mail may be applied now, or "".
func (snap seatSnapshot) refusal() moveRefusal {
	switch {
	case snap.seat == store.SeatResigned:
		return refusedResigned
	case snap.status == store.StatusInviting:
		return refusedNotStarted
	case snap.status != store.StatusActive:
		return refusedNotActive
	case snap.stale:
		return refusedStale
	}
	return ""
}

// seatRun is what a seat's mail has done so far, command by command:
// what decideFinish reads.
type seatRun struct {
	intro     []string // what to tell the sender
	applied   int      // how many lines of intro only say that a command was applied
	moved     bool     // a move of his was applied
	tookBack  bool     // his seat was taken off autopilot
	announced bool     // an undo was applied or ended: the table hears of it
	talked    bool     // a say, a poke or an undo question: deliverTalk mails the others
	replied   bool     // a command was answered by a mail of its own
}

// seatFinish is how a seat's mail ends.
type seatFinish int

const (
	finishNone          seatFinish = iota // the sender has his answer already
	finishSettle                          // the table changed: settle, and his answer says more than that his commands were applied
	finishSettleConfirm                   // the table changed: settle, and his answer would only confirm his commands
	finishStatus                          // answer with his game mail
	finishTalkConfirm                     // his answer would only confirm a say or poke: his game mail, if confirm is on
)

// decideFinish decides how the mail that did run ends.
func decideFinish(run seatRun) seatFinish {
	onlyConfirms := run.applied == len(run.intro)
	switch {
	case run.moved || run.tookBack || run.announced:
		// When the seat is taken back from autopilot, or an undo
		// applied or ended, the table is told (settle mails the others
		// the news) even when no move was applied.
		if onlyConfirms {
			return finishSettleConfirm
		}
		return finishSettle
	case run.talked && onlyConfirms && !run.replied:
		return finishTalkConfirm
	case len(run.intro) > 0 || !run.replied:
		return finishStatus
	}
	return finishNone
}

// settleReason is why settle runs: what it mails depends on it.
type settleReason int

const (
	settleAnswer    settleReason = iota // the actor's mail changed the table; his answer says more than that its commands were applied
	settleConfirm                       // the actor's mail changed the table, and his answer would only confirm its commands: with confirm off it is not sent, and it may be short
	settleStart                         // everyone has joined: every player gets the start mail
	settleResign                        // the actor resigned
	settleDeadline                      // a deadline passed and pbem moved for a seat
	settleAdmin                         // an admin's act
	settleUndoLapse                     // an undo's time ran out
	settleVacation                      // a vacation began or ended at the table
)
