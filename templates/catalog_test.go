package templates

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/pbem/pbem/engine"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/message/catalog"
)

// convertedFiles are the files whose every sentence goes through the
// message catalog (e.f): the pseudo-locale test below proves it of each.
// They are every say_*.go file and words.go (TestEverySayFileConverted
// keeps it so), and the Go files of the templates' data; the templates'
// own T calls are found in the templates (templateKeys), and
// TestPseudoLocaleMailsLeaveNoEnglishWord proves of every mail that no
// sentence escapes. A file is listed only when it is converted whole.
var convertedFiles = []string{
	"words.go",
	"say_events.go", // Phrases: engine.W with the keys of the Words methods (TestEventPhrasesAreTheirSentences)
	"say_bounce.go",
	"say_bounds.go",
	"say_budget.go",
	"say_calendar.go",
	"say_deadlines.go",
	"say_inbound.go",
	"say_newgame.go",
	"say_ratings.go",
	"say_reminders.go",
	"say_route.go",
	"say_settle.go",
	"say_undo.go",
	"say_vacation.go",
	"say_address.go",
	"say_admin.go",
	"say_adminmail.go",
	"say_aside.go",
	"say_clock.go",
	"say_end.go",
	"say_names.go",
	"say_seat.go",
	"say_settings.go",
	"say_standin.go",
	"say_talk.go",
	"say_unsubscribe.go",
	"say_web.go",
	"say_language.go",
	"say_problem.go",
	// The rest of the package's sentences (issue 39, step 2): the Go
	// files of the templates' data, each whole.
	"game.go",
	"notice.go",
	"digest.go",
	"web.go",
	"clock.go",
	"templates.go",
	// The frame of the game mails' HTML part and its buttons, Go since
	// issue 40: their sentences are htmlT's.
	"game_html.go",
	"buttons.go",
	"game_text.go",
}

// verb is a formatting verb of a key, as pbem's sentences write them.
var verb = regexp.MustCompile(`%[-+# 0]*[0-9]*(\.[0-9]+)?[a-zA-Z]`)

// catalogKeys are the keys the package prints: every string literal
// passed as the first argument of e.f (or e.htmlT) in the converted files, every T
// of the text and HTML templates, the lobby's help texts, the names of
// weekdays and months, and the plural keys.
func catalogKeys(t *testing.T) []string {
	t.Helper()
	keys := append(pluralKeys(), problemKeys(t)...)
	keys = append(keys, templateKeys(t, files, "text/*.tmpl", "html/*.tmpl")...)
	keys = append(keys, helpKeys()...)
	keys = append(keys, dateKeys()...)
	keys = append(keys, markerKey) // the marker line (langSet.marker)
	for _, file := range convertedFiles {
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
		if err != nil {
			t.Fatalf("parsing %s: %v", file, err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "f" && sel.Sel.Name != "htmlT" {
				return true
			}
			if lit, ok := call.Args[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
				key, err := strconv.Unquote(lit.Value)
				if err != nil {
					t.Fatalf("%s: key %s: %v", file, lit.Value, err)
				}
				keys = append(keys, key)
				if verbs := len(verb.FindAllString(strings.ReplaceAll(key, "%%", ""), -1)); verbs != len(call.Args)-1 && !call.Ellipsis.IsValid() {
					t.Errorf("%s: %q has %d verbs and %d arguments (go vet checks fmt.Sprintf, not e.f)", file, key, verbs, len(call.Args)-1)
				}
			}
			return true
		})
	}
	slices.Sort(keys)
	return slices.Compact(keys)
}

// convertedMethod is an exported method of Words in a converted
// file, with the string literals its body compares a value with (the
// settings it chooses a sentence by: "all", "off"), so that the test
// calls it with each of them, besides "ARG".
type convertedMethod struct {
	name   string
	values []string
}

// convertedMethods are the exported methods of Words the converted
// files declare.
func convertedMethods(t *testing.T) []convertedMethod {
	t.Helper()
	var methods []convertedMethod
	for _, file := range convertedFiles {
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
		if err != nil {
			t.Fatalf("parsing %s: %v", file, err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if ok && fn.Recv != nil && fn.Name.IsExported() && receiverIsWords(fn.Recv) {
				methods = append(methods, convertedMethod{fn.Name.Name, comparedStrings(fn.Body)})
			}
		}
	}
	return methods
}

// comparedStrings are the string literals body compares with, in == or
// != or a switch case.
func comparedStrings(body *ast.BlockStmt) []string {
	var lits []*ast.BasicLit
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BinaryExpr:
			if n.Op == token.EQL || n.Op == token.NEQ {
				for _, x := range []ast.Expr{n.X, n.Y} {
					if lit, ok := x.(*ast.BasicLit); ok {
						lits = append(lits, lit)
					}
				}
			}
		case *ast.CaseClause:
			for _, x := range n.List {
				if lit, ok := x.(*ast.BasicLit); ok {
					lits = append(lits, lit)
				}
			}
		}
		return true
	})
	var values []string
	for _, lit := range lits {
		if v, err := strconv.Unquote(lit.Value); lit.Kind == token.STRING && err == nil && v != "" {
			values = append(values, v)
		}
	}
	return values
}

func receiverIsWords(recv *ast.FieldList) bool {
	id, ok := recv.List[0].Type.(*ast.Ident)
	return ok && id.Name == "Words"
}

// pseudo writes a message as the pseudo-locale does: bracketed, its
// ASCII letters turned into fullwidth ones ("⟦Ｎｏｔ ｄｏｎｅ: %s⟧"), its
// verbs intact. A piece of English that reaches a mail without passing
// through the catalog (a literal, or an argument built from one) keeps
// its ASCII letters, even inside another message's brackets.
func pseudo(s string) string {
	var b strings.Builder
	b.WriteString("⟦")
	inVerb := false
	for _, r := range s {
		switch {
		case inVerb:
			b.WriteRune(r)
			inVerb = !unicode.IsLetter(r) && r != '%'
		case r == '%':
			b.WriteRune(r)
			inVerb = true
		case 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z':
			b.WriteRune(r - 'A' + 'Ａ')
		default:
			b.WriteRune(r)
		}
	}
	b.WriteString("⟧")
	return b.String()
}

// pseudoWords are the words of the pseudo-locale, whose catalog holds
// every key of the converted files, bracketed.
func pseudoWords(t *testing.T) Words {
	t.Helper()
	b := catalog.NewBuilder(catalog.Fallback(language.English))
	if err := setEnglish(b); err != nil {
		t.Fatal(err)
	}
	plurals := map[string]string{}
	for _, m := range pluralMessages {
		plurals[m.key] = m.one
	}
	for _, key := range catalogKeys(t) {
		var err error
		if one, ok := plurals[key]; ok {
			err = b.Set(pseudoLocale, key, plural.Selectf(1, "%d", "=1", pseudo(one), plural.Other, pseudo(key)))
		} else {
			err = b.SetString(pseudoLocale, key, pseudo(key))
		}
		if err != nil {
			t.Fatalf("pseudo entry %q: %v", key, err)
		}
	}
	w := in(pseudoLocale, b)
	if w.p == nil {
		t.Fatal("the pseudo-locale's words are English's")
	}
	return w
}

var argsAndDigits = regexp.MustCompile(`ARG|[0-9]`)

// escaped is what of s is English: s without the generated arguments
// and digits is empty of ASCII letters, or s is returned whole.
func escaped(s string) string {
	left := argsAndDigits.ReplaceAllString(s, "")
	if strings.IndexFunc(left, func(r rune) bool { return r < unicode.MaxASCII && unicode.IsLetter(r) }) < 0 {
		return ""
	}
	return left
}

var (
	durationType = reflect.TypeFor[time.Duration]()
	timeType     = reflect.TypeFor[time.Time]()
	locationType = reflect.TypeFor[*time.Location]()
	errorType    = reflect.TypeFor[error]()
	eventType    = reflect.TypeFor[engine.Event]()
)

// argument is a generated value of type t for calling a method: strings
// str, numbers 2, bools flag, a slice of two, a struct of generated
// fields.
func argument(t *testing.T, typ reflect.Type, str string, flag bool) reflect.Value {
	t.Helper()
	switch typ {
	case durationType:
		return reflect.ValueOf(90 * time.Minute)
	case timeType:
		return reflect.ValueOf(time.Date(2026, 12, 1, 19, 36, 0, 0, time.UTC))
	case locationType:
		return reflect.ValueOf(time.FixedZone("ARG", 3600))
	case errorType:
		return reflect.ValueOf(errors.New("ARG"))
	case eventType: // a game's event, its Text its phrase's English
		say := engine.W("%s bids %d.", str, 2)
		return reflect.ValueOf(engine.Event{Kind: "bid", Text: say.English(), Say: &say})
	}
	v := reflect.New(typ).Elem()
	switch typ.Kind() {
	case reflect.String:
		v.SetString(str)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(2)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(2)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(2.5)
	case reflect.Bool:
		v.SetBool(flag)
	case reflect.Interface:
		v.Set(reflect.ValueOf(str))
	case reflect.Slice:
		v = reflect.MakeSlice(typ, 2, 2)
		for i := range 2 {
			v.Index(i).Set(argument(t, typ.Elem(), str, flag))
		}
	case reflect.Struct:
		for i := range typ.NumField() {
			if typ.Field(i).IsExported() {
				v.Field(i).Set(argument(t, typ.Field(i).Type, str, flag))
			}
		}
	default:
		t.Fatalf("no generated argument of type %s: add one", typ)
	}
	return v
}

// calls calls the method name of w with generated arguments, every
// string str, once with every bool true and once with every bool false,
// and returns the strings it returns.
func calls(t *testing.T, w Words, name, str string) []string {
	t.Helper()
	m := reflect.ValueOf(w).MethodByName(name)
	if !m.IsValid() {
		t.Fatalf("Words has no method %s", name)
	}
	var out []string
	for _, flag := range []bool{true, false} {
		args := make([]reflect.Value, m.Type().NumIn())
		for i := range args {
			args[i] = argument(t, m.Type().In(i), str, flag)
		}
		for _, r := range m.Call(args) {
			switch r.Kind() {
			case reflect.String:
				if strings.Contains(r.String(), "%!") {
					t.Errorf("%s: %q: a message's verbs do not match its arguments", name, r.String())
				}
				out = append(out, r.String())
			case reflect.Slice:
				for i := range r.Len() {
					out = append(out, r.Index(i).String())
				}
			default:
				t.Fatalf("%s returns a %s: the test reads strings", name, r.Type())
			}
		}
	}
	return out
}

// TestPseudoLocaleLeavesNoEnglishWord: every exported method of the
// converted files, in the pseudo-locale, prints only bracketed messages
// (and its arguments), so no English word of those files escapes the
// catalog: a second language is a catalog.
func TestPseudoLocaleLeavesNoEnglishWord(t *testing.T) {
	w := pseudoWords(t)
	methods := convertedMethods(t)
	if len(methods) == 0 {
		t.Fatal("no converted method found")
	}
	for _, m := range methods {
		for _, str := range append([]string{"ARG"}, m.values...) {
			for _, got := range calls(t, w, m.name, str) {
				if left := escaped(strings.ReplaceAll(got, str, "ARG")); left != "" {
					t.Errorf("%s(%q): %q escapes the catalog (left: %q)", m.name, str, got, left)
				}
			}
		}
	}
	t.Logf("%d methods of %d files checked", len(methods), len(convertedFiles))
}

// TestEverySayFileConverted: a new say_*.go file is converted, and
// checked by the pseudo-locale, from its first sentence.
func TestEverySayFileConverted(t *testing.T) {
	files, err := filepath.Glob("say_*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if !strings.HasSuffix(f, "_test.go") && !slices.Contains(convertedFiles, f) {
			t.Errorf("%s is not in convertedFiles", f)
		}
	}
}

// TestEscapedFindsEnglish: the check above can fail.
func TestEscapedFindsEnglish(t *testing.T) {
	for s, leaks := range map[string]bool{
		fmt.Sprintf(pseudo("Taken back: %s."), "ARG"):                  false,
		fmt.Sprintf(pseudo("You asked %s by %d."), "ARG", 2):           false,
		pseudo("You are away.") + " Welcome back":                      true,
		"Nothing was taken back: ARG":                                  true,
		fmt.Sprintf(pseudo("From now on you get %s."), "mail, always"): true,
	} {
		if got := escaped(s) != ""; got != leaks {
			t.Errorf("escaped(%q) leaks = %v, want %v", s, got, leaks)
		}
	}
	if got, want := pseudo("%d of %02d, %+.1f%% Ab"), "⟦%d ｏｆ %02d, %+.1f%% Ａｂ⟧"; got != want {
		t.Errorf("pseudo = %q, want %q", got, want)
	}
}

// TestSayIsEnglish: Say's zero value, In(English) and a printer made
// for English explicitly write the same words, for every method.
func TestSayIsEnglish(t *testing.T) {
	explicit := Words{p: message.NewPrinter(language.English, message.Catalog(theCatalog())), tag: language.English}
	typ := reflect.TypeFor[Words]()
	for i := range typ.NumMethod() {
		name := typ.Method(i).Name
		want := calls(t, Say, name, "ARG")
		for _, w := range []Words{In(language.English), explicit, In(language.MustParse("fr"))} {
			if got := calls(t, w, name, "ARG"); !slices.Equal(got, want) {
				t.Errorf("%s: %q, Say wrote %q", name, got, want)
			}
		}
	}
}

// TestNumbersPrintPlain: the catalog's printer writes numbers as fmt
// does, never grouped ("2,026"), and chooses plural forms by them.
func TestNumbersPrintPlain(t *testing.T) {
	de := In(language.German)
	for _, c := range []struct{ got, want string }{
		{Say.f("in %d", 2026), "in 2026"},
		{de.f("in %d", 2026), "in 2026"},
		{Say.f("%d and %02d", int64(-12345), 4), "-12345 and 04"},
		{de.f("%d and %02d", int64(-12345), 4), "-12345 and 04"},
		{Say.f("%.1f ± %+.1f", 1234.56, 2.0), "1234.6 ± +2.0"},
		{de.f("%.1f ± %+.1f", 1234.56, 2.0), "1234.6 ± +2.0"},
		{Say.f("%d days", 1), "1 day"},
		{Say.f("%d days", 0), "0 days"},
		{Say.f("%d days", 1000), "1000 days"},
		{Say.f(" and %d bots", 1), " and 1 bot"},
		{de.f("%d days", 1), "1 Tag"},
		{de.f("%d days", 0), "0 Tage"},
		{de.f("%d days", 1000), "1000 Tage"},
		// what calls finds when a key's verbs and its arguments differ
		{Say.f("a %s"), "a %!s(MISSING)"},
	} {
		if c.got != c.want {
			t.Errorf("%q, want %q", c.got, c.want)
		}
	}
}

// TestOrdinalByRules: the ordinal forms the catalog chooses by
// English's ordinal rules are the suffixes English writes ("11th",
// "22nd", "113th"), for every place up to 1000.
func TestOrdinalByRules(t *testing.T) {
	suffix := func(n int) string {
		switch {
		case n%100 >= 11 && n%100 <= 13:
			return "th"
		case n%10 == 1:
			return "st"
		case n%10 == 2:
			return "nd"
		case n%10 == 3:
			return "rd"
		}
		return "th"
	}
	for n := range 1001 {
		if got, want := Say.Ordinal(n), strconv.Itoa(n)+suffix(n); got != want {
			t.Errorf("Ordinal(%d) = %q, want %q", n, got, want)
		}
	}
}
