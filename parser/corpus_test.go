package parser

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the corpus's .want files from the current output (review them by hand)")

// corpusOptions are what the daemon would pass for game g42: its address
// and the first line of its turn summaries.
var corpusOptions = ExtractOptions{
	ServiceAddress: "game@pbem.example",
	ServiceName:    "pbem",
	OwnMarkers:     []string{"pbem game g42"},
}

// corpusLanguage picks the language from the file name's first word.
func corpusLanguage(name string) Grammar {
	switch {
	case strings.HasPrefix(name, "felix-"):
		return felixLang()
	case strings.HasPrefix(name, "gracias-"):
		return graciasLang()
	}
	return lobbyLang()
}

// corpusResult is what a corpus message yields, in .want form: the
// commands one per line, then "error: " and the problem if there is one.
func corpusResult(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := Extract(f, corpusOptions)
	if err != nil {
		return "error: " + err.Error() + "\n"
	}
	name := strings.TrimSuffix(filepath.Base(path), ".eml")
	cmds, prob := Read(m.Text, corpusLanguage(name))
	var b strings.Builder
	for _, c := range cmds {
		b.WriteString(c.Text + "\n")
	}
	if prob != nil {
		b.WriteString("error: " + problemText(prob) + "\n")
	}
	return b.String()
}

// TestCorpus reads every message of testdata/corpus and compares the
// commands with NAME.want: the same commands, and where the want has an
// "error: TEXT" line, a problem whose text contains TEXT.
func TestCorpus(t *testing.T) {
	paths, err := filepath.Glob("testdata/corpus/*.eml")
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) < 40 {
		t.Fatalf("the corpus has %d messages, want at least 40", len(paths))
	}
	for _, path := range paths {
		name := strings.TrimSuffix(filepath.Base(path), ".eml")
		t.Run(name, func(t *testing.T) {
			got := corpusResult(t, path)
			wantPath := strings.TrimSuffix(path, ".eml") + ".want"
			if *update {
				if err := os.WriteFile(wantPath, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			data, err := os.ReadFile(wantPath)
			if err != nil {
				t.Fatal(err)
			}
			wantCmds, wantErr := splitWant(string(data))
			gotCmds, gotErr := splitWant(got)
			if strings.Join(gotCmds, "\n") != strings.Join(wantCmds, "\n") {
				t.Errorf("commands:\n got %q\nwant %q", gotCmds, wantCmds)
			}
			switch {
			case wantErr == "" && gotErr != "":
				t.Errorf("unexpected problem: %s", gotErr)
			case wantErr != "" && !strings.Contains(strings.ToLower(gotErr), strings.ToLower(wantErr)):
				t.Errorf("problem %q does not contain %q", gotErr, wantErr)
			}
			if t.Failed() {
				raw, _ := os.ReadFile(path)
				m, _ := Extract(bytes.NewReader(raw), corpusOptions)
				t.Logf("text read:\n%s\n--- body:\n%s", m.Text, m.Body)
			}
		})
	}
}

func splitWant(s string) (cmds []string, problem string) {
	for _, l := range strings.Split(strings.TrimSpace(s), "\n") {
		l = strings.TrimSpace(l)
		switch {
		case l == "" || strings.HasPrefix(l, "#"):
		case strings.HasPrefix(l, "error:"):
			problem = strings.TrimSpace(strings.TrimPrefix(l, "error:"))
			if problem == "" {
				problem = "error" // an empty expectation still wants a problem
			}
		default:
			cmds = append(cmds, l)
		}
	}
	return cmds, problem
}

// BenchmarkReadCorpus measures what the daemon does with the normal
// replies of the corpus before it looks at a game: Extract, then
// ReadMessage in the case's language, for every mail of testdata/corpus
// once per iteration: "earlier", the cases of before issue 36, and
// "ring3", its localised replies (felix-ring3-*).
func BenchmarkReadCorpus(b *testing.B) {
	paths, err := filepath.Glob("testdata/corpus/*.eml")
	if err != nil {
		b.Fatal(err)
	}
	type mail struct {
		raw     []byte
		grammar Grammar
	}
	groups := map[string][]mail{}
	sizes := map[string]int{}
	for _, p := range paths {
		raw, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		name := strings.TrimSuffix(filepath.Base(p), ".eml")
		group := "earlier"
		if strings.HasPrefix(name, "felix-ring3-") {
			group = "ring3"
		}
		groups[group] = append(groups[group], mail{raw, corpusLanguage(name)})
		sizes[group] += len(raw)
	}
	for _, group := range []string{"earlier", "ring3"} {
		b.Run(group, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(sizes[group]))
			for b.Loop() {
				for _, m := range groups[group] {
					if msg, err := Extract(bytes.NewReader(m.raw), corpusOptions); err == nil {
						_, _, _ = ReadMessage(msg, m.grammar)
					}
				}
			}
		})
	}
}

// TestCorpusWithSharedLexicon reads every message of the corpus again,
// each language's grammar given one Lexicon made beforehand and shared
// by all its reads, as the daemon keeps one per game's rules: the
// commands and the problems are those read without one, word for word.
func TestCorpusWithSharedLexicon(t *testing.T) {
	paths, err := filepath.Glob("testdata/corpus/*.eml")
	if err != nil {
		t.Fatal(err)
	}
	lexicons := map[string]*Lexicon{}
	for _, path := range paths {
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		m, err := Extract(bytes.NewReader(raw), corpusOptions)
		if err != nil {
			continue
		}
		name := strings.TrimSuffix(filepath.Base(path), ".eml")
		g := corpusLanguage(name)
		lang, _, _ := strings.Cut(name, "-")
		if lexicons[lang] == nil {
			lexicons[lang] = NewLexicon(g.Specs, g.Nouns)
		}
		shared := g
		shared.Lexicon = lexicons[lang]
		wantCmds, wantProb := Read(m.Text, g)
		gotCmds, gotProb := Read(m.Text, shared)
		if fmt.Sprint(gotCmds) != fmt.Sprint(wantCmds) {
			t.Errorf("%s: with a shared lexicon %v, without %v", name, gotCmds, wantCmds)
		}
		if (gotProb == nil) != (wantProb == nil) || gotProb != nil && problemText(gotProb) != problemText(wantProb) {
			t.Errorf("%s: with a shared lexicon the problem is %v, without %v", name, gotProb, wantProb)
		}
	}
	if len(lexicons) < 2 {
		t.Errorf("the corpus read %d languages, want the games' and the lobby's", len(lexicons))
	}
}

// TestCorpusWithCompiledService checks that a service address compiled
// once (ExtractOptions.Service, as the daemon passes it) reads every
// corpus mail as the address compiled for each mail does, and that it
// is used: compiled for another address, the mails that quote pbem's
// are read differently.
func TestCorpusWithCompiledService(t *testing.T) {
	paths, err := filepath.Glob("testdata/corpus/*.eml")
	if err != nil {
		t.Fatal(err)
	}
	compiled := corpusOptions
	compiled.Service = CompileService(corpusOptions.ServiceAddress)
	for _, path := range paths {
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		want, wantErr := Extract(bytes.NewReader(raw), corpusOptions)
		got, gotErr := Extract(bytes.NewReader(raw), compiled)
		if fmt.Sprintf("%#v %v", got, gotErr) != fmt.Sprintf("%#v %v", want, wantErr) {
			t.Errorf("%s: compiled once %q, for the mail %q", path, got.Text, want.Text)
		}
	}
	// A line naming pbem's address above a quote is the quote's header:
	// the address compiled is the one looked for.
	raw := "From: alice@x.test\r\nTo: game+g42@pbem.example\r\nSubject: Re: Felix\r\n\r\nbid 4\r\n\r\n<game+g42@pbem.example>\r\n> Felix #42\r\n"
	for service, want := range map[string]string{"game@pbem.example": "bid 4", "someone@else.example": "bid 4\n\n<game+g42@pbem.example>"} {
		m, err := Extract(strings.NewReader(raw), ExtractOptions{ServiceAddress: "game@pbem.example", Service: CompileService(service)})
		if err != nil || m.Text != want {
			t.Errorf("compiled for %s: %q, %v; want %q", service, m.Text, err, want)
		}
	}
}
