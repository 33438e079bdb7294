package parser

import (
	"go/ast"
	goparser "go/parser"
	gotoken "go/token"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// searchedPatterns are the expressions of the package that are not
// linePatterns: searched anywhere in a text, so that no part of the text
// can be left out, each only on a text whose length its callers bound.
var searchedPatterns = map[string]string{
	"dateRe":          "quoteHeader and laterStart: lines and joined lines of at most maxHeaderLine bytes",
	"serviceRegexp":   "quoteHeader: lines of at most maxHeaderLine bytes",
	"subjectPrefixRe": "subjectText: a Subject of at most maxLineBytes, its blanks collapsed",
	"subjectTagRe":    "subjectText: a Subject of at most maxLineBytes, its blanks collapsed",
	"labelRe":         "insertedLines: a line of at most maxFooterLine bytes",
	"bannerRe":        "insertedLines: a line of at most maxHeaderLine bytes",
	"disclaimerRe":    "isDisclaimer: a line cut to maxHeaderLine bytes",
	"noticeFooterRe":  "EndsOwnMail: a line of at most maxHeaderLine bytes",
	"gameFooterRe":    "EndsOwnMail: a line of at most maxHeaderLine bytes",
}

// TestNoPatternReadsPastItsMatch is the finding of issue 23 (1 MB of
// 990-byte dash lines cost a second: the separator expression ran on
// all of every line starting with "-"), checked by structure: every
// regular expression of the package is a linePattern, which is tried on
// no more of a line than its longest match (TestLinePatternWindow),
// except the few in searchedPatterns, whose callers bound the text.
func TestNoPatternReadsPastItsMatch(t *testing.T) {
	fset := gotoken.NewFileSet()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := goparser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		{
			// The name of the variable or function each expression is
			// compiled for.
			var owner string
			ast.Inspect(f, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.FuncDecl:
					owner = n.Name.Name
				case *ast.ValueSpec:
					owner = n.Names[0].Name
				case *ast.CallExpr:
					sel, ok := n.Fun.(*ast.SelectorExpr)
					if !ok {
						return true
					}
					if pkgName, ok := sel.X.(*ast.Ident); !ok || pkgName.Name != "regexp" || !strings.HasPrefix(sel.Sel.Name, "Compile") && !strings.HasPrefix(sel.Sel.Name, "MustCompile") {
						return true
					}
					found++
					if name == "pattern.go" && owner == "mustLinePattern" {
						return true
					}
					if _, ok := searchedPatterns[owner]; !ok {
						t.Errorf("%s: %s compiles a regular expression that is tried on whole lines; make it a linePattern (mustLinePattern) or bound the text its callers try it on and list it in searchedPatterns", fset.Position(n.Pos()), owner)
					}
				}
				return true
			})
		}
	}
	if found == 0 {
		t.Fatal("found no regular expression at all: the test reads the wrong files")
	}
}

// TestLinePatternWindow checks what a linePattern looks at: no more
// than its longest match and one character, whatever the line's length.
func TestLinePatternWindow(t *testing.T) {
	for _, tt := range []struct {
		expr   string
		maxLen int
	}{
		{`^ab{0,3}$`, 4},
		{`^(x|yz)\b`, 2},
		{`(?i)^é`, 4}, // a folded letter may be longer than its own
		{`[é-ê]{2}:$`, 5},
		{`^.{0,10}`, 40},
	} {
		p := mustLinePattern(tt.expr)
		if p.maxLen != tt.maxLen {
			t.Errorf("%s: maxLen %d, want %d", tt.expr, p.maxLen, tt.maxLen)
		}
		for _, line := range []string{strings.Repeat("é", 100), strings.Repeat("a", 1<<20)} {
			if w := p.window(line); len(w) > p.maxLen+4 || !strings.Contains(line, w) {
				t.Errorf("%s: window of %d bytes of a %d-byte line", tt.expr, len(w), len(line))
			}
		}
	}
	for _, expr := range []string{`^a*`, `^a+$`, `^a{2,}`, `x{0,3}`, `^(a|b*)`, `^ab|^cd`} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("mustLinePattern(%q) did not panic", expr)
				}
			}()
			mustLinePattern(expr)
		}()
	}
}

// TestLinePatternsMatchAsTheirExpressions checks that trying a
// linePattern on its window gives what its expression gives on the
// whole line, for the package's patterns on lines made of their own
// words and of what may stand around a match.
func TestLinePatternsMatchAsTheirExpressions(t *testing.T) {
	patterns := map[string]linePattern{
		"forwardIntroRe": forwardIntroRe, "footerRe": footerRe,
		"headerFromRe": headerFromRe, "headerRestRe": headerRestRe,
		"greetingRe": greetingRe,
		"both ends":  mustLinePattern(`^(ab|é){1,3}$`),
		"end":        mustLinePattern(`\b(wrote|é)\s{0,2}:$`),
	}
	pieces := []string{"sent from", "von meinem", "gesendet", "get outlook for", "begin forwarded message", "from", "de", "*", "subject", "hi", "hello", "thanks", "kind regards", "ab", "wrote", "é", "ê", "x", "_", " ", ":", ",", "\t", "\xc3", "ı", "K"}
	for name, p := range patterns {
		t.Run(name, func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				parts := rapid.SliceOfN(rapid.SampledFrom(pieces), 0, 60).Draw(t, "parts")
				line := strings.Join(parts, "")
				if got, want := p.match(line), p.re.MatchString(line); got != want {
					t.Fatalf("match(%q) = %v, the expression says %v", line, got, want)
				}
			})
		})
	}
}

// oldSeparatorRe is the expression isSeparator replaces.
var oldSeparatorRe = regexp.MustCompile(`^(-{2,}.{0,60}-{2,}|-{3,}|_{2,})$`)

func TestIsSeparatorAsTheOldExpression(t *testing.T) {
	for _, line := range []string{"--", "---", "__", "_", "-----Original Message-----", "---------- Forwarded message ---------",
		"--- pbem ---", "----", "--a--", "-- a -", strings.Repeat("-", 990), strings.Repeat("-", 989) + "x",
		"--" + strings.Repeat("é", 60) + "--", "--" + strings.Repeat("é", 61) + "--", "--\xff--"} {
		if got, want := isSeparator(line), oldSeparatorRe.MatchString(line); got != want {
			t.Errorf("isSeparator(%q) = %v, want %v", line, got, want)
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		parts := rapid.SliceOfN(rapid.SampledFrom([]string{"-", "--", "_", "a", " ", "é", "Original Message", strings.Repeat("x", 30)}), 0, 40).Draw(t, "parts")
		line := strings.Join(parts, "")
		if got, want := isSeparator(line), oldSeparatorRe.MatchString(line); got != want {
			t.Fatalf("isSeparator(%q) = %v, the old expression says %v", line, got, want)
		}
	})
}

// oldAttributionRe is the expression isAttribution replaces, with the
// ending after a stem bounded as isAttribution bounds it, and word
// boundaries as Unicode reads words (\b reads "napisałschrieb" as
// ending in the word "schrieb"; issue 36 reads words in every script).
var oldAttributionRe = regexp.MustCompile(`(?i)((wrote|writes|écrit|geschrieben|escribió|scritto|escreveu|napisał\S{0,` + strconv.Itoa(maxStemEnding) + `}|написал\S{0,` + strconv.Itoa(maxStemEnding) + `}|kirjoitti|írta|napsal\S{0,` + strconv.Itoa(maxStemEnding) + `}|写道|작성)\s*:|(^|[^\pL\pM\pN_])(schrieb|schreef|skrev)([^\pL\pM\pN_]|$).*:)\s*\**$`)

// TestIsAttributionKeepsTheOldExpression: isAttribution replaced an
// expression; issue 36 taught it more languages. Every line the
// expression took is still an attribution, and the lines it did not take
// are attributions only for a verb of the lists.
func TestIsAttributionKeepsTheOldExpression(t *testing.T) {
	for _, line := range []string{"On Sun, Nov 22, 2026 at 09:06 pbem <game@pbem.example> wrote:", "Am 22.11.2026 um 21:06 schrieb Alice <a@x.test>:",
		"Alice napisał(a):", "*Alice wrote:*", "bob WROTE :  ", "张三写道:"} {
		if !isAttribution(line) || !oldAttributionRe.MatchString(line) {
			t.Errorf("isAttribution(%q) = %v, the old expression %v; want both true", line, isAttribution(line), oldAttributionRe.MatchString(line))
		}
	}
	for _, line := range []string{"pass", "schriebx:", "x schrieb", "My move:", "bid 3:", "wrote me:"} {
		if isAttribution(line) {
			t.Errorf("isAttribution(%q) = true, want false", line)
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		parts := rapid.SliceOfN(rapid.SampledFrom([]string{"wrote", "WRITES", "écrit", "napisał", "написал", "(a)", "schrieb", "Skrev", "写道", "a", "_", " ", "\t", ":", "*", "<x@y>", "2026", "é"}), 0, 30).Draw(t, "parts")
		line := strings.Join(parts, "")
		if oldAttributionRe.MatchString(line) && !isAttribution(line) {
			t.Fatalf("isAttribution(%q) = false, the old expression says true", line)
		}
	})
}

// TestLongLineReadOnce: a line far longer than a command is found blank
// or not, and refused as too long, without tokenizing all of it (a
// 1 MB line once made 122 MB of tokens).
func TestLongLineReadOnce(t *testing.T) {
	long := strings.Repeat("صلى الله عليه وسلم ", 1<<16)
	for _, tt := range []struct {
		line string
		tok  string
	}{
		{"  - - " + long, "صلى"},
		{strings.Repeat("- ", 1<<18), ""},
		{"say " + long, "say"},
	} {
		tok, ok := firstToken(tt.line)
		if ok != (tt.tok != "") || tok.raw != tt.tok {
			t.Errorf("firstToken(%.20q...) = %q, %v; want %q", tt.line, tok.raw, ok, tt.tok)
		}
	}
	alloc := allocated(func() {
		_, p := Read("pass\n"+long, felixLang())
		if p == nil || p.Kind != ProblemTooLong || p.Line != 2 {
			t.Errorf("problem %v, want line 2 too long", p)
		}
	})
	if alloc > 4*uint64(len(long)) {
		t.Errorf("reading a %d-byte line allocated %d bytes", len(long), alloc)
	}
}

func TestIsFooter(t *testing.T) {
	for line, want := range map[string]bool{
		"Von meinem iPhone gesendet": true, "von meinem Samsung Galaxy Smartphone gesendet.": true, "VON MEINEM handy GESENDET": true,
		"Von meinem iPhone": false, "von meinemgesendet": false, "Sent from my iPhone": true, "Get Outlook for Android": true,
		"Get Outlook forever": false, "bid 4": false, "Gesendet von meinem iPhone": true,
	} {
		if got := isFooter(line); got != want {
			t.Errorf("isFooter(%q) = %v, want %v", line, got, want)
		}
	}
}
