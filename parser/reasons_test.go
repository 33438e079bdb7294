package parser

import (
	"fmt"
	"go/ast"
	goparser "go/parser"
	gotoken "go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/pbem/pbem/engine"
)

// messageFormats lists the formats of m and of the messages nested in
// its arguments, m's first.
func messageFormats(m engine.Message) []string {
	out := []string{m.Format}
	for _, a := range m.Args {
		if n, ok := a.(engine.Message); ok {
			out = append(out, messageFormats(n)...)
		}
	}
	return out
}

// toldWrong says what is wrong with the messages of p, or is "": its
// Reason and NotNow are what its messages print (the property the
// translations rest on: a German player is told what an English one
// is), and each message's format is one of Formats, or a noun of a
// game (engine.Noun), whose catalog is the game's.
func toldWrong(p *Problem) string {
	if p.says.String() != p.Reason {
		return fmt.Sprintf("the reason's message prints %q, the Reason is %q", p.says.String(), p.Reason)
	}
	if p.notNow.String() != p.NotNow {
		return fmt.Sprintf("NotNow's message prints %q, NotNow is %q", p.notNow.String(), p.NotNow)
	}
	m, ok := p.ToldMessage()
	if !ok || m.String() != p.Told() {
		return fmt.Sprintf("no message tells %q", p.Told())
	}
	all := Formats()
	for _, msg := range []engine.Message{p.says, p.notNow} {
		for i, f := range messageFormats(msg) {
			if msg.IsZero() || slices.Contains(all, f) || i > 0 && isNoun(f) {
				continue
			}
			return fmt.Sprintf("%q is not in Formats", f)
		}
	}
	return ""
}

// isNoun reports whether f is the noun of a Choice word of the test
// grammars.
func isNoun(f string) bool {
	for _, g := range []Grammar{felixLang(), graciasLang()} {
		for _, s := range g.Specs {
			for _, w := range s.Words {
				if n, ok := engine.Noun(w).(engine.Message); ok && w.Kind == engine.Choice && n.Format == f {
					return true
				}
			}
		}
	}
	return false
}

// mustTell panics when toldWrong finds fault with p: problemText calls
// it, so that every test that looks at a problem's words checks the
// property too.
func mustTell(p *Problem) {
	if why := toldWrong(p); why != "" {
		panic(fmt.Sprintf("problem %+v: %s", p, why))
	}
}

// ambiguousSpecs are two commands that read the same words: the only
// way a line reads as several commands ("this could mean ...").
func ambiguousSpecs() Grammar {
	return Grammar{Games: testGames, Specs: []engine.Spec{
		{Name: "go", Words: []engine.Word{engine.Kw("go"), engine.NumArg("N")}},
		{Name: "goto", Words: []engine.Word{engine.Kw("go"), engine.ChoiceArg("PLACE", engine.ChoiceVal{Value: "four", Aliases: []string{"4"}})}},
	}}
}

// TestEveryFormatIsTold: each format of Formats is what some line is
// told, and every problem's messages print its words (toldWrong).
func TestEveryFormatIsTold(t *testing.T) {
	t.Parallel()
	legal := felixLang()
	legal.Legal = func() []engine.Option {
		return []engine.Option{{Spec: "play", Text: "play CARD", Commands: []string{"play rabbit", "play 8"}}}
	}
	threeDogs := Grammar{Games: testGames, Specs: []engine.Spec{{Name: "pet", Words: []engine.Word{engine.Kw("pet"),
		engine.ChoiceArg("X", engine.ChoiceVal{Value: "big", Aliases: []string{"big dog"}}, engine.ChoiceVal{Value: "small", Aliases: []string{"small dog"}}, engine.ChoiceVal{Value: "old", Aliases: []string{"old dog"}})}}},
		Legal: func() []engine.Option { return []engine.Option{} }}
	grammars := map[string]Grammar{"lobby": lobbyLang(), "felix": felixLang(), "gracias": graciasLang(), "legal": legal,
		"ambiguous": ambiguousSpecs(), "dogs": threeDogs, "nogames": {}}
	cases := []struct{ grammar, text string }{
		{"lobby", ""}, {"lobby", strings.Repeat("help\n", MaxCommands+1)}, {"lobby", strings.Repeat("help, ", MaxCommands+1)},
		{"lobby", strings.Repeat("x ", maxTokens+1)}, {"lobby", strings.Repeat("x", maxLineBytes+1)},
		{"lobby", "help bananas"}, {"lobby", "rules foo bar"}, {"lobby", "timezone"}, {"lobby", "address"},
		{"lobby", "address nope"}, {"lobby", "notify digest here"}, {"lobby", "notify sometimes"}, {"lobby", "notify digest 25"},
		{"lobby", "name"}, {"lobby", "name " + strings.Repeat("x", maxNameRunes+1)}, {"nogames", "rules 42"}, {"lobby", "rules chess"},
		{"lobby", "new"}, {"lobby", "new felix"}, {"lobby", "new felix with bob"},
		{"lobby", "new felix with a@x.test deadline soon"}, {"lobby", "new felix with a@x.test deadline 20d"},
		{"lobby", "new felix with a genius bot"}, {"lobby", "new felix with bots"}, {"lobby", "new felix with 9 bots"},
		{"lobby", "new felix with 0 bots"}, {"lobby", "new felix with 3 bots and 3 bots"},
		{"lobby", "new felix with a@x.test clock 2d deadline 2d"}, {"lobby", "new felix with a@x.test clock soon"},
		{"lobby", "new felix with a@x.test clock 31d"}, {"lobby", "new felix with a@x.test clock 2d+8d"},
		{"lobby", "new felix with a@x.test clock 2d max 61d"}, {"lobby", "new felix with a@x.test clock 2d max 1d"},
		{"lobby", "vacation until tomorrow"}, {"lobby", "vacation soon"}, {"lobby", "vacation 400d"},
		{"lobby", "quiet sometimes"}, {"lobby", "quiet 7-7"}, {"lobby", "say"}, {"lobby", "say " + strings.Repeat("x", MaxSayRunes+1)},
		{"lobby", "help, say"}, {"lobby", "banana split"}, {"lobby", "please"}, {"lobby", "st"}, {"lobby", "with"},
		{"lobby", "resig"}, {"lobby", "rules fe"},
		{"felix", "bid up 7"}, {"felix", "bid 4 bananas"}, {"felix", "bid"}, {"felix", "bid many"}, {"felix", "play elefant"},
		{"felix", "play dog"}, {"legal", "play elefant"}, {"legal", "play dog"}, {"dogs", "pet dog"},
		{"gracias", "keep red give zed"}, {"gracias", "keep red"}, {"gracias", "keep pink give bob"},
		{"ambiguous", "go 4"},
	}
	games := testGames
	told := map[string]bool{}
	for _, c := range cases {
		g := grammars[c.grammar]
		if c.grammar == "lobby" && strings.HasPrefix(c.text, "rules fe") {
			g.Games = append(slices.Clone(games), "fetch")
		}
		_, p := Read(c.text, g)
		if p == nil {
			t.Errorf("%s: %.60q read", c.grammar, c.text)
			continue
		}
		if why := toldWrong(p); why != "" {
			t.Errorf("%s: %.60q: %s", c.grammar, c.text, why)
		}
		for _, m := range []engine.Message{p.says, p.notNow} {
			for _, f := range messageFormats(m) {
				told[f] = true
			}
		}
	}
	for _, f := range Formats() {
		if !told[f] {
			t.Errorf("no line of the test is told %q: add one", f)
		}
	}
}

// TestFormatsAreListed: every message the parser makes has a format of
// formats, written at the call (engine.Msg, reader.fail) as a literal,
// and every format of formats is made somewhere: a new sentence cannot
// reach a player without a translation being asked for
// (templates' key test reads Formats).
func TestFormatsAreListed(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	made := map[string]bool{}
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		f, err := goparser.ParseFile(gotoken.NewFileSet(), file, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			fn, ok := n.(*ast.FuncDecl)
			if ok && fn.Name.Name == "fail" {
				return false // the one call that passes a format on
			}
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			var format ast.Expr
			switch {
			case sel.Sel.Name == "Msg" && isIdent(sel.X, "engine") && len(call.Args) > 0:
				format = call.Args[0]
			case sel.Sel.Name == "fail" && isIdent(sel.X, "r") && len(call.Args) > 2:
				format = call.Args[2]
			default:
				return true
			}
			lit, ok := format.(*ast.BasicLit)
			if !ok || lit.Kind != gotoken.STRING {
				t.Errorf("%s: a message's format is not a literal: %s", file, types(format))
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				t.Fatal(err)
			}
			made[s] = true
			if !slices.Contains(formats, s) {
				t.Errorf("%s: %q is not in formats (reasons.go)", file, s)
			}
			return true
		})
	}
	for _, f := range formats {
		if !made[f] {
			t.Errorf("formats holds %q, which no message is made of", f)
		}
	}
}

func isIdent(x ast.Expr, name string) bool {
	id, ok := x.(*ast.Ident)
	return ok && id.Name == name
}

// types names an expression's node type, for an error.
func types(x ast.Expr) string { return fmt.Sprintf("%T", x) }

// TestGermanWordIsNoPrefix: a command written whole in German
// ("Urlaub", "aufgeben") is not a prefix of the English one: the player
// is told what is wrong after it, never to write it in full.
func TestGermanWordIsNoPrefix(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]string{
		"Urlaub bis morgen": `"morgen" is not a date: write it as YEAR-MONTH-DAY, such as vacation until 2026-12-24`,
		"aufgeben sofort":   `"resign" takes nothing after it, not "sofort"`,
		"resig":             `write "resign" in full`,
	} {
		if _, p := Read(text, lobbyLang()); p == nil || p.Told() != want {
			t.Errorf("%q: %+v, want %q", text, p, want)
		}
	}
}
