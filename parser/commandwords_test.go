package parser

import (
	"go/ast"
	goparser "go/parser"
	gotoken "go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/pbem/pbem/engine"
)

// wordTypes are the named types whose constants may be spelt like a
// command: other vocabularies that happen to share a word with the
// lobby's, and are stored or named apart from it.
var wordTypes = map[string]string{
	"EventKind":   "daemon: an event's kind, stored in the game's log (EventResign, EventSay)",
	"auditAction": "daemon: what the audit log stores of a player's act (auditResign)",
	"Word":        "admin: the admin's own command table, stored as the audit's action (admin.Undo)",
	"NoticeKind":  "templates: the name of a notice's template (NoticeHelp)",
	"MailKind":    "templates: the name of a game mail's template (MailStatus)",
}

// wordUses are the literals, by file, that are spelt like a command and
// are not one.
var wordUses = map[string]string{
	"parser/html.go:name": `an HTML attribute ("name" == "quote")`,
}

// TestCommandWordsOnlyInTable checks that no word of the lobby's commands
// is a string literal in the parser (but for its table, grammar.go), the
// templates or the daemon: they dispatch on Command.Kind and show the
// table's words, so that a command is named in one place.
func TestCommandWordsOnlyInTable(t *testing.T) {
	words := map[string]bool{}
	for _, lc := range lobbyCmds {
		for _, w := range lc.words {
			words[w] = true
		}
		for _, w := range germanWords[lc.Kind] {
			words[w], words[engine.Fold(w)] = true, true
		}
	}
	for _, dir := range []string{".", "../templates", "../internal/daemon", "../internal/admin", "../internal/web"} {
		paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range paths {
			if strings.HasSuffix(path, "_test.go") || path == "grammar.go" {
				continue
			}
			for _, hit := range commandLiterals(t, path, words) {
				t.Errorf("%s: the command word %s is a string literal: dispatch on parser.Kind, or name it with Kind.String()", hit.pos, hit.word)
			}
		}
	}
}

type wordHit struct {
	pos  gotoken.Position
	word string
}

// commandLiterals lists the string literals of the Go file at path that
// are one of words, but for the constants of wordTypes and wordUses.
func commandLiterals(t *testing.T, path string, words map[string]bool) []wordHit {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fset := gotoken.NewFileSet()
	f, err := goparser.ParseFile(fset, path, src, 0)
	if err != nil {
		t.Fatal(err)
	}
	rel := filepath.ToSlash(filepath.Join(filepath.Base(filepath.Dir(mustAbs(t, path))), filepath.Base(path)))
	var hits []wordHit
	ast.Inspect(f, func(n ast.Node) bool {
		if vs, ok := n.(*ast.ValueSpec); ok {
			if id, ok := vs.Type.(*ast.Ident); ok && wordTypes[id.Name] != "" {
				return false
			}
		}
		lit, ok := n.(*ast.BasicLit)
		if !ok || lit.Kind != gotoken.STRING {
			return true
		}
		v, err := strconv.Unquote(lit.Value)
		if err != nil || !words[v] || wordUses[rel+":"+v] != "" {
			return true
		}
		hits = append(hits, wordHit{fset.Position(lit.Pos()), strconv.Quote(v)})
		return true
	})
	return hits
}

func mustAbs(t *testing.T, path string) string {
	t.Helper()
	abs, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// TestCommandWordsSeen checks that TestCommandWordsOnlyInTable can fail:
// a literal command word in a file is found, and an allowed constant is
// not.
func TestCommandWordsSeen(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x.go")
	src := "package x\n\ntype EventKind string\n\nconst EventSay EventKind = \"say\"\n\nfunc f(name string) bool { return name == \"resign\" }\n"
	if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	hits := commandLiterals(t, path, map[string]bool{"say": true, "resign": true})
	if len(hits) != 1 || hits[0].word != `"resign"` {
		t.Fatalf("found %v, want the one \"resign\"", hits)
	}
}

// TestLobbyKinds checks the table: each kind is one row, KindMove none,
// and Read gives a command the kind of the row it matched.
func TestLobbyKinds(t *testing.T) {
	seen := map[Kind]string{}
	for _, lc := range lobbyCmds {
		if lc.Kind == KindMove {
			t.Errorf("%s has KindMove", lc.Name)
		}
		if other, ok := seen[lc.Kind]; ok {
			t.Errorf("%s and %s share kind %d", other, lc.Name, lc.Kind)
		}
		seen[lc.Kind] = lc.Name
		if lc.Kind.String() != lc.Name || lc.words[0] != lc.Name {
			t.Errorf("kind %d is %q, its row %q (words %v)", lc.Kind, lc.Kind.String(), lc.Name, lc.words)
		}
		if lc.Help == "" || !strings.HasPrefix(lc.Usage, lc.Name) {
			t.Errorf("%s: usage %q, help %q", lc.Name, lc.Usage, lc.Help)
		}
	}
	if len(seen) != int(KindLanguage) {
		t.Errorf("%d rows for kinds 1..%d", len(seen), KindLanguage)
	}
	for _, text := range []string{"help", "rules felix", "tz Europe/Berlin", "holiday 5d", "quit", "say hello there", "notify digest 19", "link new"} {
		cmds, prob := Read(text, Grammar{Games: []string{"felix"}})
		if prob != nil || len(cmds) != 1 {
			t.Errorf("%q: %v, %v", text, cmds, prob)
			continue
		}
		c := cmds[0]
		if c.Kind == KindMove || c.Kind.String() != c.Name || !c.Lobby {
			t.Errorf("%q: kind %v, name %q, lobby %v", text, c.Kind, c.Name, c.Lobby)
		}
	}
}
