package templates

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"

	"github.com/pbem/pbem/engine"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/message/catalog"
)

// The languages pbem's own sentences are written in (issue 39). Every
// sentence of Say is printed through a golang.org/x/text/message
// catalog, keyed by its English format string (x/text's convention): a
// language is a set of catalog entries, not a second copy of the
// methods. English needs entries only where it chooses between forms
// (a plural); every other key prints as itself.
//
// English (language.English) is the first language, and the one every
// other falls back to; it is the only one with a catalog yet.
// pseudoLocale is the conventional pseudo-locale: the tests give it a
// catalog that writes every message in fullwidth letters, to prove that
// no sentence escapes the catalog.
var pseudoLocale = language.MustParse("en-XA")

// pluralMessages are the messages English writes in two forms, by a
// count: the key is the many-form, as a sentence uses it; the forms
// choose by the count, the first argument.
var pluralMessages = []struct{ key, one string }{
	{"%d days", "%d day"},
	{"%d hours", "%d hour"},
	{"%d minutes", "%d minute"},
	{"%d seconds", "%d second"},
	{"%d bots", "%d bot"},
	{"%d invitations", "%d invitation"},
	{" and %d bots", " and %d bot"},
	// the templates' (templates/text, templates/html)
	{"%d rated games", "%d rated game"},
	{"Your rating: %[2]s after %[1]d rated games.", "Your rating: %[2]s after %[1]d rated game."},
	{"Your rating: %[2]s after %[1]d rated games (skill %[3]s).", "Your rating: %[2]s after %[1]d rated game (skill %[3]s)."},
	{"%d earlier events", "%d earlier event"},
	// digest.go's
	{"%d games wait for you", "%d game waits for you"},
	{"news from %d games, none waits for you", "news from %d game, none waits for you"},
}

// contextMessages are words English writes alike where another language
// writes them apart, by the place they stand in: "you" waited for is
// German "dich", "you" whose clock it is "du". The key is the English
// word, "|" and the place; English prints the word.
var contextMessages = []string{
	"you|whom the game waits for",
	"you|whose clock it is",
}

// pluralKeys are the keys of the messages that choose a form by a
// count, for the tests that build a catalog of every key.
func pluralKeys() []string {
	keys := make([]string, len(pluralMessages))
	for i, m := range pluralMessages {
		keys[i] = m.key
	}
	return keys
}

// setEnglish writes English's entries into b.
func setEnglish(b *catalog.Builder) error {
	for _, m := range pluralMessages {
		if err := b.Set(language.English, m.key, plural.Selectf(1, "%d", "=1", m.one, plural.Other, m.key)); err != nil {
			return fmt.Errorf("catalog entry %q: %w", m.key, err)
		}
	}
	for _, key := range contextMessages {
		word, _, _ := strings.Cut(key, "|")
		if err := b.SetString(language.English, key, word); err != nil {
			return fmt.Errorf("catalog entry %q: %w", key, err)
		}
	}
	return nil
}

// locales holds the catalogs of the languages besides English:
// locales/TAG/*.toml, one file for each file of sentences
// (locales/de/say_vacation.toml translates say_vacation.go). Each entry
// is an English key and its translation, or, for a message that chooses
// a form by its count, a table of the language's plural forms:
//
//	"Not done: %s is in the past." = "Nicht erledigt: %s liegt in der Vergangenheit."
//	"%d days" = { one = "%d Tag", other = "%d Tage" }
//
// docs/languages.md says how to add a language.
//
//go:embed locales
var locales embed.FS

// pluralForms are the names a catalog file may give a plural form, and
// the form each stands for.
var pluralForms = map[string]plural.Form{
	"zero": plural.Zero, "one": plural.One, "two": plural.Two,
	"few": plural.Few, "many": plural.Many, "other": plural.Other,
}

// setLocales writes the entries of every catalog file of fsys (a tree
// shaped as locales) into b.
func setLocales(b *catalog.Builder, fsys fs.FS) error {
	dirs, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return fmt.Errorf("reading the locales: %w", err)
	}
	for _, d := range dirs {
		tag, err := language.Parse(d.Name())
		if err != nil || !d.IsDir() {
			return fmt.Errorf("locales/%s is not a language's folder: %v", d.Name(), err)
		}
		files, err := fs.Glob(fsys, path.Join(d.Name(), "*.toml"))
		if err != nil {
			return err
		}
		for _, file := range files {
			entries, err := readLocaleFile(fsys, file)
			if err != nil {
				return err
			}
			for key, msg := range entries {
				if err := b.Set(tag, key, msg); err != nil {
					return fmt.Errorf("locales/%s: %q: %w", file, key, err)
				}
			}
		}
	}
	return nil
}

// readLocaleFile reads one catalog file: its entries as catalog
// messages, by key.
func readLocaleFile(fsys fs.FS, file string) (map[string]catalog.Message, error) {
	data, err := fs.ReadFile(fsys, file)
	if err != nil {
		return nil, err
	}
	var raw map[string]any
	if err := toml.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("locales/%s: %w", file, err)
	}
	out := make(map[string]catalog.Message, len(raw))
	for key, v := range raw {
		switch v := v.(type) {
		case string:
			out[key] = catalog.String(v)
		case map[string]any:
			for name, form := range v {
				_, known := pluralForms[name]
				if _, isText := form.(string); !known || !isText {
					return nil, fmt.Errorf("locales/%s: %q: %q is not a plural form's text (%s)", file, key, name, strings.Join(formNames, ", "))
				}
			}
			if _, ok := v["other"]; !ok {
				return nil, fmt.Errorf("locales/%s: %q has no other form", file, key)
			}
			// The first form that matches is chosen: other comes last.
			var cases []any
			for _, name := range formNames {
				if text, ok := v[name]; ok {
					cases = append(cases, pluralForms[name], text)
				}
			}
			out[key] = plural.Selectf(1, "%d", cases...)
		default:
			return nil, fmt.Errorf("locales/%s: %q is neither a text nor a table of plural forms", file, key)
		}
	}
	return out, nil
}

// formNames are the plural forms' names in the order a message tries
// them: other, which matches every count, last.
var formNames = []string{"zero", "one", "two", "few", "many", "other"}

// theCatalog is the templates package's catalog, built once and never
// changed after.
var theCatalog = sync.OnceValue(func() catalog.Catalog {
	b := catalog.NewBuilder(catalog.Fallback(language.English))
	if err := setEnglish(b); err != nil {
		panic(err) // the entries are constants: a failure is a programming error
	}
	sub, err := fs.Sub(locales, "locales")
	if err == nil {
		err = setLocales(b, sub)
	}
	if err != nil {
		panic(err) // the catalogs are embedded: TestCatalogsRead reads them
	}
	return b
})

// rendererCatalog is the catalog a Renderer prints from: the package's
// entries, every game's (engine.Localizer) and more's.
func rendererCatalog(games map[string]engine.Rules, names []string, more func(*catalog.Builder) error) (catalog.Catalog, error) {
	b := catalog.NewBuilder(catalog.Fallback(language.English))
	if err := setEnglish(b); err != nil {
		return nil, err
	}
	sub, err := fs.Sub(locales, "locales")
	if err != nil {
		return nil, err
	}
	if err := setLocales(b, sub); err != nil {
		return nil, err
	}
	for _, name := range names {
		if l, ok := games[name].(engine.Localizer); ok {
			if err := setLocales(b, l.Locales()); err != nil {
				return nil, fmt.Errorf("templates: %s: %w", name, err)
			}
		}
	}
	if more != nil {
		if err := more(b); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// englishPrinter prints English; Say's zero value uses it.
var englishPrinter = sync.OnceValue(func() *message.Printer {
	return message.NewPrinter(language.English, message.Catalog(theCatalog()))
})

// In is pbem's words in the language tag names; a language pbem does
// not know is English.
func In(tag language.Tag) Words { return packageWords().in(tag) }

// in is the words for tag printed from cat: English's zero value when
// cat has no language that matches tag, so that a language without a
// catalog never gets its own plural rules applied to English words.
func in(tag language.Tag, cat catalog.Catalog) Words { return newWordsTable(cat).in(tag) }

// wordsTable is the words of each language of a catalog, made once: a
// printer and a language matcher cost more to make than most sentences
// cost to print, and the daemon asks for a reader's words with every
// mail (issue 40: templates.For was 2% of a command's CPU). It is never
// changed once made, so one table serves every goroutine.
type wordsTable struct {
	langs   []language.Tag
	matcher language.Matcher
	words   []Words          // by langs' index; English's the zero value
	byName  map[string]Words // For's answer for each language's own tag ("de")
}

// newWordsTable makes the words of every language of cat.
func newWordsTable(cat catalog.Catalog) *wordsTable {
	t := &wordsTable{langs: cat.Languages(), byName: map[string]Words{}}
	t.matcher = language.NewMatcher(t.langs)
	t.words = make([]Words, len(t.langs))
	for i, tag := range t.langs {
		if tag != language.English {
			t.words[i] = Words{p: message.NewPrinter(tag, message.Catalog(cat)), tag: tag}
		}
	}
	for _, tag := range t.langs {
		t.byName[tag.String()] = t.in(tag)
	}
	return t
}

// in is the words for tag: those of the closest language of the
// table's catalog, or English's zero value.
func (t *wordsTable) in(tag language.Tag) Words {
	if len(t.langs) == 0 {
		return Words{}
	}
	_, i, conf := t.matcher.Match(tag)
	if conf == language.No {
		return Words{}
	}
	return t.words[i]
}

// packageWords is the words of the package's catalog, made once.
var packageWords = sync.OnceValue(func() *wordsTable { return newWordsTable(theCatalog()) })

// printer is the words' printer: English's when the words are the zero
// value (Say).
func (e Words) printer() *message.Printer {
	if e.p == nil {
		return englishPrinter()
	}
	return e.p
}

// language is the words' language: English for the zero value.
func (e Words) language() language.Tag {
	if e.p == nil {
		return language.English
	}
	return e.tag
}

// f prints the message keyed by its English format string key, with
// args, in the words' language.
func (e Words) f(key string, args ...any) string {
	if e.kept == nil {
		return e.print(key, args)
	}
	k, keep := keyOf(key, args)
	if !keep {
		return e.print(key, args)
	}
	if out, ok := e.kept.get(k); ok {
		return out
	}
	out := e.print(key, args)
	e.kept.put(k, out)
	return out
}

// print prints the message keyed by key with args, in the words'
// language.
func (e Words) print(key string, args []any) string {
	for i, a := range args {
		args[i] = plainNumber(a)
	}
	return e.printer().Sprintf(key, args...)
}

// plainNumber wraps a number so that it prints as Go's fmt prints it:
// x/text would group its digits ("2,026"), and pbem writes years,
// counts and ratings without grouping in every language.
func plainNumber(a any) any {
	switch a.(type) {
	case int, int64, int32, uint, uint64, uint32, float64, float32:
		return digits{a}
	}
	return a
}

// digits is a number printed by fmt, whose plural form the catalog can
// still choose by.
type digits struct{ v any }

// Format prints the number as fmt does.
func (d digits) Format(s fmt.State, verb rune) {
	fmt.Fprintf(s, fmt.FormatString(s, verb), d.v)
}

// PluralForm is the number's plural form in the language t, for
// plural.Selectf; a whole number only (pbem counts in whole numbers).
func (d digits) PluralForm(t language.Tag, _ int) (plural.Form, int) {
	var n int
	switch v := d.v.(type) {
	case int:
		n = v
	case int64:
		n = int(v)
	case int32:
		n = int(v)
	case uint:
		n = int(v)
	case uint64:
		n = int(v)
	case uint32:
		n = int(v)
	default:
		return plural.Other, -1
	}
	i := n
	if i < 0 {
		i = -i
	}
	return plural.Cardinal.MatchPlural(t, i, 0, 0, 0, 0), n
}

// T prints the message keyed by its English format key, as the
// templates' T does: for a game's words (engine.Say) and commands
// (engine.CommandTranslator), whose keys are the game's. Sentences of
// this package use f, with a literal key the catalog tests find.
func (e Words) T(key string, args ...any) string { return e.f(key, args...) }
