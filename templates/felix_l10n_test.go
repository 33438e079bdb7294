package templates

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
	"golang.org/x/text/message/catalog"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/felix"
	"github.com/pbem/pbem/engine/games"
	"github.com/pbem/pbem/engine/transcript"
)

// Felix's mails in German (issue 39): goldens of the German mails, a
// pseudo-locale that proves no English word of Felix's own parts
// escapes its catalogs, and agreement of its catalogs with the
// renderer's and the other games' where they share a key. The catalogs'
// own checks are engine/felix/l10n_test.go.

// felixGermanCases are the German goldens, in testdata/golden/de/: each
// mail's NAME.txt and .html, and the page and notice footer around them,
// as splitMail cuts them (page.html, footer-notice.*). A folder of their
// own, as German's page is not English's (its lang), and the goldens
// beside them are English mails (TestOwnMailsReadNoCommand reads every
// one). They are cases of TestGoldenGameMails read in German, and a
// reader's standing orders.
var felixGermanCases = []gameCase{
	{name: "felix-start", file: "engine/felix/testdata/basics-4p.txt", upTo: moves(0), reader: "carol", kind: "start"},
	{name: "felix-place", file: "engine/felix/testdata/basics-4p.txt", upTo: moves(11), reader: "bob", kind: "turn"},
	{name: "felix-bid", file: "engine/felix/testdata/basics-4p.txt", reader: "bob", kind: "turn"},
	{name: "felix-waiting", file: "engine/felix/testdata/basics-4p.txt", reader: "carol", kind: "turn"},
	{name: "felix-proxy-limit", file: "engine/felix/testdata/proxy-standing-pass-4p.txt", upTo: moves(5), reader: "bob", kind: "turn"},
	{name: "felix-proxy-pass", file: "engine/felix/testdata/proxy-standing-pass-4p.txt", upTo: moves(6), reader: "bob", kind: "turn"},
	{name: "felix-own-stake", file: "engine/felix/testdata/basics-4p.txt", upTo: moves(9), reader: "carol", kind: "turn"},
	{name: "felix-buying", file: "engine/felix/testdata/buy-for-one-4p.txt", upTo: after("buying", ""), reader: "dave", kind: "turn"},
	{name: "felix-dummy-3p", file: "engine/felix/testdata/dummy-3p.txt", reader: "bob", kind: "status"},
	{name: "felix-end", file: "engine/felix/testdata/dogs-full-game-4p.txt", reader: "bob", kind: "end"},
	{name: "felix-end-tie-break", file: "engine/felix/testdata/tie-break-4p.txt", reader: "alice", kind: "end"},
	{name: "felix-end-shared", file: "engine/felix/testdata/shared-win-4p.txt", reader: "carol", kind: "end"},
}

// germanGoldens is the folder of the German goldens.
var germanGoldens = filepath.Join(goldenDir, "de")

// TestGoldenFelixGerman: Felix's mails in German, as goldens (run with
// -update and review every sentence).
func TestGoldenFelixGerman(t *testing.T) {
	t.Parallel()
	r := newRenderer(t)
	for _, c := range felixGermanCases {
		t.Run(c.name, func(t *testing.T) {
			n := -1
			if c.upTo != nil {
				_, _, all := play(t, c.file, -1)
				n = c.upTo(t, all)
			}
			g, opening, steps := play(t, c.file, n)
			seat := engine.Seat(g, c.reader)
			if seat < 0 {
				t.Fatalf("no player %s", c.reader)
			}
			m := mailFor(t, g, seat, c.kind, sinceLastMove(seat, opening, steps))
			m.Language = "de"
			compareGermanGolden(t, c.name, render(t, r, m))
		})
	}
	t.Run("felix-rules", func(t *testing.T) {
		n := noticeCases()["rules-felix"]
		n.Language = "de"
		m, err := r.Notice(n)
		if err != nil {
			t.Fatal(err)
		}
		checkShape(t, m)
		compareGermanGolden(t, "felix-rules", m)
	})
}

// compareGermanGolden compares a German mail with its goldens.
func compareGermanGolden(t *testing.T, name string, m Mail) {
	t.Helper()
	files, err := splitMail(name, m)
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, 0, len(files))
	for f := range files {
		names = append(names, f)
	}
	sort.Strings(names)
	for _, f := range names {
		compareGolden(t, filepath.Join(germanGoldens, f), files[f])
	}
}

// felixLocales reads Felix's catalog files of the language lang: their
// entries, a text or a table of plural forms, by key. Its events'
// catalog is left out when noEvents.
func felixLocales(t *testing.T, lang string, noEvents bool) map[string]any {
	t.Helper()
	fsys := felix.Rules{}.Locales()
	files, err := fs.Glob(fsys, path.Join(lang, "*.toml"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]any{}
	for _, file := range files {
		if noEvents && path.Base(file) == "events.toml" {
			continue
		}
		data, err := fs.ReadFile(fsys, file)
		if err != nil {
			t.Fatal(err)
		}
		raw := map[string]any{}
		if err := tomlUnmarshal(data, &raw); err != nil {
			t.Fatal(err)
		}
		for k, v := range raw {
			out[k] = v
		}
	}
	return out
}

// markup is a tag of a sentence of Felix's HTML part.
var markup = regexp.MustCompile(`<[^>]*>`)

// pseudoMarkup is pseudo for a sentence that may mark words (<b>): its
// tags stay as they are.
func pseudoMarkup(s string) string {
	tags := markup.FindAllString(s, -1)
	i := 0
	out := pseudo(markup.ReplaceAllStringFunc(s, func(string) string { i++; return "\x01" + strconv.Itoa(i-1) + "\x02" }))
	for j, tag := range tags {
		out = strings.Replace(out, "\x01"+strconv.Itoa(j)+"\x02", tag, 1)
	}
	return out
}

// felixPseudoRenderer is a renderer whose pseudo-locale writes every key
// of Felix's catalogs (its events' too) in fullwidth letters.
func felixPseudoRenderer(t *testing.T) *Renderer {
	t.Helper()
	entries := felixLocales(t, "de", false)
	english := felixLocales(t, "en", false)
	r, err := build(games.All(), func(b *catalog.Builder) error {
		for key := range entries {
			if forms, ok := english[key].(map[string]any); ok {
				if err := b.Set(pseudoLocale, key, plural.Selectf(1, "%d", "=1", pseudoMarkup(forms["one"].(string)), plural.Other, pseudoMarkup(key))); err != nil {
					return err
				}
				continue
			}
			if err := b.SetString(pseudoLocale, key, pseudoMarkup(key)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// eachFelixState calls f with every seat's mail after every move of
// every Felix transcript.
func eachFelixState(t *testing.T, f func(file string, m GameMail)) {
	t.Helper()
	files, err := filepath.Glob("../engine/felix/testdata/*.txt")
	if err != nil || len(files) < 10 {
		t.Fatalf("transcripts %v: %v", files, err)
	}
	eachState(t, files, f)
}

// eachState calls f with every seat's mail after every move of every
// transcript the patterns match.
func eachState(t *testing.T, patterns []string, f func(file string, m GameMail)) {
	t.Helper()
	var files []string
	for _, p := range patterns {
		matched, err := filepath.Glob(p)
		if err != nil || len(matched) == 0 {
			t.Fatalf("transcripts %s: %v", p, err)
		}
		files = append(files, matched...)
	}
	for _, file := range files {
		fh, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := transcript.Read(fh, games.Lookup)
		fh.Close()
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		g, _, err := tr.Rules.New(tr.Setup)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		for i := 0; ; i++ {
			for seat := range tr.Setup.Players {
				kind := MailTurn
				if i == 0 {
					kind = MailStart
				}
				m := mailFor(t, g, seat, kind, nil)
				m.Kind = kind
				if m.Finished {
					m.Kind = MailEnd
				}
				f(file, m)
			}
			if i == len(tr.Moves) {
				break
			}
			mv := tr.Moves[i]
			cmd, err := engine.ParseCommand(tr.Rules.Specs(), tr.Setup.Players, mv.Command)
			if err != nil {
				t.Fatalf("%s:%d: %v", file, mv.Line, err)
			}
			if _, err := g.Apply(engine.Seat(g, mv.Player), cmd); err != nil {
				t.Fatalf("%s:%d: %v", file, mv.Line, err)
			}
		}
	}
}

// entity is an HTML character reference.
var entity = regexp.MustCompile(`&#?[a-zA-Z0-9]+;`)

// TestFelixPseudoLocaleLeavesNoEnglishWord: Felix's own parts of every
// mail of every transcript (headline, table, end, what the reader may
// send ahead, the aim, the lesson, the rules, text and HTML), written in
// the pseudo-locale, hold no English word but the players' names, the
// game's name and what the renderer gives them to print (whom the game
// waits for, who won, a place).
func TestFelixPseudoLocaleLeavesNoEnglishWord(t *testing.T) {
	t.Parallel()
	r := felixPseudoRenderer(t)
	set := r.set(pseudoLocale.String())
	if set == r.sets[language.English] {
		t.Fatal("the pseudo-locale's set is English's")
	}
	gs := set.games["felix"]
	rules := games.All()["felix"]
	checked := 0
	eachFelixState(t, func(file string, m GameMail) {
		d := newGameData(m, rules, set.words)
		d.game = gs
		args := append([]string{d.WaitingText(), d.WinnersText(), "Felix"}, m.Waiting...)
		for _, name := range m.View.(felix.View).Players {
			args = append(args, d.Place(name.Name), name.Name)
		}
		// longest first: a name inside "alice and bob" goes with it
		sort.Slice(args, func(i, j int) bool { return len(args[i]) > len(args[j]) })
		parts := []string{"game.headline", "game.aim", "game.waiting"}
		if m.Finished {
			parts = append(parts, "game.end")
		} else {
			parts = append(parts, "game.table")
		}
		if m.Kind == MailStart {
			parts = append(parts, "game.teach", "game.rules")
		}
		for _, part := range parts {
			text, err := execText(gs.t, part, d)
			if err != nil {
				t.Fatalf("%s: %s: %v", file, part, err)
			}
			checkNoEnglish(t, file+" "+part+" (text)", text, args)
			if part == "game.headline" || part == "game.teach" || part == "game.rules" {
				continue // the text's only
			}
			html, err := execHTML(gs.h, part, d)
			if err != nil {
				t.Fatalf("%s: %s: %v", file, part, err)
			}
			checkNoEnglish(t, file+" "+part+" (HTML)", entity.ReplaceAllString(markup.ReplaceAllString(html, " "), " "), args)
			checked++
		}
	})
	t.Logf("%d parts checked", checked)
}

// usageArg is the argument of a command's usage, as a command's
// example writes it in every language: "bid up to N".
var usageArg = regexp.MustCompile(`\bN\b`)

// checkNoEnglish fails when s holds an English word, once its arguments
// args and a usage's argument are left out.
func checkNoEnglish(t *testing.T, where, s string, args []string) {
	t.Helper()
	rest := s
	for _, a := range args {
		if a != "" {
			rest = strings.ReplaceAll(rest, a, "ARG")
		}
	}
	rest = usageArg.ReplaceAllString(rest, "ARG")
	for _, line := range strings.Split(rest, "\n") {
		if left := escaped(line); left != "" {
			t.Errorf("%s: %q escapes the catalog (left: %q)", where, line, left)
		}
	}
}

// TestFelixAgreesWithTheOtherCatalogs: where Felix's catalogs and the
// renderer's or another game's translate the same key (or English writes
// its plural forms), they agree: the renderer merges them into one
// catalog, in which the last game's entry would win for every game.
func TestFelixAgreesWithTheOtherCatalogs(t *testing.T) {
	t.Parallel()
	sub, err := fs.Sub(locales, "locales")
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range []string{"de", "en"} {
		mine := felixLocales(t, lang, false)
		others := map[string]map[string]any{"templates/locales": readCatalogTexts(t, sub, lang)}
		for name, rules := range games.All() {
			if l, ok := rules.(engine.Localizer); ok && name != "felix" {
				others[name] = readCatalogTexts(t, l.Locales(), lang)
			}
		}
		if lang == "en" {
			plurals := map[string]any{}
			for _, m := range pluralMessages {
				plurals[m.key] = map[string]any{"one": m.one, "other": m.key}
			}
			others["templates' pluralMessages"] = plurals
		}
		for owner, entries := range others {
			for key, v := range entries {
				if mv, ok := mine[key]; ok && fmt.Sprint(mv) != fmt.Sprint(v) {
					t.Errorf("%s: %q: Felix writes %v, %s %v", lang, key, mv, owner, v)
				}
			}
		}
	}
}

// readCatalogTexts reads the catalog files of lang in fsys.
func readCatalogTexts(t *testing.T, fsys fs.FS, lang string) map[string]any {
	t.Helper()
	files, err := fs.Glob(fsys, path.Join(lang, "*.toml"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]any{}
	for _, file := range files {
		data, err := fs.ReadFile(fsys, file)
		if err != nil {
			t.Fatal(err)
		}
		raw := map[string]any{}
		if err := tomlUnmarshal(data, &raw); err != nil {
			t.Fatal(err)
		}
		for k, v := range raw {
			out[k] = v
		}
	}
	return out
}
