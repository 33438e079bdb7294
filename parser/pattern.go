package parser

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"unicode/utf8"
)

// A linePattern is a regular expression tried on lines of a body, which
// never looks at more of a line than it can match.
//
// Go's expressions run in time linear in their input, but it is the
// whole input: an expression tested on every line of a mail is tested
// on 1 MB in all, and one as simple as the old separator rule
// (^-{2,}.{0,60}-{2,}$) spent about a millisecond on each 990-byte line
// of dashes, a second a mail. So a linePattern is anchored at the start
// of the line or at its end, its matches are no longer than a bound
// computed from the expression (so it may not repeat without an upper
// bound: write \s{0,8}, not \s*), and it is tried only on that many
// bytes of the line (and one character more, which a \b or $ at the
// match's edge looks at). The result is the same as the expression's on
// the whole line, and the cost is the same for a line of 100 bytes and
// one of 1 MB.
type linePattern struct {
	re      *regexp.Regexp
	maxLen  int  // the longest match, in bytes
	atStart bool // anchored at the line's start (^)
	atEnd   bool // anchored at the line's end ($)
}

// mustLinePattern compiles a linePattern. It panics, as regexp.MustCompile
// does, when the expression does not compile, when its matches have no
// upper bound, or when it is anchored neither at the start nor at the
// end: those are mistakes in pbem's code, found by any test.
func mustLinePattern(expr string) linePattern {
	re := regexp.MustCompile(expr)
	tree, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		panic(fmt.Sprintf("linePattern %q: %v", expr, err))
	}
	n, ok := maxMatchLen(tree)
	if !ok {
		panic(fmt.Sprintf("linePattern %q: its matches have no upper bound", expr))
	}
	p := linePattern{re: re, maxLen: n, atStart: anchored(tree, syntax.OpBeginText, true), atEnd: anchored(tree, syntax.OpEndText, false)}
	if !p.atStart && !p.atEnd {
		panic(fmt.Sprintf("linePattern %q: anchored neither at the start (^) nor at the end ($)", expr))
	}
	// The matcher tries only the start of the text when the compiled
	// program begins there; with a ^ in each alternative instead it
	// tries every position (ten times the cost on a short line).
	if prog, err := syntax.Compile(tree.Simplify()); err != nil || p.atStart && prog.StartCond()&syntax.EmptyBeginText == 0 {
		panic(fmt.Sprintf("linePattern %q: write one ^ before the alternatives, not one in each", expr))
	}
	return p
}

// match reports whether the pattern matches line, looking at no more of
// it than the pattern's longest match and one character.
func (p linePattern) match(line string) bool {
	if len(line) > p.maxLen && p.atStart && p.atEnd {
		return false // longer than any match of a whole line
	}
	return p.re.MatchString(p.window(line))
}

// find returns the pattern's leftmost match in line, "" for none; like
// match, it looks at no more of the line than the window.
func (p linePattern) find(line string) string {
	if len(line) > p.maxLen && p.atStart && p.atEnd {
		return ""
	}
	return p.re.FindString(p.window(line))
}

// window is the part of line the pattern is tried on.
func (p linePattern) window(line string) string {
	if len(line) <= p.maxLen {
		return line
	}
	if p.atStart {
		// Up to the first character boundary past maxLen bytes: every
		// character a match can touch, and the one after it.
		end := p.maxLen + 1
		for end < len(line) && !utf8.RuneStart(line[end]) {
			end++
		}
		return line[:end]
	}
	start := len(line) - p.maxLen - 1
	for start > 0 && !utf8.RuneStart(line[start]) {
		start--
	}
	return line[start:]
}

// maxMatchLen returns the most bytes a match of re can take, and false
// when there is no bound.
func maxMatchLen(re *syntax.Regexp) (int, bool) {
	switch re.Op {
	case syntax.OpNoMatch, syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine,
		syntax.OpBeginText, syntax.OpEndText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return 0, true
	case syntax.OpLiteral:
		n := 0
		for _, r := range re.Rune {
			if re.Flags&syntax.FoldCase != 0 {
				n += utf8.UTFMax // a folded letter may be longer (K, the Kelvin sign)
			} else {
				n += utf8.RuneLen(r)
			}
		}
		return n, true
	case syntax.OpCharClass:
		n := 1
		for i := 1; i < len(re.Rune); i += 2 {
			if l := utf8.RuneLen(re.Rune[i]); l > 0 {
				n = max(n, l)
			} else {
				n = utf8.UTFMax
			}
		}
		return n, true
	case syntax.OpAnyCharNotNL, syntax.OpAnyChar:
		return utf8.UTFMax, true
	case syntax.OpCapture, syntax.OpQuest:
		return maxMatchLen(re.Sub[0])
	case syntax.OpStar, syntax.OpPlus:
		return 0, false
	case syntax.OpRepeat:
		n, ok := maxMatchLen(re.Sub[0])
		if !ok || re.Max < 0 {
			return 0, false
		}
		return n * re.Max, true
	case syntax.OpConcat, syntax.OpAlternate:
		total := 0
		for _, sub := range re.Sub {
			n, ok := maxMatchLen(sub)
			if !ok {
				return 0, false
			}
			if re.Op == syntax.OpConcat {
				total += n
			} else {
				total = max(total, n)
			}
		}
		return total, true
	}
	return 0, false
}

// anchored reports whether every match of re begins (first) or ends
// (!first) with the assertion op.
func anchored(re *syntax.Regexp, op syntax.Op, first bool) bool {
	switch re.Op {
	case op:
		return true
	case syntax.OpCapture:
		return anchored(re.Sub[0], op, first)
	case syntax.OpConcat:
		if len(re.Sub) == 0 {
			return false
		}
		if first {
			return anchored(re.Sub[0], op, first)
		}
		return anchored(re.Sub[len(re.Sub)-1], op, first)
	case syntax.OpAlternate:
		for _, sub := range re.Sub {
			if !anchored(sub, op, first) {
				return false
			}
		}
		return true
	}
	return false
}
