package templates

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// daemonStages are the packages that handle a mail or a sweep, from the
// module's root: none of them writes a sentence of its own, every one
// comes from Say (say.go). Add a stage here when it becomes a package.
var daemonStages = []string{"internal/daemon", "internal/intake", "internal/outgoing", "internal/loaded", "internal/webpage", "internal/admin", "internal/sweeps"}

// strayAllowed are literals that look like sentences in a stage's code
// but are no player's words.
var strayAllowed = map[string]string{
	"bob 24h":                "an admin act's example command (admin.acts), written as the admin writes it",
	"bob pass":               "an admin act's example command",
	"bob rob@example.org":    "an admin act's example command",
	"%s by %s":               "an admin act's audit detail, stored, never mailed",
	"GAME ":                  "the admin's usage: what he writes, not prose",
	"refused: ":              "the prefix of admin.ErrRefused's text, cut off before the reason is mailed",
	"header of %d bytes\x00": "hashed to identify a mail, never shown",
	// export.go writes the transcript pbem replay reads: a file format.
	"# pbem game #%d (%s), exported by pbem\n":                                 "the transcript format",
	"# time for each decision: %s (pbem's deadline, not part of the set-up)\n": "the transcript format",
	"takes back move %d: %s":                                                   "the transcript format",
	"made by pbem: the only move the rules left":                               "the transcript format",
	"# clock: %s (each player's time bank, pbem's, not part of the set-up)\n":  "the transcript format",
	"clock ran out":                     "the transcript format",
	"clock: %s left, %s after the move": "the transcript format",
	// intake's verdict: the inbound record's detail, never mailed.
	"not authenticated: ": "the inbound record's detail",
}

// strayFilesElsewhere are files of a stage whose literals this test
// does not read yet, each for its reason. Issue 34 gave them to other
// hands while the sentences moved; the lead empties this after merging.
var strayFilesElsewhere = map[string]string{
	// A node's instance name and the pattern that reads it back.
	"internal/daemon/nodename.go": "names a node, never mailed",
}

// notWords are the calls whose string arguments are for the log, an
// error's chain, the audit log or a goroutine's name, not for a mail,
// by the called function's (or method's) name; a call through a value
// whose name holds "log" (s.log.Info, slog.Warn) is one too.
var notWords = map[string]bool{
	"fmt.Errorf":  true,
	"errors.New":  true,
	"AppendAudit": true, // the game's audit log
	"Failed":      true, // logs a failed try (tries.Counter.Failed)
	"start":       true, // names a goroutine in the log (Service.Run)
	"s.admin":     true, // its detail is the audit log's
}

// TestNoSentenceInDaemonCode is issue 34's finding 4: a sentence a
// player (or an admin, by mail) reads is written in templates, never in
// the daemon's code. It reads every non-test file of daemonStages and
// fails on a string literal of two or more words with letters, unless it
// is an import path, a struct tag, an argument of a call in notWords, a
// value assigned to a detail (the inbound record's, stored, not mailed)
// or keyed Detail or Kind, a constant of a named type (a kind the code
// compares), the text of an Error method, or in strayAllowed.
func TestNoSentenceInDaemonCode(t *testing.T) {
	t.Parallel()
	strays, files := strayLiterals(t, "..", daemonStages)
	if files < 20 {
		t.Fatalf("read %d files of %v: the check would prove little", files, daemonStages)
	}
	for _, s := range strays {
		t.Errorf("%s: a sentence in the daemon's code; say it with a method of templates.Words (say.go)", s)
	}
	if len(strays) > 0 {
		t.Logf("%d sentences in %d files", len(strays), files)
	}
}

// strayLiterals returns where the stage packages under root write a
// sentence, as "file:line: text", and how many files it read. A stage
// not made yet has no files.
func strayLiterals(t *testing.T, root string, stages []string) ([]string, int) {
	t.Helper()
	var out []string
	files := 0
	for _, dir := range stages {
		paths, err := filepath.Glob(filepath.Join(root, dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(filepath.Join(root, dir)); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		for _, path := range paths {
			if _, later := strayFilesElsewhere[filepath.ToSlash(filepath.Join(dir, filepath.Base(path)))]; later || strings.HasSuffix(path, "_test.go") {
				continue
			}
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			files++
			skip := notPlayerWords(f)
			ast.Inspect(f, func(n ast.Node) bool {
				lit, ok := n.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING || skip[lit] {
					return true
				}
				s, err := strconv.Unquote(lit.Value)
				if err != nil {
					t.Fatalf("%s: %v", fset.Position(lit.Pos()), err)
				}
				if _, ok := strayAllowed[s]; !ok && sentenceLike(s) {
					out = append(out, fset.Position(lit.Pos()).String()+": "+strconv.Quote(s))
				}
				return true
			})
		}
	}
	return out, files
}

// sentenceLike reports whether s holds two or more words with letters.
func sentenceLike(s string) bool {
	n := 0
	for _, w := range strings.Fields(s) {
		if strings.IndexFunc(w, unicode.IsLetter) >= 0 {
			n++
		}
	}
	return n >= 2 || n == 1 && strings.Contains(s, " ")
}

// notPlayerWords marks f's string literals that are no player's words
// (see TestNoSentenceInDaemonCode).
func notPlayerWords(f *ast.File) map[*ast.BasicLit]bool {
	skip := map[*ast.BasicLit]bool{}
	all := func(n ast.Node) {
		ast.Inspect(n, func(m ast.Node) bool {
			if lit, ok := m.(*ast.BasicLit); ok {
				skip[lit] = true
			}
			return true
		})
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ImportSpec:
			all(n)
		case *ast.Field:
			if n.Tag != nil {
				all(n.Tag)
			}
		case *ast.FuncDecl:
			if n.Recv != nil && n.Name.Name == "Error" {
				all(n)
			}
		case *ast.ValueSpec:
			if _, named := n.Type.(*ast.Ident); named && n.Type.(*ast.Ident).Name != "string" {
				all(n)
			}
		case *ast.CallExpr:
			name := calleeName(n.Fun)
			last := name[strings.LastIndex(name, ".")+1:]
			if notWords[name] || notWords[last] || strings.Contains(strings.ToLower(name), "log") {
				all(n)
			}
		case *ast.AssignStmt:
			for i, lhs := range n.Lhs {
				if name := calleeName(lhs); (name == "detail" || strings.HasSuffix(name, ".detail")) && i < len(n.Rhs) {
					all(n.Rhs[i])
				}
			}
		case *ast.KeyValueExpr:
			if key, ok := n.Key.(*ast.Ident); ok && (key.Name == "Detail" || key.Name == "Kind") {
				all(n.Value)
			}
		}
		return true
	})
	return skip
}

// calleeName is a call's function as written: "fmt.Errorf",
// "s.log.Info", "adminErr".
func calleeName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return calleeName(e.X) + "." + e.Sel.Name
	case *ast.IndexExpr:
		return calleeName(e.X)
	}
	return ""
}
