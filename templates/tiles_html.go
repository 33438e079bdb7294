package templates

import (
	"bytes"
	htmltemplate "html/template"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/pbem/pbem/engine"
)

// A card's tile and chip (page.tmpl's tile.fresh and chip.fresh) are Go,
// as the page is (issue 40): a tile is drawn once for every mail that
// draws the same (fragments.go), and when it is not kept yet it was a
// template's calls through reflect, and html/template's filter and
// escaper for each colour. They write what the templates wrote, byte
// for byte, each value escaped as html/template escaped it in its place
// (TestTilesAreTheTemplates compares them with the templates they
// replace).

// tileStyle is a tile's box up to its border's style; hatching is the
// stripes of a face-down card.
const (
	tileStyle = `<span style="display:inline-block;vertical-align:middle;min-width:30px;margin:2px 1px;padding:4px 7px;border-radius:6px;text-align:center;font-size:15px;font-weight:bold;line-height:1.2;white-space:nowrap;border:2px `
	hatching  = `background-image:repeating-linear-gradient(135deg,rgba(255,255,255,0.13) 0,rgba(255,255,255,0.13) 4px,rgba(0,0,0,0) 4px,rgba(0,0,0,0) 9px);`
	chipStyle = `<span style="display:inline-block;vertical-align:middle;margin:1px 0;padding:1px 5px;border-radius:4px;font-size:12px;font-weight:bold;line-height:1.35;white-space:nowrap;border:1px solid `
)

// writeTile writes a card's tile: a box in its colours that always says
// what it is, dashed for an empty place, striped for a face-down card,
// with its second line below when it has one.
func writeTile(b htmlOut, t engine.Tile) {
	b.WriteString(tileStyle)
	if t.Dashed {
		b.WriteString("dashed ")
	} else {
		b.WriteString("solid ")
	}
	writeCSSValue(b, t.Border)
	b.WriteString(";background-color:")
	writeCSSValue(b, t.Bg)
	b.WriteByte(';')
	if t.Hatched {
		b.WriteString(hatching)
	}
	b.WriteString("color:")
	writeCSSValue(b, t.Fg)
	b.WriteString(`;"`)
	if t.Dashed {
		b.WriteString(` class="pb-empty"`)
	}
	b.WriteByte('>')
	writeEscaped(b, t.Label)
	if t.Sub != "" {
		b.WriteString(` <span style="display:block;font-size:10px;font-weight:normal;line-height:1.2;">`)
		writeEscaped(b, t.Sub)
		b.WriteString("</span>")
	}
	b.WriteString("</span>")
}

// writeChip writes a card's chip: a small tile, for lists of won or
// counted cards.
func writeChip(b htmlOut, t engine.Tile) {
	b.WriteString(chipStyle)
	writeCSSValue(b, t.Border)
	b.WriteString(";background-color:")
	writeCSSValue(b, t.Bg)
	b.WriteString(";color:")
	writeCSSValue(b, t.Fg)
	b.WriteString(`;">`)
	writeEscaped(b, t.Label)
	b.WriteString("</span>")
}

// tileHTML and chipHTML are writeTile and writeChip as a value: the
// fragments tile.fresh and chip.fresh (goFragments).
func tileHTML(t engine.Tile) htmltemplate.HTML {
	var b strings.Builder
	writeTile(&b, t)
	return htmltemplate.HTML(b.String())
}

func chipHTML(t engine.Tile) htmltemplate.HTML {
	var b strings.Builder
	writeChip(&b, t)
	return htmltemplate.HTML(b.String())
}

// unsafeCSS is what html/template writes for a value it will not put in
// a style: its filterFailsafe.
const unsafeCSS = "ZgotmplZ"

// writeCSSValue writes s as a value of a declaration in a style
// attribute, as html/template does (its cssValueFilter, then its
// attrEscaper): its CSS escapes decoded; replaced by unsafeCSS when it
// could end the declaration or the attribute, open a comment, or run
// an expression or a binding; and escaped for the attribute. A tile's
// colours are a game's constants, but a value is never trusted here.
func writeCSSValue(b htmlOut, s string) {
	v := decodeCSS(s)
	if !safeCSSValue(v) {
		b.WriteString(unsafeCSS)
		return
	}
	writeEscaped(b, v)
}

// safeCSSValue reports whether a decoded value may stand in a
// declaration: html/template's cssValueFilter's test.
func safeCSSValue(v string) bool {
	var id []byte // the value's ASCII name characters, for the words below
	for i := 0; i < len(v); i++ {
		switch c := v[i]; c {
		case 0, '"', '\'', '(', ')', '/', ';', '@', '[', '\\', ']', '`', '{', '}', '<', '>':
			return false
		case '-':
			if i != 0 && v[i-1] == '-' {
				return false // "--" of a comment's "<!--" or "-->"
			}
		default:
			if c < utf8.RuneSelf && isCSSNameChar(c) {
				id = append(id, c)
			}
		}
	}
	id = bytes.ToLower(id)
	return !bytes.Contains(id, []byte("expression")) && !bytes.Contains(id, []byte("mozbinding"))
}

// isCSSNameChar reports whether an ASCII c is a CSS name's character
// ("-" aside, which safeCSSValue tests itself).
func isCSSNameChar(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_'
}

// decodeCSS decodes the CSS escapes in s as html/template's decodeCSS
// does: "\" and one to six hex digits, then an optional white space, is
// that code point; "\" and any other character is the character; a "\"
// at the end is dropped.
func decodeCSS(s string) string {
	i := strings.IndexByte(s, '\\')
	if i < 0 {
		return s // a tile's colour: no escapes, nothing to make
	}
	b := make([]byte, 0, len(s))
	for len(s) != 0 {
		i := strings.IndexByte(s, '\\')
		if i < 0 {
			i = len(s)
		}
		b, s = append(b, s[:i]...), s[i:]
		if len(s) < 2 {
			break
		}
		if !isHex(s[1]) {
			_, n := utf8.DecodeRuneInString(s[1:])
			b, s = append(b, s[1:1+n]...), s[1+n:]
			continue
		}
		j := 2
		for j < len(s) && j < 7 && isHex(s[j]) {
			j++
		}
		r := hexRune(s[1:j])
		if r > unicode.MaxRune {
			r, j = r/16, j-1 // the last digit is the text's, not the escape's
		}
		b, s = utf8.AppendRune(b, r), skipCSSSpace(s[j:])
	}
	return string(b)
}

// hexRune is the code point hex digits write.
func hexRune(hex string) rune {
	var r rune
	for i := 0; i < len(hex); i++ {
		c := hex[i]
		r <<= 4
		switch {
		case '0' <= c && c <= '9':
			r |= rune(c - '0')
		case 'a' <= c && c <= 'f':
			r |= rune(c-'a') + 10
		default:
			r |= rune(c-'A') + 10
		}
	}
	return r
}

// skipCSSSpace drops the one white space that may end a CSS escape: a
// tab, a line feed, a form feed, a space, a carriage return, or a
// carriage return and a line feed.
func skipCSSSpace(s string) string {
	switch {
	case strings.HasPrefix(s, "\r\n"):
		return s[2:]
	case s != "" && strings.IndexByte("\t\n\f \r", s[0]) >= 0:
		return s[1:]
	}
	return s
}
