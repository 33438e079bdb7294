package parser

import (
	"errors"
	"fmt"
)

// The limits Extract applies when the matching ExtractOptions field is
// zero. They are far above what mail clients write (a reply nests
// multiparts 3 to 5 deep, has a handful of parts and well under 200
// header fields, the longest of them a References field of a few KB) and
// far below what makes the MIME parser slow: its cost grows with the
// square of the nesting depth and with the number of parts and fields.
const (
	// DefaultMaxDepth bounds the nesting of multiparts. A forward of a
	// forward of a signed reply nests about 8 deep.
	DefaultMaxDepth int = 20
	// DefaultMaxParts bounds the parts of a message, multiparts
	// included. A newsletter with every picture inline has about 100.
	DefaultMaxParts int = 500
	// DefaultMaxHeaderFields bounds the header fields of the message and
	// of all its parts together. A mail that crossed Exchange and a few
	// relays has about 150 at the top and 3 to 5 in each part.
	DefaultMaxHeaderFields int = 1000
	// DefaultMaxFieldBytes bounds one header field, its folded lines
	// together. The longest real fields are References of long threads
	// and ARC/DKIM signatures: a few KB.
	DefaultMaxFieldBytes int = 32 << 10
	// DefaultMaxTextBytes bounds the decoded body text that is
	// normalised and cut; the rest is dropped. It is the size limit
	// itself: a 1 MB mail of text is read whole.
	DefaultMaxTextBytes int = 1 << 20
	// DefaultMaxHTMLNodes bounds the elements, text and comments of an
	// HTML body that is turned into a tree; a long HTML newsletter has
	// about 10,000. A body with more is read as a flat stream of text.
	DefaultMaxHTMLNodes int = 100_000
	// DefaultMaxHTMLDepth bounds how deeply the elements of an HTML body
	// may nest before it is read as a flat stream of text; Outlook's
	// nested quotes of a long thread reach about 100. It is also the
	// most ExtractOptions.MaxHTMLDepth can be: the HTML parser
	// (golang.org/x/net/html) refuses a document with more than
	// htmlParserDepth open elements, and html and body are two of them.
	DefaultMaxHTMLDepth int = htmlParserDepth - 12
)

// htmlParserDepth is how many open elements html.Parse accepts: it
// fails on a deeper document ("open stack of elements exceeds 512
// nodes"). A body it refuses is read flat, whatever pbem's own limit
// (table, row and cell elements, which htmlShape does not count, are on
// its stack too).
const htmlParserDepth = 512

// ErrHostile is matched (errors.Is) by the error Extract returns for a
// message whose shape goes beyond a limit of ExtractOptions before it is
// parsed: too deep, too many parts or header fields, a header field too
// long. No mail client writes such a message; the daemon records it as
// refused. The error is a *HostileError, which says which limit.
var ErrHostile = errors.New("hostile message")

// Limit names a limit of ExtractOptions that a message went beyond.
type Limit string

// The limits a HostileError names.
const (
	LimitDepth        Limit = "nesting depth"
	LimitParts        Limit = "parts"
	LimitHeaderFields Limit = "header fields"
	LimitFieldBytes   Limit = "header field length"
)

// HostileError is the error for a message refused by the pre-scan.
type HostileError struct {
	Limit Limit // which limit the message went beyond
	Max   int   // the limit's value
	Line  int   // the raw line (from 1) where it went beyond it
}

func (e *HostileError) Error() string {
	return fmt.Sprintf("%v: more than %d %s (line %d)", ErrHostile, e.Max, e.Limit, e.Line)
}

// Is makes errors.Is(err, ErrHostile) true for every HostileError.
func (e *HostileError) Is(target error) bool { return target == ErrHostile }

// limits are the options' limits with the defaults filled in.
type limits struct {
	depth, parts, fields, fieldBytes int
	textBytes, htmlNodes, htmlDepth  int
}

func (o ExtractOptions) limits() limits {
	or := func(v, def int) int {
		if v <= 0 {
			return def
		}
		return v
	}
	return limits{
		depth:      or(o.MaxDepth, DefaultMaxDepth),
		parts:      or(o.MaxParts, DefaultMaxParts),
		fields:     or(o.MaxHeaderFields, DefaultMaxHeaderFields),
		fieldBytes: or(o.MaxFieldBytes, DefaultMaxFieldBytes),
		textBytes:  or(o.MaxTextBytes, DefaultMaxTextBytes),
		htmlNodes:  or(o.MaxHTMLNodes, DefaultMaxHTMLNodes),
		htmlDepth:  min(or(o.MaxHTMLDepth, DefaultMaxHTMLDepth), DefaultMaxHTMLDepth),
	}
}
