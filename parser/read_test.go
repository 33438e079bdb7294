package parser

import (
	"slices"
	"strings"
	"testing"
	"time"
)

func TestRead(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		grammar Grammar
		text    string
		want    []string // canonical commands
		prob    string   // substring of the problem; "" for none
	}{
		// Keywords, prefixes, case, punctuation.
		{"bid", felixLang(), "bid 4", []string{"bid 4"}, ""},
		{"case and punctuation", felixLang(), "Pass.", []string{"pass"}, ""},
		{"exclamation", felixLang(), "bid 4!", []string{"bid 4"}, ""},
		{"prefix", felixLang(), "PL rab", []string{"play rabbit"}, ""},
		{"multi-word alias", felixLang(), "play big dog", []string{"play large-dog"}, ""},
		{"alias word", felixLang(), "play little dog", []string{"play small-dog"}, ""},
		{"negative card", felixLang(), "play -8", []string{"play -8"}, ""},
		{"plus card", felixLang(), "play +15", []string{"play 15"}, ""},
		{"hash number", felixLang(), "bid #5", []string{"bid 5"}, ""},
		// Filler words.
		{"I bid", felixLang(), "I bid 4", []string{"bid 4"}, ""},
		{"the card", felixLang(), "play the rabbit", []string{"play rabbit"}, ""},
		{"mice", felixLang(), "bid 4 mice", []string{"bid 4"}, ""},
		{"sentence", felixLang(), "I'd like to play my small dog card please", []string{"play small-dog"}, ""},
		{"number word", felixLang(), "bid four", []string{"bid 4"}, ""},
		{"filler from argument name", graciasLang(), "keep colour red give player bob", []string{"keep red give bob"}, ""},
		{"give it to", graciasLang(), "keep the blue one and give it to carol", []string{"keep blue give carol"}, ""},
		{"triplet", graciasLang(), "take triplet 3", []string{"take 3"}, ""},
		{"one as number", graciasLang(), "take one", []string{"take 1"}, ""},
		{"player prefix", graciasLang(), "keep red give ca", []string{"keep red give carol"}, ""},
		// Settings.
		{"notify", felixLang(), "notify turns", []string{"notify turns"}, ""},
		{"notify prefix", felixLang(), "Notify OFF.", []string{"notify off"}, ""},
		{"notify bad", felixLang(), "notify sometimes", nil, "is not one of normal, all, turns, digest, off"},
		{"notify normal", felixLang(), "notify normal", []string{"notify normal"}, ""},
		{"notify digest", felixLang(), "notify digest", []string{"notify digest"}, ""},
		{"notify digest hour", felixLang(), "notify digest 19", []string{"notify digest 19"}, ""},
		{"notify digest am", felixLang(), "notify digest 7am", []string{"notify digest 7"}, ""},
		{"notify digest pm", felixLang(), "notify digest 7pm", []string{"notify digest 19"}, ""},
		{"notify digest midnight", felixLang(), "notify digest 12am", []string{"notify digest 0"}, ""},
		{"notify digest o'clock", felixLang(), "notify digest 07:00", []string{"notify digest 7"}, ""},
		{"notify digest bad hour", felixLang(), "notify digest 25", nil, "is not an hour of the day"},
		{"notify digest half hour", felixLang(), "notify digest 7:30", nil, "is not an hour of the day"},
		{"notify here", felixLang(), "notify off here", []string{"notify off here"}, ""},
		{"notify here prefix", felixLang(), "Notify Turns HERE", []string{"notify turns here"}, ""},
		{"notify digest here", felixLang(), "notify digest here", nil, "covers all your games at once"},
		{"notify digest hour here", felixLang(), "notify digest 19 here", nil, "covers all your games at once"},
		{"notify only here", felixLang(), "notify here", nil, "is not one of normal, all, turns, digest, off"},
		{"notify hour without digest", felixLang(), "notify turns 7", nil, "write \"notify normal|all|turns|digest|off [here]\""},
		{"confirm off", felixLang(), "confirm off", []string{"confirm off"}, ""},
		{"confirm on", felixLang(), "Confirm ON", []string{"confirm on"}, ""},
		{"confirm bad", felixLang(), "confirm maybe", nil, "is not one of on, off"},
		{"standings", felixLang(), "standings", []string{"standings"}, ""},
		{"standings detail", felixLang(), "Standings detail", []string{"standings detail"}, ""},
		{"standings bad", felixLang(), "standings all", nil, "is not one of detail"},
		{"timezone", felixLang(), "timezone Europe/Berlin", []string{"timezone Europe/Berlin"}, ""},
		{"tz", felixLang(), "tz America/New_York.", []string{"timezone America/New_York"}, ""},
		{"vacation days", felixLang(), "vacation 5d", []string{"vacation 5d"}, ""},
		{"vacation days spelt", felixLang(), "Vacation for 5 days.", []string{"vacation 5d"}, ""},
		{"vacation number word", felixLang(), "vacation ten days", []string{"vacation 10d"}, ""},
		{"vacation bare number", felixLang(), "vacation 3", []string{"vacation 3d"}, ""},
		{"vacation weeks", felixLang(), "vacation 2w", []string{"vacation 14d"}, ""},
		{"vacation weeks spelt", felixLang(), "holiday 2 weeks", []string{"vacation 14d"}, ""},
		{"vacation until", felixLang(), "vacation until 2026-12-24", []string{"vacation until 2026-12-24"}, ""},
		{"vacation till", felixLang(), "vacation till 2026-12-24.", []string{"vacation until 2026-12-24"}, ""},
		{"vacation bad date", felixLang(), "vacation until 24.12.2026", nil, "is not a date"},
		{"vacation bad day", felixLang(), "vacation until 2026-02-30", nil, "is not a date"},
		{"vacation zero", felixLang(), "vacation 0d", nil, "a vacation is 1 to 366 days"},
		{"vacation too long", felixLang(), "vacation 60w", nil, "a vacation is 1 to 366 days"},
		{"vacation months", felixLang(), "vacation 2 months", nil, "vacation DAYS"},
		{"vacation nothing", felixLang(), "vacation", nil, "vacation DAYS"},
		{"vacation no prefix", felixLang(), "vac 5d", nil, "write \"vacation\" in full"},
		{"back", felixLang(), "back", []string{"back"}, ""},
		{"back then vacation", felixLang(), "Back.\nvacation 2d", []string{"back", "vacation 2d"}, ""},
		{"back with words", felixLang(), "back soon", nil, "takes nothing after it"},
		{"timezone two words", felixLang(), "timezone New York", nil, "timezone ZONE"},
		{"quiet", felixLang(), "quiet 23-7", []string{"quiet 23-7"}, ""},
		{"quiet spaced", felixLang(), "Quiet 23 - 7.", []string{"quiet 23-7"}, ""},
		{"quiet clock times", felixLang(), "quiet 22:00-08:00", []string{"quiet 22-8"}, ""},
		{"quiet am pm", felixLang(), "quiet 11pm to 7am", []string{"quiet 23-7"}, ""},
		{"quiet not wrapping", felixLang(), "quiet 1-9", []string{"quiet 1-9"}, ""},
		{"quiet off", felixLang(), "quiet off", []string{"quiet off"}, ""},
		{"quiet same hour", felixLang(), "quiet 7-7", nil, "are none"},
		{"quiet one hour", felixLang(), "quiet 23", nil, "such as quiet 23-7"},
		{"quiet bad hour", felixLang(), "quiet 23-25", nil, "such as quiet 23-7"},
		{"quiet nothing", felixLang(), "quiet", nil, "such as quiet 23-7"},
		{"rematch", felixLang(), "Rematch!", []string{"rematch"}, ""},
		// Several commands.
		{"lines", felixLang(), "play rabbit\n\nbid 4", []string{"play rabbit", "bid 4"}, ""},
		{"semicolon", felixLang(), "play rabbit; bid 4", []string{"play rabbit", "bid 4"}, ""},
		{"comma", felixLang(), "play rabbit, bid 4", []string{"play rabbit", "bid 4"}, ""},
		{"and then", felixLang(), "play the rabbit and then bid 4", []string{"play rabbit", "bid 4"}, ""},
		{"sentences", felixLang(), "Play rabbit. Bid 4.", []string{"play rabbit", "bid 4"}, ""},
		{"commas inside one command", graciasLang(), "take 2, keep red, give bob", []string{"take 2 keep red give bob"}, ""},
		{"commas greedy", graciasLang(), "take 2, keep red give bob; take 1", []string{"take 2 keep red give bob", "take 1"}, ""},
		// Greetings and sign-offs.
		{"greeting", felixLang(), "Hi all,\nbid 7", []string{"bid 7"}, ""},
		{"hi is not history", felixLang(), "Hi,\n\npass", []string{"pass"}, ""},
		{"short exclamation", felixLang(), "Sorry for the delay!\npass", []string{"pass"}, ""},
		{"typo is not a greeting", felixLang(), "Bif 4!\npass", nil, `did you mean "bid 4"`},
		{"sign-off", felixLang(), "bid 7\nCheers,\nAlice", []string{"bid 7"}, ""},
		{"sign-off in line", felixLang(), "bid 7, thanks!", []string{"bid 7"}, ""},
		{"german sign-off", felixLang(), "pass\nViele Grüße\nBernd", []string{"pass"}, ""},
		// Stopping and explaining.
		{"stop at prose", felixLang(), "bid 5\nBob, you are bluffing.\npass", []string{"bid 5"}, `"Bob" is not a command`},
		{"empty", felixLang(), "", nil, "no command"},
		{"only greeting", felixLang(), "Hello!", nil, "no command"},
		{"did you mean keyword", felixLang(), "bif 4", nil, `did you mean "bid 4"`},
		{"did you mean transposition", felixLang(), "plya rabbit", nil, `did you mean "play rabbit"`},
		{"did you mean card", felixLang(), "play rabit", nil, `did you mean "play rabbit"`},
		{"missing keyword", felixLang(), "rabbit", nil, `did you mean "play rabbit"`},
		{"bare number", graciasLang(), "3", nil, `did you mean "take 3"`},
		{"ambiguous value", felixLang(), "play dog", nil, `"dog" could be large-dog or small-dog`},
		{"ambiguous player", Grammar{Specs: graciasSpecs(), Players: []string{"bob", "bea"}}, "keep red give b", nil, `"b" could be bob or bea`},
		{"ambiguous keyword", felixLang(), "b 4", nil, `"b" is not a command`},
		{"ambiguous prefix", felixLang(), "bu", []string{"buy"}, ""},
		{"two-letter ambiguity", graciasLang(), "ta 1 ke gr gi ca", []string{"take 1 keep green give carol"}, ""},
		{"not a number", felixLang(), "bid lots", nil, "N must be a whole number"},
		{"unknown card", felixLang(), "play cat", nil, `"cat" is not a card`},
		{"extra words", felixLang(), "bid 4 bananas", nil, `"bananas" at the end`},
		{"missing argument", felixLang(), "bid", nil, "N is missing"},
		{"inner keyword first", graciasLang(), "give bob", nil, `only comes inside "keep COLOUR give PLAYER"`},
		{"unknown colour", graciasLang(), "keep pink give bob", nil, `"pink" is not a colour`},
		{"unknown player", graciasLang(), "keep red give zed", nil, `"zed" is not a player`},
		{"lobby words in a game", felixLang(), "status\nhistory", []string{"status", "history"}, ""},
		{"too long", felixLang(), strings.Repeat("bid 4 ", 100), nil, "too long"},
		{"game word outside a game", lobbyLang(), "bid 4", nil, `"bid" is not a command`},
		// Lobby commands.
		{"help", lobbyLang(), "help", []string{"help"}, ""},
		{"help please", lobbyLang(), "help me please", []string{"help"}, ""},
		{"rules", lobbyLang(), "rules", []string{"rules"}, ""},
		{"rules game", lobbyLang(), "rules of gracias", []string{"rules gracias"}, ""},
		{"rules prefix", lobbyLang(), "ru fe", []string{"rules felix"}, ""},
		{"rules unknown game", lobbyLang(), "rules chess", nil, `"chess" is not a game`},
		{"new", lobbyLang(), "new felix with a@x.test b@y.test", []string{"new felix with a@x.test b@y.test"}, ""},
		{"new commas and", lobbyLang(), "new game of felix with A@X.test, b@y.test and c@z.test.", []string{"new felix with a@x.test b@y.test c@z.test"}, ""},
		{"new named", lobbyLang(), "new gracias with Bob <bob@y.test>, Carol <carol@z.test>", []string{"new gracias with bob@y.test carol@z.test"}, ""},
		{"new without with", lobbyLang(), "new felix a@x.test", []string{"new felix with a@x.test"}, ""},
		{"new wrapped addresses", lobbyLang(), "new felix with <a@x.test>, (b@y.test) *c@z.test* 'd@w.test'.", []string{"new felix with a@x.test b@y.test c@z.test d@w.test"}, ""},
		// A mark an address may begin with stays: these are other
		// addresses than b@y.test.
		{"new address marks", lobbyLang(), "new felix with _b@y.test #b@y.test *b@y.test", []string{"new felix with _b@y.test #b@y.test *b@y.test"}, ""},
		{"new named address canonical", lobbyLang(), "new felix with 0<#0@0> bot", []string{"new felix with #0@0 bot:normal"}, ""},
		{"new duplicates", lobbyLang(), "new felix with a@x.test a@x.test", []string{"new felix with a@x.test"}, ""},
		{"new bad address", lobbyLang(), "new felix with a@x.test, bob", nil, `"bob" is not an email address`},
		{"new no game", lobbyLang(), "new with a@x.test", nil, "write the game"},
		{"new no addresses", lobbyLang(), "new felix", nil, "addresses"},
		{"new deadline", lobbyLang(), "new felix with a@x.test b@y.test deadline 48h", []string{"new felix with a@x.test b@y.test deadline 48h"}, ""},
		{"new deadline days", lobbyLang(), "new felix with a@x.test, b@y.test deadline: 3 days.", []string{"new felix with a@x.test b@y.test deadline 72h"}, ""},
		{"new deadline 2d", lobbyLang(), "new felix a@x.test deadline 2d", []string{"new felix with a@x.test deadline 48h"}, ""},
		{"new deadline spelled", lobbyLang(), "new felix with a@x.test deadline two days", []string{"new felix with a@x.test deadline 48h"}, ""},
		{"new deadline sum", lobbyLang(), "new felix with a@x.test deadline 1 day and 12 hours", []string{"new felix with a@x.test deadline 36h"}, ""},
		{"new deadline minutes", lobbyLang(), "new felix with a@x.test deadline 90m", []string{"new felix with a@x.test deadline 90m"}, ""},
		{"new deadline named", lobbyLang(), "new gracias with Bob <bob@y.test>, Carol <carol@z.test> deadline 1 week", []string{"new gracias with bob@y.test carol@z.test deadline 168h"}, ""},
		{"new deadline too short", lobbyLang(), "new felix with a@x.test deadline 30m", nil, "between 1 hour and 14 days, not 30m"},
		{"new deadline too long", lobbyLang(), "new felix with a@x.test deadline 15 days", nil, "between 1 hour and 14 days, not 15 days"},
		{"new deadline no unit", lobbyLang(), "new felix with a@x.test deadline 48", nil, "such as 48h"},
		{"new deadline nothing", lobbyLang(), "new felix with a@x.test deadline", nil, "such as 48h"},
		{"new weekends off", lobbyLang(), "new felix with a@x.test b@y.test weekends off", []string{"new felix with a@x.test b@y.test weekends off"}, ""},
		{"new weekends off first", lobbyLang(), "new felix with a@x.test weekends off deadline 2d", []string{"new felix with a@x.test deadline 48h weekends off"}, ""},
		{"new weekends off last", lobbyLang(), "new felix with a@x.test deadline 2d, weekends off", []string{"new felix with a@x.test deadline 48h weekends off"}, ""},
		{"new deadline no addresses", lobbyLang(), "new felix deadline 48h", nil, "addresses"},
		{"join", lobbyLang(), "Join!", []string{"join"}, ""},
		{"decline", lobbyLang(), "I decline", []string{"decline"}, ""},
		{"games", lobbyLang(), "games", []string{"games"}, ""},
		{"name", lobbyLang(), "name Bob the Bold", []string{"name Bob the Bold"}, ""},
		{"my name is", lobbyLang(), "My name is Bob.", []string{"name Bob"}, ""},
		{"name empty", lobbyLang(), "name", nil, "write the new name"},
		{"name too long", lobbyLang(), "name " + strings.Repeat("x", 50), nil, "at most 40"},
		{"quit", lobbyLang(), "quit", []string{"resign"}, ""},
		{"resign", lobbyLang(), "Resign.", []string{"resign"}, ""},
		{"resign needs the whole word", lobbyLang(), "resi", nil, `write "resign" in full`},
		{"hi alone is a greeting", lobbyLang(), "hi", nil, "no command"},
		{"too many", felixLang(), strings.Repeat("pass\n", MaxCommands+1), nil, "at most 50 commands"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmds, prob := Read(tt.text, tt.grammar)
			var got []string
			for _, c := range cmds {
				got = append(got, c.Text)
			}
			want := tt.want
			if tt.name == "too many" {
				want = slices.Repeat([]string{"pass"}, MaxCommands)
			}
			if !slices.Equal(got, want) {
				t.Errorf("Read(%q) commands = %q, want %q", tt.text, got, want)
			}
			switch {
			case tt.prob == "" && prob != nil:
				t.Errorf("Read(%q): unexpected problem %v", tt.text, prob)
			case tt.prob != "" && prob == nil:
				t.Errorf("Read(%q): no problem, want one with %q", tt.text, tt.prob)
			case tt.prob != "" && !strings.Contains(problemText(prob), tt.prob):
				t.Errorf("Read(%q): problem %q lacks %q", tt.text, problemText(prob), tt.prob)
			}
		})
	}
}

func TestReadCommandFields(t *testing.T) {
	t.Parallel()
	cmds, prob := Read("Hi!\n\nplay the rabbit\nnew felix with a@x.test b@y.test\nname Bob\nrules gracias", felixLang())
	if prob != nil {
		t.Fatal(prob)
	}
	if len(cmds) != 4 {
		t.Fatalf("got %d commands, want 4: %v", len(cmds), cmds)
	}
	play := cmds[0]
	if play.Lobby || play.Name != "play" || play.Move.Text != "play rabbit" || !slices.Equal(play.Move.Args, []string{"rabbit"}) || play.Line != 3 || play.Source != "play the rabbit" {
		t.Errorf("play: %+v", play)
	}
	nw := cmds[1]
	if !nw.Lobby || nw.Name != "new" || nw.Game != "felix" || !slices.Equal(nw.Addresses, []string{"a@x.test", "b@y.test"}) || nw.Line != 4 {
		t.Errorf("new: %+v", nw)
	}
	if n := cmds[2]; !n.Lobby || n.NewName != "Bob" || !slices.Equal(n.Args, []string{"Bob"}) {
		t.Errorf("name: %+v", n)
	}
	if r := cmds[3]; !r.Lobby || r.Game != "gracias" || r.Text != "rules gracias" {
		t.Errorf("rules: %+v", r)
	}
}

func TestProblemExplain(t *testing.T) {
	t.Parallel()
	_, none := Read("Hello,\n", felixLang())
	_, typo := Read("bif 4", felixLang())
	cmds, partial := Read("pass\nwhat now?", felixLang())
	if len(cmds) != 1 || partial == nil || partial.Read != 1 {
		t.Fatalf("partial read: %v %+v", cmds, partial)
	}
	tests := []struct {
		p    *Problem
		want []string
	}{
		{none, []string{"found no command", `for example "play CARD"`, "Commands: play CARD, bid N, bid up to N, pass, buy, help,"}},
		{typo, []string{"did not understand line 1", "    bif 4", `Did you mean "bid 4"?`, "Nothing was done."}},
		{partial, []string{"read the first 1 command", "stopped at line 2", "    what now?", "The rest of your message was ignored."}},
	}
	for _, tt := range tests {
		got := tt.p.Explain()
		for _, w := range tt.want {
			if !strings.Contains(got, w) {
				t.Errorf("Explain() = %q\nlacks %q", got, w)
			}
		}
	}
}

func TestDistance(t *testing.T) {
	t.Parallel()
	tests := []struct {
		a, b string
		want int
	}{
		{"bid", "bid", 0}, {"bif", "bid", 1}, {"plya", "play", 1}, {"", "abc", 3}, {"rabit", "rabbit", 1}, {"kitten", "sitting", 3},
	}
	for _, tt := range tests {
		if got := distance(tt.a, tt.b); got != tt.want {
			t.Errorf("distance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

// `new ... deadline` gives the duration itself, and none without it.
func TestNewDeadlineValue(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]time.Duration{
		"new felix with a@x.test deadline 36 hours": 36 * time.Hour,
		"new felix with a@x.test deadline 1h":       MinDeadline,
		"new felix with a@x.test deadline 14 days":  MaxDeadline,
		"new felix with a@x.test":                   0,
	} {
		cmds, prob := Read(text, lobbyLang())
		if prob != nil || len(cmds) != 1 || cmds[0].Deadline != want {
			t.Errorf("%q: %+v, %v; want deadline %v", text, cmds, prob, want)
		}
	}
}

// TestReadNotifyHere: `here` makes the setting the game's own, and only
// it; without it the setting is the player's.
func TestReadNotifyHere(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		text     string
		thisGame bool
		args     []string
	}{
		{"notify off here", true, []string{"off", "here"}},
		{"notify all here.", true, []string{"all", "here"}},
		{"notify off", false, []string{"off"}},
		{"notify digest 19", false, []string{"digest", "19"}},
	} {
		cmds, prob := Read(tc.text, felixLang())
		if prob != nil || len(cmds) != 1 {
			t.Fatalf("%q: %v, %v", tc.text, cmds, prob)
		}
		if c := cmds[0]; c.Kind != KindNotify || c.ThisGame != tc.thisGame || !slices.Equal(c.Args, tc.args) {
			t.Errorf("%q: %+v", tc.text, c)
		}
	}
}
