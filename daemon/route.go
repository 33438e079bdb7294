package daemon

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/pbem/pbem/parser"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// process decides what an inbound message from a person means: mail to
// the bare address is for the lobby, mail to a seat's address is about
// that seat's game and must come from the seat's player.
func (s *Service) process(ctx context.Context, tx *store.Tx, t *turn) error {
	// The display name of From is not kept: a player's name in games is
	// the one he chooses with `name` (daemon/names.go).
	if _, err := tx.UpsertPlayer(ctx, t.from, ""); err != nil {
		return err
	}
	rcpts := append([]string{t.msg.DeliveredTo}, t.msg.To...)
	t.token = s.tokenOf(append(rcpts, t.msg.Cc...)...)
	if t.token == "" {
		return s.lobby(ctx, tx, t)
	}
	admin := s.cfg.AdminToken != "" && t.token == strings.ToLower(s.cfg.AdminToken)
	if admin && s.isAdmin(t.from) {
		return s.adminMail(ctx, tx, t)
	}
	seat, err := tx.SeatByToken(ctx, t.token)
	if admin || errors.Is(err, store.ErrNotFound) {
		return s.refuse(ctx, tx, t, "refusal", "The address you wrote to belongs to no game. Reply to a mail from one of your games, or write to "+s.cfg.Address+" to start one.")
	}
	if err != nil {
		return err
	}
	if seat.Address != t.from {
		// Never say whose seat it is: the token is the secret.
		return s.refuse(ctx, tx, t, "refusal", "This game address belongs to another player, so pbem did not read your mail. Commands count only from the address that was invited.")
	}
	t.gameID = seat.GameID
	return s.seatMail(ctx, tx, t, seat)
}

// lobby answers mail to the bare address: commands that need no game.
func (s *Service) lobby(ctx context.Context, tx *store.Tx, t *turn) error {
	lang := parser.Language{Games: s.names}
	cmds, prob, fromSubject := parser.ReadMessage(t.msg, lang)
	t.fromSubject = fromSubject
	t.outcome = outcomeAnswered
	var said []string // what settings changed, told in one answer
	for _, c := range cmds {
		var err error
		switch c.Name {
		case "help":
			err = s.notice(t, t.from, "", templates.Notice{Kind: "help", Usages: lang.Usages()})
		case "rules":
			err = s.rules(t, c.Game, "", lang.Usages())
		case "new":
			err = s.newGame(ctx, tx, t, c)
		case "games":
			err = s.gamesList(ctx, tx, t)
		case "name":
			var line string
			line, err = s.rename(ctx, tx, t, c.NewName)
			said = append(said, line)
		case "notify", "timezone":
			var line string
			line, err = s.setting(ctx, tx, t, c)
			said = append(said, line)
		default:
			err = s.notice(t, t.from, "", templates.Notice{Kind: "unknown", Reason: fmt.Sprintf("%q is about a game: reply to the latest mail of that game, so that pbem knows which one you mean.", c.Text)})
		}
		if err != nil {
			return err
		}
	}
	if len(said) > 0 {
		if prob != nil {
			// One answer says what was done and where the reading
			// stopped.
			said = append(said, stoppedAt(prob))
			if t.detail == "" {
				t.detail = prob.Error()
			}
		}
		return s.notice(t, t.from, "", templates.Notice{Kind: "help", Usages: lang.Usages(), Lines: said})
	}
	if prob != nil {
		return s.problem(t, t.from, "", prob)
	}
	return nil
}

// problem answers text that was not understood.
func (s *Service) problem(t *turn, to, token string, prob *parser.Problem) error {
	n := templates.Notice{Kind: "error", Reason: prob.Reason, DidYouMean: prob.DidYouMean, Usages: prob.Usages}
	if prob.Text != "" {
		n.Reason = fmt.Sprintf("pbem could not read %q: %s", prob.Text, prob.Reason)
	}
	if prob.Read > 0 {
		n.Lines = append(n.Lines, fmt.Sprintf("The %d command(s) before it were read; the rest of your mail was ignored.", prob.Read))
	}
	if t.detail == "" {
		t.detail = prob.Error()
	}
	return s.notice(t, to, token, n)
}

func (s *Service) rules(t *turn, game, token string, usages []string) error {
	rules, ok := s.games(game)
	if !ok {
		return s.notice(t, t.from, token, templates.Notice{Kind: "invalid",
			Reason: fmt.Sprintf("pbem hosts these games: %s. Ask for their rules with: rules %s", strings.Join(s.names, ", "), s.names[0]), Usages: usages})
	}
	return s.notice(t, t.from, token, templates.Notice{Kind: "rules", Game: rules.Name(), Title: rules.Title(), Usages: usages})
}

func (s *Service) gamesList(ctx context.Context, tx *store.Tx, t *turn) error {
	games, err := tx.GamesOf(ctx, t.from)
	if err != nil {
		return err
	}
	n := templates.Notice{Kind: "games"}
	for _, g := range games {
		line := templates.GameLine{ID: g.ID, Game: g.Kind, Status: string(g.Status)}
		if r, ok := s.games(g.Kind); ok {
			line.Title = r.Title()
		}
		seats, err := tx.Seats(ctx, g.ID)
		if err != nil {
			return err
		}
		var names []string
		for _, st := range seats {
			names = append(names, st.Name)
			if st.Address == t.from && !st.Deadline.IsZero() && g.Status == store.StatusActive {
				line.YourTurn = "your turn"
			}
		}
		line.Players = strings.Join(names, ", ")
		n.Games = append(n.Games, line)
	}
	return s.notice(t, t.from, "", n)
}
