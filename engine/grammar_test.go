package engine_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/felix"
	"github.com/pbem/pbem/engine/gracias"
)

// mailOptions is a configuration like the parser's for players' mail.
func mailOptions() engine.MatchOptions {
	return engine.MatchOptions{
		Filler:      map[string]bool{"i": true, "the": true, "please": true, "mice": true, "one": true},
		NumberWords: map[string]int{"one": 1, "four": 4},
		AliasWords:  true,
		Steps:       20000,
		Mail:        true,
	}
}

func TestMatch(t *testing.T) {
	t.Parallel()
	players := []string{"alice", "bob", "bobby", "carol"}
	felixSpecs := felix.Rules{}.Specs()
	strict := engine.MatchOptions{}
	tests := []struct {
		name  string
		specs []engine.Spec
		opt   engine.MatchOptions
		in    string
		want  []string // the readings' texts
		fail  engine.FailureKind
		at    int
		hits  []string
		why   string // a substring of the reason
	}{
		{"keyword prefix", felixSpecs, strict, "pl rabbit", []string{"play rabbit"}, 0, 0, nil, ""},
		{"multi-word alias", felixSpecs, strict, "play big dog", []string{"play large-dog"}, 0, 0, nil, ""},
		{"value prefix", felixSpecs, strict, "play sma", []string{"play small-dog"}, 0, 0, nil, ""},
		{"player prefix", testSpecs(), strict, "keep red give car", []string{"keep red give carol"}, 0, 0, nil, ""},
		{"strict: no filler", felixSpecs, strict, "i bid 4", nil, engine.NoFailure, 0, nil, ""},
		{"strict: no number words", felixSpecs, strict, "bid four", nil, engine.FailNumber, 1, nil, `N must be a whole number, not "four"`},
		{"strict: no alias word", felixSpecs, strict, "play dog", nil, engine.FailChoice, 1, nil, `CARD is one of: -8`},
		{"strict: extra", felixSpecs, strict, "bid 4 mice", nil, engine.FailExtra, 2, nil, `unexpected "mice" at the end`},
		{"strict: missing keyword", testSpecs(), strict, "take 2 keep red", nil, engine.FailMissing, 4, nil, `the word "give" is missing`},
		{"strict: ambiguous player", testSpecs(), strict, "keep red give bo", nil, engine.FailAmbiguous, 3, []string{"bob", "bobby"}, `"bo" could be bob or bobby`},
		{"strict: unknown player", testSpecs(), strict, "keep red give zed", nil, engine.FailPlayer, 3, nil, `players are: alice, bob`},
		{"strict: deepest failure wins", testSpecs(), strict, "take 2 keep pink", nil, engine.FailChoice, 3, nil, `"pink" is not a colour`},
		{"mail: filler and number words", felixSpecs, mailOptions(), "I bid four mice please", []string{"bid 4"}, 0, 0, nil, ""},
		{"mail: filler value one", felixSpecs, mailOptions(), "bid one", []string{"bid 1"}, 0, 0, nil, ""},
		{"mail: alias word", felixSpecs, mailOptions(), "play the dog", nil, engine.FailAmbiguous, 2, []string{"large-dog", "small-dog"}, `"dog" could be large-dog or small-dog`},
		{"mail: text as written", felixSpecs, mailOptions(), "bid 4 Bananas", nil, engine.FailExtra, 2, nil, `"Bananas" at the end is not part of the command`},
		{"mail: unknown value", testSpecs(), mailOptions(), "keep pink give bob", nil, engine.FailChoice, 1, nil, `COLOUR is one of red, orange, blue`},
		{"mail: unknown player", testSpecs(), mailOptions(), "keep red give zed", nil, engine.FailPlayer, 3, nil, `the players are alice, bob`},
		{"no keyword, no failure", felixSpecs, mailOptions(), "rabbit", nil, engine.NoFailure, 0, nil, ""},
		{"step budget", felixSpecs, engine.MatchOptions{Steps: 1}, "bid 4", nil, engine.NoFailure, 0, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			toks := engine.Tokens(tt.in)
			if !tt.opt.Mail {
				toks = engine.Tokens(strings.ToLower(tt.in))
			}
			found, f := engine.Match(tt.specs, players, toks, tt.opt)
			var got []string
			for _, c := range found {
				got = append(got, c.Text)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("readings %q, want %q", got, tt.want)
			}
			if tt.want != nil {
				return
			}
			if f.Kind != tt.fail || (f.Kind != engine.NoFailure && f.At != tt.at) || !slices.Equal(f.Hits, tt.hits) || !strings.Contains(f.Reason, tt.why) {
				t.Errorf("failure %+v, want kind %d at %d hits %q with %q", f, tt.fail, tt.at, tt.hits, tt.why)
			}
		})
	}
}

// Every reading is returned: a text that fits two specs reads as both.
func TestMatchAllReadings(t *testing.T) {
	t.Parallel()
	specs := []engine.Spec{
		{Name: "a", Words: []engine.Word{engine.Kw("go"), engine.NumArg("N")}},
		{Name: "b", Words: []engine.Word{engine.Kw("go"), engine.PlayerArg("P")}},
	}
	found, _ := engine.Match(specs, []string{"7up"}, engine.Tokens("go 7"), engine.MatchOptions{})
	if len(found) != 2 || found[0].Text != "go 7" || found[1].Text != "go 7up" {
		t.Errorf("readings %+v", found)
	}
	if _, err := engine.ParseCommand(specs, []string{"7up"}, "go 7"); err == nil || !strings.Contains(err.Error(), "ambiguous: it could mean go 7 or go 7up") {
		t.Errorf("ParseCommand: %v", err)
	}
}

func TestVocabulary(t *testing.T) {
	t.Parallel()
	v := engine.NewVocabulary(felix.Rules{}.Specs(), []string{"help", "history"}, map[string]bool{"hi": true})
	for _, tt := range []struct {
		tok  string
		want []string
	}{
		{"bid", []string{"bid"}},
		{"bu", []string{"buy"}},
		{"b", nil},
		{"pa", []string{"pass"}},
		{"h", nil},
		{"he", []string{"help"}},
		{"hi", nil}, // a whole word: never a prefix
		{"his", []string{"history"}},
	} {
		if got := v.Keywords(tt.tok); !slices.Equal(got, tt.want) {
			t.Errorf("Keywords(%q) = %q, want %q", tt.tok, got, tt.want)
		}
	}
	if !v.Is("pass", "pas") || v.Is("play", "p") {
		t.Error("Is")
	}
}

func TestNouns(t *testing.T) {
	t.Parallel()
	if n := engine.NounsOf(felix.Rules{}); !slices.Contains(n, "mice") || slices.Contains(n, "triplet") {
		t.Errorf("felix nouns %q", n)
	}
	if n := engine.NounsOf(gracias.Rules{}); !slices.Contains(n, "triplet") || slices.Contains(n, "mice") {
		t.Errorf("gracias nouns %q", n)
	}
}

func TestJoinOr(t *testing.T) {
	t.Parallel()
	for n, want := range []string{"", "a", "a or b", "a, b or c"} {
		if got := engine.JoinOr([]string{"a", "b", "c"}[:n]); got != want {
			t.Errorf("JoinOr(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestFold(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"zurück": "zurueck", "rückgängig": "rueckgaengig", "großer": "grosser", "bestätigen": "bestaetigen", "zwölf": "zwoelf", "bid": "bid", "": ""} {
		if got := engine.Fold(in); got != want {
			t.Errorf("Fold(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestOtherSpellings checks that a keyword's other spellings (Word.Also,
// Spec.Also) read whole, folded, as the keyword, never as a prefix, and
// that the command's text stays in its own words.
func TestOtherSpellings(t *testing.T) {
	t.Parallel()
	specs := []engine.Spec{
		{Name: "bid", Words: []engine.Word{engine.Kw("bid", "biete"), engine.NumArg("N")}},
		{Name: "proxy", Words: []engine.Word{engine.Kw("bid", "biete"), engine.Kw("up"), engine.Kw("to"), engine.NumArg("N")},
			Also: [][]engine.Word{{engine.Kw("bid", "biete"), engine.Kw("bis"), engine.NumArg("N")}}},
		{Name: "back", Words: []engine.Word{engine.Kw("back", "zurück")}},
	}
	for _, tt := range []struct{ in, want string }{
		{"biete 4", "bid 4"},
		{"BIETE 4", "bid 4"},
		{"bi 4", "bid 4"}, // "bi" begins "biete" and "bis" too, read only whole
		{"biete bis 9", "bid up to 9"},
		{"bid up to 9", "bid up to 9"},
		{"zurück", "back"},
		{"zurueck", "back"},
		{"ZURÜCK", "back"},
	} {
		c, err := engine.ParseCommand(specs, nil, tt.in)
		if err != nil || c.Text != tt.want {
			t.Errorf("%q: %v, %v; want %q", tt.in, c, err, tt.want)
		}
	}
	for _, in := range []string{"biet 4", "zur", "bid bi 9", "bid up 9"} {
		if c, err := engine.ParseCommand(specs, nil, in); err == nil {
			t.Errorf("%q read as %q", in, c.Text)
		}
	}
	v := engine.NewVocabulary(specs, []string{"status", "standings"}, nil)
	v.AddSpellings("status", "stand")
	if got := v.Keywords("stand"); !slices.Equal(got, []string{"status"}) {
		t.Errorf("stand: %q", got)
	}
	if got := v.Keywords("stan"); !slices.Equal(got, []string{"standings"}) {
		t.Errorf("stan: %q", got)
	}
}

// TestChoiceAliasesFold checks that a choice's aliases are read folded:
// "grosser Hund" and "großer Hund" are Felix's large dog, "gruen" and
// "grün" Gracias's green.
func TestChoiceAliasesFold(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		specs []engine.Spec
		in    string
		want  string
	}{
		{felix.Rules{}.Specs(), "spiele großer Hund", "play large-dog"},
		{felix.Rules{}.Specs(), "spiele grosser hund", "play large-dog"},
		{felix.Rules{}.Specs(), "spiele Hase", "play rabbit"},
		{gracias.Rules{}.Specs(), "behalte grün gib bob", "keep green give bob"},
		{gracias.Rules{}.Specs(), "behalte gruen gib bob", "keep green give bob"},
		{gracias.Rules{}.Specs(), "nimm 2 behalte rot gib bob", "take 2 keep red give bob"},
	} {
		c, err := engine.ParseCommand(tt.specs, []string{"alice", "bob", "carol"}, tt.in)
		if err != nil || c.Text != tt.want {
			t.Errorf("%q: %v, %v; want %q", tt.in, c, err, tt.want)
		}
	}
}
