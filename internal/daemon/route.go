package daemon

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"strings"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/parser"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// process decides what an inbound message from a person means: mail to
// the bare address is for the lobby, mail to a seat's address is about
// that seat's game and must come from the seat's player.
func (s *Service) process(ctx context.Context, tx *store.Tx, t *turn) error {
	t.bounds = mailBounds{} // a retried transaction starts afresh
	if err := s.route(ctx, tx, t); err != nil {
		return err
	}
	// The tables the mail's vacation news is for are mailed once, after
	// everything else it did (bounds.go).
	return s.mailTables(ctx, tx, t)
}

// route hands the mail to the lobby or to the seat it was sent to.
func (s *Service) route(ctx context.Context, tx *store.Tx, t *turn) error {
	// The display name of From is not kept: a player's name in games is
	// the one he chooses with `name` (internal/daemon/names.go).
	if _, err := tx.UpsertPlayer(ctx, t.from, ""); err != nil {
		return err
	}
	rcpts := append([]string{t.msg.DeliveredTo}, t.msg.To...)
	t.token = s.tokenOf(append(rcpts, t.msg.Cc...)...)
	if t.token == "" {
		if err := s.answeredBy(ctx, tx, t, nil); err != nil {
			return err
		}
		return s.lobby(ctx, tx, t)
	}
	// The admin token is compared exactly and in constant time: its
	// validity must not show in how long pbem takes to refuse it.
	admin := s.cfg.AdminToken != "" && subtle.ConstantTimeCompare([]byte(t.token), []byte(s.cfg.AdminToken)) == 1
	if admin && s.isAdmin(t.from) {
		return s.adminMail(ctx, tx, t)
	}
	seat, err := tx.SeatByToken(ctx, t.token)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return err
	}
	if admin || err != nil || seat.Address != t.from {
		// One answer for a token that is no one's, another player's, or
		// the admins': a stranger must not learn which tokens are valid.
		return s.refuse(ctx, tx, t, templates.NoticeRefusal, notYours(s.cfg.Address))
	}
	if locked := tx.LockedGame(); locked != 0 && locked != seat.GameID {
		// The transaction holds another game than the mail's (gameOf):
		// run it again under the global lock.
		return fmt.Errorf("daemon: mail for game %d in the transaction of game %d: %w", seat.GameID, locked, store.ErrWiderLock)
	}
	t.gameID = seat.GameID
	if err := s.answeredBy(ctx, tx, t, &seat); err != nil {
		return err
	}
	return s.seatMail(ctx, tx, t, seat)
}

// notYours is the one refusal for mail to a game address that is not the
// sender's.
func notYours(service string) string {
	return templates.Say.AddressYouWroteNot(service)
}

// lobby answers mail to the bare address: commands that need no game.
func (s *Service) lobby(ctx context.Context, tx *store.Tx, t *turn) error {
	lang := parser.Language{Games: s.names}
	cmds, prob, fromSubject := parser.ReadMessage(t.msg, lang)
	t.fromSubject = fromSubject
	t.outcome = OutcomeAnswered
	var said []string // what settings changed, told in one answer
	for i, c := range cmds {
		// Every command read costs the sender: one mail of many
		// commands, or many mails, cannot keep pbem busy.
		ok, err := tx.Spend(ctx, s.mailboxOf(t.from), bucketLobby, s.now(), lobbyWindow, s.cfg.Limits.LobbyPerHour)
		if err != nil {
			return err
		}
		if !ok {
			t.detail = fmt.Sprintf("lobby limit: %d command(s) not read", len(cmds)-i)
			said = append(said, templates.Say.PbemReadsMostCommands(s.cfg.Limits.LobbyPerHour))
			prob = nil
			break
		}
		// A setting that a forger could use against the player, and what
		// one mail may do only once, are answered "not done" with the
		// reason (bounds.go).
		why, err := s.bareSetting(ctx, tx, t, c)
		if err != nil {
			return err
		}
		if why == "" {
			why = t.bounds.oncePerMail(c)
		}
		if why != "" {
			said = append(said, why)
			continue
		}
		t.bounds.done(c)
		act, ok := lobbyActs[c.Kind]
		if !ok {
			act = (*Service).lobbyAboutGame
		}
		lines, err := act(s, ctx, tx, t, c, lang)
		if err != nil {
			return err
		}
		said = append(said, lines...)
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
		return s.notice(t, t.from, "", templates.Notice{Kind: templates.NoticeHelp, Usages: lang.Usages(), Lines: said})
	}
	if prob != nil {
		return s.problem(ctx, tx, t, nil, nil, prob)
	}
	return nil
}

// lobbyAct does one command mailed to pbem's own address: it answers the
// sender itself, or returns lines for the mail's one answer.
type lobbyAct func(s *Service, ctx context.Context, tx *store.Tx, t *turn, c parser.Command, lang parser.Language) ([]string, error)

// lobbyActs are the commands pbem's own address takes, by kind; any other
// is about a game (lobbyAboutGame).
var lobbyActs = map[parser.Kind]lobbyAct{
	parser.KindHelp:      (*Service).lobbyHelp,
	parser.KindRules:     (*Service).lobbyRules,
	parser.KindNew:       (*Service).lobbyNew,
	parser.KindNever:     (*Service).lobbyNever,
	parser.KindStandings: (*Service).lobbyStandings,
	parser.KindGames:     (*Service).lobbyGames,
	parser.KindName:      (*Service).lobbyName,
	parser.KindNotify:    (*Service).lobbySetting,
	parser.KindTimezone:  (*Service).lobbySetting,
	parser.KindConfirm:   (*Service).lobbySetting,
	parser.KindVacation:  (*Service).lobbyVacation,
	parser.KindBack:      (*Service).lobbyBack,
}

func (s *Service) lobbyHelp(ctx context.Context, tx *store.Tx, t *turn, c parser.Command, lang parser.Language) ([]string, error) {
	return nil, s.notice(t, t.from, "", templates.Notice{Kind: templates.NoticeHelp, Usages: lang.Usages()})
}

func (s *Service) lobbyRules(ctx context.Context, tx *store.Tx, t *turn, c parser.Command, lang parser.Language) ([]string, error) {
	return nil, s.rules(ctx, tx, t, nil, c.Game, lang.Usages())
}

// lobbyNew starts a game: one per mail (oncePerMail), so that a mail of
// sixty `new` lines does not invite sixty times.
func (s *Service) lobbyNew(ctx context.Context, tx *store.Tx, t *turn, c parser.Command, lang parser.Language) ([]string, error) {
	return nil, s.newGame(ctx, tx, t, c)
}

func (s *Service) lobbyNever(ctx context.Context, tx *store.Tx, t *turn, c parser.Command, lang parser.Language) ([]string, error) {
	return []string{neverAgain}, tx.SetNoInvitations(ctx, s.mailboxOf(t.from), true)
}

// neverAgain answers never.
var neverAgain = templates.Say.NeverInviteAgain()

func (s *Service) lobbyStandings(ctx context.Context, tx *store.Tx, t *turn, c parser.Command, lang parser.Language) ([]string, error) {
	return nil, s.standings(ctx, tx, t, nil)
}

func (s *Service) lobbyGames(ctx context.Context, tx *store.Tx, t *turn, c parser.Command, lang parser.Language) ([]string, error) {
	return nil, s.gamesList(ctx, tx, t, nil)
}

func (s *Service) lobbyName(ctx context.Context, tx *store.Tx, t *turn, c parser.Command, lang parser.Language) ([]string, error) {
	line, err := s.rename(ctx, tx, t, c.NewName)
	return []string{line}, err
}

func (s *Service) lobbySetting(ctx context.Context, tx *store.Tx, t *turn, c parser.Command, lang parser.Language) ([]string, error) {
	line, err := s.setting(ctx, tx, t, c)
	return []string{line}, err
}

func (s *Service) lobbyVacation(ctx context.Context, tx *store.Tx, t *turn, c parser.Command, lang parser.Language) ([]string, error) {
	line, err := s.vacation(ctx, tx, t, c)
	return []string{line}, err
}

func (s *Service) lobbyBack(ctx context.Context, tx *store.Tx, t *turn, c parser.Command, lang parser.Language) ([]string, error) {
	line, err := s.back(ctx, tx, t)
	return []string{line}, err
}

// lobbyAboutGame answers a command that needs a game, sent to pbem's own
// address.
func (s *Service) lobbyAboutGame(ctx context.Context, tx *store.Tx, t *turn, c parser.Command, lang parser.Language) ([]string, error) {
	return nil, s.notice(t, t.from, "", templates.Notice{Kind: templates.NoticeUnknown, Reason: templates.Say.AboutGameReplyLatest(c.Text)})
}

// problem answers text that was not understood, in the sender's seat's
// thread when his mail came to it. There it lists what he can do now,
// opts (none: nothing is due from him), as the game mail does; from the
// bare address, the commands of the language.
func (s *Service) problem(ctx context.Context, tx *store.Tx, t *turn, seat *store.Seat, opts []engine.Option, prob *parser.Problem) error {
	n := templates.Notice{Kind: templates.NoticeError, Reason: prob.Told(), DidYouMean: prob.DidYouMean, Usages: prob.Usages}
	if seat != nil {
		n.Seated, n.Options, n.Usages = true, opts, nil
	}
	if prob.Text != "" {
		n.Reason = templates.Say.PbemCouldNotRead(prob.Text, prob.Told())
	}
	if prob.Read > 0 {
		n.Lines = append(n.Lines, templates.Say.CommandBeforeWereRead(prob.Read))
	}
	if t.detail == "" {
		t.detail = prob.Error()
	}
	return s.answer(ctx, tx, t, seat, n)
}

// rules answers `rules`, in the sender's seat's thread when his mail came
// to it.
func (s *Service) rules(ctx context.Context, tx *store.Tx, t *turn, seat *store.Seat, game string, usages []string) error {
	rules, ok := s.games(game)
	if !ok {
		return s.answer(ctx, tx, t, seat, templates.Notice{Kind: templates.NoticeInvalid,
			Reason: templates.Say.PbemHostsTheseGamesAsk(strings.Join(s.names, ", "), s.names[0]), Usages: usages})
	}
	return s.answer(ctx, tx, t, seat, templates.Notice{Kind: templates.NoticeRules, Game: rules.Name(), Title: rules.Title(), Usages: usages})
}

// gamesList answers `games`, in the sender's seat's thread when his mail
// came to it.
func (s *Service) gamesList(ctx context.Context, tx *store.Tx, t *turn, seat *store.Seat) error {
	games, err := tx.GamesOf(ctx, t.from)
	if err != nil {
		return err
	}
	n := templates.Notice{Kind: templates.NoticeGames}
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
				line.YourTurn = templates.Say.YourTurn()
			}
		}
		line.Players = strings.Join(names, ", ")
		n.Games = append(n.Games, line)
	}
	return s.answer(ctx, tx, t, seat, n)
}
