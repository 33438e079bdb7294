package parser

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/pbem/pbem/engine/bot"
)

const newUsage = "new GAME with ADDRESS... [and N bots] [deadline 48h] [clock 2d+12h max 5d] [weekends off]"

func TestNewBots(t *testing.T) {
	t.Parallel()
	N, S, E := bot.Normal, bot.Strong, bot.Easy
	tests := []struct {
		text  string
		want  string // canonical Text
		addrs []string
		bots  []bot.Level
		args  []string
	}{
		{"new felix with bob@x.test and 1 bot", "new felix with bob@x.test bot:normal", []string{"bob@x.test"}, []bot.Level{N},
			[]string{"felix", "bob@x.test", "bot:normal"}},
		{"new felix with bob@x.test, carol@y.test and a strong bot deadline 48h", "new felix with bob@x.test carol@y.test bot:strong deadline 48h",
			[]string{"bob@x.test", "carol@y.test"}, []bot.Level{S}, []string{"felix", "bob@x.test", "carol@y.test", "bot:strong", "deadline", "48h"}},
		{"new gracias with 2 bots", "new gracias with bot:normal bot:normal", nil, []bot.Level{N, N}, []string{"gracias", "bot:normal", "bot:normal"}},
		{"new felix with bot:strong bob@x.test", "new felix with bob@x.test bot:strong", []string{"bob@x.test"}, []bot.Level{S},
			[]string{"felix", "bob@x.test", "bot:strong"}},
		{"new felix with bob@x.test bot", "new felix with bob@x.test bot:normal", []string{"bob@x.test"}, []bot.Level{N}, nil},
		{"new felix with a bot", "new felix with bot:normal", nil, []bot.Level{N}, nil},
		{"new felix with an easy bot", "new felix with bot:easy", nil, []bot.Level{E}, nil},
		{"new felix with one bot", "new felix with bot:normal", nil, []bot.Level{N}, nil},
		{"new felix with bob@x.test and one bot", "new felix with bob@x.test bot:normal", []string{"bob@x.test"}, []bot.Level{N}, nil},
		{"new felix with two bots", "new felix with bot:normal bot:normal", nil, []bot.Level{N, N}, nil},
		{"new felix with bob@x.test and 2 easy bots", "new felix with bob@x.test bot:easy bot:easy", []string{"bob@x.test"}, []bot.Level{E, E}, nil},
		{"new felix with bob@x.test and two Strong bots.", "new felix with bob@x.test bot:strong bot:strong", []string{"bob@x.test"}, []bot.Level{S, S}, nil},
		{"new felix with the bot", "new felix with bot:normal", nil, []bot.Level{N}, nil},
		{"new felix bot", "new felix with bot:normal", nil, []bot.Level{N}, nil},
		{"new felix with five bots", "new felix with bot:normal bot:normal bot:normal bot:normal bot:normal", nil, []bot.Level{N, N, N, N, N}, nil},
		{"new felix with BOT:Easy, Bot:NORMAL", "new felix with bot:easy bot:normal", nil, []bot.Level{E, N}, nil},
		{"new felix with bot:", "new felix with bot:normal", nil, []bot.Level{N}, nil},
		// Bots keep the order written, wherever they stand; addresses
		// come first in the canonical form.
		{"new felix with a strong bot, bob@x.test, 2 easy bots and carol@y.test", "new felix with bob@x.test carol@y.test bot:strong bot:easy bot:easy",
			[]string{"bob@x.test", "carol@y.test"}, []bot.Level{S, E, E}, nil},
		{"new felix with two easy bots and one strong bot", "new felix with bot:easy bot:easy bot:strong", nil, []bot.Level{E, E, S}, nil},
		{"new felix with 2 bots deadline 3 days", "new felix with bot:normal bot:normal deadline 72h", nil, []bot.Level{N, N},
			[]string{"felix", "bot:normal", "bot:normal", "deadline", "72h"}},
		// A bot phrase between named addresses separates them.
		{"new felix with Bob <b@x.test> a bot Carol <c@y.test>", "new felix with b@x.test c@y.test bot:normal", []string{"b@x.test", "c@y.test"}, []bot.Level{N}, nil},
		{"new felix with Bob <b@x.test> and a bot and Carol <c@y.test>", "new felix with b@x.test c@y.test bot:normal", []string{"b@x.test", "c@y.test"}, []bot.Level{N}, nil},
		// "Bot" in a display name is a name, not a seat.
		{"new felix with Robo Bot <r@x.test>", "new felix with r@x.test", []string{"r@x.test"}, nil, nil},
		{`new felix with "Robo Bot" <r@x.test>, a bot`, "new felix with r@x.test bot:normal", []string{"r@x.test"}, []bot.Level{N}, nil},
		// No bot: as before, and Bots stays nil.
		{"new felix with bob@x.test", "new felix with bob@x.test", []string{"bob@x.test"}, nil, []string{"felix", "bob@x.test"}},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			for _, grammar := range []Grammar{lobbyLang(), felixLang(), graciasLang()} {
				cmds, prob := Read(tt.text, grammar)
				if prob != nil || len(cmds) != 1 {
					t.Fatalf("Read(%q) = %v, %v", tt.text, cmds, prob)
				}
				c := cmds[0]
				if c.Text != tt.want || !slices.Equal(c.Addresses, tt.addrs) || !slices.Equal(c.Bots, tt.bots) {
					t.Errorf("Read(%q) = %q addresses %q bots %q, want %q %q %q", tt.text, c.Text, c.Addresses, c.Bots, tt.want, tt.addrs, tt.bots)
				}
				if (tt.bots == nil) != (c.Bots == nil) {
					t.Errorf("Read(%q): Bots %#v, want %#v", tt.text, c.Bots, tt.bots)
				}
				if tt.args != nil && !slices.Equal(c.Args, tt.args) {
					t.Errorf("Read(%q): Args %q, want %q", tt.text, c.Args, tt.args)
				}
			}
		})
	}
}

func TestNewBotsRefused(t *testing.T) {
	t.Parallel()
	levels := `is not a bot level; the levels are easy, normal, strong: ` + newUsage
	tests := []struct{ text, reason string }{
		{"new felix with a genius bot", `"genius" ` + levels},
		{"new felix with bob@x.test and Genius bots", `"Genius" ` + levels},
		{"new felix with bot:genius", `"genius" ` + levels},
		{"new felix with bob@x.test bot:Genius", `"genius" ` + levels},
		{"new felix with 0 bots", "write 1 to 5 bots, not 0: " + newUsage},
		{"new felix with zero bots", "write 1 to 5 bots, not zero: " + newUsage},
		{"new felix with -2 bots", "write 1 to 5 bots, not -2: " + newUsage},
		{"new felix with 6 bots", "a game has at most 5 bots, not 6: " + newUsage},
		{"new felix with six strong bots", "a game has at most 5 bots, not six: " + newUsage},
		{"new felix with 99999999999999999999 bots", "a game has at most 5 bots, not 99999999999999999999: " + newUsage},
		{"new felix with 3 bots and 3 bots", "a game has at most 5 bots, not 6: " + newUsage},
		{"new felix with 5 bots and bot:easy", "a game has at most 5 bots, not 6: " + newUsage},
		{"new felix with bob@x.test and bots", `write how many bots, such as "2 bots" or "a bot": ` + newUsage},
		{"new felix with strong bots", `write how many bots, such as "2 bots" or "a bot": ` + newUsage},
		// What was refused before still is.
		{"new felix", "write the players' email addresses: " + newUsage},
		{"new felix with bob@x.test, bobby", `"bobby" is not an email address: ` + newUsage},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			cmds, prob := Read(tt.text, lobbyLang())
			if prob == nil || len(cmds) != 0 {
				t.Fatalf("Read(%q) = %v, %v; want the problem %q", tt.text, cmds, prob, tt.reason)
			}
			if prob.Reason != tt.reason {
				t.Errorf("Read(%q): reason\n%q, want\n%q", tt.text, prob.Reason, tt.reason)
			}
		})
	}
}

// TestNewBotsRoundTrip reads invitations made of random addresses and
// bot phrases, then reads each canonical Text again: it must give the
// same command.
func TestNewBotsRoundTrip(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(16, 16))
	counts := []string{"", "a", "an", "one", "1", "2", "two", "3"}
	levelWords := []string{"", "easy", "normal", "strong", "Strong"}
	seps := []string{" ", ", ", " and ", " & "}
	for n := 0; n < 2000; n++ {
		var parts []string
		bots := 0
		for k := rng.IntN(4); k >= 0; k-- {
			switch rng.IntN(3) {
			case 0:
				parts = append(parts, fmt.Sprintf("p%d@x%d.test", rng.IntN(5), rng.IntN(3)))
			case 1:
				c := counts[rng.IntN(len(counts))]
				word := "bots"
				if c == "" || c == "a" || c == "an" || c == "one" || c == "1" {
					word = "bot"
				}
				l := levelWords[rng.IntN(len(levelWords))]
				if c == "an" && l != "easy" {
					c = "a"
				}
				parts = append(parts, strings.Join(strings.Fields(c+" "+l+" "+word), " "))
				bots++
			case 2:
				parts = append(parts, "bot:"+string(bot.Levels()[rng.IntN(3)]))
				bots++
			}
		}
		text := "new felix with "
		for i, p := range parts {
			if i > 0 {
				text += seps[rng.IntN(len(seps))]
			}
			text += p
		}
		if rng.IntN(2) == 0 {
			text += " deadline 2 days"
		}
		cmds, prob := Read(text, lobbyLang())
		if prob != nil {
			// Only too many bots may be refused here.
			if !strings.Contains(prob.Reason, "at most 5 bots") {
				t.Fatalf("Read(%q): %v", text, prob)
			}
			continue
		}
		c := cmds[0]
		if bots > 0 && len(c.Bots) == 0 {
			t.Fatalf("Read(%q): no bots in %q", text, c.Text)
		}
		again, prob := Read(c.Text, lobbyLang())
		if prob != nil || len(again) != 1 {
			t.Fatalf("canonical %q of %q does not read: %v", c.Text, text, prob)
		}
		a := again[0]
		if a.Text != c.Text || !slices.Equal(a.Args, c.Args) || !slices.Equal(a.Addresses, c.Addresses) ||
			!slices.Equal(a.Bots, c.Bots) || a.Deadline != c.Deadline || a.Game != c.Game {
			t.Fatalf("%q reads as %+v, its canonical %q as %+v", text, c, c.Text, a)
		}
	}
}

// TestNewBotsBounded: hostile counts and floods of bot words are refused
// at once, without overflow, by the line's limits or the bots' own, with
// work that grows linearly with the flood (workGrowth: a bound on work,
// not on the time a loaded machine takes).
func TestNewBotsBounded(t *testing.T) {
	for _, text := range []string{
		"new felix with " + strings.Repeat("bot ", 5000),
		"new felix with " + strings.Repeat("bot:strong ", 5000),
		"new felix with " + strings.Repeat("9", 300) + " bots",
		"new felix with " + strings.Repeat("bot ", 20),
	} {
		cmds, prob := Read(text, lobbyLang())
		if prob == nil || len(cmds) != 0 {
			t.Errorf("Read(%.40q...) = %v, want a refusal", text, cmds)
		}
	}
	grammar := lobbyLang()
	for _, w := range []string{"bot ", "bot:strong "} {
		small, large := "new felix with "+strings.Repeat(w, 2500), "new felix with "+strings.Repeat(w, 40000)
		g := workGrowth(t, func() { Read(small, grammar) }, func() { Read(large, grammar) })
		t.Logf("growth %+v", g)
		if !g.linear() {
			t.Fatalf("Read of %q × 40000 did %+v times the work of × 2500, want at most %d times the bytes and %d the CPU (linear)", w, g, linearAllocGrowth, linearCPUGrowth)
		}
	}
	// Past the line's limits, botsOf itself stops at the sixth bot.
	r := &reader{grammar: compile(lobbyLang()), budget: maxSteps}
	for _, w := range []string{"bot", "bot:easy", "two bots"} {
		toks := tokenize(strings.Repeat(w+" ", 100000))
		if _, _, why := r.botsOf(toks); why.String() != "a game has at most 5 bots, not 6" {
			t.Errorf("botsOf(%q × 100000): %q", w, why)
		}
		small, large := tokenize(strings.Repeat(w+" ", 625)), tokenize(strings.Repeat(w+" ", 10000))
		botsOf := func(toks []token) func() {
			return func() { r.botsOf(toks) }
		}
		g := workGrowth(t, botsOf(small), botsOf(large))
		t.Logf("growth %+v", g)
		if !g.linear() {
			t.Fatalf("botsOf(%q × 10000) did %+v times the work of × 625, want at most %d times the bytes and %d the CPU (linear)", w, g, linearAllocGrowth, linearCPUGrowth)
		}
	}
	for _, w := range []string{"18446744073709551617", "9223372036854775808", "-9223372036854775809", "+7", "00000000000000000000006"} {
		if n, ok, bad := botCount(w); ok || bad.IsZero() {
			t.Errorf("botCount(%q) = %d, %v, %q; want a refusal", w, n, ok, bad)
		}
	}
	if n, ok, _ := botCount("0003"); !ok || n != 3 {
		t.Errorf("botCount(0003) = %d, %v", n, ok)
	}
}
