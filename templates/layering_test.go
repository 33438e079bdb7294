package templates

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// module is the module's path, as go.mod declares it.
const module = "github.com/pbem/pbem"

// TestLayering checks who may know a concrete game (engine/felix,
// engine/gracias, and every game engine/games lists): only the catalogue
// engine/games and the programs that build a service from it (cmd/pbem,
// demo). The shared packages (daemon, parser, templates, store, mailer,
// metrics, config, engine/transcript, ...) get the games injected and
// render or run them through engine.Rules and engine.Presenter; engine
// itself imports no other package of the module, and a game imports
// only engine. Test files are free: they may play real games.
func TestLayering(t *testing.T) {
	t.Parallel()
	root := ".."                     // the module's root
	imports := map[string][]string{} // package path -> the module's packages its non-test files import
	err := filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() {
			if name := e.Name(); path != root && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		pkg := module
		if rel != "." {
			pkg += "/" + filepath.ToSlash(rel)
		}
		if _, ok := imports[pkg]; !ok {
			imports[pkg] = nil
		}
		for _, spec := range f.Imports {
			imp, err := strconv.Unquote(spec.Path.Value)
			if err != nil {
				return err
			}
			if (imp == module || strings.HasPrefix(imp, module+"/")) && !slices.Contains(imports[pkg], imp) {
				imports[pkg] = append(imports[pkg], imp)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}

	const (
		engine  = module + "/engine"
		catalog = module + "/engine/games"
	)
	// The concrete games are those the catalogue lists.
	var concrete []string
	for _, imp := range imports[catalog] {
		if strings.HasPrefix(imp, engine+"/") {
			concrete = append(concrete, imp)
		}
	}
	if !slices.Contains(concrete, engine+"/felix") || !slices.Contains(concrete, engine+"/gracias") {
		t.Fatalf("engine/games lists %v, not felix and gracias: is the walk wrong?", concrete)
	}
	for _, shared := range []string{"internal/daemon", "parser", "templates", "store", "mailer", "internal/metrics", "internal/config", "engine/transcript", "internal/loaded"} {
		if _, ok := imports[module+"/"+shared]; !ok {
			t.Errorf("no package %s found: is the walk wrong?", shared)
		}
	}

	// May import a concrete game or the catalogue: the catalogue and the
	// programs.
	mayKnowGames := map[string]bool{
		catalog:                   true,
		module + "/cmd/pbem":      true,
		module + "/internal/demo": true,
	}
	// The stages of the turn loop (issue 34) sit below the daemon: they
	// are given what they need as plain values, and never import the
	// daemon that orchestrates them nor the configuration it is built
	// from.
	stages := []string{module + "/internal/loaded"}
	above := []string{module + "/internal/daemon", module + "/internal/config"}
	for _, stage := range stages {
		for _, imp := range imports[stage] {
			if slices.Contains(above, imp) {
				t.Errorf("stage %s imports %s: a stage of the turn loop is given plain values, and never imports the daemon or the configuration", stage, imp)
			}
		}
	}

	for pkg, imps := range imports {
		for _, imp := range imps {
			knowsGame := imp == catalog || slices.Contains(concrete, imp)
			switch {
			case pkg == engine:
				t.Errorf("engine imports %s: it must import no other package of the module", imp)
			case slices.Contains(concrete, pkg) && imp != engine:
				t.Errorf("game %s imports %s: a game imports only engine", pkg, imp)
			case knowsGame && !mayKnowGames[pkg] && !slices.Contains(concrete, pkg):
				t.Errorf("%s imports %s: only engine/games, cmd/pbem and demo may know the games; give it the games (engine.Rules) instead", pkg, imp)
			}
		}
	}
}
