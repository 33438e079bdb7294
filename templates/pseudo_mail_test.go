package templates

import (
	"html"
	"io/fs"
	"maps"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"text/template/parse"
	"unicode"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/message/catalog"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/games"
	"github.com/pbem/pbem/parser"
)

// The whole-mail pseudo-locale test (issue 39): every golden mail,
// notice and page, rendered in the pseudo-locale en-XA, whose catalog
// writes every key the package prints in fullwidth letters, holds no
// plain English word but its arguments. It proves that no sentence of the
// templates or their data escapes the catalogs.
//
// The games' own parts (their headline, table, final result, short
// rules, aim, waiting line: engine.Presenter's templates and Funcs) and
// the game log's events are another step of issue 39: this test renders
// them apart, with the same data, and takes them out of the mail before
// it looks (gamePartsOf). A game that is an engine.Localizer has the T
// keys of its templates and its Specs' help in the pseudo catalog too.

// pseudoRenderer is a renderer of every game whose catalog has the
// pseudo-locale besides: every key of the package (catalogKeys), every T
// key of the games' templates, and every game command's help.
func pseudoRenderer(t *testing.T) *Renderer {
	t.Helper()
	keys := catalogKeys(t)
	for _, name := range slices.Sorted(maps.Keys(games.All())) {
		rules := games.All()[name]
		if _, ok := rules.(engine.Localizer); ok {
			if p, ok := rules.(engine.Presenter); ok {
				keys = append(keys, templateKeys(t, p.Templates(), "*.tmpl")...)
			}
		}
		for _, s := range rules.Specs() {
			if s.Help != "" {
				keys = append(keys, s.Help)
			}
		}
	}
	slices.Sort(keys)
	keys = slices.Compact(keys)
	plurals := map[string]string{}
	for _, m := range pluralMessages {
		plurals[m.key] = m.one
	}
	r, err := build(games.All(), func(b *catalog.Builder) error {
		for _, key := range keys {
			var err error
			if one, ok := plurals[key]; ok {
				err = b.Set(pseudoLocale, key, plural.Selectf(1, "%d", "=1", pseudo(one), plural.Other, pseudo(key)))
			} else {
				err = b.SetString(pseudoLocale, key, pseudo(key))
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if r.set(pseudoLocale.String()) == r.set("") {
		t.Fatal("the renderer writes no pseudo-locale")
	}
	return r
}

// argumentsOf are the strings a mail's data holds, the values a message
// prints as they are (names, addresses, titles, commands, the daemon's
// lines, the events), found by walking v: every exported string, but
// what the renderer writes in the reader's language itself (a command's
// help, a deadline, an option line's text with its "e.g."), which must
// not hide an English word, and the game's view (whose words are the
// game's parts).
func argumentsOf(v any) []string {
	var out []string
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.String:
			if s := v.String(); strings.TrimSpace(s) != "" {
				// A usage is shown whole, or in the one-line list without
				// its options (withoutOptions).
				out = append(out, s, withoutOptions(s))
			}
		case reflect.Pointer, reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem())
			}
		case reflect.Slice, reflect.Array:
			for i := range v.Len() {
				walk(v.Index(i))
			}
		case reflect.Map:
			for _, k := range v.MapKeys() {
				walk(k)
			}
		case reflect.Struct:
			for i := range v.NumField() {
				f := v.Type().Field(i)
				if !f.IsExported() || f.Name == "Help" || f.Name == "View" || f.Name == "DeadlineText" ||
					(v.Type() == reflect.TypeFor[optionLine]() && f.Name == "Text") {
					continue
				}
				walk(v.Field(i))
			}
		}
	}
	walk(reflect.ValueOf(v))
	return out
}

// commandArguments are the commands a mail may name as they are, in
// English as the pseudo-locale writes them: the lobby's (every word and
// usage of the parser's table, the commands the templates offer and
// show with code), and the games' commands' usages and words.
func commandArguments(t *testing.T) []string {
	t.Helper()
	out := offeredLobbyCommands(t)
	for _, lc := range parser.LobbyCommands() {
		out = append(out, lc.Name, lc.Usage)
	}
	out = append(out, parser.WrittenInFull()...)
	for _, pattern := range []string{"text/*.tmpl", "html/*.tmpl"} {
		names, _ := fs.Glob(files, pattern)
		for _, name := range names {
			data, _ := fs.ReadFile(files, name)
			for _, n := range funcCalls(t, name, string(data), "code") {
				if s, ok := n.Args[1].(*parse.StringNode); ok {
					out = append(out, s.Text)
				}
			}
		}
	}
	for name, rules := range games.All() {
		// new's pattern as notices write it: "new felix with ADDRESS...".
		out = append(out, "new "+name+" with")
		for _, s := range rules.Specs() {
			out = append(out, s.Usage())
		}
	}
	out = append(out, "new "+pseudo("GAME")+" with")
	// The usages help writes out when it was given none (help.body).
	out = append(out, "rules GAME", "new GAME with ADDRESS... [and N bots] [deadline 48h]")
	return out
}

// zoneNames are the time zones' abbreviations a date writes as Go does,
// in every language.
var zoneNames = []string{"CET", "CEST", "JST", "UTC"}

// visibleText is what a reader of an HTML part sees or hears: its text,
// its title, and the attributes a screen reader speaks; not its styles.
func visibleText(h string) string {
	var b strings.Builder
	skip := false
	attrs := regexp.MustCompile(`\b(aria-label|title|alt|placeholder)="([^"]*)"`)
	scanHTML(h, func(s string) {
		if !skip {
			b.WriteString(s)
			b.WriteString(" ")
		}
	}, func(name, tag string) {
		switch name {
		case "style", "script":
			skip = true
		case "/style", "/script":
			skip = false
		}
		for _, m := range attrs.FindAllStringSubmatch(tag, -1) {
			b.WriteString(" " + m[2] + " ")
		}
	})
	return html.UnescapeString(b.String())
}

// normalized is s with its runs of white space one space: the text part
// wraps lines that its parts wrote whole.
func normalized(s string) string { return strings.Join(strings.Fields(s), " ") }

// without is s without each of args where it stands as a whole (not
// inside a longer word), the longest first.
func without(s string, args []string) string {
	sorted := slices.Clone(args)
	sort.Slice(sorted, func(i, j int) bool { return len(sorted[i]) > len(sorted[j]) })
	wordRune := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
	for _, a := range sorted {
		a = normalized(a)
		if a == "" {
			continue
		}
		var b strings.Builder
		for rest := s; ; {
			i := strings.Index(rest, a)
			if i < 0 {
				b.WriteString(rest)
				break
			}
			before, after := []rune(rest[:i]), []rune(rest[i+len(a):])
			whole := (len(before) == 0 || !wordRune(before[len(before)-1]) || !wordRune([]rune(a)[0])) &&
				(len(after) == 0 || !wordRune(after[0]) || !wordRune([]rune(a)[len([]rune(a))-1]))
			if whole {
				b.WriteString(rest[:i] + " ")
			} else {
				b.WriteString(rest[:i+len(a)])
			}
			rest = rest[i+len(a):]
		}
		s = b.String()
	}
	return s
}

// englishWords are the runs of ASCII letters left in s.
var englishWords = regexp.MustCompile(`[A-Za-z]+`)

// leftEnglish is what of a mail's text is English: its words of ASCII
// letters once its arguments are taken out.
func leftEnglish(text string, args []string) []string {
	left := without(normalized(text), args)
	return englishWords.FindAllString(left, -1)
}

// gamePartsOf renders, with the data d the mail was rendered from, the
// parts of a game mail that are the game's own, in the text and the HTML
// part: they are taken out of the mail, as arguments are (see the top of
// this file).
func gamePartsOf(t *testing.T, g *gameSet, d *gameData) []string {
	t.Helper()
	d.game = g // the game's Go draws through it (gameData.Draw)
	var out []string
	for _, part := range []string{"game.headline", "game.table", "game.end", "game.teach", "game.aim", "game.waiting"} {
		if s, err := execText(g.t, part, d); err == nil {
			out = append(out, s)
			out = append(out, strings.Split(s, "\n")...)
		}
	}
	for _, part := range []string{"game.table", "game.end", "game.aim", "game.waiting"} {
		if s, err := execHTML(g.h, part, d); err == nil {
			out = append(out, visibleText(s))
		}
	}
	for _, l := range strings.Split(d.Teach, "\n") {
		out = append(out, strings.TrimPrefix(strings.TrimSpace(l), "- "))
	}
	for _, e := range append(append(append([]engine.Event(nil), d.Happened...), d.Recent...), d.Earlier...) {
		out = append(out, e.Text)
	}
	return out
}

// checkPseudo fails on the English words a mail rendered in the
// pseudo-locale holds beside args.
func checkPseudo(t *testing.T, subject, text, htmlPart string, args []string) {
	t.Helper()
	for part, s := range map[string]string{"subject": subject, "text": text, "HTML": visibleText(htmlPart)} {
		if left := leftEnglish(s, args); len(left) > 0 {
			t.Errorf("the %s holds English words that are no argument: %q\n%s", part, left, without(normalized(s), args))
		}
	}
}

func TestPseudoLocaleMailsLeaveNoEnglishWord(t *testing.T) {
	r := pseudoRenderer(t)
	set := r.set(pseudoLocale.String())
	commands := commandArguments(t)
	common := append(slices.Clone(commands), zoneNames...)
	// Besides the goldens, the mails that show what they do not: a
	// reminder, a deadline while waiting, the whole history, a game the
	// host ended, the creator's unrated start.
	const basics = "engine/felix/testdata/basics-4p.txt"
	variants := map[string]func(*GameMail){
		"waiting-deadline": func(m *GameMail) { m.Deadline = testDeadline },
		"history":          func(m *GameMail) { m.WholeHistory = true },
		"aborted":          func(m *GameMail) { m.Aborted = true },
		"unrated":          func(m *GameMail) { m.SharedMailbox = []string{"alice", "bob"} },
	}
	extra := []gameCase{
		{name: "reminder", file: basics, reader: "bob", kind: MailReminder},
		{name: "waiting-deadline", file: basics, reader: "carol", kind: MailStatus},
		{name: "history", file: basics, reader: "bob", kind: MailStatus},
		{name: "aborted", file: basics, reader: "bob", kind: MailStatus},
		{name: "unrated", file: basics, upTo: moves(0), reader: "alice", kind: MailStart},
	}
	t.Run("games", func(t *testing.T) {
		for _, c := range append(goldenGameCases(), extra...) {
			t.Run(c.name, func(t *testing.T) {
				m := goldenGameMail(t, c)
				m.Language = pseudoLocale.String()
				if edit, ok := variants[c.name]; ok {
					edit(&m)
				}
				mail, err := r.Game(m)
				if err != nil {
					t.Fatal(err)
				}
				g := set.games[m.Game]
				kind := m
				if kind.Kind == MailReminder {
					kind.Kind = MailStatus
				}
				d := newGameData(kind, g.rules, set.words)
				d.Table, _ = execText(g.t, "game.table", d)
				if kind.Kind == MailStart {
					d.Teach, _ = execText(g.t, "game.teach", d)
				}
				args := append(argumentsOf(m), argumentsOf(*d)...)
				args = append(args, gamePartsOf(t, g, d)...)
				checkPseudo(t, mail.Subject, mail.Headline+"\n"+mail.Text, mail.HTML, append(args, common...))
			})
		}
	})
	t.Run("notices", func(t *testing.T) {
		for name, n := range noticeCases() {
			t.Run(name, func(t *testing.T) {
				n.Language = pseudoLocale.String()
				mail, err := r.Notice(n)
				if err != nil {
					t.Fatal(err)
				}
				d := newNoticeData(n, r.rules, set.words)
				if n.Kind == NoticeDigest {
					if err := set.digestData(d); err != nil {
						t.Fatal(err)
					}
				}
				args := append(argumentsOf(n), argumentsOf(*d)...)
				if g, ok := set.games[n.Game]; ok && n.Kind == NoticeRules {
					rules, _ := execText(g.t, "game.rules", d)
					args = append(args, rules)
					for _, p := range paras(rules) {
						args = append(args, p.Text)
					}
				}
				checkPseudo(t, mail.Subject, mail.Headline+"\n"+mail.Text, mail.HTML, append(args, common...))
			})
		}
	})
	t.Run("pages", func(t *testing.T) {
		for _, c := range webCases {
			t.Run(c.name, func(t *testing.T) {
				var m GameMail
				page := webCasePageWith(t, r, c, func(gm *GameMail) {
					gm.Language = pseudoLocale.String()
					m = *gm
				})
				g := set.games[m.Game]
				d := newGameData(m, g.rules, set.words)
				args := append(argumentsOf(m), argumentsOf(*d)...)
				args = append(args, gamePartsOf(t, g, d)...)
				// The page's points are the log's events (the scrubber's
				// list, pb-points), and its standings' names arguments.
				points := page[strings.Index(page, `<ol id="pb-points"`):]
				points = points[:strings.Index(points, "</ol>")]
				for _, li := range regexp.MustCompile(`<li[^>]*>(.*)</li>`).FindAllStringSubmatch(points, -1) {
					args = append(args, visibleText(li[1]))
				}
				args = append(args, "maximilian_alexa")
				checkPseudo(t, "", "", page, append(args, common...))
			})
		}
	})
}

// TestPseudoCheckFindsEnglish: the check above can fail: a sentence
// left in English is found, an argument is not.
func TestPseudoCheckFindsEnglish(t *testing.T) {
	args := []string{"alice", "bob@example.org", "pass"}
	for s, want := range map[string][]string{
		pseudo("Your move") + ": pass":             nil,
		"bob@example.org " + pseudo("invites you"): nil,
		"Your move: " + pseudo("reply"):            {"Your", "move"},
		pseudo("Waiting for") + " alice and bob":   {"and", "bob"},
		pseudo("a") + " passes":                    {"passes"},
	} {
		if got := leftEnglish(s, args); !slices.Equal(got, want) {
			t.Errorf("leftEnglish(%q) = %q, want %q", s, got, want)
		}
	}
	if got := visibleText(`<style>p { color: red }</style><nav aria-label="The history"><p title="x">Hi &amp; you</p></nav>`); normalized(got) != "The history x Hi & you" {
		t.Errorf("visibleText = %q", got)
	}
}
