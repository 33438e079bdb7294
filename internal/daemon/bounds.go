package daemon

import (
	"slices"
	"strconv"
	"time"

	"github.com/pbem/pbem/parser"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// What one player may cost the others (issue 23, item 2). Every command
// that reaches the other players of a game is bounded per mail and per
// day, so that no player can use pbem to fill his co-players' mailboxes:
//
//   - One mail starts at most one game (`new` or `rematch`), and pbem
//     reads one `name` and one `vacation` or `back` from it. What it asks
//     beyond that is answered "not done", with the reason.
//   - The tables of the games a vacation (or its end) concerns are mailed
//     once at the end of the mail, and at most tableNewsPerDay times a day
//     for one player's vacations; past that the news waits in the game's
//     log for each player's next mail, and the sender is told so.
//   - A name changes at most renamesPerDay times a day.
//   - A player starts at most one rematch of a game: its invitations
//     spend the others' answer budgets.
//   - A seat asks its table to take a move back at most undoAsksPerDay
//     times a day (an undo is mailed to every other player whatever his
//     notify setting, as it needs his answer).
//   - `say` (maxSaysPerDay) and `poke` (once a day) have their limits in
//     talk.go; the says and pokes of one mail reach each player as one
//     mail (deliverTalk).
//   - `name`, `vacation`, `back` and `rematch` in a game's thread count
//     against limits.lobby_per_hour, as every command to the bare address
//     does.
//
// docs/configuration.md (the `[limits]` keys) and docs/security.md state the same bounds.
const (
	// tableNewsPerDay is how many times a day one player's vacations and
	// returns may mail one of his tables.
	tableNewsPerDay = 4
	// renamesPerDay is how many times a day a player's name may change.
	renamesPerDay = 3
	// undoAsksPerDay is how many times a day a seat may ask its table to
	// take a move back.
	undoAsksPerDay = 3
	// boundsWindow is the day of these limits.
	boundsWindow = 24 * time.Hour
	// rematchMemory is how long pbem remembers that a player started a
	// rematch of a game: he starts at most one.
	rematchMemory = 365 * 24 * time.Hour
	// The windows of the lobby's limits and of the invitations'.
	lobbyWindow  = time.Hour
	inviteWindow = 24 * time.Hour
	inviteWeek   = 7 * 24 * time.Hour
)

// serviceKey is the key of a limit of the whole service: no mailbox's
// key, which always holds an @.
const serviceKey = "(service)"

// Buckets of the store's budget table for the lobby's limits; those of
// the limits on outgoing mail and of the loop breaker are
// internal/outgoing's. An invitation's bucket names the inviter, so that
// one inviter's invitations do not use up another's.
const (
	bucketLobby        = "lobby"       // lobby commands read from a sender
	bucketInvitePfx    = "invite:"     // + inviter's mailbox: invitations to a mailbox that never answered
	bucketInvited      = "invited"     // invitations to a mailbox that never answered, from everyone
	bucketNewInvites   = "new-invites" // invitations sent to mailboxes that never answered
	bucketTableNewsPfx = "table-news:" // + game id: the address's vacation news mailed to that table
	bucketRename       = "rename"      // the address's name changes
	bucketUndoAskPfx   = "undo-ask:"   // + game id: the address's undos asked of that table
	bucketRematchPfx   = "rematch:"    // + game id: the address started a rematch of that game
)

// mailBounds is what one mail has read so far of what it may ask only
// once, and which tables its vacation news is for.
type mailBounds struct {
	gameAsked bool // a new or rematch was read: one mail starts at most one game
	renamed   bool // a name command was read
	vacation  bool // a vacation or back was read
	// tables holds the games whose tables were told of the sender's
	// vacation in this turn: true when they are to be mailed at the end
	// (mailTables), false when the day's tableNewsPerDay is used up.
	tables map[int64]bool
}

// oncePerMail says why c is not done because the mail did it already,
// or "" when it may be done.
func (b *mailBounds) oncePerMail(c parser.Command, say templates.Words) string {
	switch {
	case (c.Kind == parser.KindNew || c.Kind == parser.KindRematch) && b.gameAsked:
		return say.OneNewGamePerMail(c.Text)
	case c.Kind == parser.KindName && b.renamed:
		return say.OneRenamePerMail(c.Text)
	case (c.Kind == parser.KindVacation || c.Kind == parser.KindBack) && b.vacation:
		return say.OneVacationPerMail(c.Text)
	}
	return ""
}

// done notes that c was read to be done: the mail may not do it again.
func (b *mailBounds) done(c parser.Command) {
	switch c.Kind {
	case parser.KindNew, parser.KindRematch:
		b.gameAsked = true
	case parser.KindName:
		b.renamed = true
	case parser.KindVacation, parser.KindBack:
		b.vacation = true
	}
}

// threadSetting decides whether a `name`, `vacation`, `back` or
// `rematch` sent in a game's thread may be done: once per mail, and
// within the sender's lobby budget. It returns why not, or "".
func (w *work) threadSetting(c parser.Command) (string, error) {
	if why := w.bounds.oncePerMail(c, w.words); why != "" {
		return why, nil
	}
	ok, err := w.tx.Spend(w.ctx, w.post.MailboxOf(w.from), bucketLobby, w.now(), lobbyWindow, w.cfg.Limits.LobbyPerHour)
	if err != nil {
		return "", err
	}
	if !ok {
		w.detail = "lobby limit: a settings command not done"
		return w.words.SettingsLimitReached(c.Text, w.cfg.Limits.LobbyPerHour), nil
	}
	w.bounds.done(c)
	return "", nil
}

// fromAuthenticated reports whether the mail being handled is known to
// come from its From address: when service.trust_authentication_results
// is set, HandleMail acts on no mail that the receiving server did not
// authenticate, so every mail that reaches a command is.
func (s *Service) fromAuthenticated() bool {
	return s.cfg.TrustAuthServID != ""
}

// bareSetting decides whether a setting sent to pbem's bare address may
// be done (issue 23, item 3). Without sender authentication anyone can
// write a mail with another player's From, so what reaches his tables or
// deadlines needs his seat's secret, the address of a game's thread:
//
//   - name, vacation and back, always: a name is what his tables see (in
//     his next games too), a vacation moves his deadlines and spends his
//     days, back pulls his deadlines in;
//   - notify, timezone, quiet and confirm while he has a game that is not
//     over: they decide which of its mails he gets, and when and in what
//     time his digest comes; timezone and quiet move his deadlines. With no game they change nothing anyone sees,
//     and a new player may choose them before his first game;
//   - never is always done: it changes no game, it is how an address
//     that never played refuses invitations, and what a forger can do
//     with it (stop invitations) the address undoes by starting a game.
//
// It returns why c is not done, or "".
func (w *work) bareSetting(c parser.Command) (string, error) {
	if w.fromAuthenticated() {
		return "", nil
	}
	always := false
	switch c.Kind {
	case parser.KindName, parser.KindVacation, parser.KindBack:
		always = true
	case parser.KindAddress:
		// Moving a player's games is for him alone: the confirmation
		// goes to the new address, which a forger chooses.
		w.detail = "address not changed: needs a game's thread"
		return w.words.AddressNeedsGameThread(), nil
	case parser.KindNotify, parser.KindTimezone, parser.KindQuiet, parser.KindConfirm, parser.KindLanguage:
	default:
		return "", nil
	}
	games, err := w.tx.GamesOf(w.ctx, w.from)
	if err != nil {
		return "", err
	}
	open := slices.ContainsFunc(games, func(g store.Game) bool { return renamable(g.Status) })
	if !always && !open {
		return "", nil
	}
	w.detail = "setting not done: needs a game's thread"
	line := w.words.SettingNeedsGameThread(c.Text)
	if !open {
		line += w.words.YouHaveNoGame()
	}
	return line, nil
}

// tableNews decides whether the table of game id is mailed about the
// sender's vacation: once per turn, and at most tableNewsPerDay times a
// day for one player.
func (w *work) tableNews(id int64) (bool, error) {
	if mail, ok := w.bounds.tables[id]; ok {
		return mail, nil
	}
	mail, err := w.tx.Spend(w.ctx, w.post.MailboxOf(w.from), bucketTableNewsPfx+strconv.FormatInt(id, 10), w.now(), boundsWindow, tableNewsPerDay)
	if err != nil {
		return false, err
	}
	if w.bounds.tables == nil {
		w.bounds.tables = map[int64]bool{}
	}
	w.bounds.tables[id] = mail
	return mail, nil
}

// mailTables mails the tables told of the sender's vacation in this turn,
// once each, as their players' settings ask: after everything else the
// mail did, so that a mail's vacation news and its moves reach each
// player as one mail.
func (w *work) mailTables() error {
	ids := make([]int64, 0, len(w.bounds.tables))
	for id, mail := range w.bounds.tables {
		if mail {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	for _, id := range ids {
		row, err := w.tx.Game(w.ctx, id)
		if err != nil {
			return err
		}
		if (row.Status != store.StatusActive && row.Status != store.StatusPaused) || row.Aside != "" {
			continue // over (the mail's move ended it, and said so), or set aside
		}
		lg, err := w.loadGame(id)
		if err != nil {
			return err
		}
		if err := w.settle(lg, settleVacation, -1, nil); err != nil {
			return err
		}
	}
	w.bounds.tables = nil
	return nil
}

// heldNews tells the sender that held of the games tellTables told were
// not mailed about his vacation, or "" when all were, in the words say.
func heldNews(say templates.Words, held, told int) string {
	var which string
	switch {
	case held == 0:
		return ""
	case told == 1:
		which = say.OneRunningGame()
	case held == told:
		which = say.AllRunningGames(held)
	default:
		which = say.SomeRunningGames(held, told)
	}
	return say.TablesNotToldOfVacation(which, tableNewsPerDay)
}
