package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/pbem/pbem/engine"
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
		return s.notice(t, t.from, "", templates.Notice{Kind: "invalid", Reason: fmt.Sprintf("pbem hosts these games: %s.", strings.Join(s.names, ", "))})
	}
	addrs := []string{t.from}
	for _, a := range c.Addresses {
		a = store.NormalizeAddress(a)
		if a == "" || !strings.Contains(a, "@") {
			return s.notice(t, t.from, "", templates.Notice{Kind: "invalid", Reason: fmt.Sprintf("%q is not a mail address.", a)})
		}
		if s.tokenOf(a) != "" || strings.EqualFold(a, s.cfg.Address) {
			return s.notice(t, t.from, "", templates.Notice{Kind: "invalid", Reason: "its own addresses cannot be invited: invite people's addresses."})
		}
		if !containsString(addrs, a) {
			addrs = append(addrs, a)
		}
	}
	if n := len(addrs); n < rules.MinPlayers() || n > rules.MaxPlayers() {
		return s.notice(t, t.from, "", templates.Notice{Kind: "invalid",
			Reason: fmt.Sprintf("%s is for %d to %d players; with you, that was %d. Write: new %s with ADDRESS ADDRESS ...", rules.Title(), rules.MinPlayers(), rules.MaxPlayers(), n, rules.Name())})
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
	g, opening, err := rules.New(engine.Setup{Players: names, Seed: s.seed()})
	if err != nil {
		return fmt.Errorf("daemon: set up %s: %w", rules.Name(), err)
	}
	setup, err := json.Marshal(g.Setup())
	if err != nil {
		return fmt.Errorf("daemon: save set-up: %w", err)
	}
	id, err := tx.CreateGame(ctx, store.NewGame{Kind: rules.Name(), Setup: setup, Creator: t.from, CreatedAt: s.now()})
	if err != nil {
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
	if _, err := tx.AppendAudit(ctx, id, t.from, "create", fmt.Sprintf("%s with %s", rules.Name(), strings.Join(addrs, ", ")), s.now()); err != nil {
		return err
	}
	t.outcome = outcomeApplied
	base := templates.Notice{Game: rules.Name(), Title: rules.Title(), GameID: id, Players: addrs, From: t.from}
	created := base
	created.Kind = "created"
	created.Waiting = addrs[1:]
	if err := s.seatNotice(t, id, 0, addrs[0], tokens[0], created); err != nil {
		return err
	}
	for i := 1; i < len(addrs); i++ {
		inv := base
		inv.Kind = "invite"
		if err := s.seatNotice(t, id, i, addrs[i], tokens[i], inv); err != nil {
			return err
		}
	}
	return nil
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
