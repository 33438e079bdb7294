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
	for _, shared := range []string{"internal/daemon", "parser", "templates", "store", "mailer", "internal/metrics", "internal/config", "engine/transcript", "internal/lease", "internal/wiring", "internal/loaded"} {
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
		// The pages' test harness plays whole games of every kind
		// through the turn loop, as demo does; only tests import it.
		module + "/internal/webpage/webpagetest": true,
	}
	checkWiring(t, imports)
	for pkg, imps := range imports {
		if slices.Contains(imps, module+"/internal/webpage/webpagetest") {
			t.Errorf("%s imports internal/webpage/webpagetest, which only tests may import", pkg)
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
				t.Errorf("%s imports %s: only engine/games, cmd/pbem, demo and webpagetest may know the games; give it the games (engine.Rules) instead", pkg, imp)
			}
		}
	}

	// intake reads and judges a mail before its transaction, on every
	// core at once: it stays pure, so it reaches no store, no daemon and
	// no configuration package, directly or through another package (it
	// has its own small Config).
	const intake = module + "/internal/intake"
	if _, ok := imports[intake]; !ok {
		t.Errorf("no package %s found: is the walk wrong?", intake)
	}
	for _, up := range []string{module + "/store", module + "/internal/daemon", module + "/internal/config"} {
		if path := importPath(imports, intake, up); path != nil {
			t.Errorf("%s reaches %s (%s): intake is given what it needs, in intake.Config", intake, up, strings.Join(path, " → "))
		}
	}

	// The turn loop's stages sit below the daemon, which wires them: a
	// stage reaches neither the daemon nor the configuration file's
	// package (the daemon gives it a small Config of its own).
	for _, stage := range daemonStagePackages {
		pkg := module + "/" + stage
		if _, ok := imports[pkg]; !ok {
			t.Errorf("no package %s found: is the walk wrong?", pkg)
		}
		for _, up := range []string{module + "/internal/daemon", module + "/internal/config"} {
			if path := importPath(imports, pkg, up); path != nil {
				t.Errorf("%s reaches %s (%s): a stage of the turn loop is given what it needs by the daemon", pkg, up, strings.Join(path, " → "))
			}
		}
	}
}

// daemonStagePackages are the turn loop's stages below internal/daemon
// (docs/architecture.md, "One mail, through the stages").
var daemonStagePackages = []string{"internal/admin", "internal/intake", "internal/loaded", "internal/outgoing", "internal/sweeps", "internal/webpage"}

// importPath is a chain of imports from pkg to target, in imports; nil
// when pkg does not reach target.
func importPath(imports map[string][]string, pkg, target string) []string {
	seen := map[string]bool{pkg: true}
	var walk func(p string) []string
	walk = func(p string) []string {
		if p == target {
			return []string{p}
		}
		for _, imp := range imports[p] {
			if seen[imp] {
				continue
			}
			seen[imp] = true
			if rest := walk(imp); rest != nil {
				return append([]string{p}, rest...)
			}
		}
		return nil
	}
	return walk(pkg)

}

// checkWiring checks that pbem's configuration is read where the service
// is wired (internal/wiring, for cmd/pbem and the demo), not in the turn
// loop: the daemon and its stages (internal/daemon/...) are handed their
// values and do not import internal/config; and that the reader lease
// (internal/lease) is handed the holder's work, not the daemon.
func checkWiring(t *testing.T, imports map[string][]string) {
	t.Helper()
	const (
		daemon = module + "/internal/daemon"
		config = module + "/internal/config"
		lease  = module + "/internal/lease"
	)
	for pkg, imps := range imports {
		inDaemon := pkg == daemon || strings.HasPrefix(pkg, daemon+"/")
		for _, imp := range imps {
			switch {
			case inDaemon && imp == config:
				t.Errorf("%s imports %s: the turn loop is handed its values (daemon.Config), built from pbem's configuration by internal/wiring", pkg, imp)
			case pkg == lease && (imp == daemon || strings.HasPrefix(imp, daemon+"/")):
				t.Errorf("%s imports %s: the lease is handed the holder's work (lease.Work), it does not know the daemon", pkg, imp)
			}
		}
	}
}
