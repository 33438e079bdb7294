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
	// inbound is the mail whose commands are being applied, recorded with
	// each move; 0 for moves no mail made.
	inbound int64
}

// loadTable reads a game and rebuilds its engine state: from the snapshot
// when it is current, else from the set-up and the command log.
func (s *Service) loadTable(ctx context.Context, tx *store.Tx, gameID int64) (*table, error) {
	row, err := tx.Game(ctx, gameID)
	if err != nil {
		return nil, err
	}
	rules, ok := s.games(row.Kind)
	if !ok {
		return nil, fmt.Errorf("daemon: game %d is of unknown kind %q", gameID, row.Kind)
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
			return nil, fmt.Errorf("daemon: game %d: %w", gameID, err)
		}
		return tb, nil
	}
	var setup engine.Setup
	if err := json.Unmarshal(row.Setup, &setup); err != nil {
		return nil, fmt.Errorf("daemon: game %d: set-up: %w", gameID, err)
	}
	g, _, err := rules.New(setup)
	if err != nil {
		return nil, fmt.Errorf("daemon: game %d: set-up: %w", gameID, err)
	}
	moves, err := tx.Moves(ctx, gameID, 0)
	if err != nil {
		return nil, err
	}
	for _, m := range moves {
		c, err := engine.ParseCommand(rules.Specs(), tb.names, m.Command)
		if err == nil {
			_, err = g.Apply(m.Seat, c)
		}
		if err != nil {
			return nil, fmt.Errorf("daemon: game %d: move %d (%s) does not replay: %w", gameID, m.Seq, m.Command, err)
		}
	}
	tb.game = g
	return tb, nil
}

// seatMail handles mail from a seat's player about the seat's game.
func (s *Service) seatMail(ctx context.Context, tx *store.Tx, t *turn, seat store.Seat) error {
	tb, err := s.loadTable(ctx, tx, seat.GameID)
	if err != nil {
		return err
	}
	tb.inbound = t.inboundID
	lang := parser.Language{Games: s.names, Specs: tb.rules.Specs(), Players: tb.names}
	cmds, prob := parser.Read(t.msg.Text, lang)
	t.outcome = outcomeAnswered
	var intro []string
	replied := false // whether the sender already has an answer
	moved := false   // whether a move was applied
	for i, c := range cmds {
		if !c.Lobby {
			if seat.State == store.SeatResigned {
				intro = append(intro, "You resigned from this game, so your commands no longer count; pbem makes the default moves for your seat.")
				break
			}
			if tb.row.Status != store.StatusActive {
				intro = append(intro, s.notActive(tb, seat.Seat))
				break
			}
			events, err := tb.game.Apply(seat.Seat, c.Move)
			var ie *engine.IllegalError
			if errors.As(err, &ie) {
				intro = append(intro, fmt.Sprintf("Not applied: %s: %s.", c.Text, ie.Reason))
				if i+1 < len(cmds) {
					intro = append(intro, "The commands after it were not applied either.")
				}
				t.detail = err.Error()
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
			t.outcome = outcomeApplied
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
		if err := s.problem(t, t.from, seat.Token, prob); err != nil {
			return err
		}
		replied = true
	}
	if moved {
		return s.settle(ctx, tx, t, tb, seat.Seat, intro)
	}
	if len(intro) > 0 || !replied {
		return s.gameMail(ctx, tx, t, tb, seat, "status", intro, true)
	}
	return nil
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
	case "notify", "timezone":
		said, err := s.setting(ctx, tx, t, c)
		return false, []string{said}, err
	case "name":
		if err := tx.SetPlayerName(ctx, t.from, c.NewName); err != nil {
			return false, nil, err
		}
		return false, []string{fmt.Sprintf("Your name is now %q.", c.NewName)}, nil
	}
	done, err := s.seatLobbyAnswer(ctx, tx, t, tb, seat, c, lang)
	return done, nil, err
}

// seatLobbyAnswer handles a lobby command that gets an answer of its own.
func (s *Service) seatLobbyAnswer(ctx context.Context, tx *store.Tx, t *turn, tb *table, seat store.Seat, c parser.Command, lang parser.Language) (bool, error) {
	switch c.Name {
	case "join":
		return true, s.join(ctx, tx, t, tb, seat)
	case "decline":
		return true, s.decline(ctx, tx, t, tb, seat)
	case "help":
		return true, s.notice(t, t.from, seat.Token, templates.Notice{Kind: "help", Game: tb.rules.Name(), Title: tb.rules.Title(), GameID: tb.row.ID, Usages: lang.Usages()})
	case "rules":
		game := c.Game
		if game == "" {
			game = tb.rules.Name()
		}
		return true, s.rules(t, game, seat.Token, lang.Usages())
	case "games":
		return true, s.gamesList(ctx, tx, t)
	case "status":
		return true, s.gameMail(ctx, tx, t, tb, seat, "status", nil, true)
	case "history":
		return true, s.history(ctx, tx, t, tb, seat)
	case "resign":
		return true, s.resign(ctx, tx, t, tb, seat)
	case "rematch":
		if tb.row.Status != store.StatusFinished {
			return true, s.gameMail(ctx, tx, t, tb, seat, "status", []string{"rematch starts a new game with the same players once this one is over."}, true)
		}
		return true, s.rematch(ctx, tx, t, tb)
	}
	return true, s.notice(t, t.from, seat.Token, templates.Notice{Kind: "error", Reason: fmt.Sprintf("%q cannot be used in a game's thread.", c.Text), Usages: lang.Usages()})
}

// record appends one applied move and its events to the game's log.
func (s *Service) record(ctx context.Context, tx *store.Tx, tb *table, seat int, command, source string, events []engine.Event) error {
	seq, err := tx.AppendMove(ctx, tb.row.ID, store.Move{Seat: seat, Command: command, Source: source, InboundID: tb.inbound, At: s.now()})
	if err != nil {
		return err
	}
	tb.row.LastSeq = seq
	tb.acted[seat] = true
	_, err = tx.AppendEvents(ctx, tb.row.ID, seq, storeEvents(events))
	return err
}

func (s *Service) join(ctx context.Context, tx *store.Tx, t *turn, tb *table, seat store.Seat) error {
	if tb.row.Status != store.StatusInviting || seat.State == store.SeatJoined {
		return s.gameMail(ctx, tx, t, tb, seat, "status", []string{"You have already joined this game."}, true)
	}
	if err := tx.SetSeatJoined(ctx, tb.row.ID, seat.Seat); err != nil {
		return err
	}
	t.outcome = outcomeApplied
	tb.seats[seat.Seat].State = store.SeatJoined
	var waiting []string
	for _, st := range tb.seats {
		if st.State != store.SeatJoined {
			waiting = append(waiting, st.Name)
		}
	}
	if len(waiting) > 0 {
		return s.seatNotice(t, tb.row.ID, seat.Seat, seat.Address, seat.Token, templates.Notice{Kind: "joined", Game: tb.rules.Name(), Title: tb.rules.Title(),
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
	return s.settle(ctx, tx, t, tb, seat.Seat, []string{"Everyone has joined: the game begins."})
}

func (s *Service) decline(ctx context.Context, tx *store.Tx, t *turn, tb *table, seat store.Seat) error {
	if tb.row.Status != store.StatusInviting {
		return s.gameMail(ctx, tx, t, tb, seat, "status", []string{"This game has already started; decline is only for invitations."}, true)
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
	t.outcome = outcomeApplied
	for _, st := range tb.seats {
		n := templates.Notice{Kind: "declined", Game: tb.rules.Name(), Title: tb.rules.Title(), GameID: tb.row.ID, From: seat.Name, Players: tb.names}
		if err := s.seatNotice(t, tb.row.ID, st.Seat, st.Address, st.Token, n); err != nil {
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
		return s.gameMail(ctx, tx, t, tb, seat, "status", []string{s.notActive(tb, seat.Seat)}, true)
	}
	if err := tx.SetSeatResigned(ctx, tb.row.ID, seat.Seat); err != nil {
		return err
	}
	tb.seats[seat.Seat].State = store.SeatResigned
	if _, err := tx.AppendAudit(ctx, tb.row.ID, t.from, "resign", "", s.now()); err != nil {
		return err
	}
	ev := []store.Event{{To: store.Public, Kind: "resign", Text: fmt.Sprintf("%s resigned: from now on pbem makes the default move for %s at once.", seat.Name, seat.Name)}}
	if _, err := tx.AppendEvents(ctx, tb.row.ID, tb.row.LastSeq, ev); err != nil {
		return err
	}
	t.outcome = outcomeApplied
	return s.settle(ctx, tx, t, tb, seat.Seat, []string{"You have resigned. pbem plays the default moves for your seat until the game ends; you will get its final result."})
}

// history mails the seat the whole log it may see.
func (s *Service) history(ctx context.Context, tx *store.Tx, t *turn, tb *table, seat store.Seat) error {
	all, err := tx.Events(ctx, tb.row.ID, 0)
	if err != nil {
		return err
	}
	return s.renderGameMail(ctx, tx, t, tb, seat, "status", []string{"The whole game so far, as you may see it:"}, visible(all, seat.Seat), false)
}
