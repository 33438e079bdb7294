package daemon

import (
	"errors"
	"strings"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/internal/loaded"
	"github.com/pbem/pbem/parser"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// loadGame reads a game and rebuilds its engine state (loaded.Load), a
// copy of the state its snapshot restores when the service kept it. A
// game whose stored state does not rebuild fails with a *loaded.Error:
// trying again will not help, and the game is set aside (aside.go).
func (w *work) loadGame(gameID int64) (*loaded.Game, error) {
	return w.states.Load(w.ctx, w.tx, w.games, gameID)
}

// seatMail handles mail from a seat's player about the seat's game. The
// player gets one answer: the game mail that says what was applied and
// what stopped the reading, unless a command (help, history, …) has an
// answer of its own and nothing else needs saying. What each command
// does, and how the mail ends, is decided in seatdecide.go; this does it.
func (w *work) seatMail(seat store.Seat) error {
	row, err := w.tx.Game(w.ctx, seat.GameID)
	if err != nil {
		return err
	}
	if row.Aside != "" {
		// Set aside: nothing is applied, and the game is not loaded (it
		// may be what fails). The sender alone is answered.
		w.outcome, w.detail = OutcomeAnswered, "game set aside as broken: nothing applied"
		return w.repairNotice(row, seat, w.words.GameBeingRepaired())
	}
	lg, err := w.states.LoadRow(w.ctx, w.tx, w.games, row) // the row just read, not read again
	if err != nil {
		return err
	}
	lg.Inbound = w.inboundID
	grammar := w.seatGrammar(lg, seat.Seat)
	cmds, prob, fromSubject := parser.ReadMessage(w.msg, grammar)
	w.fromSubject = fromSubject
	w.outcome = OutcomeAnswered
	stale, err := w.staleReply(lg, seat)
	if err != nil {
		return err
	}
	var run seatRun
	if hasMove(cmds) {
		// A move of his own, legal or not, says the player is back.
		said, err := w.takeBack(lg, &seat)
		if err != nil {
			return err
		}
		run.tookBack = len(said) > 0
		run.intro = append(run.intro, said...)
	}
	for i, c := range cmds {
		step := decideStep(c, snapshotOf(lg, seat, stale))
		end, err := w.doStep(lg, &seat, cmds[i:], step, grammar, &run)
		if err != nil {
			return err
		}
		if end == stepDropProblem {
			prob = nil
		}
		if end != stepNext {
			break
		}
	}
	if prob != nil {
		if err := w.seatProblem(lg, seat, prob, &run); err != nil {
			return err
		}
	}
	if run.moved && seat.Missed > 0 {
		// He moved himself: the deadlines he missed are no longer in a row.
		if err := w.tx.SetSeatMissed(w.ctx, lg.Row.ID, seat.Seat, 0); err != nil {
			return err
		}
	}
	switch decideFinish(run) {
	case finishSettle:
		err = w.settle(lg, settleAnswer, seat.Seat, run.intro)
	case finishSettleConfirm:
		err = w.settle(lg, settleConfirm, seat.Seat, run.intro)
	case finishTalkConfirm:
		if w.confirms(seat) {
			err = w.gameMail(lg, seat, templates.MailStatus, run.intro, true)
		} // else confirm off, and the answer would only confirm the talk
	case finishStatus:
		err = w.gameMail(lg, seat, templates.MailStatus, run.intro, true)
	}
	if err != nil || !run.talked {
		return err
	}
	return w.deliverTalk(lg, seat.Seat)
}

// seatProblem tells the sender where the reading of his mail stopped: in
// the one answer when something was applied or answered, else in an
// answer of its own.
func (w *work) seatProblem(lg *loaded.Game, seat store.Seat, prob *parser.Problem, run *seatRun) error {
	if len(run.intro) > 0 {
		// One mail says both what was done and where the reading
		// stopped.
		run.intro = append(run.intro, stoppedAt(prob, w.words))
		if w.detail == "" {
			w.detail = prob.Error()
		}
		return nil
	}
	// What he can do now, as his game mail lists it (a stale reply does
	// not change that).
	var opts []engine.Option
	if lg.Row.Status == store.StatusActive && seat.State != store.SeatResigned {
		opts = lg.State.Options(seat.Seat)
	}
	run.replied = true
	return w.problem(&seat, opts, prob)
}

// stepEnd says whether the reading of a seat's mail goes on after a step.
type stepEnd int

const (
	stepNext        stepEnd = iota // on to the next command
	stepStop                       // the commands after it are not done; a problem after them is told
	stepDropProblem                // the commands after it are not done, and the answer says so: a problem after them is not told
)

// doStep does step, the decision for cmds[0], and notes in run what it
// did. seat is the sender's seat, which the step may change.
func (w *work) doStep(lg *loaded.Game, seat *store.Seat, cmds []parser.Command, step seatStep, grammar parser.Grammar, run *seatRun) (stepEnd, error) {
	c := cmds[0]
	switch step.act {
	case actMove:
		return w.seatMove(lg, *seat, cmds, run)
	case actRefuseMoves:
		run.intro = append(run.intro, notApplied(cmds, w.refusalWords(step.refusal, lg, *seat), w.words)...)
		w.detail = "not applied: " + string(step.refusal)
		return stepStop, nil
	case actUndo, actAnswerUndo:
		var said string
		var news undoNews
		var err error
		if step.act == actUndo {
			said, news, err = w.proposeUndo(lg, *seat)
		} else {
			said, news, err = w.answerUndo(lg, *seat, c.Kind == parser.KindAgree)
		}
		run.intro = append(run.intro, said)
		run.talked = run.talked || news == undoAsked
		run.announced = run.announced || news == undoAnnounced
		return stepNext, err
	case actTalk:
		said, done, err := w.talk(lg, *seat, c)
		run.intro = append(run.intro, said)
		if done {
			// A confirmation, which confirm off drops like that of a
			// move.
			run.applied++
			run.talked = true
			w.outcome = OutcomeApplied
		}
		return stepNext, err
	case actSetting:
		said, err := w.setting(c, seat)
		run.intro = append(run.intro, said)
		return stepNext, err
	case actBack:
		said, err := w.seatBack(lg, seat, c, run)
		run.intro = append(run.intro, said...)
		return stepNext, err
	case actBounded:
		said, err := w.seatBounded(lg, c)
		run.intro = append(run.intro, said)
		return stepNext, err
	case actBoundedAnswer:
		why, err := w.threadSetting(c)
		if err != nil || why != "" {
			run.intro = append(run.intro, why)
			return stepNext, err
		}
	case actInvalid:
		run.replied = true
		return stepNext, w.seatNotice(*seat, templates.Notice{Kind: templates.NoticeInvalid, Reason: w.words.NotForGameThread(c.Text), Usages: grammar.Usages()})
	}
	run.replied = true
	return stepNext, seatAnswers[c.Kind](&seatWork{work: w, lg: lg, seat: *seat, grammar: grammar}, c)
}

// seatMove applies the move cmds[0].
func (w *work) seatMove(lg *loaded.Game, seat store.Seat, cmds []parser.Command, run *seatRun) (stepEnd, error) {
	c := cmds[0]
	events, err := lg.State.Apply(seat.Seat, c.Move)
	var ie *engine.IllegalError
	if errors.As(err, &ie) {
		run.intro = append(run.intro, w.words.NotApplied(w.commandIn(lg, c.Text), ie.Reason))
		if len(cmds) > 1 {
			run.intro = append(run.intro, w.words.LaterCommandsNotApplied())
		}
		// The reason may name the player's own cards or money: what is
		// stored and logged names the command only.
		w.detail = "illegal command: " + c.Move.Name
		return stepDropProblem, nil
	}
	if err != nil {
		return stepStop, err
	}
	if err := w.record(lg, seat.Seat, c.Move.Text, store.SourceMail, events); err != nil {
		return stepStop, err
	}
	run.intro = append(run.intro, w.words.Applied(w.commandIn(lg, c.Text)))
	run.applied++
	w.outcome = OutcomeApplied
	run.moved = true
	return stepNext, nil
}

// seatGrammar is what a seat's player may write: the lobby's commands,
// the game's, the players' names, and which game commands are legal now
// (for suggestions).
func (w *work) seatGrammar(lg *loaded.Game, seat int) parser.Grammar {
	words := w.lexicons.of(lg.Rules)
	return parser.Grammar{Games: w.names, Specs: words.specs, Nouns: words.nouns, Lexicon: words.lexicon, Players: lg.Names,
		Legal: func() []engine.Option { return lg.State.Options(seat) }}
}

// moveRefusal names why a mail's game commands were not applied, in
// what is logged and stored; the player is told in words.
type moveRefusal string

const (
	refusedResigned   moveRefusal = "resigned"
	refusedNotStarted moveRefusal = "game not started"
	refusedNotActive  moveRefusal = "game not active"
	refusedStale      moveRefusal = "stale mail"
)

// refusalWords tells the player why no game command of his mail was
// applied (r, from seatSnapshot.refusal).
func (w *work) refusalWords(r moveRefusal, lg *loaded.Game, seat store.Seat) string {
	switch r {
	case refusedResigned:
		return w.words.ResignedCommandsDontCount(w.standIn().in(w.words).playsForYou())
	case refusedNotStarted:
		return w.words.GameNotStartedYet() // the mail says what it waits for
	case refusedNotActive:
		return strings.TrimSuffix(lowerFirst(notActive(lg, seat.Seat, w.words)), ".")
	}
	return w.words.MailIsStale()
}

// notApplied tells the player that cmds were not applied, and why.
func notApplied(cmds []parser.Command, reason string, say templates.Words) []string {
	var moves []string
	for _, c := range cmds {
		if !c.Lobby {
			moves = append(moves, c.Text)
		}
	}
	return []string{say.NotApplied(strings.Join(moves, "; "), reason)}
}

// stoppedAt says where the reading of a mail stopped, after what was
// applied or answered.
func stoppedAt(prob *parser.Problem, say templates.Words) string {
	if prob.Text == "" {
		return say.StoppedReading(say.Told(*prob))
	}
	line := say.StoppedReadingAt(prob.Text, strings.TrimSuffix(say.Told(*prob), "."))
	if len(prob.DidYouMean) > 0 {
		line += say.DidYouMean(prob.DidYouMean)
	}
	return say.RestMailIgnored(line)
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

// notActive says why a game takes no moves now, in the words say.
func notActive(lg *loaded.Game, seat int, say templates.Words) string {
	switch lg.Row.Status {
	case store.StatusInviting:
		var waiting []string
		for _, st := range lg.Seats {
			if st.State != store.SeatJoined {
				waiting = append(waiting, st.Name)
			}
		}
		if lg.Seats[seat].State != store.SeatJoined {
			return say.NotStartedJoinOrDecline()
		}
		return say.NotStartedWaitingFor(strings.Join(waiting, ", "))
	case store.StatusPaused:
		return say.GamePausedByAdmin()
	case store.StatusFinished:
		return say.GameOver()
	default:
		return say.GameEndedAs(say.GameStatus(string(lg.Row.Status)))
	}
}

// seatBack handles back in a game's thread: back from vacation (in all
// his games), and this seat back from autopilot: one word for "I am here
// again". It returns what to tell him.
func (w *work) seatBack(lg *loaded.Game, seat *store.Seat, c parser.Command, run *seatRun) ([]string, error) {
	var said []string
	if !run.tookBack { // else a move of the same mail took it back, and said so
		took, err := w.takeBack(lg, seat)
		if err != nil {
			return nil, err
		}
		run.tookBack = len(took) > 0
		said = append(said, took...)
	}
	// Ending a vacation reaches every table of his: it counts against
	// the bounds of one mail and the lobby budget (taking this seat off
	// autopilot, above, does not: it is his being here).
	why, err := w.threadSetting(c)
	if err != nil {
		return nil, err
	}
	if why != "" {
		return append(said, why), nil
	}
	if _, err := w.tx.CurrentVacation(w.ctx, w.from); err == nil {
		line, err := w.back()
		if err != nil {
			return nil, err
		}
		said = append(said, line)
		if err := w.reloadGame(lg); err != nil {
			return nil, err
		}
	} else if !errors.Is(err, store.ErrNotFound) {
		return nil, err
	}
	if len(said) > 0 || run.tookBack {
		return said, nil
	}
	if seat.State == store.SeatResigned {
		return []string{w.words.BackCannotUndoResign()}, nil
	}
	return []string{w.words.NotAwayNorOnAutopilot()}, nil
}

// seatBounded handles name and vacation in a game's thread, once per mail
// and within the lobby budget. It returns what to tell the sender.
func (w *work) seatBounded(lg *loaded.Game, c parser.Command) (string, error) {
	said, err := w.threadSetting(c)
	if err != nil || said != "" {
		return said, err
	}
	if c.Kind == parser.KindName {
		said, err = w.rename(c.NewName)
	} else {
		said, err = w.vacation(c)
	}
	if err != nil {
		return "", err
	}
	// The rename may have rewritten this very game, and a vacation moved
	// its deadlines and told its table: carry on with it as it is now.
	return said, w.reloadGame(lg)
}

// reloadGame reads the game again after a command of this mail that may
// have changed it in this transaction (a rename, a vacation), keeping
// what the mail did at the table so far.
func (w *work) reloadGame(lg *loaded.Game) error {
	return lg.Reload(w.ctx, w.tx, w.games)
}

// seatWork is the work of one mail to a seat's address: the work, the
// loaded game, the sender's seat and the language he is answered in.
// The commands of a game's thread that get an answer of their own are
// its methods (seatAnswers).
type seatWork struct {
	*work
	lg      *loaded.Game
	seat    store.Seat
	grammar parser.Grammar
}

// seatAnswer does a lobby command of a game's thread that the sender gets
// a mail of its own for.
type seatAnswer func(sw *seatWork, c parser.Command) error

// seatAnswers are the commands of seatActs' actAnswer, by kind.
var seatAnswers = map[parser.Kind]seatAnswer{
	parser.KindJoin:       (*seatWork).join,
	parser.KindDecline:    (*seatWork).decline,
	parser.KindNever:      (*seatWork).never,
	parser.KindHelp:       (*seatWork).help,
	parser.KindRules:      (*seatWork).rulesOf,
	parser.KindGames:      (*seatWork).gamesOf,
	parser.KindStatus:     (*seatWork).status,
	parser.KindHistory:    (*seatWork).history,
	parser.KindStandings:  (*seatWork).standingsOf,
	parser.KindLink:       (*seatWork).link,
	parser.KindSpectators: (*seatWork).spectatorsOf,
	parser.KindResign:     (*seatWork).resign,
	parser.KindRematch:    (*seatWork).rematch,
	parser.KindAddress:    (*seatWork).address,
}

// never: no more invitations, ever; this one is declined if it still
// stands.
func (sw *seatWork) never(c parser.Command) error {
	if err := sw.tx.SetNoInvitations(sw.ctx, sw.post.MailboxOf(sw.from), true); err != nil {
		return err
	}
	if sw.lg.Row.Status == store.StatusInviting {
		return sw.decline(c)
	}
	return sw.gameMail(sw.lg, sw.seat, templates.MailStatus, []string{sw.words.NeverInviteAgain()}, true)
}

func (sw *seatWork) help(parser.Command) error {
	lg := sw.lg
	return sw.seatNotice(sw.seat, templates.Notice{Kind: templates.NoticeHelp, Game: lg.Rules.Name(), Title: lg.Rules.Title(), GameID: lg.Row.ID, Usages: sw.grammar.Usages()})
}

// rulesOf mails the rules of the game named, or of this one.
func (sw *seatWork) rulesOf(c parser.Command) error {
	game := c.Game
	if game == "" {
		game = sw.lg.Rules.Name()
	}
	return sw.rules(&sw.seat, game, sw.grammar.Usages())
}

// gamesOf mails the list of the sender's games.
func (sw *seatWork) gamesOf(parser.Command) error {
	return sw.gamesList(&sw.seat)
}

// status mails the game as it stands, with an undo being answered.
func (sw *seatWork) status(parser.Command) error {
	intro, err := sw.undoStatus(sw.lg, sw.seat)
	if err != nil {
		return err
	}
	return sw.gameMail(sw.lg, sw.seat, templates.MailStatus, intro, true)
}

// standingsOf mails the standings.
func (sw *seatWork) standingsOf(c parser.Command) error {
	return sw.standings(&sw.seat, c)
}

// spectatorsOf opens the game to spectators or closes it.
func (sw *seatWork) spectatorsOf(c parser.Command) error {
	line, err := sw.spectators(sw.lg, sw.seat, len(c.Args) > 0 && c.Args[0] == "on")
	if err != nil {
		return err
	}
	return sw.gameMail(sw.lg, sw.seat, templates.MailStatus, []string{line}, true)
}

// link mails a new link to the seat's page.
func (sw *seatWork) link(parser.Command) error {
	line, err := sw.newLink(sw.lg, sw.seat)
	if err != nil {
		return err
	}
	return sw.gameMail(sw.lg, sw.seat, templates.MailStatus, []string{line}, true)
}

// record appends one applied move and its events to the game's log.
func (w *work) record(lg *loaded.Game, seat int, command, source string, events []engine.Event) error {
	if err := lg.Record(w.ctx, w.tx, seat, command, source, events, w.now()); err != nil {
		return err
	}
	// A move the table saw ends an undo still being answered.
	return w.overtakeUndo(lg, seat, events)
}

func (sw *seatWork) join(parser.Command) error {
	w, lg, seat := sw.work, sw.lg, sw.seat
	if lg.Row.Status != store.StatusInviting || seat.State == store.SeatJoined {
		return w.gameMail(lg, seat, templates.MailStatus, []string{sw.words.AlreadyJoined()}, true)
	}
	if err := w.tx.SetSeatJoined(w.ctx, lg.Row.ID, seat.Seat); err != nil {
		return err
	}
	w.learnJoined(seat)
	w.outcome = OutcomeApplied
	lg.Seats[seat.Seat].State = store.SeatJoined
	var waiting []string
	for _, st := range lg.Seats {
		if st.State != store.SeatJoined {
			waiting = append(waiting, st.Name)
		}
	}
	if len(waiting) > 0 {
		if !w.confirms(seat) {
			// confirm off: the join is applied, and the start mail
			// will say so.
			return nil
		}
		return w.seatNotice(seat, templates.Notice{Kind: templates.NoticeJoined, Game: lg.Rules.Name(), Title: lg.Rules.Title(),
			GameID: lg.Row.ID, Players: lg.Names, Waiting: waiting})
	}
	// Everyone is in: the game starts and every player gets his first
	// summary, the opening included.
	if err := w.tx.SetGameStatus(w.ctx, lg.Row.ID, store.StatusActive); err != nil {
		return err
	}
	lg.Row.Status = store.StatusActive
	if _, err := w.tx.AppendAudit(w.ctx, lg.Row.ID, w.from, string(auditStart), "everyone joined", w.now()); err != nil {
		return err
	}
	return w.start(lg, seat.Seat)
}

// start sends every player the game's first mail: how the game begins,
// from its opening on. A player may have had a game mail while the game
// waited for the others (his own status, an admin's act), which told him
// the opening already; the start mail tells it again, so that every
// player's start mail is whole.
func (w *work) start(lg *loaded.Game, actor int) error {
	for _, st := range lg.Seats {
		if err := w.tx.SetSeatLastMailedEvent(w.ctx, lg.Row.ID, st.Seat, 0); err != nil {
			return err
		}
	}
	ev := []store.Event{storeSaid(engine.Public, EventStart, templates.Say.EveryoneJoined(), templates.Phrases.EveryoneJoined())}
	if err := w.tx.AppendEvents(w.ctx, lg.Row.ID, lg.Row.LastSeq, ev); err != nil {
		return err
	}
	return w.settle(lg, settleStart, actor, nil)
}

func (sw *seatWork) decline(parser.Command) error {
	w, lg, seat := sw.work, sw.lg, sw.seat
	if lg.Row.Status != store.StatusInviting {
		return w.gameMail(lg, seat, templates.MailStatus, []string{sw.words.DeclineTooLate()}, true)
	}
	return w.declineInvitation(lg, seat, func(store.Seat) bool { return true })
}

// declineInvitation declines seat's invitation to lg, a game still
// inviting, in the audit log and for the table: the seats tell chooses
// are told. decline tells every seat; a one-click unsubscribe tells all
// but the one whose page says it (unsubscribe.go).
func (w *work) declineInvitation(lg *loaded.Game, seat store.Seat, tell func(store.Seat) bool) error {
	if _, err := w.tx.AppendAudit(w.ctx, lg.Row.ID, seat.Address, string(auditDecline), "", w.now()); err != nil {
		return err
	}
	w.outcome = OutcomeApplied
	n := templates.Notice{Kind: templates.NoticeDeclined, Game: lg.Rules.Name(), Title: lg.Rules.Title(), GameID: lg.Row.ID, From: seat.Name, Players: lg.Names}
	return w.endInvitation(lg, seat.Seat, n, tell)
}

// endInvitation ends a game still inviting, with seat declined: it will
// not start, and the seats tell chooses get n. A decline and a bounced
// invitation (inviteBounced) end a game so.
func (w *work) endInvitation(lg *loaded.Game, seat int, n templates.Notice, tell func(store.Seat) bool) error {
	if err := w.tx.SetSeatDeclined(w.ctx, lg.Row.ID, seat); err != nil {
		return err
	}
	if err := w.tx.SetGameStatus(w.ctx, lg.Row.ID, store.StatusDeclined); err != nil {
		return err
	}
	for _, st := range lg.Seats {
		if !tell(st) {
			continue
		}
		if err := w.seatNotice(st, n); err != nil {
			return err
		}
	}
	return nil
}

// resign takes a player out of a game for good. Before the game starts it
// is a decline; in a running game the seat stays (the others' game depends
// on it) and pbem makes the default move for it at once whenever the game
// waits on it.
func (sw *seatWork) resign(c parser.Command) error {
	w, lg, seat := sw.work, sw.lg, sw.seat
	switch lg.Row.Status {
	case store.StatusInviting:
		return sw.decline(c)
	case store.StatusActive, store.StatusPaused:
	default:
		return w.gameMail(lg, seat, templates.MailStatus, []string{notActive(lg, seat.Seat, w.words)}, true)
	}
	if err := w.tx.SetSeatResigned(w.ctx, lg.Row.ID, seat.Seat); err != nil {
		return err
	}
	lg.Seats[seat.Seat].State = store.SeatResigned
	if seat.Autopilot {
		// Resigning is for good; autopilot was until he came back.
		if err := w.tx.SetSeatAutopilot(w.ctx, lg.Row.ID, seat.Seat, false); err != nil {
			return err
		}
		lg.Seats[seat.Seat].Autopilot = false
	}
	if _, err := w.tx.AppendAudit(w.ctx, lg.Row.ID, w.from, string(auditResign), "", w.now()); err != nil {
		return err
	}
	ev := []store.Event{storeSaid(engine.Others(seat.Seat), EventResign, templates.Say.PlayerResigned(seat.Name, w.standIn().playsFor(seat.Name)),
		templates.Phrases.PlayerResigned(seat.Name, w.standIn().playsForP(seat.Name)))}
	if err := w.tx.AppendEvents(w.ctx, lg.Row.ID, lg.Row.LastSeq, ev); err != nil {
		return err
	}
	w.outcome = OutcomeApplied
	// settle makes the seat's default moves at once (autoplay); the
	// player gets this one answer, then only the final result.
	return w.settle(lg, settleResign, seat.Seat, []string{sw.words.YouResigned(w.standIn().in(sw.words).playsForYou())})
}

// hasMove reports whether cmds hold a command of the game.
func hasMove(cmds []parser.Command) bool {
	for _, c := range cmds {
		if !c.Lobby {
			return true
		}
	}
	return false
}

// takeBack takes the seat off autopilot, if it is on it: the player's
// own move or back says he is there again. The table and the admins are
// told, his missed deadlines start again from 0, and from the next time
// the game waits on him he has a deadline like everyone. It returns what
// to tell him, nothing if the seat was not on autopilot.
func (w *work) takeBack(lg *loaded.Game, seat *store.Seat) ([]string, error) {
	if !seat.Autopilot || seat.State == store.SeatResigned {
		return nil, nil
	}
	if lg.Row.Status != store.StatusActive && lg.Row.Status != store.StatusPaused {
		return nil, nil // over: there are no moves left to make for him
	}
	if err := w.tx.SetSeatAutopilot(w.ctx, lg.Row.ID, seat.Seat, false); err != nil {
		return nil, err
	}
	if err := w.tx.SetSeatMissed(w.ctx, lg.Row.ID, seat.Seat, 0); err != nil {
		return nil, err
	}
	seat.Autopilot, seat.Missed = false, 0
	lg.Seats[seat.Seat].Autopilot, lg.Seats[seat.Seat].Missed = false, 0
	ev := []store.Event{storeSaid(engine.Others(seat.Seat), EventAutopilotOff, templates.Say.PlayerBackFromAutopilot(seat.Name),
		templates.Phrases.PlayerBackFromAutopilot(seat.Name))}
	if err := w.tx.AppendEvents(w.ctx, lg.Row.ID, lg.Row.LastSeq, ev); err != nil {
		return nil, err
	}
	if _, err := w.tx.AppendAudit(w.ctx, lg.Row.ID, w.from, string(auditBack), "", w.now()); err != nil {
		return nil, err
	}
	w.outcome = OutcomeApplied
	if err := w.noticeAdmins(templates.Say.SeatBackFromAutopilot(), templates.Say.GameSeatSentCommand(lg.Row.ID, lg.Rules.Name(), seat.Name, seat.Seat)); err != nil {
		return nil, err
	}
	clock, err := w.restartClock(lg, seat)
	return append([]string{w.words.WelcomeBackFromAutopilot()}, clock...), err
}

// history mails the seat the whole log it may see.
func (sw *seatWork) history(parser.Command) error {
	w, lg, seat := sw.work, sw.lg, sw.seat
	all, err := w.tx.Events(w.ctx, lg.Row.ID, 0)
	if err != nil {
		return err
	}
	// The history tells everything: the next mail need not repeat it.
	if n := len(all); n > 0 {
		if err := w.tx.SetSeatLastMailedEvent(w.ctx, lg.Row.ID, seat.Seat, all[n-1].ID); err != nil {
			return err
		}
	}
	return w.renderGameMail(lg, seat, templates.MailStatus, nil, visible(all, seat.Seat), true)
}
