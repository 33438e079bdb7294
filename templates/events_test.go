package templates

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"math/rand/v2"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/games"
)

// The game logs' phrases (engine.Phrase, issue 39): every event a game
// writes carries its sentence as a message key and typed arguments, and
// Words.Event writes it in the reader's language. These tests play many
// random games of every game and check the phrases against the Text the
// games have always written, against the games' catalogs, and in German.

// eventNames are the players' names of the random games: some are the
// start of another, so that an event about "bob" is never read as about
// "bo", and the other way round.
var eventNames = []string{"al", "alice", "bo", "bob", "bobby", "carol", "dan", "dana"}

// randomLog plays a random game of rules, from seed: its players and
// every event of its opening and its moves, in order. A Felix player
// passes half the time he may, and now and then gives a standing pass
// ahead of his turn, so that auctions end in every way and every order
// is carried out.
func randomLog(rules engine.Rules, seed uint64) ([]string, []engine.Event, error) {
	rng := rand.New(rand.NewPCG(seed, 39))
	n := rules.MinPlayers() + rng.IntN(rules.MaxPlayers()-rules.MinPlayers()+1)
	pool := slices.Clone(eventNames)
	rng.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	names := pool[:n]
	g, log, err := rules.New(engine.Setup{Players: names, Seed: seed})
	if err != nil {
		return nil, nil, err
	}
	specs := rules.Specs()
	apply := func(seat int, text string) error {
		c, err := engine.ParseCommand(specs, names, text)
		if err != nil {
			return fmt.Errorf("%q does not parse: %w", text, err)
		}
		evs, err := g.Apply(seat, c)
		log = append(log, evs...)
		return err
	}
	for steps := 0; !g.Result().Finished; steps++ {
		if steps > 5000 {
			return nil, nil, fmt.Errorf("%s game %d does not end", rules.Name(), seed)
		}
		waiting := g.Waiting()
		if len(waiting) == 0 {
			return nil, nil, fmt.Errorf("%s game %d waits on nobody", rules.Name(), seed)
		}
		if rules.Name() == "felix" && rng.IntN(8) == 0 {
			// A standing pass, or an illegal pass that changes nothing.
			_ = apply(rng.IntN(n), "pass")
			continue
		}
		seat := waiting[rng.IntN(len(waiting))]
		var all []string
		for _, o := range g.Options(seat) {
			all = append(all, o.Commands...)
		}
		text := all[rng.IntN(len(all))]
		if slices.Contains(all, "pass") && rng.IntN(2) == 0 {
			text = "pass"
		}
		if err := apply(seat, text); err != nil {
			return nil, nil, fmt.Errorf("%s game %d: option %q is illegal: %w", rules.Name(), seed, text, err)
		}
	}
	return names, log, nil
}

// eventGames is how many random games of each game the tests play.
func eventGames() int {
	if testing.Short() {
		return 20
	}
	return 60
}

// randomLogs are the logs of many random games of every game, played
// once for the tests that read them.
var randomLogs = sync.OnceValues(func() ([]playedGame, error) {
	var out []playedGame
	all := games.All()
	for _, name := range slices.Sorted(maps.Keys(all)) {
		rules := all[name]
		a, _ := rules.(engine.Addresser)
		for seed := range uint64(eventGames()) {
			names, log, err := randomLog(rules, seed)
			if err != nil {
				return nil, err
			}
			read := slices.Clone(log)
			if a != nil {
				for seat, reader := range names {
					for _, e := range log {
						if e.VisibleTo(seat) {
							read = append(read, a.Address(e, reader))
						}
					}
				}
			}
			out = append(out, playedGame{rules, names, read})
		}
	}
	return out, nil
})

// playedGame is a random game's players and every event of its log, as
// anyone and as each player reads it (engine.Addresser).
type playedGame struct {
	rules engine.Rules
	names []string
	read  []engine.Event
}

// eachRandomLog calls f with each of randomLogs.
func eachRandomLog(t *testing.T, f func(rules engine.Rules, names []string, read []engine.Event)) {
	t.Helper()
	logs, err := randomLogs()
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range logs {
		f(g.rules, g.names, g.read)
	}
}

// TestEventsInEnglishAreTheirText: in English, every event of many
// random games, as everyone reads it (his own acts addressed to him),
// is its Text byte for byte: written by the renderer's English words,
// by the phrase's own English, and after the phrase's JSON round trip.
func TestEventsInEnglishAreTheirText(t *testing.T) {
	t.Parallel()
	en := newRenderer(t).Words("en")
	events := 0
	eachRandomLog(t, func(rules engine.Rules, _ []string, read []engine.Event) {
		for _, e := range read {
			events++
			if e.Say == nil {
				t.Fatalf("%s: %q has no phrase", rules.Name(), e.Text)
			}
			if strings.Contains(e.Text, "%!") {
				t.Fatalf("%s: %q: a format's verbs do not match its arguments", rules.Name(), e.Text)
			}
			if got := en.Event(e); got != e.Text {
				t.Fatalf("%s: the English words write %q, the text is %q (%+v)", rules.Name(), got, e.Text, e.Say)
			}
			if got := e.Say.English(); got != e.Text {
				t.Fatalf("%s: the phrase's English is %q, the text %q", rules.Name(), got, e.Text)
			}
			b, err := json.Marshal(e.Say)
			if err != nil {
				t.Fatal(err)
			}
			var back engine.Phrase
			if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(&back, e.Say) {
				t.Fatalf("%s reads back as %+v, %v", b, back, err)
			}
		}
	})
	if Say.Event(engine.Event{Text: "as written", Say: &engine.Phrase{Key: "other words"}}) != "as written" {
		t.Error("Say, which knows no game's words, writes an event's Text")
	}
	if en.Event(engine.Event{Text: "an old event"}) != "an old event" {
		t.Error("an event without a phrase reads as its Text")
	}
	t.Logf("%d events", events)
}

// TestEnglishPluralsAgree: each English plural form a game's catalog
// gives (locales/en) is the one its phrases' English writes
// (engine.EnglishPlural), for every count.
func TestEnglishPluralsAgree(t *testing.T) {
	t.Parallel()
	en := newRenderer(t).Words("en")
	for name, rules := range games.All() {
		for key, forms := range gameLocale(t, rules, "en") {
			if len(forms) < 2 {
				t.Errorf("%s: en/%q is no plural table", name, key)
			}
			for _, n := range []int{-1, 0, 1, 2, 3, 21} {
				say := engine.W(key, n)
				if got, want := en.Event(engine.Event{Say: &say}), say.English(); got != want {
					t.Errorf("%s: %q for %d: the catalog writes %q, the phrase %q", name, key, n, got, want)
				}
			}
		}
	}
}

// gameLocale is the entries of a game's catalog files for lang, each
// with its forms: one text, or one for each plural form.
func gameLocale(t *testing.T, rules engine.Rules, lang string) map[string][]string {
	t.Helper()
	l, ok := rules.(engine.Localizer)
	if !ok {
		return nil
	}
	files, err := fs.Glob(l.Locales(), path.Join(lang, "*.toml"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, file := range files {
		for key, forms := range localeForms(t, l.Locales(), file) {
			if _, ok := out[key]; ok {
				t.Errorf("%s: %q is in two files of %s", rules.Name(), key, lang)
			}
			out[key] = forms
		}
	}
	return out
}

// phraseKeys adds the message keys p prints, its own and its nested
// phrases' and lists', to keys.
func phraseKeys(p *engine.Phrase, keys map[string]bool) {
	switch {
	case p.List == engine.ListAnd:
		if len(p.Args) > 1 {
			keys[", "], keys["%s and %s"] = true, true
		}
	case p.List != "":
		if len(p.Args) > 1 {
			keys[p.List] = true
		}
	default:
		keys[p.Key] = true
	}
	for _, a := range p.Args {
		if a.P != nil {
			phraseKeys(a.P, keys)
		}
	}
}

// sharedKeys are the list words the games' phrases print with the
// templates' own catalog (words.go's joinAnd), not a game's.
var sharedKeys = []string{", ", "%s and %s"}

// sourceKeys are the message keys a game's code writes, read from its
// source: the format of every rec.Public, Private and Others, the key
// of every engine.W, engine.Join's separator, engine.EnglishPlural's
// key, and the keys and forms of its you-forms (engine.Yous, and Key
// fields and its own tables' strings). A key built at run time (a card
// or a colour by name) is not among them.
func sourceKeys(t *testing.T, game string) map[string]bool {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "engine", game, "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("the source of %s: %v", game, err)
	}
	var parsed []*ast.File
	consts := map[string]string{}
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		parsed = append(parsed, f)
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.CONST {
				for _, s := range g.Specs {
					vs := s.(*ast.ValueSpec)
					for i, id := range vs.Names {
						if i < len(vs.Values) {
							if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
								consts[id.Name], _ = strconv.Unquote(lit.Value)
							}
						}
					}
				}
			}
		}
	}
	keys := map[string]bool{}
	add := func(x ast.Expr) {
		switch x := x.(type) {
		case *ast.BasicLit:
			if s, err := strconv.Unquote(x.Value); err == nil && x.Kind == token.STRING {
				keys[s] = true
			}
		case *ast.Ident:
			if s, ok := consts[x.Name]; ok {
				keys[s] = true
			}
		}
	}
	// tables are the composite literals whose every string is a key: the
	// you-forms.
	var tables []ast.Node
	for _, f := range parsed {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				sel, ok := n.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				x, _ := sel.X.(*ast.Ident)
				if x == nil {
					return true
				}
				format := -1
				switch {
				case x.Name == "rec" && sel.Sel.Name == "Public":
					format = 1
				case x.Name == "rec" && (sel.Sel.Name == "Private" || sel.Sel.Name == "Others"):
					format = 2
				case x.Name == "engine" && (sel.Sel.Name == "W" || sel.Sel.Name == "Join"):
					format = 0
				case x.Name == "engine" && sel.Sel.Name == "EnglishPlural":
					format = 1
				}
				if format >= 0 && format < len(n.Args) {
					add(n.Args[format])
				}
			case *ast.ValueSpec:
				for i, v := range n.Values {
					if strings.HasSuffix(n.Names[i].Name, "yous") || n.Names[i].Name == "leads" {
						tables = append(tables, v)
					}
				}
			}
			return true
		})
	}
	for _, table := range tables {
		ast.Inspect(table, func(n ast.Node) bool {
			if x, ok := n.(ast.Expr); ok {
				add(x)
			}
			return true
		})
	}
	return keys
}

// TestEveryEventKeyInGerman: every key a game's log prints, as its code
// writes them and as many random games print them (cards and colours by
// name, the you-forms), has a German form in the game's catalog (or,
// for the list words, the templates'), which keeps the key's arguments
// and verbs; the game's events catalog holds no key the game does not
// print; and a key the templates or another game also translate is
// translated alike, since the renderer's catalog holds them all.
func TestEveryEventKeyInGerman(t *testing.T) {
	t.Parallel()
	printed := map[string]map[string]bool{} // by game
	eachRandomLog(t, func(rules engine.Rules, _ []string, read []engine.Event) {
		keys := printed[rules.Name()]
		if keys == nil {
			keys = map[string]bool{}
			printed[rules.Name()] = keys
		}
		for _, e := range read {
			phraseKeys(e.Say, keys)
		}
	})
	templatesDE := localeEntries(t, "de")
	all := games.All()
	for _, name := range slices.Sorted(maps.Keys(all)) {
		rules := all[name]
		de := gameLocale(t, rules, "de")
		source := sourceKeys(t, name)
		if len(source) < 20 {
			t.Fatalf("%s: only %d keys read from the source: the reading is broken", name, len(source))
		}
		for key := range printed[name] {
			if !source[key] && de[key] == nil && !slices.Contains(sharedKeys, key) {
				t.Errorf("%s prints %q, which neither its source nor its German catalog holds", name, key)
			}
		}
		keys := maps.Clone(source)
		maps.Copy(keys, printed[name])
		for _, key := range slices.Sorted(maps.Keys(keys)) {
			if slices.Contains(sharedKeys, key) {
				if _, ok := templatesDE[key]; !ok {
					t.Errorf("%s: the templates' catalog has no German %q", name, key)
				}
				continue
			}
			forms, ok := de[key]
			if !ok {
				t.Errorf("%s: no German form of %q", name, key)
				continue
			}
			want, ok := verbsByArgument(key)
			if !ok {
				t.Fatalf("%q: the key's verbs do not read", key)
			}
			for _, form := range forms {
				if got, ok := verbsByArgument(form); !ok || !maps.Equal(got, want) {
					t.Errorf("%s: %q: %q prints the arguments as %v, the key as %v", name, key, form, got, want)
				}
			}
		}
		// The events catalog (not the nouns, which the templates print
		// too) translates nothing the game does not print.
		l := rules.(engine.Localizer)
		if _, err := fs.Stat(l.Locales(), "de/events.toml"); err == nil {
			for key := range localeForms(t, l.Locales(), "de/events.toml") {
				if !keys[key] {
					t.Errorf("%s: de/events.toml translates %q, which the game does not print", name, key)
				}
			}
		}
		t.Logf("%s: %d keys from the source, %d printed", name, len(source), len(printed[name]))
	}
	// One catalog holds every game's and the templates' entries: a key
	// two of them translate must read alike in both.
	seen := map[string]string{}
	for key, forms := range templatesDE {
		_ = forms
		seen[key] = "templates"
	}
	tdeForms := map[string][]string{}
	sub, _ := fs.Sub(locales, "locales")
	files, _ := fs.Glob(sub, "de/*.toml")
	for _, f := range files {
		maps.Copy(tdeForms, localeForms(t, sub, f))
	}
	for _, name := range slices.Sorted(maps.Keys(all)) {
		for key, forms := range gameLocale(t, all[name], "de") {
			if other, ok := tdeForms[key]; ok && !slices.Equal(sortedCopy(other), sortedCopy(forms)) {
				t.Errorf("%s translates %q as %q, the %s as %q", name, key, forms, seen[key], other)
			}
			if _, ok := seen[key]; !ok {
				seen[key] = name
				tdeForms[key] = forms
			}
		}
	}
}

func sortedCopy(xs []string) []string { return slices.Sorted(slices.Values(xs)) }

// englishKeyWords are the words of English sentences that a German text
// must not hold: every word of three letters or more of the keys, but
// those German writes alike.
func englishKeyWords(keys map[string]bool) map[string]bool {
	same := map[string]bool{
		"gracias": true, "pbem": true, "limit": true, "position": true, "bank": true,
		"orange": true, "plus": true, "felix": true, "sack": true,
	}
	out := map[string]bool{}
	for key := range keys {
		for _, w := range wordsOf(key) {
			if len(w) >= 3 && !same[w] {
				out[w] = true
			}
		}
	}
	return out
}

// wordsOf are the lower-case words of s: its runs of letters, a verb's
// letter ("%s") not among them.
func wordsOf(s string) []string {
	s = strings.NewReplacer("%s", " ", "%d", " ").Replace(s)
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) })
}

// englishIn are the English words of text, players' names aside.
func englishIn(text string, english map[string]bool, names []string) []string {
	var out []string
	for _, w := range wordsOf(text) {
		if english[w] && !slices.Contains(names, w) {
			out = append(out, w)
		}
	}
	return out
}

// TestGermanLogsHoldNoEnglish: every event of many random games, as each
// player reads it in German, holds no English word of the games' keys
// ("bids", "passes", "row", "mice"): neither an untranslated sentence
// nor an argument that carries English. The same check finds the
// English words of the English log, so it can fail.
func TestGermanLogsHoldNoEnglish(t *testing.T) {
	t.Parallel()
	r := newRenderer(t)
	de, en := r.Words("de"), r.Words("en")
	keys := map[string]bool{}
	for name := range games.All() {
		maps.Copy(keys, sourceKeys(t, name))
	}
	english := englishKeyWords(keys)
	for _, w := range []string{"bids", "passes", "row", "mice", "triplet", "keeps"} {
		if !english[w] {
			t.Fatalf("%q is not among the English words: the check proves nothing", w)
		}
	}
	found, events := 0, 0
	eachRandomLog(t, func(rules engine.Rules, names []string, read []engine.Event) {
		for _, e := range read {
			events++
			german := de.Event(e)
			if left := englishIn(german, english, names); len(left) > 0 {
				t.Fatalf("%s: %q holds English %q (the text: %q)", rules.Name(), german, left, e.Text)
			}
			found += len(englishIn(en.Event(e), english, names))
		}
	})
	if found < events {
		t.Errorf("the English logs hold only %d English words in %d events: the check is vacuous", found, events)
	}
}

// TestGermanMailTellsEventsInGerman: a German game mail and page list
// what happened in German, the reader's own acts addressed to him; the
// English mail lists the same events as their Text.
func TestGermanMailTellsEventsInGerman(t *testing.T) {
	t.Parallel()
	r := newRenderer(t)
	g, opening, steps := play(t, "engine/felix/testdata/proxy-outbids-4p.txt", -1)
	var all []engine.Event
	all = append(all, opening...)
	for _, s := range steps {
		all = append(all, s.events...)
	}
	m := mailFor(t, g, 1, MailStatus, visible(1, all))
	m.WholeHistory = true
	english := render(t, r, m)
	m.Language = "de"
	german := render(t, r, m)
	for _, want := range []string{"Du passt, nimmst den Einsatz von 6 zurück und dazu die 6er-Mäusekarte (6 Mäuse).", "pbem bietet 6 für dich (dein Limit: 6).", "Die Karte von carol wird aufgedeckt: großer Hund."} {
		if !strings.Contains(unwrap(german.Text), want) || !strings.Contains(unwrap(htmlText(german.HTML)), want) {
			t.Errorf("the German mail lacks %q:\n%s", want, german.Text)
		}
	}
	for _, want := range []string{"You pass, take back a stake of 6 and take the 6-mouse card with 6 mice.", "pbem bids 6 for you (your limit: 6).", "carol's card is turned up: large dog."} {
		if !strings.Contains(unwrap(english.Text), want) {
			t.Errorf("the English mail lacks %q:\n%s", want, english.Text)
		}
		if strings.Contains(unwrap(german.Text), want) {
			t.Errorf("the German mail holds %q:\n%s", want, german.Text)
		}
	}
	page, err := r.Page(Page{GameMail: m, Points: []PagePoint{{Text: "now"}}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(unwrap(htmlText(page)), "Du passt, nimmst den Einsatz von 6 zurück") {
		t.Errorf("the German page lacks its events in German:\n%s", htmlText(page))
	}
}
