package gracias_test

import (
	"bytes"
	"go/ast"
	goparser "go/parser"
	"go/token"
	htmltemplate "html/template"
	"io/fs"
	"maps"
	"math/rand/v2"
	"os"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"text/template/parse"

	"github.com/BurntSushi/toml"
	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/message/catalog"
	"pgregory.net/rapid"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/games"
	"github.com/pbem/pbem/engine/gracias"
	"github.com/pbem/pbem/parser"
)

// Gracias's words in the catalogs (issue 39): every word its mails and
// pages print has a form in every language of locales/, and each
// command it offers reads back, in German, as the same command.

// eventsFile is the catalog of the game's log (state.go, game.go,
// orders.go, address.go, results.go), which its own test checks.
const eventsFile = "events.toml"

// goFiles are the files whose say(...) calls print the game's words in
// mails and pages.
var goFiles = []string{"present.go", "present_table.go", "present_text.go", "view.go", "cards.go", "nouns.go"}

// borrowed are the keys the game prints with pbem's own words (a list's
// "and"): their forms are in the templates' catalog, words.toml.
var borrowed = []string{"%s and %s", ", "}

// pbemWords is the file of pbem's catalog in lang that holds borrowed.
func pbemWords(lang string) string {
	return path.Join("..", "..", "templates", "locales", lang, "words.toml")
}

// verb is a formatting verb of a key.
var verb = regexp.MustCompile(`%[-+# 0]*[0-9]*(\.[0-9]+)?[a-zA-Z]`)

// verbs counts the arguments a key prints.
func verbs(key string) int { return len(verb.FindAllString(strings.ReplaceAll(key, "%%", ""), -1)) }

// printedKeys are the keys of every message the game prints in a mail
// or a page but its log's, with where each is printed.
func printedKeys(t *testing.T) map[string]string {
	t.Helper()
	keys := map[string]string{}
	add := func(key, where string) {
		if key == "" {
			t.Errorf("%s: an empty key", where)
		}
		keys[key] = where
	}
	// The templates: T and Th with a literal key.
	tmpl := gracias.Rules{}.Templates()
	files, err := fs.Glob(tmpl, "*.tmpl")
	if err != nil || len(files) != 3 {
		t.Fatalf("templates %v: %v", files, err)
	}
	for _, file := range files {
		for key, args := range templateKeys(t, tmpl, file) {
			if verbs(key) != args {
				t.Errorf("%s: %q has %d verbs and %d arguments", file, key, verbs(key), args)
			}
			add(key, file)
		}
	}
	// The functions: say with a literal key.
	for _, file := range goFiles {
		f, err := goparser.ParseFile(token.NewFileSet(), file, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			// say(KEY, ...), sayHTML(say, KEY, ...), and a table's
			// sentence{KEY, []any{...}} (present_table.go).
			var keyArg ast.Expr
			var args int
			switch n := n.(type) {
			case *ast.CallExpr:
				id, ok := n.Fun.(*ast.Ident)
				switch {
				case ok && id.Name == "say" && len(n.Args) > 0:
					keyArg, args = n.Args[0], len(n.Args)-1
				case ok && id.Name == "sayHTML" && len(n.Args) > 1:
					keyArg, args = n.Args[1], len(n.Args)-2
				}
			case *ast.CompositeLit:
				if id, ok := n.Type.(*ast.Ident); ok && id.Name == "sentence" && len(n.Elts) == 2 {
					keyArg = n.Elts[0]
					if list, ok := n.Elts[1].(*ast.CompositeLit); ok {
						args = len(list.Elts)
					}
				}
			}
			lit, ok := keyArg.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true // a noun, a keyword: below
			}
			key, err := strconv.Unquote(lit.Value)
			if err != nil {
				t.Fatal(err)
			}
			if verbs(key) != args {
				t.Errorf("%s: %q has %d verbs and %d arguments", file, key, verbs(key), args)
			}
			add(key, file)
			return true
		})
	}
	// The commands' help, keywords and colours, which CommandIn writes,
	// and the tiles' labels.
	for _, s := range (gracias.Rules{}).Specs() {
		add(s.Help, "Specs "+s.Name+" (help)")
		for _, w := range s.Words {
			switch w.Kind {
			case engine.Literal:
				add(w.Text, "Specs "+s.Name+" (keyword)")
			case engine.Choice:
				for _, c := range w.Choices {
					add(c.Value, "Specs "+s.Name+" (colour)")
				}
			}
		}
	}
	for card, tile := range (gracias.Rules{}).Tiles() {
		add(tile.Label, "Tiles "+card)
		if tile.Sub != "" {
			add(tile.Sub, "Tiles "+card)
		}
	}
	return keys
}

// templateKeys are the literal keys of T and Th in a template file, with
// how many arguments each call passes.
func templateKeys(t *testing.T, fsys fs.FS, file string) map[string]int {
	t.Helper()
	text, err := fs.ReadFile(fsys, file)
	if err != nil {
		t.Fatal(err)
	}
	trees := map[string]*parse.Tree{}
	tr := parse.New(file)
	tr.Mode = parse.SkipFuncCheck
	if _, err := tr.Parse(string(text), "", "", trees); err != nil {
		t.Fatal(err)
	}
	keys := map[string]int{}
	for _, tree := range trees {
		walk(tree.Root, func(c *parse.CommandNode) {
			if len(c.Args) < 2 {
				return
			}
			id, ok := c.Args[0].(*parse.IdentifierNode)
			if !ok || (id.Ident != "T" && id.Ident != "Th") {
				return
			}
			s, ok := c.Args[1].(*parse.StringNode)
			if !ok {
				t.Errorf("%s: %s without a literal key: %s", file, id.Ident, c)
				return
			}
			keys[s.Text] = len(c.Args) - 2
		})
	}
	if len(keys) == 0 {
		t.Errorf("%s: no message", file)
	}
	return keys
}

// walk calls f on every command of a template's tree.
func walk(n parse.Node, f func(*parse.CommandNode)) {
	switch n := n.(type) {
	case *parse.ListNode:
		if n != nil {
			for _, c := range n.Nodes {
				walk(c, f)
			}
		}
	case *parse.ActionNode:
		walk(n.Pipe, f)
	case *parse.PipeNode:
		if n != nil {
			for _, c := range n.Cmds {
				walk(c, f)
			}
		}
	case *parse.CommandNode:
		f(n)
		for _, a := range n.Args {
			walk(a, f)
		}
	case *parse.IfNode:
		walkBranch(&n.BranchNode, f)
	case *parse.RangeNode:
		walkBranch(&n.BranchNode, f)
	case *parse.WithNode:
		walkBranch(&n.BranchNode, f)
	case *parse.TemplateNode:
		walk(n.Pipe, f)
	}
}

func walkBranch(b *parse.BranchNode, f func(*parse.CommandNode)) {
	walk(b.Pipe, f)
	walk(b.List, f)
	walk(b.ElseList, f)
}

// localeForms reads the catalog files of lang in fsys: each key's
// texts (one, or one for each plural form), and the file it is in.
func localeForms(t *testing.T, fsys fs.FS, lang string) (forms map[string]map[string]string, in map[string]string) {
	t.Helper()
	files, err := fs.Glob(fsys, path.Join(lang, "*.toml"))
	if err != nil {
		t.Fatal(err)
	}
	forms, in = map[string]map[string]string{}, map[string]string{}
	for _, file := range files {
		data, err := fs.ReadFile(fsys, file)
		if err != nil {
			t.Fatal(err)
		}
		for key, f := range readForms(t, file, data) {
			if other, ok := in[key]; ok {
				t.Errorf("%q is in both %s and %s", key, other, file)
			}
			forms[key], in[key] = f, file
		}
	}
	return forms, in
}

// readForms reads one catalog file: each key's text as form "", or its
// plural forms by name.
func readForms(t *testing.T, file string, data []byte) map[string]map[string]string {
	t.Helper()
	var raw map[string]any
	if err := toml.Unmarshal(data, &raw); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	out := map[string]map[string]string{}
	for key, v := range raw {
		switch v := v.(type) {
		case string:
			out[key] = map[string]string{"": v}
		case map[string]any:
			out[key] = map[string]string{}
			for name, text := range v {
				s, ok := text.(string)
				if !ok {
					t.Fatalf("%s: %q: form %s is not a text", file, key, name)
				}
				out[key][name] = s
			}
		default:
			t.Fatalf("%s: %q is neither a text nor plural forms", file, key)
		}
	}
	return out
}

// languages are the language folders of the game's catalogs, English
// (which has only its plural forms) aside.
func languages(t *testing.T) []string {
	t.Helper()
	dirs, err := fs.ReadDir(gracias.Rules{}.Locales(), ".")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range dirs {
		if d.Name() != "en" {
			out = append(out, d.Name())
		}
	}
	if !slices.Contains(out, "de") {
		t.Fatalf("languages %v: German is missing", out)
	}
	return out
}

// TestEveryWordInEveryLanguage: every message the game prints in a mail
// or a page (a T or Th of its templates, a say of its functions, a
// command's help, keyword and colour, a tile's label) has a form in
// every language, and no form of the game's catalog (but its log's) is
// one nothing prints.
func TestEveryWordInEveryLanguage(t *testing.T) {
	keys := printedKeys(t)
	fsys := gracias.Rules{}.Locales()
	for _, lang := range languages(t) {
		_, in := localeForms(t, fsys, lang)
		var pbem map[string]map[string]string
		if data, err := os.ReadFile(pbemWords(lang)); err == nil {
			pbem = readForms(t, pbemWords(lang), data)
		}
		for _, key := range slices.Sorted(maps.Keys(keys)) {
			_, ok := in[key]
			if slices.Contains(borrowed, key) {
				if ok {
					t.Errorf("%s: %s translates %q, which is pbem's own (%s)", lang, in[key], key, pbemWords(lang))
				}
				if _, ok := pbem[key]; !ok {
					t.Errorf("%s: %s has no form of %q", lang, pbemWords(lang), key)
				}
				continue
			}
			if !ok {
				t.Errorf("%s: no form of %q (%s)", lang, key, keys[key])
			}
		}
		for _, key := range slices.Sorted(maps.Keys(in)) {
			if _, ok := keys[key]; !ok && path.Base(in[key]) != eventsFile {
				t.Errorf("%s: %s translates %q, which nothing prints", lang, in[key], key)
			}
		}
		t.Logf("%s: %d keys", lang, len(in))
	}
	// English has a catalog entry only where it has two forms.
	forms, in := localeForms(t, fsys, "en")
	for key, f := range forms {
		if _, ok := keys[key]; !ok && path.Base(in[key]) != eventsFile {
			t.Errorf("en: %s has %q, which nothing prints", in[key], key)
		}
		if f["one"] == "" || f["other"] != key {
			t.Errorf("en: %s: %q is not a plural table whose other form is the key", in[key], key)
		}
	}
}

// indexedVerb is a verb with an optional explicit argument index.
var indexedVerb = regexp.MustCompile(`%(\[([0-9]+)\])?[-+# 0]*[0-9]*(\.[0-9]+)?([a-zA-Z])`)

// verbsByArgument maps each argument a format prints (from 1) to its
// verb letter, numbering arguments as fmt does.
func verbsByArgument(format string) (map[int]string, bool) {
	out := map[int]string{}
	next := 1
	for _, m := range indexedVerb.FindAllStringSubmatch(strings.ReplaceAll(format, "%%", ""), -1) {
		if m[2] != "" {
			n, err := strconv.Atoi(m[2])
			if err != nil {
				return nil, false
			}
			next = n
		}
		if v, ok := out[next]; ok && v != m[4] {
			return nil, false
		}
		out[next] = m[4]
		next++
	}
	return out, true
}

// TestTranslationsKeepTheirArguments: every form of every message of the
// game's catalogs prints each of its key's arguments, with the same
// verb, and no other.
func TestTranslationsKeepTheirArguments(t *testing.T) {
	fsys := gracias.Rules{}.Locales()
	for _, lang := range append(languages(t), "en") {
		forms, in := localeForms(t, fsys, lang)
		for key, fs := range forms {
			want, ok := verbsByArgument(key)
			if !ok {
				t.Fatalf("%q: the key's verbs are unreadable", key)
			}
			for name, form := range fs {
				got, ok := verbsByArgument(form)
				if !ok || !maps.Equal(got, want) {
					t.Errorf("%s: %q: form %q %q prints the arguments as %v, the key as %v", in[key], key, name, form, got, want)
				}
			}
		}
	}
}

// sayIn is a Say in lang from the game's catalogs, as the renderer
// builds it (it adds pbem's own catalog, which CommandIn needs none of).
func sayIn(t testing.TB, lang string) engine.Say {
	t.Helper()
	tag := language.MustParse(lang)
	b := catalog.NewBuilder(catalog.Fallback(language.English))
	fsys := gracias.Rules{}.Locales()
	files, err := fs.Glob(fsys, path.Join(lang, "*.toml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range files {
		data, err := fs.ReadFile(fsys, file)
		if err != nil {
			t.Fatal(err)
		}
		var raw map[string]any
		if err := toml.Unmarshal(data, &raw); err != nil {
			t.Fatal(err)
		}
		for key, v := range raw {
			switch v := v.(type) {
			case string:
				err = b.SetString(tag, key, v)
			case map[string]any:
				var cases []any
				for _, name := range []string{"one", "other"} {
					if text, ok := v[name]; ok {
						form := plural.Other
						if name == "one" {
							form = plural.One
						}
						cases = append(cases, form, text)
					}
				}
				err = b.Set(tag, key, plural.Selectf(1, "%d", cases...))
			}
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	p := message.NewPrinter(tag, message.Catalog(b))
	return func(key string, args ...any) string { return p.Sprintf(key, args...) }
}

// TestCommandInEnglishIsTheCommand: in English, CommandIn writes every
// command and pattern as the game gives it.
func TestCommandInEnglishIsTheCommand(t *testing.T) {
	for _, cmd := range []string{
		"take 2", "keep red give bob", "take 3 keep purple give carol",
		"take T keep COLOUR give PLAYER", "keep red|blue give alice|bob", "pass", "",
		"Take 2", "KEEP Red GIVE Bob",
	} {
		if got := (gracias.Rules{}).CommandIn(cmd, engine.English); got != cmd {
			t.Errorf("CommandIn(%q, English) = %q", cmd, got)
		}
	}
}

// TestCommandInGerman: the German commands, as docs/commands.md and
// docs/german.md write them.
func TestCommandInGerman(t *testing.T) {
	de := sayIn(t, "de")
	for cmd, want := range map[string]string{
		"take 2":                         "nimm 2",
		"keep red give bob":              "behalte Rot gib bob",
		"keep green give bob":            "behalte Grün gib bob",
		"take 3 keep purple give carol":  "nimm 3 behalte Lila gib carol",
		"take 1 keep orange give alice":  "nimm 1 behalte Orange gib alice",
		"take T keep COLOUR give PLAYER": "nimm T behalte COLOUR gib PLAYER",
		"keep red|yellow give bob|carol": "behalte Rot|Gelb gib bob|carol",
		"take 1|2|3":                     "nimm 1|2|3",
		"pass":                           "pass", // no command of Gracias
		"take 2 please":                  "take 2 please",
	} {
		if got := (gracias.Rules{}).CommandIn(cmd, de); got != want {
			t.Errorf("CommandIn(%q, de) = %q, want %q", cmd, got, want)
		}
	}
	// A keyword's German is its first German spelling, the imperative.
	for _, s := range (gracias.Rules{}).Specs() {
		for _, w := range s.Words {
			if w.Kind == engine.Literal && (len(w.Also) == 0 || de(w.Text) != w.Also[0]) {
				t.Errorf("%s: keyword %q is %q in German, not its first German spelling (%v)", s.Name, w.Text, de(w.Text), w.Also)
			}
		}
	}
}

// TestGermanWordsOfTheMailsRead: a command written with the words the
// German mails and help use ("nimm Drilling T") reads as the command.
func TestGermanWordsOfTheMailsRead(t *testing.T) {
	rules := gracias.Rules{}
	grammar := parser.Grammar{Games: games.Names(), Specs: rules.Specs(), Nouns: rules.Nouns(), Players: []string{"alice", "bob", "carol"}}
	for text, want := range map[string]string{
		"nimm Drilling 2":                       "take 2",
		"nimm den Drilling 3":                   "take 3",
		"behalte Lila gib carol":                "keep purple give carol",
		"nimm Drilling 1 behalte Grün gib bob":  "take 1 keep green give bob",
		"behalte die Karte Orange gib alice":    "keep orange give alice",
		"Nimm zwei, behalte Gelb und gib Carol": "take 2 keep yellow give carol",
	} {
		if c, err := parser.ReadMove(text, grammar); err != nil || c.Text != want {
			t.Errorf("%q reads as %q (%v), want %q", text, c.Text, err, want)
		}
	}
}

// TestPropCommandsInGermanReadBack: in random games, every command the
// game offers (every Option's), written in German, is read by the
// parser, and by the transcripts' strict grammar, as the same command;
// and in English it is the command itself.
func TestPropCommandsInGermanReadBack(t *testing.T) {
	t.Parallel()
	de := sayIn(t, "de")
	rules := gracias.Rules{}
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(3, 6).Draw(t, "players")
		seed := rapid.Uint64().Draw(t, "seed")
		rng := rand.New(rand.NewPCG(seed, 3))
		stop := rapid.IntRange(0, 3*4*n*2).Draw(t, "steps")
		g0, _, err := rules.New(engine.Setup{Players: playerNames[:n], Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		g := g0.(*gracias.Game)
		var buf []gracias.Move
		for step := 0; step < stop && g.S.Phase != gracias.Over; step++ {
			p := int(g.S.Turn)
			buf = g.S.Legal(p, buf[:0])
			g.S.Step(p, buf[rng.IntN(len(buf))])
		}
		if g.S.Phase == gracias.Over {
			return
		}
		grammar := parser.Grammar{Games: games.Names(), Specs: rules.Specs(), Nouns: rules.Nouns(), Players: g.Players()}
		for _, o := range g.Options(int(g.S.Turn)) {
			if got := rules.CommandIn(o.Text, engine.English); got != o.Text {
				t.Fatalf("CommandIn(%q, English) = %q", o.Text, got)
			}
			for _, cmd := range o.Commands {
				if got := rules.CommandIn(cmd, engine.English); got != cmd {
					t.Fatalf("CommandIn(%q, English) = %q", cmd, got)
				}
				german := rules.CommandIn(cmd, de)
				if german == cmd || strings.Contains(german, "take") || strings.Contains(german, "keep") || strings.Contains(german, "give") {
					t.Fatalf("CommandIn(%q, de) = %q: not German", cmd, german)
				}
				back, err := parser.ReadMove(german, grammar)
				if err != nil || back.Text != cmd {
					t.Fatalf("%q, in German %q, reads as %q (%v)", cmd, german, back.Text, err)
				}
				strict, err := engine.ParseCommand(rules.Specs(), g.Players(), german)
				if err != nil || strict.Text != cmd {
					t.Fatalf("%q, in German %q, is %q to the transcripts (%v)", cmd, german, strict.Text, err)
				}
			}
		}
	})
}

// TestSayHTMLEscapesAsTheTemplates: Th escapes a sentence as
// html/template escapes the text around it, keeps its HTML arguments,
// and bold and htmlJoin build them.
func TestSayHTMLEscapesAsTheTemplates(t *testing.T) {
	funcs := gracias.Rules{}.Funcs(engine.English)
	th := funcs["Th"].(func(string, ...any) htmltemplate.HTML)
	bold := funcs["bold"].(func(any) htmltemplate.HTML)
	join := funcs["htmlJoin"].(func(...htmltemplate.HTML) htmltemplate.HTML)
	text := `a <b> & "c" + 'd' %s`
	var want bytes.Buffer
	if err := htmltemplate.Must(htmltemplate.New("").Parse(`<p>{{.}}</p>`)).Execute(&want, strings.Replace(text, "%s", "<i>x+y</i>", 1)); err != nil {
		t.Fatal(err)
	}
	if got := "<p>" + string(th(text, "<i>x+y</i>")) + "</p>"; got != want.String() {
		t.Errorf("Th with a text argument: %s, html/template: %s", got, want.String())
	}
	for _, c := range []struct {
		got  htmltemplate.HTML
		want string
	}{
		{th("Session %d of %d, round %d of %d", bold(2), 3, bold(1), 4), "Session <b>2</b> of 3, round <b>1</b> of 4"},
		{th("Now: %s", bold("bob to take a triplet")), "Now: <b>bob to take a triplet</b>"},
		{th("Now: %s", bold("a<b")), "Now: <b>a&lt;b</b>"},
		{th("x < %s", join("<i>1</i>", "<i>2</i>")), "x &lt; <i>1</i> <i>2</i>"},
		{th("%d points", 1), "1 points"}, // engine.English: no catalog
	} {
		if string(c.got) != c.want {
			t.Errorf("%q, want %q", c.got, c.want)
		}
	}
}
