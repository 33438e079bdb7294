package docs

import (
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// fuzzList is the file scripts/test reads its fuzz targets from.
const fuzzList = "scripts/fuzz-targets"

// fuzzTargets returns the module's fuzz targets as scripts/fuzz-targets
// writes them ("./PACKAGE FuzzName"): every top-level func Fuzz... in a
// _test.go file that a plain `go test` builds (a file behind a build tag
// such as integration is left out, because scripts/test's fuzz loop runs
// without tags).
func fuzzTargets(t *testing.T) map[string]bool {
	t.Helper()
	found := map[string]bool{}
	fset := token.NewFileSet()
	for _, f := range repoFiles(t) {
		if !strings.HasSuffix(f, "_test.go") {
			continue
		}
		full := filepath.Join(root, filepath.FromSlash(f))
		dir, name := filepath.Split(full)
		if ok, err := build.Default.MatchFile(dir, name); err != nil || !ok {
			continue // a build tag, another OS, or a file deleted in the work tree
		}
		file, err := parser.ParseFile(fset, full, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, decl := range file.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || !isFuzzName(fn.Name.Name) {
				continue
			}
			found["./"+path.Dir(f)+" "+fn.Name.Name] = true
		}
	}
	return found
}

// isFuzzName is go test's rule for a fuzz target's name: Fuzz, then
// nothing or anything that does not begin with a lower-case letter.
func isFuzzName(name string) bool {
	rest, ok := strings.CutPrefix(name, "Fuzz")
	return ok && (rest == "" || !(rest[0] >= 'a' && rest[0] <= 'z'))
}

// listedFuzzTargets reads scripts/fuzz-targets: PACKAGE TARGET per line,
// # comments and blank lines left out.
func listedFuzzTargets(t *testing.T) map[string]bool {
	t.Helper()
	text, ok := readText(t, fuzzList)
	if !ok {
		t.Fatalf("%s is missing", fuzzList)
	}
	listed := map[string]bool{}
	for i, line := range strings.Split(text, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) != 2 {
			t.Errorf("%s:%d: want PACKAGE TARGET, have %q", fuzzList, i+1, line)
			continue
		}
		listed[fields[0]+" "+fields[1]] = true
	}
	return listed
}

// TestFuzzTargetsListed keeps scripts/fuzz-targets, which scripts/test
// runs, equal to the fuzz targets the module has: a new target that is
// not listed would never run in CI, and a listed one that is gone would
// make scripts/test fail far from its cause.
func TestFuzzTargetsListed(t *testing.T) {
	t.Parallel()
	have, listed := fuzzTargets(t), listedFuzzTargets(t)
	if len(have) == 0 {
		t.Fatal("found no fuzz target in the module")
	}
	var missing, gone []string
	for target := range have {
		if !listed[target] {
			missing = append(missing, target)
		}
	}
	for target := range listed {
		if !have[target] {
			gone = append(gone, target)
		}
	}
	sort.Strings(missing)
	sort.Strings(gone)
	for _, target := range missing {
		t.Errorf("fuzz target %s is not in %s: add the line %q", target, fuzzList, target)
	}
	for _, target := range gone {
		t.Errorf("%s lists %s, which the module does not have", fuzzList, target)
	}
}

// TestIsFuzzName pins down go test's naming rule for fuzz targets.
func TestIsFuzzName(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]bool{"Fuzz": true, "FuzzRead": true, "Fuzz_x": true, "Fuzzy": false, "fuzzRead": false, "TestFuzz": false} {
		if got := isFuzzName(name); got != want {
			t.Errorf("isFuzzName(%q) = %v, want %v", name, got, want)
		}
	}
}
