package templates

import (
	"io/fs"
	"maps"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/BurntSushi/toml"

	"golang.org/x/text/language"
	"golang.org/x/text/message/catalog"
)

// localeEntries reads every catalog file of the language folder lang,
// with the file each key is in.
func localeEntries(t *testing.T, lang string) map[string]string {
	t.Helper()
	sub, err := fs.Sub(locales, "locales")
	if err != nil {
		t.Fatal(err)
	}
	files, err := fs.Glob(sub, path.Join(lang, "*.toml"))
	if err != nil {
		t.Fatal(err)
	}
	in := map[string]string{}
	for _, file := range files {
		entries, err := readLocaleFile(sub, file)
		if err != nil {
			t.Fatal(err)
		}
		for key := range entries {
			if other, ok := in[key]; ok {
				t.Errorf("%q is in both %s and %s", key, other, file)
			}
			in[key] = file
		}
	}
	return in
}

// catalogLanguages are the folders of locales: the languages besides
// English.
func catalogLanguages(t *testing.T) []string {
	t.Helper()
	dirs, err := fs.ReadDir(locales, "locales")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range dirs {
		out = append(out, d.Name())
	}
	return out
}

// TestEveryMessageInEveryLanguage: each language's catalog has a form
// of every message the package prints, and nothing else (a key no
// sentence prints any longer is a stale translation).
func TestEveryMessageInEveryLanguage(t *testing.T) {
	keys := catalogKeys(t)
	langs := catalogLanguages(t)
	if !slices.Contains(langs, "de") {
		t.Fatalf("languages %v: German is missing", langs)
	}
	for _, lang := range langs {
		in := localeEntries(t, lang)
		missing := 0
		for _, key := range keys {
			if _, ok := in[key]; !ok {
				missing++
				t.Errorf("%s: no form of %q", lang, key)
			}
		}
		for _, key := range slices.Sorted(maps.Keys(in)) {
			if !slices.Contains(keys, key) {
				t.Errorf("%s: %s translates %q, which no sentence prints", lang, in[key], key)
			}
		}
		t.Logf("%s: %d of %d messages", lang, len(keys)-missing, len(keys))
	}
}

// indexedVerb is a verb with an optional explicit argument index.
var indexedVerb = regexp.MustCompile(`%(\[([0-9]+)\])?[-+# 0]*[0-9]*(\.[0-9]+)?([a-zA-Z])`)

// verbsByArgument maps each argument a format prints (from 1) to the
// verb letter it is printed with, numbering arguments as fmt does: in
// order, and from an explicit %[n] on.
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

// TestTranslationsKeepTheirArguments: every form of every message
// prints each of the English key's arguments, with the same verb, and
// no other: a translation may reorder them (%[2]s) but drops none.
func TestTranslationsKeepTheirArguments(t *testing.T) {
	for _, lang := range catalogLanguages(t) {
		sub, _ := fs.Sub(locales, "locales")
		files, _ := fs.Glob(sub, path.Join(lang, "*.toml"))
		for _, file := range files {
			for key, forms := range localeForms(t, sub, file) {
				want, ok := verbsByArgument(key)
				if !ok {
					t.Fatalf("%q: key's verbs unreadable", key)
				}
				for _, form := range forms {
					got, ok := verbsByArgument(form)
					if !ok || !maps.Equal(got, want) {
						t.Errorf("%s: %q: %q prints the arguments as %v, the key as %v", file, key, form, got, want)
					}
				}
			}
		}
	}
}

// localeForms are the texts of each entry of a catalog file: one, or
// one for each plural form.
func localeForms(t *testing.T, fsys fs.FS, file string) map[string][]string {
	t.Helper()
	data, err := fs.ReadFile(fsys, file)
	if err != nil {
		t.Fatal(err)
	}
	raw := map[string]any{}
	if err := tomlUnmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for key, v := range raw {
		switch v := v.(type) {
		case string:
			out[key] = []string{v}
		case map[string]any:
			for _, f := range v {
				out[key] = append(out[key], f.(string))
			}
		}
	}
	return out
}

// TestLocaleFileErrors: a catalog file that is not what setLocales
// reads fails the build of the catalog with its file and key named.
func TestLocaleFileErrors(t *testing.T) {
	for name, text := range map[string]string{
		"no other form": `"%d days" = { one = "%d Tag" }`,
		"unknown form":  `"%d days" = { one = "%d Tag", plenty = "x", other = "%d Tage" }`,
		"not text":      `"%d days" = 3`,
		"form not text": `"%d days" = { one = 1, other = "%d Tage" }`,
		"not toml":      `"%d days" = `,
	} {
		fsys := fstest.MapFS{"de/words.toml": {Data: []byte(text)}}
		err := setLocales(catalog.NewBuilder(), fsys)
		if err == nil || !strings.Contains(err.Error(), "de/words.toml") {
			t.Errorf("%s: error %v, want one naming the file", name, err)
		}
	}
	if err := setLocales(catalog.NewBuilder(), fstest.MapFS{"Deutsch!/a.toml": {}}); err == nil {
		t.Error("a folder that is no language was read")
	}
}

// TestPluralFormsByLanguage: a plural entry chooses its form by the
// language's rules.
func TestPluralFormsByLanguage(t *testing.T) {
	b := catalog.NewBuilder(catalog.Fallback(language.English))
	fsys := fstest.MapFS{"pl/words.toml": {Data: []byte(`"%d days" = { one = "%d dzień", few = "%d dni (few)", many = "%d dni", other = "%d dnia" }`)}}
	if err := setLocales(b, fsys); err != nil {
		t.Fatal(err)
	}
	pl := in(language.Polish, b)
	for n, want := range map[int]string{1: "1 dzień", 2: "2 dni (few)", 5: "5 dni", 22: "22 dni (few)", 25: "25 dni"} {
		if got := pl.f("%d days", n); got != want {
			t.Errorf("%d: %q, want %q", n, got, want)
		}
	}
}

func tomlUnmarshal(data []byte, v any) error { return toml.Unmarshal(data, v) }
