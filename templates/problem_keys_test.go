package templates

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/games"
	"github.com/pbem/pbem/parser"
)

// problemCatalog is the catalog file of the reasons a Problem tells.
const problemCatalog = "parser.toml"

// problemKeys are the keys of the reasons a parser.Problem tells
// (Words.Told): the parser's and the engine grammar's formats
// (parser.Formats), and the nouns of every game's Choice words
// (engine.Noun: "card", "colour"), which those reasons name.
func problemKeys(t *testing.T) []string {
	t.Helper()
	keys := parser.Formats()
	for _, name := range games.Names() {
		rules, _ := games.Lookup(name)
		for _, s := range rules.Specs() {
			words := slices.Clone(s.Words)
			for _, also := range s.Also {
				words = append(words, also...)
			}
			for _, w := range words {
				if n, ok := engine.Noun(w).(engine.Message); ok && w.Kind == engine.Choice {
					keys = append(keys, n.Format)
				}
			}
		}
	}
	slices.Sort(keys)
	return slices.Compact(keys)
}

// TestProblemKeysInTheirCatalog: every key of problemKeys has its form
// in each language's parser.toml, and that file holds nothing else, so
// that a reason a player reads is never English in his language. (The
// forms keep the key's arguments: TestTranslationsKeepTheirArguments.)
func TestProblemKeysInTheirCatalog(t *testing.T) {
	keys := problemKeys(t)
	if len(keys) < 50 {
		t.Fatalf("%d keys: parser.Formats is not what it was", len(keys))
	}
	for _, lang := range catalogLanguages(t) {
		in := localeEntries(t, lang)
		file := lang + "/" + problemCatalog
		for _, key := range keys {
			if in[key] != file {
				t.Errorf("%s: %q is not in %s (%q)", lang, key, file, in[key])
			}
		}
		for _, key := range slices.Sorted(maps.Keys(in)) {
			if in[key] == file && !slices.Contains(keys, key) {
				t.Errorf("%s translates %q, which no Problem tells", file, key)
			}
		}
		t.Logf("%s: %d reasons", file, len(keys))
	}
}

// problemGrammar is what the daemon reads a mail of game with (none:
// the lobby), with legal, when given, as what the reader may do now.
func problemGrammar(game string, legal ...string) parser.Grammar {
	g := parser.Grammar{Games: games.Names()}
	if game == "" {
		return g
	}
	rules, _ := games.Lookup(game)
	g.Specs, g.Nouns, g.Players = rules.Specs(), engine.NounsOf(rules), []string{"alice", "bob", "carol"}
	if legal != nil {
		g.Legal = func() []engine.Option {
			return []engine.Option{{Spec: "play", Text: "play CARD", Commands: legal}}
		}
	}
	return g
}

// TestToldInGerman: typical lines a German player gets wrong, and what
// he is told, in German; in English he is told what the Problem says.
func TestToldInGerman(t *testing.T) {
	de := For("de")
	newUsage := "new GAME with ADDRESS... [and N bots] [deadline 48h] [clock 2d+12h max 5d] [weekends off]"
	for _, c := range []struct {
		grammar parser.Grammar
		text    string
		want    string
	}{
		{problemGrammar(""), "", "in der Mail steht kein Befehl"},
		{problemGrammar(""), "Bananen bitte", `"Bananen" ist kein Befehl`},
		{problemGrammar(""), "hilfe mir", `nach "help" kommt nichts mehr, also auch nicht "mir"`},
		{problemGrammar(""), "st", `"st" kann standings oder status sein`},
		{problemGrammar(""), "resig", `schreibe "resign" aus`},
		{problemGrammar(""), "Urlaub bis morgen", `"morgen" ist kein Datum: schreibe es als JAHR-MONAT-TAG, etwa „Urlaub bis 2026-12-24“`},
		{problemGrammar(""), "Urlaub bald", `schreibe "vacation DAYS", etwa „Urlaub 5 Tage“, „Urlaub 2 Wochen“ oder „Urlaub bis 2026-12-24“`},
		{problemGrammar(""), "Ruhezeit 7-7", "Ruhezeiten, die um 7:00 beginnen und enden, sind keine: schreibe die Stunden, zu denen deine Nacht beginnt und endet, etwa „Ruhezeit 23-7“ oder „Ruhezeit aus“"},
		{problemGrammar(""), "neu felix mit a@x.test clock 2d max 61d", "eine Bedenkzeit beträgt höchstens 60 Tage, nicht 61d: " + newUsage},
		{problemGrammar(""), "neu felix mit a@x.test Frist 3 Wochen", "die Frist einer Partie beträgt 1 Stunde bis 14 Tage, nicht 3 Wochen: " + newUsage},
		{problemGrammar(""), "neu felix mit 9 Bots", "eine Partie hat höchstens 5 Bots, nicht 9: " + newUsage},
		{problemGrammar(""), "Regeln schach", `"schach" ist kein Spiel; die Spiele sind felix, gracias`},
		{problemGrammar(""), "sag", "schreibe nach „sag“, was du deinen Mitspielern sagen willst: sag TEXT"},
		{problemGrammar("felix"), "biete viele", `N muss eine ganze Zahl sein, nicht "viele"`},
		{problemGrammar("felix"), "biete 4 Bananen", `"Bananen" am Ende gehört nicht zum Befehl`},
		{problemGrammar("felix"), "spiele Elefant", `"Elefant" gibt es nicht als Karte; CARD kann sein: -8, -5, 3, 5, 8, 11, 15, rabbit, large-dog, small-dog`},
		{problemGrammar("felix", "play rabbit", "play 8"), "spiele Elefant", `"Elefant" kannst du jetzt nicht als Karte wählen`},
		{problemGrammar("felix", "play rabbit", "play 8"), "spiele Hund", `weder "play large-dog" noch "play small-dog" ist jetzt möglich`},
		{problemGrammar("gracias"), "behalte rosa gib bob", `"rosa" gibt es nicht als Farbe; COLOUR kann sein: red, orange, yellow, green, blue, purple`},
		{problemGrammar("gracias"), "behalte rot gib zed", `"zed" ist kein Spieler; die Spieler sind alice, bob, carol`},
		{problemGrammar("gracias"), "behalte rot", `das Wort "give" fehlt`},
	} {
		_, p := parser.Read(c.text, c.grammar)
		if p == nil {
			t.Errorf("%q: read", c.text)
			continue
		}
		if got := de.Told(*p); got != c.want {
			t.Errorf("%q: told\n%s\nwant\n%s", c.text, got, c.want)
		}
		if got := Say.Told(*p); got != p.Told() {
			t.Errorf("%q: told in English\n%s\nthe problem says\n%s", c.text, got, p.Told())
		}
	}
}

// TestToldWithoutMessage: a Problem the parser did not make, or whose
// words were changed after, is told as it says, in every language.
func TestToldWithoutMessage(t *testing.T) {
	p := parser.Problem{Reason: "the dog ate it"}
	if got := For("de").Told(p); got != "the dog ate it" {
		t.Errorf("no message: %q", got)
	}
	_, read := parser.Read("Bananen", problemGrammar(""))
	read.Reason = "changed"
	if got := For("de").Told(*read); got != "changed" {
		t.Errorf("a changed reason: %q", got)
	}
}

// TestToldIsEnglish: over the parser's corpora and fuzz seeds, read in
// the lobby and in every game, Say tells each problem byte for byte as
// the problem says it (Told), and German tells it with no argument lost
// (no "%!" of a verb without its argument) and none of English's
// sentences.
func TestToldIsEnglish(t *testing.T) {
	var texts []string
	paths, err := filepath.Glob("../parser/testdata/corpus/*.eml")
	if err != nil || len(paths) < 40 {
		t.Fatalf("the parser's corpus: %d files, %v", len(paths), err)
	}
	for _, path := range paths {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		m, err := parser.Extract(f, parser.ExtractOptions{ServiceAddress: "game@pbem.example", ServiceName: "pbem"})
		f.Close()
		if err == nil {
			texts = append(texts, m.Text)
		}
	}
	seeds, _ := filepath.Glob("../parser/testdata/fuzz/FuzzRead/*")
	for _, path := range seeds {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(data), "\n") {
			if q, ok := strings.CutPrefix(line, "string("); ok {
				if s, err := strconv.Unquote(strings.TrimSuffix(q, ")")); err == nil {
					texts = append(texts, s)
				}
			}
		}
	}
	grammars := []parser.Grammar{problemGrammar("")}
	for _, name := range games.Names() {
		grammars = append(grammars, problemGrammar(name))
	}
	de := For("de")
	problems, messages := 0, 0
	for _, text := range texts {
		for _, g := range grammars {
			_, p := parser.Read(text, g)
			if p == nil {
				continue
			}
			problems++
			if got := Say.Told(*p); got != p.Told() {
				t.Errorf("%.60q: told in English\n%s\nthe problem says\n%s", text, got, p.Told())
			}
			if _, ok := p.ToldMessage(); !ok {
				t.Errorf("%.60q: %q has no message", text, p.Told())
				continue
			}
			messages++
			got := de.Told(*p)
			if strings.Contains(got, "%!") || got == p.Told() && p.Told() != "" {
				t.Errorf("%.60q: told in German %q (English: %q)", text, got, p.Told())
			}
		}
	}
	if problems < 100 {
		t.Errorf("%d problems: the corpus is not what it was", problems)
	}
	t.Logf("%d texts, %d problems, %d with a message", len(texts), problems, messages)
}
