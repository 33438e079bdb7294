package docs

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// goNames is what the repository's Go code declares, to check the names
// the documentation gives in backticks against.
type goNames struct {
	packages map[string]bool            // package names, the repository's and those it imports
	imports  map[string]string          // imported package name -> import path
	top      map[string]map[string]bool // package name -> its top-level names
	members  map[string]map[string]bool // type name -> its methods and fields
	methods  map[string]map[string]bool // package name -> its types' methods
	any      map[string]bool            // every name declared anywhere
	goroot   string                     // where the standard library's source is
}

// declaredNames parses every Go file of files (paths relative to root).
func declaredNames(t *testing.T, files []string) *goNames {
	t.Helper()
	n := &goNames{packages: map[string]bool{}, imports: map[string]string{},
		top: map[string]map[string]bool{}, members: map[string]map[string]bool{},
		methods: map[string]map[string]bool{}, any: map[string]bool{}}
	fset := token.NewFileSet()
	for _, f := range files {
		if !strings.HasSuffix(f, ".go") || strings.Contains(f, "testdata/") {
			continue
		}
		src, ok := readText(t, f)
		if !ok {
			continue
		}
		file, err := parser.ParseFile(fset, f, src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatalf("parsing %s: %v", f, err)
		}
		n.addFile(file)
	}
	return n
}

func (n *goNames) add(set map[string]map[string]bool, key, name string) {
	if set[key] == nil {
		set[key] = map[string]bool{}
	}
	set[key][name] = true
	n.any[name] = true
}

func (n *goNames) addFile(file *ast.File) {
	pkg := file.Name.Name
	n.packages[pkg] = true
	for _, im := range file.Imports {
		p := strings.Trim(im.Path.Value, `"`)
		name := path.Base(p)
		if im.Name != nil {
			name = im.Name.Name
		}
		n.imports[name] = p
	}
	for _, d := range file.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv != nil && len(d.Recv.List) == 1 {
				n.add(n.members, receiverType(d.Recv.List[0].Type), d.Name.Name)
				n.add(n.methods, pkg, d.Name.Name)
			} else {
				n.add(n.top, pkg, d.Name.Name)
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				n.addSpec(pkg, spec)
			}
		}
	}
}

func (n *goNames) addSpec(pkg string, spec ast.Spec) {
	switch s := spec.(type) {
	case *ast.TypeSpec:
		n.add(n.top, pkg, s.Name.Name)
		var fields *ast.FieldList
		switch tt := s.Type.(type) {
		case *ast.StructType:
			fields = tt.Fields
		case *ast.InterfaceType:
			fields = tt.Methods
		}
		if fields != nil {
			for _, f := range fields.List {
				for _, name := range f.Names {
					n.add(n.members, s.Name.Name, name.Name)
				}
			}
		}
	case *ast.ValueSpec:
		for _, name := range s.Names {
			n.add(n.top, pkg, name.Name)
		}
	}
}

// receiverType is the name of a method's receiver type: T for T, *T and
// T[K].
func receiverType(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// stdlibTop is the top-level names of a standard library package, read
// from its source in goroot, or nil if importPath is not one.
func stdlibTop(goroot, importPath string) map[string]bool {
	files, _ := filepath.Glob(filepath.Join(goroot, "src", filepath.FromSlash(importPath), "*.go"))
	var names map[string]bool
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		if names == nil {
			names = map[string]bool{}
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					names[d.Name.Name] = true
				}
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					switch s := spec.(type) {
					case *ast.TypeSpec:
						names[s.Name.Name] = true
					case *ast.ValueSpec:
						for _, v := range s.Names {
							names[v.Name] = true
						}
					}
				}
			}
		}
	}
	return names
}

var (
	goIdent   = regexp.MustCompile(`^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*(\(\))?$`)
	pathIdent = regexp.MustCompile(`^([a-z]\w*(?:/\w+)+)\.([A-Z]\w*)(\(\))?$`) // engine/games.All()
	setting   = regexp.MustCompile(`^[a-z]+(\.[a-z]+)+$`)                      // service.reminders
	fenced    = regexp.MustCompile("(?ms)^```.*?^```")
)

// notGoNames are words architecture.md puts in backticks that are not Go
// names: commands players write, and a file named for what it stands for.
var notGoNames = map[string]bool{"help": true, "new": true, "name": true, "notify": true, "autoplay": true, "docs/GAME.md": true}

// TestArchitectureNamesExist: every path docs/architecture.md gives in
// backticks is a file or folder of the repository (or of the standard
// library), and every Go name it gives is declared: a package's name, a
// type's method or field, a standard library package's function.
func TestArchitectureNamesExist(t *testing.T) {
	t.Parallel()
	files := repoFiles(t)
	exists := map[string]bool{}
	base := map[string]bool{}
	for _, f := range files {
		base[path.Base(f)] = true
		for p := f; p != "."; p = path.Dir(p) {
			exists[p] = true
		}
	}
	names := declaredNames(t, files)
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatalf("go env GOROOT: %v", err)
	}
	names.goroot = strings.TrimSpace(string(goroot))
	modules := map[string]bool{} // the modules go.mod requires
	gomod, _ := readText(t, "go.mod")
	for _, line := range strings.Split(gomod, "\n") {
		if f := strings.Fields(line); len(f) >= 2 && strings.Contains(f[0], ".") {
			modules[f[0]] = true
		}
	}
	doc, _ := readText(t, "docs/architecture.md")
	doc = fenced.ReplaceAllString(doc, "")
	spans := regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(doc, -1)
	checked := 0
	for _, m := range spans {
		span := m[1]
		var why string
		switch {
		case strings.ContainsAny(span, " $[") || strings.Contains(span, "_") || isUpperWord(span) ||
			setting.MatchString(span) || notGoNames[span]:
			continue // a command, a setting, a column, an IMAP word
		case pathIdent.MatchString(span):
			sm := pathIdent.FindStringSubmatch(span)
			if !exists[sm[1]] || !names.top[path.Base(sm[1])][sm[2]] {
				why = "no such package or name"
			}
		case strings.Contains(span, "/") || regexp.MustCompile(`\.(go|md|html)$`).MatchString(span):
			p := strings.TrimSuffix(span, "/")
			if !exists[p] && !(strings.Count(p, "/") == 0 && base[p]) && stdlibTop(names.goroot, p) == nil && !modules[p] {
				why = "no such file or folder"
			}
		case goIdent.MatchString(span):
			why = names.check(t, strings.TrimSuffix(span, "()"))
		default:
			continue
		}
		checked++
		if why != "" {
			t.Errorf("docs/architecture.md: `%s`: %s", span, why)
		}
	}
	if checked < 100 {
		t.Errorf("only %d names checked: the backticks are no longer read as they were", checked)
	}
}

// isUpperWord tells an all-capitals word (STORE, KIND.subject's KIND).
func isUpperWord(s string) bool {
	first, _, _ := strings.Cut(s, ".")
	return len(first) > 1 && strings.ToUpper(first) == first
}

// check says what is wrong with a dotted Go name, or "".
func (n *goNames) check(t *testing.T, name string) string {
	parts := strings.Split(name, ".")
	if len(parts) == 1 {
		if n.any[name] || n.packages[name] {
			return ""
		}
		return "declared nowhere"
	}
	i, scope := 0, ""
	if top, ok := n.top[parts[0]]; ok && n.packages[parts[0]] {
		// pkg.Name..., or pkg.Method for a method of one of the package's
		// types (store.Cursor: Store and Tx both have it).
		if !top[parts[1]] && !(len(parts) == 2 && n.methods[parts[0]][parts[1]]) {
			return "package " + parts[0] + " declares no " + parts[1]
		}
		i, scope = 1, parts[1]
	} else if p, ok := n.imports[parts[0]]; ok {
		if !stdlibTop(n.goroot, p)[parts[1]] {
			return p + " declares no " + parts[1]
		}
		return "" // a member of a standard library type is not looked up
	} else {
		scope = parts[0]
		if !n.any[scope] {
			return "declared nowhere: " + scope
		}
	}
	for _, member := range parts[i+1:] {
		if !n.members[scope][member] {
			return scope + " has no method or field " + member
		}
		scope = member
	}
	return ""
}
