package parser

import (
	"bytes"
	"strings"

	"github.com/jhillyerd/enmime/v2/mediatype"
)

// prescan is one linear pass over the raw message, fed as it is read,
// that refuses a message the MIME parser would take too long over. The
// parser reads the whole tree before anything can look at it, and its
// cost grows with the square of the nesting depth (each byte passes
// through a reader per level): 14,000 levels in 1 MB took minutes. The
// pre-scan follows the structure the way the parser will (header blocks,
// the Content-Type boundary of each, delimiter lines of the open
// multiparts) and stops at the first line beyond a limit, without
// reading further.
//
// Where the parser is lenient in ways the scan does not follow, the scan
// errs on the side of counting more: any boundary parameter opens a
// level (the parser opens one for most), and delimiters are looked for
// in header blocks too.
type prescan struct {
	lim     limits
	stack   [][]byte // "--" + boundary of each open multipart, innermost last
	header  bool     // in a header block, the message's or a part's
	top     bool     // in the message's own header
	parts   int      // MIME entities so far, the message itself included
	fields  int      // header fields so far, all blocks together
	field   int      // bytes of the current header field, folded lines together
	ctype   []byte   // the current block's first Content-Type value, unfolded
	inCType bool     // the current field is that Content-Type
	sawCT   bool     // the current block had a Content-Type
	line    []byte   // the start of the current line, up to keep bytes
	lineLen int      // the current line's length so far
	lineNo  int      // lines ended so far
	keep    int      // how much of a line to keep: enough for any field
	offset  int      // bytes fed so far
	// headerEnd is the offset just past the message's own header (its
	// empty line included), 0 until the scan has passed it.
	headerEnd int
	// work counts the bytes the scan looked at: each byte fed once, and
	// the bytes compared with boundaries. Tests check that it stays
	// linear in the message's size.
	work int
	err  error
}

func newPrescan(lim limits) *prescan {
	return &prescan{lim: lim, header: true, top: true, parts: 1, keep: lim.fieldBytes + 2}
}

// Write scans p as the next bytes of the message. It fails with a
// *HostileError at the first limit passed, and from then on.
func (s *prescan) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		chunk := p
		if i >= 0 {
			chunk = p[:i]
		}
		s.add(chunk)
		s.offset += len(chunk)
		if i < 0 {
			break
		}
		s.offset++ // the '\n'
		s.work++
		s.endLine()
		if s.err != nil {
			return 0, s.err
		}
		p = p[i+1:]
	}
	// A header line is refused as soon as it is too long, before the
	// rest of it is read.
	if s.header && s.lineLen > s.lim.fieldBytes {
		s.fail(LimitFieldBytes, s.lim.fieldBytes, s.lineNo+1)
		return 0, s.err
	}
	return n, nil
}

// Close scans the last line, if the message does not end with one.
func (s *prescan) Close() error {
	if s.err == nil && s.lineLen > 0 {
		s.endLine()
	}
	return s.err
}

func (s *prescan) add(chunk []byte) {
	s.work += len(chunk)
	s.lineLen += len(chunk)
	if room := s.keep - len(s.line); room > 0 {
		s.line = append(s.line, chunk[:min(room, len(chunk))]...)
	}
}

func (s *prescan) fail(l Limit, max, line int) {
	if s.err == nil {
		s.err = &HostileError{Limit: l, Max: max, Line: line}
	}
}

// endLine looks at a whole line: a delimiter of an open multipart, a
// header field, or body text.
func (s *prescan) endLine() {
	s.lineNo++
	line, n := s.line, s.lineLen
	if n > 0 && len(line) == n && line[n-1] == '\r' {
		line, n = line[:n-1], n-1
	}
	defer func() { s.line, s.lineLen = s.line[:0], 0 }()
	if s.delimiter(line) {
		return
	}
	if !s.header {
		return
	}
	switch {
	case n == 0:
		s.endHeader()
	case line[0] == ' ' || line[0] == '\t':
		// A folded line continues the field.
		s.field += n
		if s.inCType {
			s.ctype = append(s.ctype, line...)
		}
	default:
		s.fields++
		if s.fields > s.lim.fields {
			s.fail(LimitHeaderFields, s.lim.fields, s.lineNo)
			return
		}
		s.field = n
		s.inCType = false
		if name, value, ok := bytes.Cut(line, []byte(":")); ok && !s.sawCT &&
			strings.EqualFold(string(bytes.TrimSpace(name)), "content-type") {
			s.inCType, s.sawCT = true, true
			s.ctype = append(s.ctype[:0], value...)
		}
	}
	if s.field > s.lim.fieldBytes {
		s.fail(LimitFieldBytes, s.lim.fieldBytes, s.lineNo)
	}
}

// delimiter handles a line that starts or ends a part of an open
// multipart. A delimiter of an outer multipart also ends the inner ones,
// as it does for the parser (each level reads through its parent's).
func (s *prescan) delimiter(line []byte) bool {
	if len(s.stack) == 0 || !bytes.HasPrefix(line, []byte("--")) {
		return false
	}
	for i := len(s.stack) - 1; i >= 0; i-- {
		b := s.stack[i]
		s.work += min(len(b), len(line))
		if !bytes.HasPrefix(line, b) {
			continue
		}
		rest := line[len(b):]
		switch {
		case bytes.HasPrefix(rest, []byte("--")):
			// The close delimiter: the multipart's epilogue follows.
			s.stack = s.stack[:i]
			s.header = false
			return true
		case len(rest) == 0 || rest[0] == ' ' || rest[0] == '\t':
			s.stack = s.stack[:i+1]
			s.parts++
			if s.parts > s.lim.parts {
				s.fail(LimitParts, s.lim.parts, s.lineNo)
			}
			s.startHeader()
			return true
		}
	}
	return false
}

func (s *prescan) startHeader() {
	s.header, s.top = true, false
	s.field, s.inCType, s.sawCT = 0, false, false
	s.ctype = s.ctype[:0]
}

// endHeader opens a multipart level if the block's Content-Type has a
// boundary. It reads the type with the parser's own lenient reader, so
// that the two agree on which boundary that is.
func (s *prescan) endHeader() {
	s.header = false
	if s.top {
		s.headerEnd = s.offset
		s.top = false
	}
	if !s.sawCT {
		return
	}
	_, params, _, err := mediatype.Parse(strings.TrimSpace(string(s.ctype)))
	if err != nil || params["boundary"] == "" {
		return
	}
	if len(s.stack) >= s.lim.depth {
		s.fail(LimitDepth, s.lim.depth, s.lineNo)
		return
	}
	s.stack = append(s.stack, []byte("--"+params["boundary"]))
}
