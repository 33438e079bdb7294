package felix

import (
	"fmt"
	"go/ast"
	goparser "go/parser"
	"go/token"
	htmltemplate "html/template"
	"io/fs"
	"maps"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"text/template/parse"

	"github.com/BurntSushi/toml"
	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/message/catalog"
	"pgregory.net/rapid"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/transcript"
	"github.com/pbem/pbem/parser"
)

// Felix's words in the catalogs (issue 39): every word its templates,
// functions, commands' help and cards write has a German form, and the
// commands it offers read back in German. The renderer's side (the
// German mails, a pseudo-locale) is templates/felix_l10n_test.go.

// eventsFile is the catalog of the game log's events, which its own
// tests check (state.go, game.go, ... write them): this file's tests
// leave it out.
const eventsFile = "events.toml"

// localeFile is one catalog file: its entries, a text or a table of
// plural forms, by key.
func localeFile(t testing.TB, file string) map[string]any {
	t.Helper()
	data, err := fs.ReadFile(Rules{}.Locales(), file)
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]any
	if err := toml.Unmarshal(data, &raw); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return raw
}

// catalogFiles are the catalog files of the language folder lang.
func catalogFiles(t testing.TB, lang string) []string {
	t.Helper()
	files, err := fs.Glob(Rules{}.Locales(), path.Join(lang, "*.toml"))
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// pluralFormNames are the plural forms a catalog entry may give, in the
// order a message tries them.
var pluralFormNames = []string{"zero", "one", "two", "few", "many", "other"}

var pluralFormOf = map[string]plural.Form{
	"zero": plural.Zero, "one": plural.One, "two": plural.Two,
	"few": plural.Few, "many": plural.Many, "other": plural.Other,
}

// catalogs are Felix's catalogs, built as the renderer builds them
// (templates/catalog.go), once.
var catalogs = sync.OnceValues(func() (catalog.Catalog, error) {
	b := catalog.NewBuilder(catalog.Fallback(language.English))
	fsys := Rules{}.Locales()
	dirs, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, err
	}
	for _, d := range dirs {
		tag := language.MustParse(d.Name())
		files, _ := fs.Glob(fsys, path.Join(d.Name(), "*.toml"))
		for _, file := range files {
			data, err := fs.ReadFile(fsys, file)
			if err != nil {
				return nil, err
			}
			var raw map[string]any
			if err := toml.Unmarshal(data, &raw); err != nil {
				return nil, fmt.Errorf("%s: %w", file, err)
			}
			for key, v := range raw {
				switch v := v.(type) {
				case string:
					err = b.SetString(tag, key, v)
				case map[string]any:
					var cases []any
					for _, name := range pluralFormNames {
						if text, ok := v[name]; ok {
							cases = append(cases, pluralFormOf[name], text)
						}
					}
					err = b.Set(tag, key, plural.Selectf(1, "%d", cases...))
				default:
					err = fmt.Errorf("%q is neither a text nor plural forms", key)
				}
				if err != nil {
					return nil, fmt.Errorf("%s: %w", file, err)
				}
			}
		}
	}
	return b, nil
})

// catalogSay is the Say of the language lang ("de", "en"), printed from
// Felix's catalogs as the renderer prints it.
func catalogSay(t testing.TB, lang string) engine.Say {
	t.Helper()
	cat, err := catalogs()
	if err != nil {
		t.Fatal(err)
	}
	p := message.NewPrinter(language.MustParse(lang), message.Catalog(cat))
	return func(key string, args ...any) string { return p.Sprintf(key, args...) }
}

// sayFuncs are the template functions that print a key of the catalogs:
// the renderer's T, and the HTML part's felixT, felixS and felixParts.
var sayFuncs = []string{"T", "felixT", "felixS", "felixParts"}

// templateKeys are the keys the game's templates print, by the function
// that prints them.
func templateKeys(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	files, err := fs.Glob(Rules{}.Templates(), "*.tmpl")
	if err != nil || len(files) != 3 {
		t.Fatalf("templates %v: %v", files, err)
	}
	for _, file := range files {
		text, err := fs.ReadFile(Rules{}.Templates(), file)
		if err != nil {
			t.Fatal(err)
		}
		tr := parse.New(file)
		tr.Mode = parse.SkipFuncCheck
		trees := map[string]*parse.Tree{}
		if _, err := tr.Parse(string(text), "", "", trees); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		for _, tree := range trees {
			walkTemplate(tree.Root, func(fn, key string) { out[fn] = append(out[fn], key) })
		}
	}
	return out
}

// walkTemplate calls found for every call of a sayFuncs function with a
// string literal key in the tree below n.
func walkTemplate(n parse.Node, found func(fn, key string)) {
	switch n := n.(type) {
	case *parse.ListNode:
		if n == nil {
			return
		}
		for _, c := range n.Nodes {
			walkTemplate(c, found)
		}
	case *parse.ActionNode:
		walkTemplate(n.Pipe, found)
	case *parse.IfNode:
		walkBranch(&n.BranchNode, found)
	case *parse.RangeNode:
		walkBranch(&n.BranchNode, found)
	case *parse.WithNode:
		walkBranch(&n.BranchNode, found)
	case *parse.TemplateNode:
		if n.Pipe != nil {
			walkTemplate(n.Pipe, found)
		}
	case *parse.PipeNode:
		if n == nil {
			return
		}
		for _, c := range n.Cmds {
			walkTemplate(c, found)
		}
	case *parse.ChainNode:
		walkTemplate(n.Node, found)
	case *parse.CommandNode:
		if len(n.Args) > 1 {
			id, isIdent := n.Args[0].(*parse.IdentifierNode)
			key, isString := n.Args[1].(*parse.StringNode)
			if isIdent && isString && slices.Contains(sayFuncs, id.Ident) {
				found(id.Ident, key.Text)
			}
		}
		for _, a := range n.Args {
			walkTemplate(a, found)
		}
	}
}

func walkBranch(b *parse.BranchNode, found func(fn, key string)) {
	walkTemplate(b.Pipe, found)
	walkTemplate(b.List, found)
	walkTemplate(b.ElseList, found)
}

// sayKeys are the string literals the Go files print through say.
func sayKeys(t *testing.T, files ...string) []string {
	t.Helper()
	var keys []string
	for _, list := range sayCalls(t, files...) {
		keys = append(keys, list...)
	}
	return keys
}

// sayCalls are the string literals the Go files print through say, by
// the function that prints them: say(KEY, ...), and the HTML's
// sayHTML(say, KEY, ...), sayParts(say, KEY, ...) and page.say(say,
// KEY, ...) (as "say").
func sayCalls(t *testing.T, files ...string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, file := range files {
		f, err := goparser.ParseFile(token.NewFileSet(), file, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			fn, arg := sayCallee(call)
			if arg < 0 || arg >= len(call.Args) {
				return true
			}
			lit, ok := call.Args[arg].(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			key, err := strconv.Unquote(lit.Value)
			if err != nil {
				t.Fatal(err)
			}
			out[fn] = append(out[fn], key)
			return true
		})
	}
	return out
}

// sayCallee is the function a call prints a key through, and which of
// its arguments is the key; -1 for a call of none of them.
func sayCallee(call *ast.CallExpr) (string, int) {
	switch fn := call.Fun.(type) {
	case *ast.Ident:
		switch fn.Name {
		case "say":
			return fn.Name, 0
		case "sayHTML", "sayParts":
			return fn.Name, 1
		}
	case *ast.SelectorExpr:
		if fn.Sel.Name == "say" {
			return "say", 1
		}
	}
	return "", -1
}

// isNumber says that a card's name is a number, the same in every
// language ("-8").
func isNumber(s string) bool {
	_, err := strconv.Atoi(s)
	return err == nil
}

// wordKeys are every key Felix prints, but for the events': where each
// comes from, by key.
func wordKeys(t *testing.T) map[string]string {
	t.Helper()
	keys := map[string]string{}
	for _, list := range templateKeys(t) {
		for _, k := range list {
			keys[k] = "templates"
		}
	}
	for _, k := range sayKeys(t, "present.go", "present_text.go", "present_html.go", "view.go") {
		keys[k] = "present.go"
	}
	for _, sp := range (Rules{}).Specs() {
		keys[sp.Help] = "a Spec's Help"
		keys[commandKey(sp)] = "a command"
	}
	keys[(Rules{}).Title()] = "the title"
	for k := Kind(0); k < numKinds; k++ {
		if !isNumber(k.Word()) {
			keys[k.Word()] = "a card"
		}
	}
	for card, tile := range (Rules{}).Tiles() {
		for _, label := range []string{tile.Label, tile.Sub} {
			if label != "" && !isNumber(label) {
				keys[label] = "the tile of " + card
			}
		}
	}
	return keys
}

// TestEveryWordInGerman: every key Felix prints has a German form, in
// one catalog file; no German entry is stale; and English has entries
// only for its plural forms, of keys Felix prints.
func TestEveryWordInGerman(t *testing.T) {
	t.Parallel()
	keys := wordKeys(t)
	if len(keys) < 80 {
		t.Fatalf("only %d keys found: the test does not see them", len(keys))
	}
	in := map[string]string{}
	for _, file := range catalogFiles(t, "de") {
		if path.Base(file) == eventsFile {
			continue
		}
		for key := range localeFile(t, file) {
			if other, ok := in[key]; ok {
				t.Errorf("%q is in both %s and %s", key, other, file)
			}
			in[key] = file
			if _, ok := keys[key]; !ok {
				t.Errorf("%s translates %q, which Felix does not print", file, key)
			}
		}
	}
	for _, key := range slices.Sorted(maps.Keys(keys)) {
		if _, ok := in[key]; !ok {
			t.Errorf("no German for %q (%s)", key, keys[key])
		}
	}
	for _, file := range catalogFiles(t, "en") {
		if path.Base(file) == eventsFile {
			continue
		}
		for key, v := range localeFile(t, file) {
			forms, ok := v.(map[string]any)
			if _, printed := keys[key]; !printed || !ok || forms["one"] == nil || forms["other"] != key {
				t.Errorf("%s: %q is not a plural of a key Felix prints, its other form the key", file, key)
			}
		}
	}
	t.Logf("%d keys, all in German", len(keys))
}

// argVerb is a verb of a format, with an optional argument index.
var argVerb = regexp.MustCompile(`%(\[([0-9]+)\])?[-+# 0]*[0-9]*(\.[0-9]+)?([a-zA-Z])`)

// argumentVerbs maps each argument a format prints (from 1) to its
// verb, as fmt numbers them.
func argumentVerbs(format string) map[int]string {
	out := map[int]string{}
	next := 1
	for _, m := range argVerb.FindAllStringSubmatch(strings.ReplaceAll(format, "%%", ""), -1) {
		if m[2] != "" {
			next, _ = strconv.Atoi(m[2])
		}
		out[next] = m[4]
		next++
	}
	return out
}

// htmlTag is a tag of a sentence of the HTML part.
var htmlTag = regexp.MustCompile(`<[^>]*>`)

// forms are the texts of a catalog entry: one, or one for each plural
// form.
func forms(v any) []string {
	switch v := v.(type) {
	case string:
		return []string{v}
	case map[string]any:
		var out []string
		for _, f := range v {
			out = append(out, f.(string))
		}
		return out
	}
	return nil
}

// TestGermanKeepsArgumentsAndMarkup: every form of every German entry
// prints the key's arguments with the key's verbs; it marks the words
// the key marks (<b>), with no other markup or bare "&"; a sentence the
// HTML part cuts at its slots (felixParts, sayParts) keeps them in
// order; and the HTML part's sentence with <b> reads, without it, as
// the text's.
func TestGermanKeepsArgumentsAndMarkup(t *testing.T) {
	t.Parallel()
	// The sentences cut at their slots: the templates' and the Go's.
	parts := append(templateKeys(t)["felixParts"], sayCalls(t, "present_html.go")["sayParts"]...)
	if len(parts) < 2 {
		t.Fatalf("only %d sentences cut at their slots found: the test does not see them", len(parts))
	}
	de := map[string]any{}
	for _, file := range catalogFiles(t, "de") {
		for key, v := range localeFile(t, file) {
			de[key] = v
			for _, form := range forms(v) {
				if got, want := argumentVerbs(form), argumentVerbs(key); !maps.Equal(got, want) {
					t.Errorf("%s: %q: %q prints the arguments as %v, the key as %v", file, key, form, got, want)
				}
				if got, want := htmlTag.FindAllString(form, -1), htmlTag.FindAllString(key, -1); !slices.Equal(got, want) {
					t.Errorf("%s: %q: %q has the markup %q, the key %q", file, key, form, got, want)
				}
				if rest := htmlTag.ReplaceAllString(form, ""); strings.ContainsAny(rest, "<>&") {
					t.Errorf("%s: %q: %q holds a bare < > or &", file, key, form)
				}
				if slices.Contains(parts, key) && strings.Contains(form, "%[") {
					t.Errorf("%s: %q: %q moves an argument: the HTML part cuts the sentence at them in order", file, key, form)
				}
			}
		}
	}
	for key, v := range de {
		if !htmlTag.MatchString(key) {
			continue
		}
		plain := htmlTag.ReplaceAllString(key, "")
		text, ok := de[plain].(string)
		if !ok {
			t.Errorf("%q has no text part's sentence %q", key, plain)
			continue
		}
		if got := htmlTag.ReplaceAllString(v.(string), ""); got != text {
			t.Errorf("%q is %q without markup, the text's %q", key, got, text)
		}
	}
}

// germanPattern is the command sp in the German words its Spec reads:
// the Spec's German pattern (its first Also), or its Words, each keyword
// by its German spelling (a Word's first Also), with %s for an
// argument.
func germanPattern(sp engine.Spec) string {
	words := sp.Words
	if len(sp.Also) > 0 {
		words = sp.Also[0]
	}
	out := make([]string, len(words))
	for i, w := range words {
		switch {
		case w.Kind != engine.Literal:
			out[i] = "%s"
		case len(w.Also) > 0:
			out[i] = w.Also[0]
		default:
			out[i] = w.Text
		}
	}
	return strings.Join(out, " ")
}

// TestCommandsInGermanAreTheSpecsWords: the German catalog writes each
// command in the German words of its Spec ("biete bis %s"), and help's
// usages in German.
func TestCommandsInGermanAreTheSpecsWords(t *testing.T) {
	t.Parallel()
	de := catalogSay(t, "de")
	for _, sp := range (Rules{}).Specs() {
		var args []any
		for range strings.Count(commandKey(sp), "%s") {
			args = append(args, "%s")
		}
		if got, want := de(commandKey(sp), args...), germanPattern(sp); got != want {
			t.Errorf("%s: German %q, the Spec reads %q", sp.Name, got, want)
		}
	}
	for cmd, want := range map[string]string{
		"bid up to N":           "biete bis N",
		"play CARD":             "spiele CARD",
		"play large-dog":        "spiele großer Hund",
		"play -8|rabbit":        "spiele -8|Hase",
		"bid 5..12":             "biete 5..12",
		"pass":                  "passe",
		"buy":                   "kaufe",
		"help":                  "help",
		"spiele Hase":           "spiele Hase",
		"bid up to 3 now":       "bid up to 3 now",
		"play large-dog please": "play large-dog please",
	} {
		if got := (Rules{}).CommandIn(cmd, de); got != want {
			t.Errorf("CommandIn(%q) = %q, want %q", cmd, got, want)
		}
	}
}

// TestPropertyCommandsReadBackInGerman: in random games, every command
// of every Option, written in German, reads back through the game's
// grammar as the same command; in English it is the command itself; and
// an Option's text in English is itself too.
func TestPropertyCommandsReadBackInGerman(t *testing.T) {
	t.Parallel()
	de, en := catalogSay(t, "de"), catalogSay(t, "en")
	grammar := parser.Grammar{Games: []string{"felix", "gracias"}, Specs: Rules{}.Specs(), Nouns: Rules{}.Nouns(), Players: testNames}
	seen := map[string]bool{} // commands read back already
	games := 0
	rapid.Check(t, func(t *rapid.T) {
		// Felix has few distinct commands, and 200 games offer them
		// all: the rest of the checks the package runs are skipped,
		// as the other property tests take their time already. (A
		// failed game is not counted, so that rapid can shrink it.)
		if games >= 200 {
			return
		}
		randomGame(t, func(g *Game, _ []transcript.Move, _ []engine.Event) {
			for p := 0; p < int(g.S.N); p++ {
				for _, o := range g.Options(p) {
					for _, say := range []engine.Say{engine.English, en} {
						if got := (Rules{}).CommandIn(o.Text, say); got != o.Text {
							t.Fatalf("option %q in English: %q", o.Text, got)
						}
					}
					for _, cmd := range o.Commands {
						if seen[cmd] {
							continue
						}
						seen[cmd] = true
						for _, say := range []engine.Say{engine.English, en} {
							if got := (Rules{}).CommandIn(cmd, say); got != cmd {
								t.Fatalf("%q in English: %q", cmd, got)
							}
						}
						german := Rules{}.CommandIn(cmd, de)
						if german == cmd {
							t.Fatalf("%q has no German", cmd)
						}
						read, err := parser.ReadMove(german, grammar)
						if err != nil || read.Text != cmd {
							t.Fatalf("%q in German is %q, which reads as %q (%v)", cmd, german, read.Text, err)
						}
					}
				}
			}
		})
		games++
	})
	if len(seen) < 15 {
		t.Fatalf("only %d commands seen", len(seen))
	}
}

// TestFuncsInGerman: the template functions write German from the
// German catalog, and English as before from the English one.
func TestFuncsInGerman(t *testing.T) {
	t.Parallel()
	de, en := Rules{}.Funcs(catalogSay(t, "de")), Rules{}.Funcs(catalogSay(t, "en"))
	money := 1
	v := View{You: "bob", Money: &money, Players: []PlayerView{
		{Name: "alice", Stake: 3, Cats: 8}, {Name: "bob", Stake: 2, Cats: 5}, {Name: "carol", Cats: 8},
	}, HighStake: 3}
	scores := map[string]int{"alice": 20, "bob": 12, "carol": 20}
	for _, c := range []struct{ got, want string }{
		{de["mice"].(func(int) string)(1), "1 Maus"},
		{de["mice"].(func(int) string)(0), "0 Mäuse"},
		{en["mice"].(func(int) string)(1), "1 mouse"},
		{en["mice"].(func(int) string)(-1), "-1 mouse"},
		{en["mice"].(func(int) string)(3), "3 mice"},
		{de["card"].(func(string) string)("large-dog"), "großer Hund"},
		{de["cards"].(func([]string) string)([]string{"-8", "rabbit", "small-dog"}), "-8, Hase, kleiner Hund"},
		{de["cards"].(func([]string) string)(nil), "keine"},
		{en["cards"].(func([]string) string)(nil), "none"},
		{de["owner"].(func(string) string)("dummy"), "Strohmann"},
		{de["owner"].(func(string) string)("alice"), "alice"},
		{de["rowCardShort"].(func(string, RowCard) string)("bob", RowCard{Owner: "bob", Placed: true, Card: "rabbit"}), "(deine Karte Hase, verdeckt)"},
		{de["rowCardShort"].(func(string, RowCard) string)("bob", RowCard{Owner: "alice", Placed: true}), "(verdeckt)"},
		{de["rowCardShort"].(func(string, RowCard) string)("bob", RowCard{Owner: "alice"}), "(noch nicht gelegt)"},
		{de["ownMoney"].(func(View) string)(v), "1 Maus auf der Hand, 2 eingesetzt"},
		{en["ownMoney"].(func(View) string)(v), "1 mouse in hand, 2 staked"},
		{de["highHolders"].(func(View) string)(v), "alice"},
		{de["mouseCards"].(func([]MouseCard) string)([]MouseCard{{2, 1, true}, {4, 0, true}, {6, 6, false}}), "2 (1 Maus), 4 (leer) und 6 (genommen)"},
		{de["mouseCards"].(func([]MouseCard) string)([]MouseCard{{2, 0, true}, {4, 0, true}}), "2 und 4, alle leer"},
		{de["tieBreak"].(func(View, []string, map[string]int) string)(v, []string{"alice", "carol"}, scores),
			"alice und carol haben beide 20 Punkte und dieselbe Katzensumme (8), also teilen sie sich den Sieg."},
		{de["tieBreak"].(func(View, []string, map[string]int) string)(v, []string{"alice"}, map[string]int{"alice": 20, "bob": 20, "carol": 20}),
			"alice, bob und carol haben alle 20 Punkte, also entscheidet die höhere Katzensumme: alice 8, carol 8 und bob 5."},
		{de["felixCommand"].(func(string) string)("play small-dog"), "spiele kleiner Hund"},
		{string(de["felixT"].(func(string, ...any) htmltemplate.HTML)("Round %d of %d", de["felixBold"].(func(any) boldArg)(2), 9)), "Runde <b>2</b> von 9"},
		{string(de["felixT"].(func(string, ...any) htmltemplate.HTML)("start player %s", de["felixBold"].(func(any) boldArg)("<al'+ce>"))), "Startspieler <b>&lt;al&#39;&#43;ce&gt;</b>"},
		{fmt.Sprintf("%q", de["felixParts"].(func(string, ...any) []htmltemplate.HTML)("Only %s is left: a bid must be at least %d, and you own %s.", slot, 4, "3 Mäuse & mehr")),
			`["Dir bleibt nur " ": Ein Gebot muss mindestens 4 betragen, und du besitzt 3 Mäuse &amp; mehr."]`},
	} {
		if c.got != c.want {
			t.Errorf("%q, want %q", c.got, c.want)
		}
	}
	tile := de["sayTile"].(func(engine.Tile) engine.Tile)(Rules{}.Tiles()["large-dog"])
	if tile.Label != "großer Hund" || tile.Bg != tileColours["large-dog"][0] {
		t.Errorf("the large dog's tile in German: %+v", tile)
	}
}
