package daemon

import (
	"crypto/subtle"
	"errors"
	"fmt"
	"strings"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/internal/admin"
	"github.com/pbem/pbem/parser"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// process decides what an inbound message from a person means: mail to
// the bare address is for the lobby, mail to a seat's address is about
// that seat's game and must come from the seat's player.
func (w *work) process() error {
	w.bounds = mailBounds{} // a retried transaction starts afresh
	if err := w.route(); err != nil {
		return err
	}
	// The tables the mail's vacation news is for are mailed once, after
	// everything else it did (bounds.go).
	return w.mailTables()
}

// route hands the mail to the lobby or to the seat it was sent to.
func (w *work) route() error {
	rcpts := append([]string{w.msg.DeliveredTo}, w.msg.To...)
	w.token = w.post.TokenOf(append(rcpts, w.msg.Cc...)...)
	if !isAddressToken(w.token) {
		// Mail from an address added to a player's is his (address.go);
		// a confirmation is judged by the address it came from.
		if err := w.readAsPlayer(); err != nil {
			return err
		}
	}
	// The seat of the token is read first, with its game's other seats
	// (store's Tx.SeatByToken), so that the sender, when he is one of
	// their players, is read with the game's other players, which the
	// seat's mail reads next (Tx.Player; issue 40). Every token is
	// looked up alike, the admin token too, which is then no seat's: how
	// long pbem takes must not tell which tokens are valid.
	var seat store.Seat
	seatErr := store.ErrNotFound
	if w.token != "" && !isAddressToken(w.token) {
		seat, seatErr = w.tx.SeatByToken(w.ctx, w.token)
		if seatErr != nil && !errors.Is(seatErr, store.ErrNotFound) {
			return seatErr
		}
		w.learnSeat(seat, seatErr)
	}
	// The display name of From is not kept: a player's name in games is
	// the one he chooses with `name` (internal/daemon/names.go).
	p, err := w.tx.UpsertPlayer(w.ctx, w.from, "")
	if err != nil {
		return err
	}
	if err := w.noteZoneGuess(p); err != nil {
		return err
	}
	if err := w.meetLanguage(p); err != nil {
		return err
	}
	if isAddressToken(w.token) {
		return w.confirmAddress()
	}
	if w.token == "" {
		if err := w.answeredBy(nil); err != nil {
			return err
		}
		return w.lobby()
	}
	// The admin token is compared exactly and in constant time: its
	// validity must not show in how long pbem takes to refuse it.
	toAdmin := w.cfg.AdminToken != "" && subtle.ConstantTimeCompare([]byte(w.token), []byte(w.cfg.AdminToken)) == 1
	if toAdmin && admin.Is(w.from, w.cfg.Admins) {
		return w.adminMail()
	}
	if toAdmin || seatErr != nil || seat.Address != w.from {
		// One answer for a token that is no one's, another player's, or
		// the admins': a stranger must not learn which tokens are valid.
		return w.refuse(templates.NoticeRefusal, w.notYours())
	}
	if locked := w.tx.LockedGame(); locked != 0 && locked != seat.GameID {
		// The transaction holds another game than the mail's (gameOf):
		// run it again under the global lock.
		return fmt.Errorf("daemon: mail for game %d in the transaction of game %d: %w", seat.GameID, locked, store.ErrWiderLock)
	}
	w.gameID = seat.GameID
	if err := w.answeredBy(&seat); err != nil {
		return err
	}
	return w.seatMail(seat)
}

// notYours is the one refusal for mail to a game address that is not the
// sender's, in his words.
func (w *work) notYours() string {
	return w.words.NotYourAddress(w.cfg.Address)
}

// lobby answers mail to the bare address: commands that need no game.
func (w *work) lobby() error {
	grammar := parser.Grammar{Games: w.names}
	cmds, prob, fromSubject := parser.ReadMessage(w.msg, grammar)
	w.fromSubject = fromSubject
	w.outcome = OutcomeAnswered
	var said []string // what settings changed, told in one answer
	for i, c := range cmds {
		// Every command read costs the sender: one mail of many
		// commands, or many mails, cannot keep pbem busy.
		ok, err := w.tx.Spend(w.ctx, w.post.MailboxOf(w.from), bucketLobby, w.now(), lobbyWindow, w.cfg.Limits.LobbyPerHour)
		if err != nil {
			return err
		}
		if !ok {
			w.detail = fmt.Sprintf("lobby limit: %d command(s) not read", len(cmds)-i)
			said = append(said, w.words.LobbyLimitReached(w.cfg.Limits.LobbyPerHour))
			prob = nil
			break
		}
		// A setting that a forger could use against the player, and what
		// one mail may do only once, are answered "not done" with the
		// reason (bounds.go).
		why, err := w.bareSetting(c)
		if err != nil {
			return err
		}
		if why == "" {
			why = w.bounds.oncePerMail(c, w.words)
		}
		if why != "" {
			said = append(said, why)
			continue
		}
		w.bounds.done(c)
		act, ok := lobbyActs[c.Kind]
		if !ok {
			act = (*work).lobbyAboutGame
		}
		lines, err := act(w, c, grammar)
		if err != nil {
			return err
		}
		said = append(said, lines...)
	}
	if len(said) > 0 {
		if prob != nil {
			// One answer says what was done and where the reading
			// stopped.
			said = append(said, stoppedAt(prob, w.words))
			if w.detail == "" {
				w.detail = prob.Error()
			}
			// A short answer, not the whole help: the footer says
			// where that is.
			return w.notice(w.from, "", templates.Notice{Kind: templates.NoticeApplied, Lines: said})
		}
		return w.notice(w.from, "", templates.Notice{Kind: templates.NoticeHelp, Usages: grammar.Usages(), Lines: said})
	}
	if prob != nil {
		return w.problem(nil, nil, prob)
	}
	return nil
}

// lobbyAct does one command mailed to pbem's own address: it answers the
// sender itself, or returns lines for the mail's one answer.
type lobbyAct func(w *work, c parser.Command, grammar parser.Grammar) ([]string, error)

// lobbyActs are the commands pbem's own address takes, by kind; any other
// is about a game (lobbyAboutGame).
var lobbyActs = map[parser.Kind]lobbyAct{
	parser.KindHelp:      (*work).lobbyHelp,
	parser.KindRules:     (*work).lobbyRules,
	parser.KindNew:       (*work).lobbyNew,
	parser.KindNever:     (*work).lobbyNever,
	parser.KindStandings: (*work).lobbyStandings,
	parser.KindGames:     (*work).lobbyGames,
	parser.KindName:      (*work).lobbyName,
	parser.KindNotify:    (*work).lobbySetting,
	parser.KindTimezone:  (*work).lobbySetting,
	parser.KindQuiet:     (*work).lobbySetting,
	parser.KindConfirm:   (*work).lobbySetting,
	parser.KindLanguage:  (*work).lobbySetting,
	parser.KindVacation:  (*work).lobbyVacation,
	parser.KindBack:      (*work).lobbyBack,
	parser.KindAddress:   (*work).lobbyAddress,
}

func (w *work) lobbyHelp(c parser.Command, grammar parser.Grammar) ([]string, error) {
	return nil, w.notice(w.from, "", templates.Notice{Kind: templates.NoticeHelp, Usages: grammar.Usages()})
}

func (w *work) lobbyRules(c parser.Command, grammar parser.Grammar) ([]string, error) {
	return nil, w.rules(nil, c.Game, grammar.Usages())
}

// lobbyNew starts a game: one per mail (oncePerMail), so that a mail of
// sixty `new` lines does not invite sixty times.
func (w *work) lobbyNew(c parser.Command, grammar parser.Grammar) ([]string, error) {
	return nil, w.newGame(c)
}

func (w *work) lobbyNever(c parser.Command, grammar parser.Grammar) ([]string, error) {
	return []string{w.words.NeverInviteAgain()}, w.tx.SetNoInvitations(w.ctx, w.post.MailboxOf(w.from), true)
}

func (w *work) lobbyStandings(c parser.Command, grammar parser.Grammar) ([]string, error) {
	return nil, w.standings(nil, c)
}

func (w *work) lobbyGames(c parser.Command, grammar parser.Grammar) ([]string, error) {
	return nil, w.gamesList(nil)
}

func (w *work) lobbyName(c parser.Command, grammar parser.Grammar) ([]string, error) {
	line, err := w.rename(c.NewName)
	return []string{line}, err
}

func (w *work) lobbySetting(c parser.Command, grammar parser.Grammar) ([]string, error) {
	line, err := w.setting(c, nil)
	return []string{line}, err
}

func (w *work) lobbyVacation(c parser.Command, grammar parser.Grammar) ([]string, error) {
	line, err := w.vacation(c)
	return []string{line}, err
}

func (w *work) lobbyBack(c parser.Command, grammar parser.Grammar) ([]string, error) {
	line, err := w.back()
	return []string{line}, err
}

// lobbyAboutGame answers a command that needs a game, sent to pbem's own
// address.
func (w *work) lobbyAboutGame(c parser.Command, grammar parser.Grammar) ([]string, error) {
	return nil, w.notice(w.from, "", templates.Notice{Kind: templates.NoticeUnknown, Reason: w.words.CommandNeedsGameThread(c.Text)})
}

// problem answers text that was not understood, in the sender's seat's
// thread when his mail came to it. There it lists what he can do now,
// opts (none: nothing is due from him), as the game mail does; from the
// bare address, the commands of the language.
func (w *work) problem(seat *store.Seat, opts []engine.Option, prob *parser.Problem) error {
	n := templates.Notice{Kind: templates.NoticeError, Reason: w.words.Told(*prob), DidYouMean: prob.DidYouMean}
	if prob.Kind == parser.ProblemNoCommand || prob.Kind == parser.ProblemUnknown {
		// No command was recognised: the answer names the commands,
		// in a line, not the whole help. A known command's reason
		// gives its own form ("new GAME with ADDRESS...").
		n.Usages = bareUsages(prob.Usages)
	}
	if seat != nil {
		n.Seated, n.Options, n.Usages = true, opts, nil
	}
	if prob.Text != "" {
		n.Reason = w.words.CouldNotRead(prob.Text, w.words.Told(*prob))
	}
	if prob.Read > 0 {
		n.Lines = append(n.Lines, w.words.EarlierCommandsRead(prob.Read))
	}
	if w.detail == "" {
		w.detail = prob.Error()
	}
	return w.answer(seat, n)
}

// rules answers `rules`, in the sender's seat's thread when his mail came
// to it.
func (w *work) rules(seat *store.Seat, game string, usages []string) error {
	rules, ok := w.games(game)
	if !ok {
		return w.answer(seat, templates.Notice{Kind: templates.NoticeInvalid,
			Reason: w.words.HostedGamesWithRulesHint(strings.Join(w.names, ", "), w.names[0]), Usages: usages})
	}
	return w.answer(seat, templates.Notice{Kind: templates.NoticeRules, Game: rules.Name(), Title: rules.Title(), Usages: usages})
}

// gamesList answers `games`, in the sender's seat's thread when his mail
// came to it.
// finishedLine is what `games` says of a finished game: who won, and
// the scores from the highest.
func (w *work) finishedLine(id int64) (string, error) {
	lg, err := w.loadGame(id)
	if err != nil {
		return "", err
	}
	res := lg.State.Result()
	var winners []string
	for _, s := range res.Winners {
		winners = append(winners, lg.Names[s])
	}
	scores := make([]templates.Score, len(res.Scores))
	for i, sc := range res.Scores {
		scores[i] = templates.Score{Name: lg.Names[i], Score: sc}
	}
	return w.words.FinishedGame(winners, scores), nil
}

func (w *work) gamesList(seat *store.Seat) error {
	games, err := w.tx.GamesOf(w.ctx, w.from)
	if err != nil {
		return err
	}
	n := templates.Notice{Kind: templates.NoticeGames}
	for _, g := range games {
		line := templates.GameLine{ID: g.ID, Game: g.Kind, Status: w.words.GameStatus(string(g.Status))}
		if r, ok := w.games(g.Kind); ok {
			line.Title = r.Title()
		}
		seats, err := w.tx.Seats(w.ctx, g.ID)
		if err != nil {
			return err
		}
		var names []string
		for _, st := range seats {
			names = append(names, st.Name)
			if st.Address == w.from && !st.Deadline.IsZero() && g.Status == store.StatusActive {
				line.YourTurn = w.words.YourTurn()
			}
		}
		line.Players = strings.Join(names, ", ")
		if g.Status == store.StatusFinished {
			if line.Status, err = w.finishedLine(g.ID); err != nil {
				return err
			}
		}
		n.Games = append(n.Games, line)
	}
	return w.answer(seat, n)
}

// bareUsages keeps of usages the commands pbem's own address takes
// (lobbyActs, and help): a game's commands go in its thread.
func bareUsages(usages []string) []string {
	var out []string
	for _, u := range usages {
		if lc, ok := parser.LobbyCommandOf(u); ok && (lobbyActs[lc.Kind] != nil || lc.Kind == parser.KindHelp) {
			out = append(out, u)
		}
	}
	return out
}
