package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/parser"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// table is one game loaded inside a transaction.
type table struct {
	row   store.Game
	seats []store.Seat
	rules engine.Rules
	game  engine.Game
	names []string
	acted map[int]bool // seats that made a move in this transaction
	// starting is set when everyone has just joined: settle sends the
	// start mail.
	starting bool
	// inbound is the mail whose commands are being applied, recorded with
	// each move; 0 for moves no mail made.
	inbound int64
	// confirmOnly says that the answer to the actor's mail would say
	// only that its commands were applied: a player with confirm off
	// then gets it only if it has more to say (settle).
	confirmOnly bool
	// tookBack is set when the actor's mail took his seat off autopilot:
	// settle tells the table, even if no move was applied.
	tookBack bool
	// announce is set when something the whole table hears happened
	// without a move of the actor's: an undo applied or ended (undo.go).
	announce bool
	// ask is set when the actor asked to take a move back: the players
	// who must answer are mailed, whatever their notify setting.
	ask bool
	// log is the engine's log of the game after logPly commands, as of
	// the move logSeq (engineLog): what a bot reads.
	log     []engine.Event
	logSeq  int64
	logPly  int
	logSeed uint64 // the stored set-up's seed, which the bots' seeds come from
}

// loadTable reads a game and rebuilds its engine state: from the snapshot
// when it is current, else from the set-up and the command log. A game
// whose stored state does not rebuild fails with a gameError: trying again
// will not help, and the game is set aside (quarantine.go).
func (s *Service) loadTable(ctx context.Context, tx *store.Tx, gameID int64) (*table, error) {
	row, err := tx.Game(ctx, gameID)
	if err != nil {
		return nil, err
	}
	rules, ok := s.games(row.Kind)
	if !ok {
		return nil, brokenGame(gameID, nil, "it is of a kind this pbem does not know (%q)", row.Kind)
	}
	seats, err := tx.Seats(ctx, gameID)
	if err != nil {
		return nil, err
	}
	tb := &table{row: row, seats: seats, rules: rules, acted: map[int]bool{}}
	for _, st := range seats {
		tb.names = append(tb.names, st.Name)
	}
	if row.Snapshot != nil && row.SnapshotSeq == row.LastSeq {
		tb.game, err = rules.Unmarshal(row.Snapshot)
		if err != nil {
			return nil, brokenGame(gameID, err, "its saved state does not load")
		}
		return tb, nil
	}
	var setup engine.Setup
	if err := json.Unmarshal(row.Setup, &setup); err != nil {
		return nil, brokenGame(gameID, err, "its set-up does not read")
	}
	if _, _, err := rules.New(setup); err != nil {
		return nil, brokenGame(gameID, err, "its set-up is refused by the rules")
	}
	moves, err := tx.Moves(ctx, gameID, 0)
	if err != nil {
		return nil, err
	}
	l, err := replayMoves(rules, setup, moves)
	if err != nil {
		// The error names the move, never its command: the command and
		// the engine's reason may name a hidden card.
		return nil, brokenGame(gameID, err, "its move log does not replay: %v", err)
	}
	tb.game = l.Game()
	return tb, nil
}

// seatMail handles mail from a seat's player about the seat's game. The
// player gets one answer: the game mail that says what was applied and
// what stopped the reading, unless a command (help, history, …) has an
// answer of its own and nothing else needs saying.
func (s *Service) seatMail(ctx context.Context, tx *store.Tx, t *turn, seat store.Seat) error {
	row, err := tx.Game(ctx, seat.GameID)
	if err != nil {
		return err
	}
	if row.Broken != "" {
		// Set aside: nothing is applied, and the game is not loaded (it
		// may be what fails). The sender alone is answered.
		t.outcome, t.detail = OutcomeAnswered, "game set aside as broken: nothing applied"
		return s.repairNotice(ctx, tx, t, row, seat, repairLine)
	}
	tb, err := s.loadTable(ctx, tx, seat.GameID)
	if err != nil {
		return err
	}
	tb.inbound = t.inboundID
	lang := s.seatLanguage(tb, seat.Seat)
	cmds, prob, fromSubject := parser.ReadMessage(t.msg, lang)
	t.fromSubject = fromSubject
	t.outcome = OutcomeAnswered
	stale, err := s.staleReply(ctx, tx, t, tb, seat)
	if err != nil {
		return err
	}
	var intro []string
	if hasMove(cmds) {
		// A move of his own, legal or not, says the player is back.
		said, err := s.takeBack(ctx, tx, t, tb, &seat)
		if err != nil {
			return err
		}
		intro = append(intro, said...)
	}
	replied := false // whether the sender already has an answer
	moved := false   // whether a move was applied
	applied := 0     // how many lines of intro only say that a move was applied
	talked := false  // whether a say or poke was done: deliverTalk mails the others
	for i, c := range cmds {
		if c.Lobby && (c.Name == "undo" || c.Name == "agree" || c.Name == "refuse") {
			var said string
			if c.Name == "undo" {
				said, err = s.proposeUndo(ctx, tx, t, tb, seat)
			} else {
				said, err = s.answerUndo(ctx, tx, t, tb, seat, c.Name == "agree")
			}
			if err != nil {
				return err
			}
			intro = append(intro, said)
			talked = talked || tb.ask
			continue
		}
		if c.Lobby && (c.Name == "say" || c.Name == "poke") {
			said, done, err := s.talk(ctx, tx, t, tb, seat, c)
			if err != nil {
				return err
			}
			intro = append(intro, said)
			if done {
				// A confirmation, which confirm off drops like that of a
				// move.
				applied++
				talked = true
				t.outcome = OutcomeApplied
			}
			continue
		}
		if !c.Lobby {
			if kind, reason := s.refuseMoves(tb, seat, stale); reason != "" {
				intro = append(intro, notApplied(cmds[i:], reason)...)
				t.detail = "not applied: " + string(kind)
				break
			}
			events, err := tb.game.Apply(seat.Seat, c.Move)
			var ie *engine.IllegalError
			if errors.As(err, &ie) {
				intro = append(intro, fmt.Sprintf("Not applied: %s: %s.", c.Text, ie.Reason))
				if i+1 < len(cmds) {
					intro = append(intro, "The commands after it were not applied either.")
				}
				// The reason may name the player's own cards or money:
				// what is stored and logged names the command only.
				t.detail = "illegal command: " + c.Move.Name
				prob = nil
				break
			}
			if err != nil {
				return err
			}
			if err := s.record(ctx, tx, tb, seat.Seat, c.Move.Text, store.SourceMail, events); err != nil {
				return err
			}
			intro = append(intro, "Applied: "+c.Text+".")
			applied++
			t.outcome = OutcomeApplied
			moved = true
			continue
		}
		done, said, err := s.seatLobby(ctx, tx, t, tb, seat, c, lang)
		if err != nil {
			return err
		}
		replied = replied || done
		intro = append(intro, said...)
	}
	if prob != nil {
		if len(intro) > 0 {
			// Something was applied or answered: one mail says both what
			// was done and where the reading stopped.
			intro = append(intro, stoppedAt(prob))
			if t.detail == "" {
				t.detail = prob.Error()
			}
		} else {
			// What he can do now, as his game mail lists it (a stale
			// reply does not change that).
			var opts []engine.Option
			if tb.row.Status == store.StatusActive && seat.State != store.SeatResigned {
				opts = tb.game.Options(seat.Seat)
			}
			if err := s.problem(ctx, tx, t, &seat, opts, prob); err != nil {
				return err
			}
			replied = true
		}
	}
	if moved && seat.Missed > 0 {
		// He moved himself: the deadlines he missed are no longer in a row.
		if err := tx.SetSeatMissed(ctx, tb.row.ID, seat.Seat, 0); err != nil {
			return err
		}
	}
	switch {
	case moved || tb.tookBack || tb.announce:
		// When the seat is taken back from autopilot, or an undo applied
		// or ended, the table is told (settle mails the others the news)
		// even when no move was applied.
		tb.confirmOnly = applied == len(intro)
		err = s.settle(ctx, tx, t, tb, seat.Seat, intro)
	case talked && applied == len(intro) && !replied && !s.confirms(ctx, tx, seat):
		// confirm off, and the answer would only confirm the talk.
	case len(intro) > 0 || !replied:
		err = s.gameMail(ctx, tx, t, tb, seat, templates.MailStatus, intro, true)
	}
	if err != nil || !talked {
		return err
	}
	return s.deliverTalk(ctx, tx, t, tb, seat.Seat)
}

// seatLanguage is what a seat's player may write: the lobby's commands,
// the game's, the players' names, and which game commands are legal now
// (for suggestions).
func (s *Service) seatLanguage(tb *table, seat int) parser.Language {
	return parser.Language{Games: s.names, Specs: tb.rules.Specs(), Nouns: engine.NounsOf(tb.rules), Players: tb.names,
		Legal: func() []engine.Option { return tb.game.Options(seat) }}
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

// refuseMoves says why no game command of this mail may be applied: its
// kind and what to tell the player, or "" and "".
func (s *Service) refuseMoves(tb *table, seat store.Seat, stale bool) (moveRefusal, string) {
	switch {
	case seat.State == store.SeatResigned:
		return refusedResigned, "you resigned from this game, so your commands no longer count; " + s.standIn().playsForYou()
	case tb.row.Status == store.StatusInviting:
		return refusedNotStarted, "the game has not started yet" // the mail says what it waits for
	case tb.row.Status != store.StatusActive:
		return refusedNotActive, strings.TrimSuffix(lowerFirst(s.notActive(tb, seat.Seat)), ".")
	case stale:
		return refusedStale, "your mail answers an older mail of this game, and the table has changed since you read it (see below). If you still want it, send the command again as a reply to this mail"
	}
	return "", ""
}

// notApplied tells the player that cmds were not applied, and why.
func notApplied(cmds []parser.Command, reason string) []string {
	var moves []string
	for _, c := range cmds {
		if !c.Lobby {
			moves = append(moves, c.Text)
		}
	}
	return []string{fmt.Sprintf("Not applied: %s: %s.", strings.Join(moves, "; "), reason)}
}

// stoppedAt says where the reading of a mail stopped, after what was
// applied or answered.
func stoppedAt(prob *parser.Problem) string {
	if prob.Text == "" {
		return "pbem stopped reading there: " + prob.Told()
	}
	line := fmt.Sprintf("pbem stopped reading at %q: %s", prob.Text, strings.TrimSuffix(prob.Told(), "."))
	if len(prob.DidYouMean) > 0 {
		line += fmt.Sprintf(" (did you mean %s?)", strings.Join(prob.DidYouMean, " or "))
	}
	return line + ". The rest of your mail was ignored."
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

// notActive says why a game takes no moves now.
func (s *Service) notActive(tb *table, seat int) string {
	switch tb.row.Status {
	case store.StatusInviting:
		var waiting []string
		for _, st := range tb.seats {
			if st.State != store.SeatJoined {
				waiting = append(waiting, st.Name)
			}
		}
		if tb.seats[seat].State != store.SeatJoined {
			return "The game has not started: reply join to take part, or decline."
		}
		return "The game has not started: waiting for " + strings.Join(waiting, ", ") + " to join."
	case store.StatusPaused:
		return "An admin has paused this game; moves count again when it resumes."
	case store.StatusFinished:
		return "This game is over."
	default:
		return "This game was " + string(tb.row.Status) + "; it takes no more moves."
	}
}

// seatLobby handles a lobby command sent to a seat's address. It reports
// whether it answered the sender, or else what to tell him in the reply.
func (s *Service) seatLobby(ctx context.Context, tx *store.Tx, t *turn, tb *table, seat store.Seat, c parser.Command, lang parser.Language) (bool, []string, error) {
	switch c.Name {
	case "notify", "timezone", "confirm":
		said, err := s.setting(ctx, tx, t, c)
		return false, []string{said}, err
	case "back":
		// Back from vacation (in all his games), and this seat back from
		// autopilot: one word for "I am here again".
		var said []string
		if !tb.tookBack { // else a move of the same mail took it back, and said so
			took, err := s.takeBack(ctx, tx, t, tb, &seat)
			if err != nil {
				return false, nil, err
			}
			said = append(said, took...)
		}
		// Ending a vacation reaches every table of his: it counts
		// against the bounds of one mail and the lobby budget (taking
		// this seat off autopilot, above, does not: it is his being
		// here).
		why, err := s.threadSetting(ctx, tx, t, c)
		if err != nil {
			return false, nil, err
		}
		if why != "" {
			return false, append(said, why), nil
		}
		if _, err := tx.CurrentVacation(ctx, t.from); err == nil {
			line, err := s.back(ctx, tx, t)
			if err != nil {
				return false, nil, err
			}
			said = append(said, line)
			if err := s.reloadTable(ctx, tx, tb); err != nil {
				return false, nil, err
			}
		} else if !errors.Is(err, store.ErrNotFound) {
			return false, nil, err
		}
		if len(said) > 0 || tb.tookBack {
			return false, said, nil
		}
		if seat.State == store.SeatResigned {
			return false, []string{"You resigned from this game: that is for good, and back does not undo it."}, nil
		}
		return false, []string{"You are not on vacation, and your seat is not on autopilot: you play it yourself."}, nil
	case "name", "vacation":
		said, err := s.threadSetting(ctx, tx, t, c)
		if err != nil || said != "" {
			return false, []string{said}, err
		}
		if c.Name == "name" {
			said, err = s.rename(ctx, tx, t, c.NewName)
		} else {
			said, err = s.vacation(ctx, tx, t, c)
		}
		if err != nil {
			return false, nil, err
		}
		// The rename may have rewritten this very game, and a vacation
		// moved its deadlines and told its table: carry on with it as
		// it is now.
		if err := s.reloadTable(ctx, tx, tb); err != nil {
			return false, nil, err
		}
		return false, []string{said}, nil
	case "rematch":
		if tb.row.Status == store.StatusFinished {
			// One game per mail, within the lobby budget.
			why, err := s.threadSetting(ctx, tx, t, c)
			if err != nil || why != "" {
				return false, []string{why}, err
			}
		}
	}
	done, err := s.seatLobbyAnswer(ctx, tx, t, tb, seat, c, lang)
	return done, nil, err
}

// reloadTable reads the game again after a command of this mail that may
// have changed it in this transaction (a rename, a vacation), keeping
// what the mail did at the table so far.
func (s *Service) reloadTable(ctx context.Context, tx *store.Tx, tb *table) error {
	fresh, err := s.loadTable(ctx, tx, tb.row.ID)
	if err != nil {
		return err
	}
	fresh.inbound, fresh.acted, fresh.tookBack, fresh.confirmOnly = tb.inbound, tb.acted, tb.tookBack, tb.confirmOnly
	*tb = *fresh
	return nil
}

// seatLobbyAnswer handles a lobby command that gets an answer of its own.
func (s *Service) seatLobbyAnswer(ctx context.Context, tx *store.Tx, t *turn, tb *table, seat store.Seat, c parser.Command, lang parser.Language) (bool, error) {
	switch c.Name {
	case "join":
		return true, s.join(ctx, tx, t, tb, seat)
	case "decline":
		return true, s.decline(ctx, tx, t, tb, seat)
	case "never":
		// No more invitations, ever; this one is declined if it still
		// stands.
		if err := tx.SetNoInvitations(ctx, t.from, true); err != nil {
			return true, err
		}
		if tb.row.Status == store.StatusInviting {
			return true, s.decline(ctx, tx, t, tb, seat)
		}
		return true, s.gameMail(ctx, tx, t, tb, seat, templates.MailStatus, []string{"pbem will not invite you to any game again. If you start a game yourself with new, invitations are welcome again."}, true)
	case "help":
		return true, s.seatNotice(ctx, tx, t, seat, templates.Notice{Kind: templates.NoticeHelp, Game: tb.rules.Name(), Title: tb.rules.Title(), GameID: tb.row.ID, Usages: lang.Usages()})
	case "rules":
		game := c.Game
		if game == "" {
			game = tb.rules.Name()
		}
		return true, s.rules(ctx, tx, t, &seat, game, lang.Usages())
	case "games":
		return true, s.gamesList(ctx, tx, t, &seat)
	case "status":
		intro, err := s.undoStatus(ctx, tx, tb, seat)
		if err != nil {
			return true, err
		}
		return true, s.gameMail(ctx, tx, t, tb, seat, templates.MailStatus, intro, true)
	case "history":
		return true, s.history(ctx, tx, t, tb, seat)
	case "standings":
		return true, s.standings(ctx, tx, t, &seat)
	case "link":
		line, err := s.newLink(ctx, tx, tb, seat)
		if err != nil {
			return true, err
		}
		return true, s.gameMail(ctx, tx, t, tb, seat, templates.MailStatus, []string{line}, true)
	case "spectators":
		line, err := s.spectators(ctx, tx, tb, seat, len(c.Args) > 0 && c.Args[0] == "on")
		if err != nil {
			return true, err
		}
		return true, s.gameMail(ctx, tx, t, tb, seat, templates.MailStatus, []string{line}, true)
	case "resign":
		return true, s.resign(ctx, tx, t, tb, seat)
	case "rematch":
		if tb.row.Status != store.StatusFinished {
			return true, s.gameMail(ctx, tx, t, tb, seat, templates.MailStatus, []string{"rematch starts a new game with the same players once this one is over."}, true)
		}
		return true, s.rematch(ctx, tx, t, tb, seat)
	}
	return true, s.seatNotice(ctx, tx, t, seat, templates.Notice{Kind: templates.NoticeInvalid, Reason: fmt.Sprintf("%q cannot be used in a game's thread.", c.Text), Usages: lang.Usages()})
}

// record appends one applied move and its events to the game's log.
func (s *Service) record(ctx context.Context, tx *store.Tx, tb *table, seat int, command, source string, events []engine.Event) error {
	seq, err := tx.AppendMove(ctx, tb.row.ID, store.Move{Seat: seat, Command: command, Source: source, InboundID: tb.inbound, At: s.now()})
	if err != nil {
		return err
	}
	tb.row.LastSeq = seq
	tb.acted[seat] = true
	if _, err = tx.AppendEvents(ctx, tb.row.ID, seq, storeEvents(events)); err != nil {
		return err
	}
	// A move the table saw ends an undo still being answered.
	return s.overtakeUndo(ctx, tx, tb, seat, events)
}

func (s *Service) join(ctx context.Context, tx *store.Tx, t *turn, tb *table, seat store.Seat) error {
	if tb.row.Status != store.StatusInviting || seat.State == store.SeatJoined {
		return s.gameMail(ctx, tx, t, tb, seat, templates.MailStatus, []string{"You have already joined this game."}, true)
	}
	if err := tx.SetSeatJoined(ctx, tb.row.ID, seat.Seat); err != nil {
		return err
	}
	t.outcome = OutcomeApplied
	tb.seats[seat.Seat].State = store.SeatJoined
	var waiting []string
	for _, st := range tb.seats {
		if st.State != store.SeatJoined {
			waiting = append(waiting, st.Name)
		}
	}
	if len(waiting) > 0 {
		if !s.confirms(ctx, tx, seat) {
			// confirm off: the join is applied, and the start mail
			// will say so.
			return nil
		}
		return s.seatNotice(ctx, tx, t, seat, templates.Notice{Kind: templates.NoticeJoined, Game: tb.rules.Name(), Title: tb.rules.Title(),
			GameID: tb.row.ID, Players: tb.names, Waiting: waiting})
	}
	// Everyone is in: the game starts and every player gets his first
	// summary, the opening included.
	if err := tx.SetGameStatus(ctx, tb.row.ID, store.StatusActive); err != nil {
		return err
	}
	tb.row.Status = store.StatusActive
	if _, err := tx.AppendAudit(ctx, tb.row.ID, t.from, "start", "everyone joined", s.now()); err != nil {
		return err
	}
	return s.start(ctx, tx, t, tb, seat.Seat)
}

// start sends every player the game's first mail: how the game begins,
// from its opening on. A player may have had a game mail while the game
// waited for the others (his own status, an admin's act), which told him
// the opening already; the start mail tells it again, so that every
// player's start mail is whole.
func (s *Service) start(ctx context.Context, tx *store.Tx, t *turn, tb *table, actor int) error {
	for _, st := range tb.seats {
		if err := tx.SetSeatLastMailedEvent(ctx, tb.row.ID, st.Seat, 0); err != nil {
			return err
		}
	}
	ev := []store.Event{{To: engine.Public, Kind: string(EventStart), Text: "Everyone has joined: the game begins."}}
	if _, err := tx.AppendEvents(ctx, tb.row.ID, tb.row.LastSeq, ev); err != nil {
		return err
	}
	tb.starting = true
	return s.settle(ctx, tx, t, tb, actor, nil)
}

func (s *Service) decline(ctx context.Context, tx *store.Tx, t *turn, tb *table, seat store.Seat) error {
	if tb.row.Status != store.StatusInviting {
		return s.gameMail(ctx, tx, t, tb, seat, templates.MailStatus, []string{"This game has already started; decline is only for invitations."}, true)
	}
	if err := tx.SetSeatDeclined(ctx, tb.row.ID, seat.Seat); err != nil {
		return err
	}
	if err := tx.SetGameStatus(ctx, tb.row.ID, store.StatusDeclined); err != nil {
		return err
	}
	if _, err := tx.AppendAudit(ctx, tb.row.ID, t.from, "decline", "", s.now()); err != nil {
		return err
	}
	t.outcome = OutcomeApplied
	for _, st := range tb.seats {
		n := templates.Notice{Kind: templates.NoticeDeclined, Game: tb.rules.Name(), Title: tb.rules.Title(), GameID: tb.row.ID, From: seat.Name, Players: tb.names}
		if err := s.seatNotice(ctx, tx, t, st, n); err != nil {
			return err
		}
	}
	return nil
}

// resign takes a player out of a game for good. Before the game starts it
// is a decline; in a running game the seat stays (the others' game depends
// on it) and pbem makes the default move for it at once whenever the game
// waits on it.
func (s *Service) resign(ctx context.Context, tx *store.Tx, t *turn, tb *table, seat store.Seat) error {
	switch tb.row.Status {
	case store.StatusInviting:
		return s.decline(ctx, tx, t, tb, seat)
	case store.StatusActive, store.StatusPaused:
	default:
		return s.gameMail(ctx, tx, t, tb, seat, templates.MailStatus, []string{s.notActive(tb, seat.Seat)}, true)
	}
	if err := tx.SetSeatResigned(ctx, tb.row.ID, seat.Seat); err != nil {
		return err
	}
	tb.seats[seat.Seat].State = store.SeatResigned
	if seat.Autopilot {
		// Resigning is for good; autopilot was until he came back.
		if err := tx.SetSeatAutopilot(ctx, tb.row.ID, seat.Seat, false); err != nil {
			return err
		}
		tb.seats[seat.Seat].Autopilot = false
	}
	if _, err := tx.AppendAudit(ctx, tb.row.ID, t.from, "resign", "", s.now()); err != nil {
		return err
	}
	ev := []store.Event{{To: engine.Others(seat.Seat), Kind: string(EventResign), Text: fmt.Sprintf("%s resigned; %s from now on.", seat.Name, s.standIn().playsFor(seat.Name))}}
	if _, err := tx.AppendEvents(ctx, tb.row.ID, tb.row.LastSeq, ev); err != nil {
		return err
	}
	t.outcome = OutcomeApplied
	// settle makes the seat's default moves at once (autoplay); the
	// player gets this one answer, then only the final result.
	return s.settle(ctx, tx, t, tb, seat.Seat, []string{fmt.Sprintf("You have resigned. %s until the game ends; you will get only its final result.", s.standIn().playsForYou())})
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
func (s *Service) takeBack(ctx context.Context, tx *store.Tx, t *turn, tb *table, seat *store.Seat) ([]string, error) {
	if !seat.Autopilot || seat.State == store.SeatResigned {
		return nil, nil
	}
	if tb.row.Status != store.StatusActive && tb.row.Status != store.StatusPaused {
		return nil, nil // over: there are no moves left to make for him
	}
	if err := tx.SetSeatAutopilot(ctx, tb.row.ID, seat.Seat, false); err != nil {
		return nil, err
	}
	if err := tx.SetSeatMissed(ctx, tb.row.ID, seat.Seat, 0); err != nil {
		return nil, err
	}
	seat.Autopilot, seat.Missed = false, 0
	tb.seats[seat.Seat].Autopilot, tb.seats[seat.Seat].Missed = false, 0
	tb.tookBack = true
	ev := []store.Event{{To: engine.Others(seat.Seat), Kind: string(EventAutopilotOff),
		Text: fmt.Sprintf("%s is back and plays %s's seat again: pbem no longer moves for %s.", seat.Name, seat.Name, seat.Name)}}
	if _, err := tx.AppendEvents(ctx, tb.row.ID, tb.row.LastSeq, ev); err != nil {
		return nil, err
	}
	if _, err := tx.AppendAudit(ctx, tb.row.ID, t.from, "back", "", s.now()); err != nil {
		return nil, err
	}
	t.outcome = OutcomeApplied
	err := s.noticeAdmins(t, "a seat is back from autopilot", fmt.Sprintf(
		"In game %d (%s), %s (seat %d) sent a command, so pbem no longer moves for the seat.",
		tb.row.ID, tb.rules.Name(), seat.Name, seat.Seat))
	return []string{"Welcome back: your seat is off autopilot, and pbem no longer makes your moves. When the game waits on you, you have a deadline again."}, err
}

// history mails the seat the whole log it may see.
func (s *Service) history(ctx context.Context, tx *store.Tx, t *turn, tb *table, seat store.Seat) error {
	all, err := tx.Events(ctx, tb.row.ID, 0)
	if err != nil {
		return err
	}
	// The history tells everything: the next mail need not repeat it.
	if n := len(all); n > 0 {
		if err := tx.SetSeatLastMailedEvent(ctx, tb.row.ID, seat.Seat, all[n-1].ID); err != nil {
			return err
		}
	}
	return s.renderGameMail(ctx, tx, t, tb, seat, templates.MailStatus, nil, visible(all, seat.Seat), true)
}
