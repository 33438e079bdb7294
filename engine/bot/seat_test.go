package bot_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/bot"
	"github.com/pbem/pbem/engine/games"
	"github.com/pbem/pbem/parser"
)

// commandWords is every word a command of any game or of the lobby may
// hold: keywords, card and colour values and their aliases, nouns and the
// games' names, in lower case.
func commandWords() map[string]bool {
	words := map[string]bool{}
	add := func(text string) {
		for _, f := range strings.FieldsFunc(text, func(r rune) bool { return r == ' ' || r == '|' }) {
			// Upper-case words are placeholders (N, CARD, ADDRESS...).
			if strings.ContainsAny(f, "abcdefghijklmnopqrstuvwxyz") {
				words[strings.ToLower(f)] = true
			}
		}
	}
	for _, u := range (parser.Grammar{Games: games.Names()}).Usages() {
		add(u)
	}
	for _, name := range games.Names() {
		add(name)
		rules, _ := games.Lookup(name)
		for _, n := range engine.NounsOf(rules) {
			add(n)
		}
		for _, sp := range rules.Specs() {
			add(sp.Name)
			for _, w := range sp.Words {
				switch w.Kind {
				case engine.Literal:
					add(w.Text)
				case engine.Choice:
					for _, c := range w.Choices {
						add(c.Value)
						for _, a := range c.Aliases {
							add(a)
						}
					}
				}
			}
		}
	}
	return words
}

// TestSeatNamesAreNoCommandWords: a bot's name is a valid player name
// and neither a word of any command nor the start of one, so "give bea"
// names the bot and "be" is never read as her.
func TestSeatNamesAreNoCommandWords(t *testing.T) {
	t.Parallel()
	words := commandWords()
	for _, want := range []string{"play", "bid", "pass", "rabbit", "large-dog", "dog", "take", "keep", "give", "red", "purple", "felix", "gracias"} {
		if !words[want] {
			t.Fatalf("the word list lacks %q: is it built wrong? %v", want, words)
		}
	}
	names := bot.SeatNames(nil, 20) // the whole list and numbered ones
	for _, n := range names {
		if !engine.ValidName(n) {
			t.Errorf("%q is not a valid player name", n)
		}
		for w := range words {
			if w == n || strings.HasPrefix(w, n) {
				t.Errorf("bot name %q: the command word %q starts with it", n, w)
			}
		}
	}
}

func TestSeatNames(t *testing.T) {
	t.Parallel()
	tests := []struct {
		taken []string
		n     int
		want  string
	}{
		{nil, 0, ""},
		{nil, 3, "bea cid dot"},
		{[]string{"alice", "bob"}, 2, "bea cid"},
		{[]string{"CID", "bea"}, 2, "dot eve"},
		{nil, 10, "bea cid dot eve fin gus hal ivy bea2 cid2"},
		{[]string{"bea", "cid", "dot", "eve", "fin", "gus", "hal", "ivy", "bea2"}, 2, "cid2 dot2"},
	}
	for _, tt := range tests {
		got := strings.Join(bot.SeatNames(tt.taken, tt.n), " ")
		if got != tt.want {
			t.Errorf("SeatNames(%v, %d) = %q, want %q", tt.taken, tt.n, got, tt.want)
		}
	}
	// Unique and apart from the taken names, however many are asked for.
	taken := []string{"bea", "cid2", "eve3", "alice"}
	got := bot.SeatNames(taken, 40)
	if len(got) != 40 {
		t.Fatalf("%d names, want 40", len(got))
	}
	for i, n := range got {
		if slices.Contains(taken, n) || slices.Contains(got[:i], n) {
			t.Errorf("name %q given twice or taken: %v", n, got)
		}
	}
}

func TestTitle(t *testing.T) {
	t.Parallel()
	if got := bot.Title("bea", bot.Strong); got != "Bot Bea (strong)" {
		t.Errorf("Title = %q", got)
	}
	if got := bot.Title("cid2", bot.Easy); got != "Bot Cid2 (easy)" {
		t.Errorf("Title = %q", got)
	}
}

func TestSeedAt(t *testing.T) {
	t.Parallel()
	if a, b := bot.SeedAt(7, 3), bot.SeedAt(7, 3); a != b {
		t.Fatal("SeedAt is not a function")
	}
	seen := map[uint64]string{}
	for seed := uint64(0); seed < 50; seed++ {
		for ply := 0; ply < 200; ply++ {
			s := bot.SeedAt(seed, ply)
			at := fmt.Sprintf("(%d, %d)", seed, ply)
			if prev, dup := seen[s]; dup {
				t.Fatalf("SeedAt%s = SeedAt%s", at, prev)
			}
			seen[s] = at
		}
	}
	// Well mixed: one ply further flips about half the bits.
	flips := 0
	for ply := 0; ply < 1000; ply++ {
		x := bot.SeedAt(42, ply) ^ bot.SeedAt(42, ply+1)
		for ; x != 0; x &= x - 1 {
			flips++
		}
	}
	if mean := float64(flips) / 1000; mean < 28 || mean > 36 {
		t.Errorf("neighbouring plies differ in %.1f bits on average, want about 32", mean)
	}
}

func TestParseSeat(t *testing.T) {
	t.Parallel()
	good := map[string]bot.Level{
		"bot": bot.Normal, "BOT": bot.Normal, "bot:easy": bot.Easy,
		"bot:normal": bot.Normal, "Bot:Strong": bot.Strong,
	}
	for s, want := range good {
		if got, ok := bot.ParseSeat(s); !ok || got != want {
			t.Errorf("ParseSeat(%q) = %q, %v; want %q", s, got, ok, want)
		}
	}
	for _, s := range []string{"", "bots", "bot:", "bot:genius", "bot:easy:1", "alice", "bea", "robot", "bot easy"} {
		if l, ok := bot.ParseSeat(s); ok {
			t.Errorf("ParseSeat(%q) = %q, accepted", s, l)
		}
	}
	for _, l := range bot.Levels() {
		if got, ok := bot.ParseSeat(bot.SeatSpec(l)); !ok || got != l {
			t.Errorf("SeatSpec(%q) = %q reads back as %q, %v", l, bot.SeatSpec(l), got, ok)
		}
	}
	if got := bot.SeatSpec(bot.Normal); got != "bot:normal" {
		t.Errorf("SeatSpec(Normal) = %q", got)
	}
}
