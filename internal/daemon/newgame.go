package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/bot"
	"github.com/pbem/pbem/parser"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// newGame creates a game for the sender and the addresses he invites. The
// engine sets the game up at once (its seed decides every random choice,
// and the explicit set-up is stored); play starts when everyone joined.
func (s *Service) newGame(ctx context.Context, tx *store.Tx, t *turn, c parser.Command) error {
	rules, ok := s.games(c.Game)
	if !ok {
		return s.notice(t, t.from, "", templates.Notice{Kind: templates.NoticeInvalid, Reason: fmt.Sprintf("pbem hosts these games: %s.", strings.Join(s.names, ", "))})
	}
	if c.Deadline != 0 && (c.Deadline < parser.MinDeadline || c.Deadline > parser.MaxDeadline) {
		// The parser refuses these already; a command made elsewhere
		// (a rematch) must keep to the same range.
		return s.notice(t, t.from, "", templates.Notice{Kind: templates.NoticeInvalid, Reason: fmt.Sprintf("a game's deadline is between 1 hour and 14 days, not %s.", durationText(c.Deadline))})
	}
	addrs := []string{t.from}
	for _, a := range c.Addresses {
		a = store.NormalizeAddress(a)
		if err := parser.CheckAddress(a); err != nil {
			// pbem writes to no address with control or bidi characters,
			// quotes or spaces: they are tricks to inject text into the
			// invitation.
			return s.notice(t, t.from, "", templates.Notice{Kind: templates.NoticeInvalid, Reason: fmt.Sprintf("%q is not a mail address pbem writes to.", a)})
		}
		if s.tokenOf(a) != "" || strings.EqualFold(a, s.cfg.Address) {
			return s.notice(t, t.from, "", templates.Notice{Kind: templates.NoticeInvalid, Reason: "its own addresses cannot be invited: invite people's addresses."})
		}
		if !containsString(addrs, a) {
			addrs = append(addrs, a)
		}
	}
	if n := len(addrs) + len(c.Bots); n < rules.MinPlayers() || n > rules.MaxPlayers() {
		with := ""
		if len(c.Bots) > 0 {
			with = fmt.Sprintf(" and %s", countNoun(len(c.Bots), "bot", "bots"))
		}
		return s.notice(t, t.from, "", templates.Notice{Kind: templates.NoticeInvalid,
			Reason: fmt.Sprintf("%s is for %d to %d players; with you%s, that was %d. Write: new %s with ADDRESS ADDRESS ... (and N bots)", rules.Title(), rules.MinPlayers(), rules.MaxPlayers(), with, n, rules.Name())})
	}
	if _, ok := rules.(engine.Sampling); !ok && len(c.Bots) > 0 {
		return s.notice(t, t.from, "", templates.Notice{Kind: templates.NoticeInvalid, Reason: fmt.Sprintf("pbem's bot cannot play %s yet: invite people's addresses.", rules.Title())})
	}
	fresh, refusal, err := s.mayInvite(ctx, tx, t.from, addrs[1:])
	if err != nil || refusal != "" {
		if err == nil {
			err = s.notice(t, t.from, "", templates.Notice{Kind: templates.NoticeInvalid, Reason: refusal})
		}
		return err
	}
	chosen := make([]string, len(addrs))
	for i, a := range addrs {
		p, err := tx.Player(ctx, a)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
		chosen[i] = p.Name
	}
	names := seatNames(addrs, chosen, s.commandWord)
	// Bots sit after the people, named as a transcript's players line
	// names them (bot.SeatNames), so that the export reads back.
	botNames := bot.SeatNames(names, len(c.Bots))
	for _, n := range botNames {
		if s.commandWord(n) {
			return fmt.Errorf("daemon: the bot name %q is a command word", n)
		}
	}
	names = append(names, botNames...)
	g, opening, err := rules.New(engine.Setup{Players: names, Seed: s.seed()})
	if err != nil {
		return fmt.Errorf("daemon: set up %s: %w", rules.Name(), err)
	}
	setup, err := json.Marshal(g.Setup())
	if err != nil {
		return fmt.Errorf("daemon: save set-up: %w", err)
	}
	// The game's id is known once it is made, and its subject needs it:
	// made first without one, the subject is stored before any mail.
	// The game keeps its time for each decision: its first mails promise
	// it, and a later change of service.turn_time must not break that.
	turn := s.cfg.TurnTime
	if c.Deadline > 0 {
		turn = c.Deadline
	}
	id, err := tx.CreateGame(ctx, store.NewGame{Kind: rules.Name(), Setup: setup, Creator: t.from, CreatedAt: s.now(), TurnTime: turn})
	if err != nil {
		return err
	}
	if _, err := tx.SetThreadSubject(ctx, id, templates.ThreadSubject(rules.Name(), rules.Title(), id, names)); err != nil {
		return err
	}
	t.gameID = id
	tokens := make([]string, len(addrs))
	for i, a := range addrs {
		tokens[i] = store.NewToken()
		if err := tx.AddSeat(ctx, id, i, a, names[i], tokens[i]); err != nil {
			return err
		}
	}
	if err := tx.SetSeatJoined(ctx, id, 0); err != nil {
		return err
	}
	// A bot has joined as it is seated; its address is in a domain no
	// mail reaches (botAddress), and it is never mailed anyway.
	shown := slices.Clone(addrs)
	var bots []store.Seat
	for i, level := range c.Bots {
		seat := len(addrs) + i
		if err := tx.AddSeat(ctx, id, seat, botAddress(botNames[i]), botNames[i], store.NewToken()); err != nil {
			return err
		}
		if err := tx.SetSeatBot(ctx, id, seat, string(level)); err != nil {
			return err
		}
		if err := tx.SetSeatJoined(ctx, id, seat); err != nil {
			return err
		}
		shown = append(shown, bot.Title(botNames[i], level))
		bots = append(bots, store.Seat{Seat: seat, Name: botNames[i], Bot: string(level)})
	}
	state, err := g.MarshalJSON()
	if err != nil {
		return fmt.Errorf("daemon: save game: %w", err)
	}
	if err := tx.SaveSnapshot(ctx, id, 0, state); err != nil {
		return err
	}
	if _, err := tx.AppendEvents(ctx, id, 0, storeEvents(opening)); err != nil {
		return err
	}
	if _, err := tx.AppendAudit(ctx, id, t.from, "create", fmt.Sprintf("%s with %s", rules.Name(), strings.Join(shown, ", ")), s.now()); err != nil {
		return err
	}
	for _, a := range fresh {
		if _, err := tx.Spend(ctx, a, bucketInvitePfx+t.from, s.now(), inviteWindow, 1); err != nil {
			return err
		}
	}
	t.outcome = OutcomeApplied
	if len(addrs) == 1 {
		// Only bots were invited: everyone is in, and the game starts
		// with the creator's first summary, the bots' moves made.
		tb, err := s.loadTable(ctx, tx, id)
		if err != nil {
			return err
		}
		if err := tx.SetGameStatus(ctx, id, store.StatusActive); err != nil {
			return err
		}
		tb.row.Status = store.StatusActive
		if _, err := tx.AppendAudit(ctx, id, t.from, "start", "everyone joined", s.now()); err != nil {
			return err
		}
		return s.start(ctx, tx, t, tb, 0)
	}
	base := templates.Notice{Game: rules.Name(), Title: rules.Title(), GameID: id, Players: shown, From: t.from, Lines: []string{turnTimeSentence(turn, s.standIn())}}
	if line := seatedBots(bots); line != "" {
		// The bots have joined already: the creator and the invited
		// learn who they are, and that nobody waits on them.
		base.Lines = append(base.Lines, line)
	}
	created := base
	created.Kind = templates.NoticeCreated
	created.Waiting = addrs[1:]
	if err := s.seatNotice(ctx, tx, t, store.Seat{GameID: id, Seat: 0, Address: addrs[0], Token: tokens[0]}, created); err != nil {
		return err
	}
	for i := 1; i < len(addrs); i++ {
		inv := base
		inv.Kind = templates.NoticeInvite
		if err := s.seatNotice(ctx, tx, t, store.Seat{GameID: id, Seat: i, Address: addrs[i], Token: tokens[i]}, inv); err != nil {
			return err
		}
	}
	return nil
}

// mayInvite checks that inviter may invite every address: none asked for
// no invitations (`never`), and one who never joined a game was not
// invited by the same inviter within a day. pbem must not be a way to mail
// strangers without end. It returns the addresses that never joined a
// game, whose invitations count once the game is made; refusal says why
// not, or is "". Starting a game is itself a wish to play, so it clears
// the inviter's own `never`.
func (s *Service) mayInvite(ctx context.Context, tx *store.Tx, inviter string, invited []string) (fresh []string, refusal string, err error) {
	if err := tx.SetNoInvitations(ctx, inviter, false); err != nil {
		return nil, "", err
	}
	for _, a := range invited {
		never, joined, err := tx.InviteStatus(ctx, a)
		if err != nil {
			return nil, "", err
		}
		if never {
			return nil, fmt.Sprintf("%s has asked pbem never to invite it to a game.", a), nil
		}
		if joined {
			continue
		}
		n, err := tx.Spent(ctx, a, bucketInvitePfx+inviter, s.now(), inviteWindow)
		if err != nil {
			return nil, "", err
		}
		if n > 0 {
			return nil, fmt.Sprintf("%s has not played on pbem yet and was invited by you less than a day ago; pbem sends such an address one invitation a day from each inviter.", a), nil
		}
		fresh = append(fresh, a)
	}
	return fresh, "", nil
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

func storeEvents(evs []engine.Event) []store.Event {
	out := make([]store.Event, len(evs))
	for i, e := range evs {
		out[i] = store.Event{To: e.To, Kind: e.Kind, Text: e.Text}
	}
	return out
}

// botDomain is the domain of bot seats' addresses. RFC 2606 reserves
// .invalid: no mail to it can be delivered, and none can come from it
// honestly, so pbem refuses such mail (route.go) and never queues mail to
// it (enqueue).
const botDomain = "bot.pbem.invalid"

// botAddress is the address of a bot seat named name: bea@bot.pbem.invalid.
func botAddress(name string) string { return name + "@" + botDomain }

// isBotAddress reports whether address is a bot seat's.
func isBotAddress(address string) bool {
	_, domain, ok := strings.Cut(address, "@")
	return ok && strings.EqualFold(domain, botDomain)
}

// countNoun writes a count with its noun: "1 bot", "2 bots".
func countNoun(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
