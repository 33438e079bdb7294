package templates

import (
	"io/fs"
	"maps"
	"slices"
	"strings"
	"testing"
	"text/template/parse"

	"github.com/pbem/pbem/parser"
)

// templateKeys are the keys of every {{T "key" ...}} in the templates of
// fsys that match patterns: the string each T call's first argument is,
// found by walking the parsed templates. A call whose arguments do not
// match its key's verbs fails the test.
func templateKeys(t *testing.T, fsys fs.FS, patterns ...string) []string {
	t.Helper()
	var keys []string
	for _, pattern := range patterns {
		names, err := fs.Glob(fsys, pattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range names {
			data, err := fs.ReadFile(fsys, name)
			if err != nil {
				t.Fatal(err)
			}
			for _, call := range tCalls(t, name, string(data)) {
				keys = append(keys, call.key)
				want, ok := verbsByArgument(call.key)
				if !ok {
					t.Errorf("%s: %q: its verbs are unreadable", name, call.key)
					continue
				}
				if len(want) != call.args {
					t.Errorf("%s: %q has %d arguments, %d given", name, call.key, len(want), call.args)
				}
			}
		}
	}
	slices.Sort(keys)
	return slices.Compact(keys)
}

// tCall is one {{T "key" ARGS}} of a template: its key and how many
// arguments it gives.
type tCall struct {
	key  string
	args int
}

// tCalls are the T calls of one template file.
func tCalls(t *testing.T, name, text string) []tCall {
	t.Helper()
	var out []tCall
	for _, n := range funcCalls(t, name, text, "T") {
		if s, ok := n.Args[1].(*parse.StringNode); ok {
			out = append(out, tCall{key: s.Text, args: len(n.Args) - 2})
		} else {
			t.Errorf("%s: T's key is not a string: %s", name, n)
		}
	}
	return out
}

// funcCalls are the calls of the template function fn, with at least one
// argument, in one template file, in the order they stand.
func funcCalls(t *testing.T, name, text, fn string) []*parse.CommandNode {
	t.Helper()
	tr := parse.New(name)
	tr.Mode = parse.SkipFuncCheck | parse.ParseComments
	trees := map[string]*parse.Tree{}
	if _, err := tr.Parse(text, "{{", "}}", trees); err != nil {
		t.Fatalf("parsing %s: %v", name, err)
	}
	var out []*parse.CommandNode
	var walk func(n parse.Node)
	walk = func(n parse.Node) {
		switch n := n.(type) {
		case nil:
		case *parse.ListNode:
			if n == nil {
				return
			}
			for _, c := range n.Nodes {
				walk(c)
			}
		case *parse.ActionNode:
			walk(n.Pipe)
		case *parse.IfNode:
			walk(n.Pipe)
			walk(n.List)
			walk(n.ElseList)
		case *parse.RangeNode:
			walk(n.Pipe)
			walk(n.List)
			walk(n.ElseList)
		case *parse.WithNode:
			walk(n.Pipe)
			walk(n.List)
			walk(n.ElseList)
		case *parse.TemplateNode:
			walk(n.Pipe)
		case *parse.PipeNode:
			if n == nil {
				return
			}
			for _, c := range n.Cmds {
				walk(c)
			}
		case *parse.CommandNode:
			if len(n.Args) >= 2 {
				if id, ok := n.Args[0].(*parse.IdentifierNode); ok && id.Ident == fn {
					out = append(out, n)
				}
			}
			for _, a := range n.Args {
				walk(a)
			}
		case *parse.ChainNode:
			walk(n.Node)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(trees)) {
		walk(trees[name].Root)
	}
	return out
}

// helpKeys are the lobby commands' help texts: help looks each up in
// the catalogs (Words.helpText).
func helpKeys() []string {
	var out []string
	for _, lc := range parser.LobbyCommands() {
		out = append(out, lc.Help, lc.Usage) // a usage is a key too (Words.usage)
	}
	return out
}

// dateKeys are the names of weekdays and months, which Date looks up.
func dateKeys() []string {
	var out []string
	out = append(out, shortWeekdays[:]...)
	out = append(out, longWeekdays[:]...)
	out = append(out, shortMonths[:]...)
	return append(out, longMonths[:]...)
}

// TestHelpTextsAreKeys: a help text is looked up as a message key with
// no arguments, so it must hold no verb (a "%" would be read as one).
func TestHelpTextsAreKeys(t *testing.T) {
	for _, h := range helpKeys() {
		if strings.Contains(h, "%") {
			t.Errorf("help text %q holds a %%", h)
		}
	}
}

// TestTemplateKeysFound: the walk finds T calls where templates make
// them: nested in pipelines, in conditions' branches, as arguments.
func TestTemplateKeysFound(t *testing.T) {
	got := tCalls(t, "x.tmpl", `{{define "a"}}{{if .X}}{{T "one %s" (T "two")}}{{else}}{{with .Y}}{{underline (T "three %d" 3)}}{{end}}{{end}}{{end}}`)
	want := []tCall{{"one %s", 1}, {"two", 0}, {"three %d", 1}}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	keys := templateKeys(t, files, "text/*.tmpl", "html/*.tmpl")
	// Keys in a condition's branch, in a with's else, and at the top.
	for _, k := range []string{"Not answered yet: %s.", "%s will not start", "Your mail was not read.", "%d earlier events", "The game's history"} {
		if !slices.Contains(keys, k) {
			t.Errorf("the templates' keys lack %q", k)
		}
	}
}
