package felix_test

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/felix"
	"github.com/pbem/pbem/engine/games"
	"github.com/pbem/pbem/engine/transcript"
)

const base4 = `game felix
players alice bob carol dave
start alice
removed alice=-8 bob=large-dog carol=rabbit dave=15
`

const placed4 = base4 + `alice: play 15
bob: play rabbit
carol: play large dog
dave: play -5
`

// TestIllegalLines checks that replay stops at the first illegal line with
// a message naming the line, the player, the reason and what is valid.
func TestIllegalLines(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, transcript, want string
	}{
		{"bid not above the highest", placed4 + "alice: bid 4\nbob: bid 3\n",
			"line 10: bob, you cannot bid 3: the highest stake is 4 (valid now: bid 5..15, pass, bid up to 5..15)"},
		{"bid equal to the highest", placed4 + "alice: bid 4\nbob: bid 4\n",
			"line 10: bob, you cannot bid 4: the highest stake is 4"},
		{"bid more than owned", placed4 + "alice: bid 16\n",
			"line 9: alice, you cannot bid 16: you have only 15 mice (valid now: bid 1..15, pass, bid up to 1..15)"},
		{"bid zero", placed4 + "alice: bid 0\n",
			"line 9: alice, you cannot bid 0: a bid must be at least 1"},
		{"negative bid", placed4 + "alice: bid -3\n",
			"alice, you cannot bid -3: a bid must be at least 1"},
		{"removed card", base4 + "alice: play -8\n",
			"line 5: alice, you cannot play -8: you do not hold the -8: it was set aside from your set at the start (valid now: play -5|3|5|8|11|15|rabbit|large-dog|small-dog)"},
		{"play twice", base4 + "alice: play 3\nalice: play 5\n",
			"line 6: alice, you cannot play 5: you have already placed a card this round"},
		{"card placed in an earlier round", placed4 + "alice: bid 1\nbob: pass\ncarol: pass\ndave: pass\nalice: play 15\n",
			"line 13: alice, you cannot play 15: you do not hold the 15: you placed it in an earlier round"},
		{"dog not held", base4 + "bob: play small dog\nbob: play large dog\n",
			"bob, you cannot play large-dog: you have already placed a card this round"},
		{"bid while placing, not placed yet", base4 + "alice: play 3\nbob: bid 2\n",
			"line 6: bob, you cannot bid 2: the auction has not started: waiting for you, carol and dave to place a card"},
		{"bid more than owned with a stake", placed4 + "alice: bid 4\nbob: bid 5\ncarol: pass\ndave: pass\nalice: bid 16\n",
			"line 13: alice, you cannot bid 16: you have only 15 mice, your stake of 4 included (valid now: bid 6..15, pass, bid up to 6..15)"},
		{"bid while placing", base4 + "alice: play 3\nalice: bid 2\n",
			"line 6: alice, you cannot bid 2: the auction has not started: waiting for bob, carol and dave to place a card"},
		{"out of turn", placed4 + "bob: bid 2\n",
			"line 9: bob, you cannot bid 2: it is alice's turn; ahead of your turn you may send \"bid up to N\""},
		{"passed player", placed4 + "alice: bid 1\nbob: pass\ncarol: bid 2\nbob: bid 3\n",
			"line 12: bob, you cannot bid 3: you have passed this round"},
		{"play during the auction", placed4 + "alice: play 3\n",
			"line 9: alice, you cannot play 3: all cards of this round are placed and the auction is under way"},
		{"buy during an auction", placed4 + "alice: buy\n",
			"line 9: alice, you cannot buy: buy is only possible when every other player has passed without any bid (valid now: bid 1..15, pass, bid up to 1..15)"},
		{"bid 2 when buying", placed4 + "alice: pass\nbob: pass\ncarol: pass\ndave: bid 2\n",
			"line 12: dave, you cannot bid 2: everyone else passed without a bid: the row can only be bought for exactly 1 (buy) or passed (valid now: buy, pass)"},
		{"limit not above the highest", placed4 + "alice: bid 4\ncarol: bid up to 4\n",
			"line 10: carol, you cannot bid up to 4: the highest stake is already 4: a limit must be above it (send pass to pass when your turn comes)"},
		{"limit more than owned", placed4 + "carol: bid up to 16\n",
			"line 9: carol, you cannot bid up to 16: you have only 15 mice"},
		{"limit more than owned, on his turn", placed4 + "alice: bid up to 16\n",
			"line 9: alice, you cannot bid up to 16: you have only 15 mice (valid now: bid 1..15, pass, bid up to 1..15)"},
		{"limit zero", placed4 + "bob: bid up to 0\n",
			"line 9: bob, you cannot bid up to 0: a limit must be at least 1"},
		{"limit while placing", base4 + "alice: play 3\nalice: bid up to 5\n",
			"line 6: alice, you cannot bid up to 5: the auction has not started: waiting for bob, carol and dave to place a card"},
		{"limit after passing", placed4 + "alice: bid 1\nbob: pass\nbob: bid up to 5\n",
			"line 11: bob, you cannot bid up to 5: you have passed this round"},
		{"limit for the buyer", placed4 + "alice: pass\nbob: pass\ncarol: pass\ndave: bid up to 5\n",
			"line 12: dave, you cannot bid up to 5: everyone else passed without a bid: the row can only be bought for exactly 1 (buy) or passed; pbem does not buy for you (valid now: buy, pass)"},
		{"standing pass while placing", base4 + "alice: play 3\nbob: pass\n",
			"line 6: bob, you cannot pass: the auction has not started"},
		{"buy out of turn", placed4 + "bob: buy\n",
			"line 9: bob, you cannot buy: it is alice's turn; ahead of your turn you may send"},
		{"not a command", placed4 + "alice: dance\n",
			`line 9: alice: cannot read "dance": not a command; commands are: play CARD, bid N, bid up to N, pass, buy`},
		{"not a card", base4 + "alice: play dragon\n",
			`line 5: alice: cannot read "play dragon": "dragon" is not a card; CARD is one of: -8, -5, 3, 5, 8, 11, 15, rabbit, large-dog, small-dog`},
		{"bid without a number", placed4 + "alice: bid\n",
			`line 9: alice: cannot read "bid": N is missing`},
		{"bid words", placed4 + "alice: bid lots\n",
			`alice: cannot read "bid lots": N must be a whole number, not "lots"`},
		{"unknown player", placed4 + "zed: pass\n",
			"line 9: zed is not a player of this game (players: alice, bob, carol, dave)"},
		{"set-up after a command", base4 + "alice: play 3\nseed 4\n",
			`line 6: set-up line "seed" after the first command`},
		{"two players", "game felix\nplayers alice bob\n",
			"line 2: felix is for 3 to 5 players, not 2"},
		{"unknown game", "game chess\nplayers alice bob carol\n",
			`line 1: unknown game "chess"`},
		{"dummy with four players", base4 + "dummy 11 -5 3 rabbit small-dog 8 large-dog -8 5\n",
			"dummy: only a 3-player game has a dummy"},
		{"dummy card twice", "game felix\nplayers a b c\ndummy 11 11 3 rabbit small-dog 8 large-dog -8 5\n",
			"dummy: 11 appears twice"},
		{"short dummy", "game felix\nplayers a b c\ndummy 11 3\n",
			"dummy: the pile has 9 cards, not 2"},
		{"bad removed card", "game felix\nplayers a b c\nremoved a=12\n",
			`removed: "12" is not a card`},
		{"removed for a stranger", "game felix\nplayers a b c\nremoved z=3\n",
			`removed: "z" is not a player`},
		{"bad player name", "game felix\nplayers Al1ce! bob carol\n",
			`line 2: "Al1ce!" is not a valid player name`},
		{"duplicate player", "game felix\nplayers alice bob alice\n",
			"line 2: player alice is named twice"},
		{"unknown set-up line", base4 + "deck 1 red\n",
			`line 5: felix has no set-up line "deck"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := replay(tt.transcript)
			if err == nil {
				t.Fatalf("replay succeeded, want %q", tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error:\n  %v\nwant it to contain:\n  %s", err, tt.want)
			}
		})
	}
}

func replay(text string) error {
	tr, err := transcript.Read(strings.NewReader(text), games.Lookup)
	if err != nil {
		return err
	}
	_, _, err = tr.Replay()
	return err
}

func TestIllegalChangesNothing(t *testing.T) {
	t.Parallel()
	tr, err := transcript.Read(strings.NewReader(placed4+"alice: bid 4\n"), games.Lookup)
	if err != nil {
		t.Fatal(err)
	}
	g, _, err := tr.Replay()
	if err != nil {
		t.Fatal(err)
	}
	before, _ := g.MarshalJSON()
	for _, c := range []string{"bid 3", "play 5", "buy", "bid 99"} {
		cmd, err := engine.ParseCommand(g.Rules().Specs(), g.Players(), c)
		if err != nil {
			t.Fatal(err)
		}
		_, err = g.Apply(1, cmd)
		var ie *engine.IllegalError
		if !errors.As(err, &ie) {
			t.Fatalf("%s: got %v, want an IllegalError", c, err)
		}
		if len(ie.Options) == 0 {
			t.Errorf("%s: the error lists no options", c)
		}
		after, _ := g.MarshalJSON()
		if string(before) != string(after) {
			t.Fatalf("%s changed the state", c)
		}
	}
	// A seat that does not exist, and a command of another game.
	if _, err := g.Apply(7, engine.Command{Name: "pass", Text: "pass"}); err == nil {
		t.Error("seat 7 could pass")
	}
	if _, err := g.Apply(1, engine.Command{Name: "take", Args: []string{"2"}, Text: "take 2"}); err == nil {
		t.Error("a Gracias command was accepted")
	}
	if _, err := g.Apply(1, engine.Command{Name: "bid", Args: []string{"99999999999"}}); err == nil {
		t.Error("a huge bid was accepted")
	}
}

// TestReasonsSpeakToThePlayer: an illegal command's Reason is read by the
// player who tried it, so it never names him ("you have only 13 mice",
// not "alice has only 13 mice"). Every seat tries many commands, legal
// and not, at every step of games played with the deadline defaults.
func TestReasonsSpeakToThePlayer(t *testing.T) {
	t.Parallel()
	tries := []string{"play -8", "play 15", "play rabbit", "play large dog", "play small dog",
		"bid 1", "bid 2", "bid 16", "bid 60", "pass", "buy"}
	for _, players := range [][]string{{"alice", "bob", "carol"}, {"alice", "bob", "carol", "dave", "erin"}} {
		g, _, err := felix.Rules{}.New(engine.Setup{Players: players, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		reasons := checkReasons(t, g, tries)
		if reasons < 100 {
			t.Fatalf("only %d illegal commands tried: the test is vacuous", reasons)
		}
	}
}

// checkReasons plays g to its end with the deadline defaults; before each
// move every seat tries every command of tries on a copy. It returns how
// many were illegal.
func checkReasons(t *testing.T, g engine.Game, tries []string) int {
	t.Helper()
	n := 0
	for steps := 0; ; steps++ {
		for seat, name := range g.Players() {
			word := regexp.MustCompile(`\b` + name + `\b`)
			for _, text := range tries {
				cmd, err := engine.ParseCommand(g.Rules().Specs(), g.Players(), text)
				if err != nil {
					t.Fatalf("%q: %v", text, err)
				}
				_, err = g.Clone().Apply(seat, cmd)
				var ie *engine.IllegalError
				if !errors.As(err, &ie) {
					continue
				}
				n++
				if word.MatchString(ie.Reason) {
					t.Errorf("%s tried %q and reads about himself in the third person: %q", name, text, ie.Reason)
				}
			}
		}
		if g.Result().Finished {
			return n
		}
		seat := g.Waiting()[steps%len(g.Waiting())]
		c, _ := g.Default(seat)
		if _, err := g.Apply(seat, c); err != nil {
			t.Fatal(err)
		}
	}
}
