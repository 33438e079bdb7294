package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/bot"
	"github.com/pbem/pbem/internal/intake"
	"github.com/pbem/pbem/internal/loaded"
	"github.com/pbem/pbem/parser"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// newGame creates a game for the sender and the addresses he invites. The
// engine sets the game up at once (its seed decides every random choice,
// and the explicit set-up is stored); play starts when everyone joined.
//
// It decides first, and writes after: planNewGame checks the command
// against what needs no database, mayInvite against the invited
// addresses' records, and setUp makes the game; only then is anything of
// the game stored (writeNewGame) and mailed. A refusal is told to the
// sender, and t.gameID is set only for a game made.
func (w *work) newGame(c parser.Command) error { return w.startGame(c, nil) }

// rematchOf is the finished game a rematch plays again: its number, the
// name of the player who asked for it, and the others' names.
type rematchOf struct {
	id     int64
	by     string
	others []string
}

// startGame is newGame, for a rematch of game r when r is not nil: its
// invitations say that it is a rematch, and name the players by the
// names they had, not by their addresses.
func (w *work) startGame(c parser.Command, r *rematchOf) error {
	invited, err := w.playersOf(c.Addresses)
	if err != nil {
		return err
	}
	c.Addresses = invited
	p, refusal := planNewGame(c, w.from, w.newGameTerms())
	var fresh []string
	if refusal == "" {
		var err error
		if fresh, refusal, err = w.mayInvite(w.from, p.invited()); err != nil {
			return err
		}
	}
	if refusal != "" {
		return w.notice(w.from, "", templates.Notice{Kind: templates.NoticeInvalid, Reason: refusal})
	}
	chosen, err := chosenNames(w.ctx, w.tx, p.addrs)
	if err != nil {
		return err
	}
	g, err := p.setUp(chosen, w.commandWord, w.seed)
	if err != nil {
		return err
	}
	id, tokens, err := w.writeNewGame(w.from, p, g, fresh)
	if err != nil {
		return err
	}
	w.gameID = id
	w.outcome = OutcomeApplied
	if len(p.addrs) == 1 {
		// Only bots were invited: everyone is in, and the game starts
		// with the creator's first summary, the bots' moves made.
		return w.startWithBots(id)
	}
	for i, a := range p.addrs {
		// Each reads his own language; an address pbem has not met
		// reads the inviter's.
		lang := w.words.Language()
		if i > 0 {
			pl, err := w.tx.Player(w.ctx, a)
			if err != nil {
				return err
			}
			if pl.Language != "" {
				lang = pl.Language
			}
		}
		say := templates.For(lang)
		created, invite := p.notices(g, id, w.from, w.standIn().in(say))
		n := invite
		if i == 0 {
			n = created
		}
		if r != nil {
			n.Lines = append([]string{say.RematchOf(r.id, r.by, r.others)}, n.Lines...)
			if i > 0 {
				n.From = r.by
			}
		}
		n.Language = lang
		if err := w.seatNotice(store.Seat{GameID: id, Seat: i, Address: a, Token: tokens[i]}, n); err != nil {
			return err
		}
	}
	return nil
}

// newGameTerms is what deciding a `new` command reads of the service.
type newGameTerms struct {
	games    Lookup
	names    []string               // the hosted games' names
	own      func(addr string) bool // whether addr is one of pbem's own
	turnTime time.Duration          // a game's time for each decision unless it asks for one
	say      templates.Words        // the words a refusal is told in: the sender's
}

// newGameTerms are the service's terms for new games.
func (w *work) newGameTerms() newGameTerms {
	return newGameTerms{
		games: w.games, names: w.names, turnTime: w.cfg.TurnTime, say: w.words,
		own: func(a string) bool { return w.post.TokenOf(a) != "" || strings.EqualFold(a, w.cfg.Address) },
	}
}

// newGamePlan is a `new` command checked against everything that needs
// no database: the game it makes, unless the invited addresses' records
// refuse it (mayInvite).
type newGamePlan struct {
	rules engine.Rules
	// addrs are the people's addresses, normalised and each once: the
	// creator's first, then the invited in the order written.
	addrs    []string
	bots     []bot.Level
	turnTime time.Duration // the game's time for each decision
	// bank is the game's time bank, which replaces turnTime when on.
	bank store.Bank
	// weekendsOff stops the game's clocks on Saturday and Sunday.
	weekendsOff bool
}

// invited are the addresses the creator invites.
func (p newGamePlan) invited() []string { return p.addrs[1:] }

// planNewGame checks a `new` command from from. It returns the plan, or
// the refusal to tell the sender. It reads nothing but c and terms.
func planNewGame(c parser.Command, from string, terms newGameTerms) (newGamePlan, string) {
	rules, ok := terms.games(c.Game)
	if !ok {
		return newGamePlan{}, terms.say.HostedGames(strings.Join(terms.names, ", "))
	}
	if c.Deadline != 0 && (c.Deadline < parser.MinDeadline || c.Deadline > parser.MaxDeadline) {
		// The parser refuses these already; a command made elsewhere
		// (a rematch) must keep to the same range.
		return newGamePlan{}, terms.say.DeadlineOutOfRange(terms.say.Duration(c.Deadline))
	}
	addrs, refusal := gameAddresses(from, c.Addresses, terms.own, terms.say)
	if refusal != "" {
		return newGamePlan{}, refusal
	}
	if n := len(addrs) + len(c.Bots); n < rules.MinPlayers() || n > rules.MaxPlayers() {
		return newGamePlan{}, wrongPlayerCount(rules, n, len(c.Bots), terms.say)
	}
	if _, ok := rules.(engine.Sampling); !ok && len(c.Bots) > 0 {
		return newGamePlan{}, terms.say.BotCannotPlayGame(rules.Title())
	}
	p := newGamePlan{rules: rules, addrs: addrs, bots: c.Bots, turnTime: terms.turnTime, weekendsOff: c.WeekendsOff,
		bank: store.Bank{Start: c.Clock.Start, Increment: c.Clock.Increment, Max: c.Clock.Max}}
	// The game keeps its time for each decision: its first mails
	// promise it, and a later change of service.turn_time must not
	// break that.
	if c.Deadline > 0 {
		p.turnTime = c.Deadline
	}
	return p, ""
}

// gameAddresses are the people of a game from creator inviting invited:
// the creator first, then each invited address once, normalised. The
// refusal says why an address cannot be invited, or is "".
func gameAddresses(creator string, invited []string, own func(string) bool, say templates.Words) ([]string, string) {
	addrs := []string{creator}
	for _, a := range invited {
		a = store.NormalizeAddress(a)
		if err := parser.CheckAddress(a); err != nil {
			// pbem writes to no address with control or bidi characters,
			// quotes or spaces: they are tricks to inject text into the
			// invitation.
			return nil, say.NotInvitableAddress(a)
		}
		if own(a) {
			return nil, say.CannotInviteOwnAddress()
		}
		if !containsString(addrs, a) {
			addrs = append(addrs, a)
		}
	}
	return addrs, ""
}

// wrongPlayerCount is the refusal of a game of n seats, bots of them.
func wrongPlayerCount(rules engine.Rules, n, bots int, say templates.Words) string {
	with := ""
	if bots > 0 {
		with = say.AndBots(bots)
	}
	return say.PlayerCountWrong(rules.Title(), rules.MinPlayers(), rules.MaxPlayers(), with, n, rules.Name())
}

// chosenNames are the names the players at addrs chose with `name`, ""
// for one who chose none.
func chosenNames(ctx context.Context, tx *store.Tx, addrs []string) ([]string, error) {
	chosen := make([]string, len(addrs))
	for i, a := range addrs {
		p, err := tx.Player(ctx, a)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return nil, err
		}
		chosen[i] = p.Name
	}
	return chosen, nil
}

// newGameSetup is a planned game made by the engine, before anything of
// it is stored.
type newGameSetup struct {
	names    []string // every seat's name: the people's, then the bots'
	botNames []string
	game     engine.Game
	opening  []engine.Event
	setup    []byte // the game's explicit set-up, as stored
	state    []byte // the game as it starts, as stored
}

// setUp seats the plan's players under the names they chose (seatNames),
// or names made of their addresses, and has the engine set the game up
// with a seed drawn from seed.
func (p newGamePlan) setUp(chosen []string, commandWord func(string) bool, seed func() uint64) (newGameSetup, error) {
	names := seatNames(p.addrs, chosen, commandWord)
	// Bots sit after the people, named as a transcript's players line
	// names them (bot.SeatNames), so that the export reads back.
	botNames := bot.SeatNames(names, len(p.bots))
	for _, n := range botNames {
		if commandWord(n) {
			return newGameSetup{}, fmt.Errorf("daemon: the bot name %q is a command word", n)
		}
	}
	names = append(names, botNames...)
	g, opening, err := p.rules.New(engine.Setup{Players: names, Seed: seed()})
	if err != nil {
		return newGameSetup{}, fmt.Errorf("daemon: set up %s: %w", p.rules.Name(), err)
	}
	setup, err := json.Marshal(g.Setup())
	if err != nil {
		return newGameSetup{}, fmt.Errorf("daemon: save set-up: %w", err)
	}
	state, err := g.MarshalJSON()
	if err != nil {
		return newGameSetup{}, fmt.Errorf("daemon: save game: %w", err)
	}
	return newGameSetup{names: names, botNames: botNames, game: g, opening: opening, setup: setup, state: state}, nil
}

// botSeats are the bot seats of the game, after the people's.
func (p newGamePlan) botSeats(g newGameSetup) []store.Seat {
	var seats []store.Seat
	for i, level := range p.bots {
		seats = append(seats, store.Seat{Seat: len(p.addrs) + i, Name: g.botNames[i], Bot: string(level)})
	}
	return seats
}

// players are the game's players as its first mails and its audit list
// them: the people's addresses, then the bots' titles.
func (p newGamePlan) players(g newGameSetup) []string {
	shown := slices.Clone(p.addrs)
	for i, level := range p.bots {
		shown = append(shown, bot.Title(g.botNames[i], level))
	}
	return shown
}

// notices are the first mails of a game with people to wait for: the
// creator's, and the invitation of each invited address.
func (p newGamePlan) notices(g newGameSetup, id int64, creator string, in standIn) (created, invite templates.Notice) {
	base := templates.Notice{Game: p.rules.Name(), Title: p.rules.Title(), GameID: id, Players: p.players(g), From: creator, Lines: []string{gameTimeSentence(p.turnTime, p.bank, p.weekendsOff, in)}}
	if line := seatedBots(p.botSeats(g), in.say); line != "" {
		// The bots have joined already: the creator and the invited
		// learn who they are, and that nobody waits on them.
		base.Lines = append(base.Lines, line)
	}
	created, invite = base, base
	created.Kind, created.Waiting = templates.NoticeCreated, p.invited()
	invite.Kind = templates.NoticeInvite
	return created, invite
}

// writeNewGame stores the game creator made of plan p: the game, its
// seats, its first state and events, and the invitations spent. It
// returns the game's id and the people's seat tokens.
func (w *work) writeNewGame(creator string, p newGamePlan, g newGameSetup, fresh []string) (int64, []string, error) {
	// The game's id is known once it is made, and its subject needs it:
	// made first without one, the subject is stored before any mail.
	id, err := w.tx.CreateGame(w.ctx, store.NewGame{Kind: p.rules.Name(), Setup: g.setup, Creator: creator, CreatedAt: w.now(), TurnTime: p.turnTime, WeekendsOff: p.weekendsOff, Bank: p.bank})
	if err != nil {
		return 0, nil, err
	}
	if _, err := w.tx.SetThreadSubject(w.ctx, id, templates.ThreadSubject(p.rules.Name(), p.rules.Title(), id)); err != nil {
		return 0, nil, err
	}
	tokens, err := seatPeople(w.ctx, w.tx, id, p.addrs, g.names)
	if err != nil {
		return 0, nil, err
	}
	// The seat cache knows the seats from now: an invitee's first mail,
	// most likely his join, is recorded with its game's row, seats and
	// players (keptGame), where its route read each in a round trip of
	// its own (issue 40). Should the transaction roll back, no mail
	// ever comes to those tokens.
	for i, a := range p.addrs {
		w.seats.put(tokens[i], seatOf{game: id, address: store.NormalizeAddress(a), invited: i > 0})
	}
	if err := seatBots(w.ctx, w.tx, id, p.botSeats(g)); err != nil {
		return 0, nil, err
	}
	if err := w.tx.SaveSnapshot(w.ctx, id, 0, g.state); err != nil {
		return 0, nil, err
	}
	if err := w.tx.AppendEvents(w.ctx, id, 0, loaded.StoreEvents(g.opening)); err != nil {
		return 0, nil, err
	}
	if _, err := w.tx.AppendAudit(w.ctx, id, creator, "create", fmt.Sprintf("%s with %s", p.rules.Name(), strings.Join(p.players(g), ", ")), w.now()); err != nil {
		return 0, nil, err
	}
	if err := w.spendInvitations(creator, fresh); err != nil {
		return 0, nil, err
	}
	return id, tokens, nil
}

// seatPeople seats the people of game id, each with a new token, the
// creator (seat 0) joined. It returns their tokens.
func seatPeople(ctx context.Context, tx *store.Tx, id int64, addrs, names []string) ([]string, error) {
	tokens := make([]string, len(addrs))
	for i, a := range addrs {
		tokens[i] = store.NewToken()
		if err := tx.AddSeat(ctx, id, i, a, names[i], tokens[i]); err != nil {
			return nil, err
		}
	}
	return tokens, tx.SetSeatJoined(ctx, id, 0)
}

// seatBots seats the bots of game id. A bot has joined as it is seated;
// its address is in a domain no mail reaches (botAddress), and it is
// never mailed anyway.
func seatBots(ctx context.Context, tx *store.Tx, id int64, bots []store.Seat) error {
	for _, b := range bots {
		if err := tx.AddSeat(ctx, id, b.Seat, intake.BotAddress(b.Name), b.Name, store.NewToken()); err != nil {
			return err
		}
		if err := tx.SetSeatBot(ctx, id, b.Seat, b.Bot); err != nil {
			return err
		}
		if err := tx.SetSeatJoined(ctx, id, b.Seat); err != nil {
			return err
		}
	}
	return nil
}

// startWithBots starts game id, whose creator invited only bots: everyone
// is in at once.
func (w *work) startWithBots(id int64) error {
	lg, err := w.loadGame(id)
	if err != nil {
		return err
	}
	if err := w.tx.SetGameStatus(w.ctx, id, store.StatusActive); err != nil {
		return err
	}
	lg.Row.Status = store.StatusActive
	if _, err := w.tx.AppendAudit(w.ctx, id, w.from, "start", "everyone joined", w.now()); err != nil {
		return err
	}
	return w.start(lg, 0)
}

// mayInvite checks that inviter may invite every address: no mailbox
// asked for no invitations (`never`, which covers every spelling), and
// one that never answered pbem gets few (mayInviteNew). pbem must not be
// a way to mail strangers without end. It returns the addresses whose
// mailboxes never answered, whose invitations count once the game is
// made; refusal says why not, or is "". Starting a game is itself a wish
// to play, so it clears the inviter's own `never`.
func (w *work) mayInvite(inviter string, invited []string) (fresh []string, refusal string, err error) {
	if err := w.liftNever(inviter); err != nil {
		return nil, "", err
	}
	inGame := map[string]int{} // this game's invitations to each new mailbox
	for _, a := range invited {
		if bounced, err := w.tx.IsUnreachable(w.ctx, a); err != nil || bounced {
			return nil, w.words.AddressBounces(a), err
		}
		box := w.post.MailboxOf(a)
		never, answered, err := w.tx.InviteStatus(w.ctx, box)
		if err != nil {
			return nil, "", err
		}
		if never {
			return nil, w.words.AddressOptedOut(a), nil
		}
		if answered {
			continue
		}
		inGame[box]++
		why, err := w.mayInviteNew(inviter, a, inGame[box], len(fresh)+1)
		if err != nil || why != "" {
			return nil, why, err
		}
		fresh = append(fresh, a)
	}
	return fresh, "", nil
}

// mayInviteNew checks an invitation of addr, whose mailbox never
// answered pbem, as the inGame-th invitation of the game to that mailbox
// and the n-th of the game to such mailboxes: within a week the mailbox
// gets at most Invitations.PerWeek from everyone together, and one a day
// from each inviter; within a day one inviter sends such mailboxes at
// most Invitations.PerInviter, and the service Invitations.PerDay. It
// returns the refusal to tell the inviter, or "". Each says which rule
// refused, and nothing of the invitee but that it has not answered.
func (w *work) mayInviteNew(inviter, addr string, inGame, n int) (string, error) {
	lim, box, from, now := w.cfg.Invitations, w.post.MailboxOf(addr), w.post.MailboxOf(inviter), w.now()
	// The four budgets are read at once (on PostgreSQL one round trip,
	// where each was one), and then weighed in order: the first that
	// refuses says why.
	spent, err := w.tx.SpentEach(w.ctx, []store.BudgetWindow{
		{Address: box, Bucket: bucketInvitePfx + from, Now: now, Window: inviteWindow},
		{Address: box, Bucket: bucketInvited, Now: now, Window: inviteWeek},
		{Address: from, Bucket: bucketNewInvites, Now: now, Window: inviteWindow},
		{Address: serviceKey, Bucket: bucketNewInvites, Now: now, Window: inviteWindow},
	})
	if err != nil {
		return "", err
	}
	mine, week, sent, all := spent[0], spent[1], spent[2], spent[3]
	switch {
	case mine > 0:
		return w.words.AlreadyInvitedToday(addr), nil
	case inGame > 1:
		return w.words.MailboxAlreadyInvited(addr), nil
	case week >= lim.PerWeek:
		return w.words.WeeklyInviteLimitReached(addr, lim.PerWeek), nil
	case sent+n > lim.PerInviter:
		return w.words.InviterDailyLimitReached(lim.PerInviter, addr), nil
	case all+n > lim.PerDay:
		return w.words.DailyInviteLimitReached(addr), nil
	}
	return "", nil
}

// spendInvitations counts the invitations of a game made by inviter to
// the addresses whose mailboxes never answered (mayInviteNew's limits).
func (w *work) spendInvitations(inviter string, fresh []string) error {
	lim, from, now := w.cfg.Invitations, w.post.MailboxOf(inviter), w.now()
	var units []store.BudgetWindow // spent together: on PostgreSQL one round trip
	for _, a := range fresh {
		box := w.post.MailboxOf(a)
		units = append(units,
			store.BudgetWindow{Address: box, Bucket: bucketInvitePfx + from, Now: now, Window: inviteWindow, Max: 1},
			store.BudgetWindow{Address: box, Bucket: bucketInvited, Now: now, Window: inviteWeek, Max: lim.PerWeek},
			store.BudgetWindow{Address: from, Bucket: bucketNewInvites, Now: now, Window: inviteWindow, Max: lim.PerInviter},
			store.BudgetWindow{Address: serviceKey, Bucket: bucketNewInvites, Now: now, Window: inviteWindow, Max: lim.PerDay})
	}
	if len(units) == 0 {
		return nil
	}
	_, err := w.tx.SpendEach(w.ctx, units)
	return err
}

// liftNever takes back the inviter's `never` (he starts a game, so he
// plays again) only when his mailbox has answered pbem: a forged From
// at the bare address proves nothing (answeredBy), and a stranger must
// not lift a victim's `never` by writing `new` in his name.
func (w *work) liftNever(inviter string) error {
	box := w.post.MailboxOf(inviter)
	_, answered, err := w.tx.InviteStatus(w.ctx, box)
	if err != nil || !answered {
		return err
	}
	return w.tx.SetNoInvitations(w.ctx, box, false)
}

// seatNames gives each seat a player name the transcripts accept
// ([a-z][a-z0-9_-]*), unique within the game: the name the player chose
// with `name` if he has one, else one made of his address (alice@x.test
// becomes alice). A name made of an address that is a command word
// (rabbit@x.test) gets a number, as a clash does.
func seatNames(addrs, chosen []string, commandWord func(string) bool) []string {
	names := make([]string, len(addrs))
	used := map[string]bool{}
	for i, a := range addrs {
		name := ""
		if i < len(chosen) && engine.ValidName(chosen[i]) && len(chosen[i]) <= maxNameLen && !commandWord(chosen[i]) {
			name = chosen[i]
		} else {
			name = nameOfAddress(a)
		}
		base := name
		for n := 2; used[name] || commandWord(name); n++ {
			name = base + strconv.Itoa(n)
		}
		used[name] = true
		names[i] = name
	}
	return names
}

// nameOfAddress makes a name of an address's local part.
func nameOfAddress(addr string) string {
	local, _, _ := strings.Cut(strings.ToLower(addr), "@")
	local, _, _ = strings.Cut(local, "+")
	var b strings.Builder
	for _, r := range local {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '_', r == '-':
			b.WriteRune(r)
		case r == '.':
			b.WriteRune('-')
		}
	}
	name := b.String()
	if name == "" || name[0] < 'a' || name[0] > 'z' {
		name = "p" + name
	}
	if len(name) > maxNameLen-2 {
		name = name[:maxNameLen-2] // room for a number
	}
	return name
}

func containsString(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
