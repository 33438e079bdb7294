package daemon

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/bot"
	"github.com/pbem/pbem/engine/felix"
	"github.com/pbem/pbem/engine/games"
	"github.com/pbem/pbem/parser"
	"github.com/pbem/pbem/templates"
)

// noBots is a game pbem's bot cannot play: its rules without a sampler.
type noBots struct{ engine.Rules }

// testNewGameTerms are the terms of a service at pbem@example.test that
// hosts the games, and felix without its sampler as "nobots".
func testNewGameTerms() newGameTerms {
	return newGameTerms{
		games: func(name string) (engine.Rules, bool) {
			if name == "nobots" {
				return noBots{felix.Rules{}}, true
			}
			return games.Lookup(name)
		},
		names:    games.Names(),
		own:      func(a string) bool { return a == "pbem@example.test" || strings.HasPrefix(a, "pbem+") },
		turnTime: 48 * time.Hour,
	}
}

// TestPlanNewGame decides `new` commands without a store: one row for
// each refusal, and the plans of the commands that pass.
func TestPlanNewGame(t *testing.T) {
	t.Parallel()
	const from = "alice@x.test"
	newCmd := func(game string, addrs []string, bots int, deadline time.Duration) parser.Command {
		c := parser.Command{Lobby: true, Name: "new", Game: game, Addresses: addrs, Deadline: deadline}
		for range bots {
			c.Bots = append(c.Bots, bot.Normal)
		}
		return c
	}
	two := []string{"bob@y.test", "carol@z.test"}
	for _, tc := range []struct {
		name    string
		c       parser.Command
		refusal string
		addrs   []string      // the plan's, when not refused
		turn    time.Duration // the plan's time for each decision
	}{
		{name: "unknown game", c: newCmd("chess", two, 0, 0),
			refusal: "pbem hosts these games: felix, gracias."},
		{name: "deadline too short", c: newCmd("felix", two, 0, 30*time.Minute),
			refusal: "a game's deadline is between 1 hour and 14 days, not 30 minutes."},
		{name: "deadline too long", c: newCmd("felix", two, 0, 15*24*time.Hour),
			refusal: "a game's deadline is between 1 hour and 14 days, not 15 days."},
		{name: "an address that is a trick", c: newCmd("felix", []string{"bob@y.test", "\"x y\"@z.test"}, 0, 0),
			refusal: `"\"x y\"@z.test" is not a mail address pbem writes to.`},
		{name: "pbem's own address", c: newCmd("felix", []string{"bob@y.test", "PBEM@example.test"}, 0, 0),
			refusal: "its own addresses cannot be invited: invite people's addresses."},
		{name: "a seat's address", c: newCmd("felix", []string{"pbem+k3x9q2@example.test", "bob@y.test"}, 0, 0),
			refusal: "its own addresses cannot be invited: invite people's addresses."},
		{name: "too few", c: newCmd("felix", []string{"bob@y.test"}, 0, 0),
			refusal: "Felix: The Cat in the Sack is for 3 to 5 players; with you, that was 2. Write: new felix with ADDRESS ADDRESS ... (and N bots)"},
		{name: "too few once the same address is counted once", c: newCmd("felix", []string{"bob@y.test", "Bob@Y.test", "alice@x.test"}, 0, 0),
			refusal: "Felix: The Cat in the Sack is for 3 to 5 players; with you, that was 2. Write: new felix with ADDRESS ADDRESS ... (and N bots)"},
		{name: "too many with one bot", c: newCmd("felix", []string{"b@y.test", "c@y.test", "d@y.test", "e@y.test"}, 1, 0),
			refusal: "Felix: The Cat in the Sack is for 3 to 5 players; with you and 1 bot, that was 6. Write: new felix with ADDRESS ADDRESS ... (and N bots)"},
		{name: "too many with bots", c: newCmd("gracias", []string{"b@y.test", "c@y.test"}, 4, 0),
			refusal: "Gracias is for 3 to 6 players; with you and 4 bots, that was 7. Write: new gracias with ADDRESS ADDRESS ... (and N bots)"},
		{name: "bots in a game the bot cannot play", c: newCmd("nobots", []string{"bob@y.test"}, 1, 0),
			refusal: "pbem's bot cannot play Felix: The Cat in the Sack yet: invite people's addresses."},
		{name: "people", c: newCmd("felix", []string{"Bob@Y.test", "carol@z.test", "bob@y.test"}, 0, 0),
			addrs: []string{from, "bob@y.test", "carol@z.test"}, turn: 48 * time.Hour},
		{name: "people and a deadline", c: newCmd("gracias", two, 0, 3*time.Hour),
			addrs: []string{from, "bob@y.test", "carol@z.test"}, turn: 3 * time.Hour},
		{name: "bots alone", c: newCmd("felix", nil, 2, 0),
			addrs: []string{from}, turn: 48 * time.Hour},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p, refusal := planNewGame(tc.c, from, testNewGameTerms())
			if refusal != tc.refusal {
				t.Fatalf("refusal %q; want %q", refusal, tc.refusal)
			}
			if refusal != "" {
				return
			}
			if p.rules.Name() != tc.c.Game || !slices.Equal(p.addrs, tc.addrs) || !slices.Equal(p.bots, tc.c.Bots) || p.turnTime != tc.turn {
				t.Errorf("plan %s %v %v %v; want %s %v %v %v", p.rules.Name(), p.addrs, p.bots, p.turnTime, tc.c.Game, tc.addrs, tc.c.Bots, tc.turn)
			}
			if !slices.Equal(p.invited(), tc.addrs[1:]) {
				t.Errorf("invited %v; want %v", p.invited(), tc.addrs[1:])
			}
		})
	}
}

// TestNewGameSetUpAndWording makes a planned game and its first mails
// without a store: who sits where under which name, and what the creator
// and the invited are told.
func TestNewGameSetUpAndWording(t *testing.T) {
	t.Parallel()
	c := parser.Command{Lobby: true, Name: "new", Game: "felix", Addresses: []string{"bob@y.test"}, Bots: []bot.Level{bot.Strong}, Deadline: 3 * time.Hour}
	p, refusal := planNewGame(c, "alice@x.test", testNewGameTerms())
	if refusal != "" {
		t.Fatal(refusal)
	}
	commandWord := func(w string) bool { return w == "pass" }
	seeds := 0
	g, err := p.setUp([]string{"", "pass"}, commandWord, func() uint64 { seeds++; return 7 })
	if err != nil {
		t.Fatal(err)
	}
	// bob chose a command word: he is named after his address.
	if want := []string{"alice", "bob", "bea"}; !slices.Equal(g.names, want) || !slices.Equal(g.botNames, []string{"bea"}) {
		t.Errorf("names %v, bots %v; want %v", g.names, g.botNames, want)
	}
	if seeds != 1 || len(g.setup) == 0 || len(g.state) == 0 {
		t.Errorf("%d seeds drawn, set-up %d bytes, state %d bytes", seeds, len(g.setup), len(g.state))
	}
	if got := p.botSeats(g); len(got) != 1 || got[0].Seat != 2 || got[0].Name != "bea" || got[0].Bot != string(bot.Strong) {
		t.Errorf("bot seats %+v", got)
	}
	created, invite := p.notices(g, 42, "alice@x.test", standIn{bot: true})
	if created.Kind != templates.NoticeCreated || invite.Kind != templates.NoticeInvite {
		t.Fatalf("kinds %s, %s", created.Kind, invite.Kind)
	}
	if !slices.Equal(created.Waiting, []string{"bob@y.test"}) || invite.Waiting != nil {
		t.Errorf("waiting %v, %v: the creator waits for bob, bob for nobody", created.Waiting, invite.Waiting)
	}
	wantLines := []string{
		"You have 3 hours for each decision; if your time for one runs out, pbem's bot moves for you.",
		"bea is pbem's bot, Bot Bea (strong): it moves as soon as the game waits on it, and reads no mail.",
	}
	for _, n := range []templates.Notice{created, invite} {
		if n.Game != "felix" || n.Title != "Felix: The Cat in the Sack" || n.GameID != 42 || n.From != "alice@x.test" ||
			!slices.Equal(n.Players, []string{"alice@x.test", "bob@y.test", "Bot Bea (strong)"}) || !slices.Equal(n.Lines, wantLines) {
			t.Errorf("%s notice %+v", n.Kind, n)
		}
	}

	// A bot name that is a command word is a fault of pbem's, not of the
	// command: set-up fails, and no seed is drawn.
	seeds = 0
	if _, err := p.setUp([]string{"", ""}, func(w string) bool { return w == "bea" }, func() uint64 { seeds++; return 7 }); err == nil || seeds != 0 {
		t.Errorf("bot named a command word: err %v, %d seeds drawn", err, seeds)
	}
}
