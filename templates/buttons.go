package templates

import (
	"fmt"
	htmltemplate "html/template"
	"io"
	"strings"
)

// The commands of the HTML part, as Go rather than templates: a command
// to copy (a code box) and a command offered (a button that writes the
// reply). A mail draws a dozen of them, and as templates each one was
// about ten calls through reflect, for the template and for each of
// html/template's escapers: with the footer and the options, a third of
// what the HTML part cost (issue 40). They write what the templates
// wrote, byte for byte, escaped as html/template escapes the same value
// in the same place (TestButtonsAreTheTemplates compares them with the
// templates they replace).

// htmlOut is where the HTML is written: a strings.Builder for a
// function's value, or the buffer of a whole part.
type htmlOut interface {
	io.StringWriter
	io.ByteWriter
}

// codeStyle, nowrapStyle and tapStyle are the boxes' inline styles:
// mail programs drop a <style>, so every box carries its own. The
// classes let the page's <style> override them in dark mode.
const (
	codeStyle   = "display:inline-block;margin:2px 0;padding:2px 7px;font-family:Menlo,Consolas,'DejaVu Sans Mono',monospace;font-size:14px;line-height:1.5;color:#1f2328;background:#f1f3f5;border:1px solid #d5d9de;border-radius:4px;white-space:normal;overflow-wrap:anywhere;word-break:break-word;-webkit-user-select:all;user-select:all;"
	nowrapStyle = "display:inline-block;margin:2px 0;padding:2px 7px;font-family:Menlo,Consolas,'DejaVu Sans Mono',monospace;font-size:14px;line-height:1.5;color:#1f2328;background:#f1f3f5;border:1px solid #d5d9de;border-radius:4px;white-space:nowrap;-webkit-user-select:all;user-select:all;"
	// A tap is at least 44px high, Apple's smallest touch target, and
	// its text is the command itself.
	tapStyle = "display:inline-block;box-sizing:border-box;min-width:44px;min-height:44px;margin:3px 0;padding:10px 14px;font-family:Menlo,Consolas,'DejaVu Sans Mono',monospace;font-size:15px;line-height:22px;text-align:center;color:#0b3d75;background:#e6f0fb;border:1px solid #8fb6e3;border-radius:8px;text-decoration:none;white-space:normal;overflow-wrap:anywhere;word-break:break-word;"
	// prefixStyle is the words an option line's buttons share ("play"),
	// in the buttons' font.
	prefixStyle = "display:inline-block;min-width:44px;padding:0 6px 0 0;font-family:Menlo,Consolas,'DejaVu Sans Mono',monospace;font-size:15px;"
)

// writeCode writes a command to copy: tapping it selects it whole.
func writeCode(b htmlOut, cmd any) {
	b.WriteString(`<code class="pb-code" style="` + codeStyle + `">`)
	writeText(b, cmd)
	b.WriteString("</code>")
}

// writeNowrap writes a short command to copy that must stay on one line.
func writeNowrap(b htmlOut, cmd any) {
	b.WriteString(`<code class="pb-code" style="` + nowrapStyle + `">`)
	writeText(b, cmd)
	b.WriteString("</code>")
}

// writeOption writes a command offered: a button when the mail has a
// reply address, else the command to copy.
func writeOption(b htmlOut, l link) {
	if l.URL == "" {
		writeCode(b, l.Label)
		return
	}
	b.WriteString(`<a class="pb-tap" href="`)
	writeURLAttr(b, l.URL)
	b.WriteString(`" style="` + tapStyle + `">`)
	writeText(b, l.Label)
	b.WriteString("</a>")
}

// writeText writes v as html/template writes a value in HTML text:
// escaped, but for HTML, which goes in as it is.
func writeText(b htmlOut, v any) {
	switch v := v.(type) {
	case string:
		writeEscaped(b, v)
	case htmltemplate.HTML:
		b.WriteString(string(v))
	default:
		writeEscaped(b, fmt.Sprint(v))
	}
}

// writeEscaped writes s escaped as escapeText escapes it, without
// making the escaped string first.
func writeEscaped(b htmlOut, s string) {
	last := 0
	for i := 0; i < len(s); i++ {
		var esc string
		switch s[i] {
		case '"':
			esc = "&#34;"
		case '\'':
			esc = "&#39;"
		case '&':
			esc = "&amp;"
		case '<':
			esc = "&lt;"
		case '>':
			esc = "&gt;"
		case '+':
			esc = "&#43;"
		case 0:
			esc = "\uFFFD"
		default:
			continue
		}
		b.WriteString(s[last:i])
		b.WriteString(esc)
		last = i + 1
	}
	b.WriteString(s[last:])
}

// writeURLAttr writes a URL as the value of a double-quoted attribute,
// as html/template does: a URL of another scheme than http, https or
// mailto is replaced by its "#ZgotmplZ" (it could run a script), the
// bytes a URL may not hold are percent-encoded, and the rest is escaped
// for the attribute (html/template's urlFilter, urlNormalizer and
// attrEscaper).
func writeURLAttr(b htmlOut, u string) {
	if !safeURL(u) {
		b.WriteString("#ZgotmplZ")
		return
	}
	last := 0 // u[last:i] is kept as it is, and written in one piece
	for i := 0; i < len(u); i++ {
		c := u[i]
		if c != '&' && c != '+' && (urlKeeps(c) || c == '%' && i+2 < len(u) && isHex(u[i+1]) && isHex(u[i+2])) {
			continue
		}
		b.WriteString(u[last:i])
		last = i + 1
		switch c {
		case '&':
			b.WriteString("&amp;")
		case '+':
			b.WriteString("&#43;")
		default:
			const hex = "0123456789abcdef" // lower case, as html/template writes it
			b.WriteString(string([]byte{'%', hex[c>>4], hex[c&15]}))
		}
	}
	b.WriteString(u[last:])
}

// urlKeeps reports whether html/template's URL normalizer keeps c as it
// is: RFC 3986's reserved and unreserved characters. A quote and the
// parentheses are encoded, and so is a "%" that starts no escape.
func urlKeeps(c byte) bool { return urlKept[c] }

// urlKept is urlKeeps by byte: a URL's every byte is looked up.
var urlKept = func() (t [256]bool) {
	for c := 0; c < 256; c++ {
		t[c] = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
			strings.IndexByte("!#$&*+,/:;=?@[]-._~", byte(c)) >= 0
	}
	return t
}()

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// safeURL reports whether a URL's scheme, if it has one, is http, https
// or mailto: html/template's isSafeURL.
func safeURL(u string) bool {
	i := strings.IndexByte(u, ':')
	if i < 0 || strings.IndexByte(u[:i], '/') >= 0 {
		return true // no scheme: a relative URL
	}
	scheme := u[:i]
	return strings.EqualFold(scheme, "http") || strings.EqualFold(scheme, "https") || strings.EqualFold(scheme, "mailto")
}

// buttonFuncs are the template functions that draw commands in the HTML
// part, each an argument of a message or a piece of a line: code and
// nowrap a command to copy, option a command offered (a link, from
// $.Link); button is option's older name, which the messages use
// ({{T "Reply %s to play." (button ($.Link "join"))}}).
func buttonFuncs() htmltemplate.FuncMap {
	return htmltemplate.FuncMap{
		"code":   codeHTML,
		"nowrap": nowrapHTML,
		"option": optionHTML,
		"button": optionHTML,
	}
}

// codeHTML, nowrapHTML and optionHTML are writeCode, writeNowrap and
// writeOption as a value: a message's argument, a template's function.
func codeHTML(cmd any) htmltemplate.HTML {
	var b strings.Builder
	writeCode(&b, cmd)
	return htmltemplate.HTML(b.String())
}

func nowrapHTML(cmd any) htmltemplate.HTML {
	var b strings.Builder
	writeNowrap(&b, cmd)
	return htmltemplate.HTML(b.String())
}

func optionHTML(l link) htmltemplate.HTML {
	var b strings.Builder
	writeOption(&b, l)
	return htmltemplate.HTML(b.String())
}

// linker makes the links of a mail's commands: its data's Link and
// LinkAs (gameData, noticeData).
type linker interface {
	Link(cmd string) link
	LinkAs(prefix, value string) link
}

// optionsHTML is the reader's options, one line per kind of move (as
// optionLines lays them out), each command a button when the mail has a
// reply address: a pattern with a real example ("bid up to N, e.g. bid
// up to 9"), the words the commands share and a button for each value
// ("play" -8 3 rabbit), or one command.
func (e Words) optionsHTML(lines []optionLine, links linker) htmltemplate.HTML {
	var b strings.Builder
	e.writeOptionsHTML(&b, lines, links)
	return htmltemplate.HTML(b.String())
}

// writeOptionsHTML writes optionsHTML into b: a game mail's part, where
// its 5-10 kB of buttons and links are written once rather than built
// in a string of their own first (issue 40).
func (e Words) writeOptionsHTML(b htmlOut, lines []optionLine, links linker) {
	for _, l := range lines {
		b.WriteString(`<div style="margin:0 0 2px;">`)
		switch {
		case l.Usage != "":
			var code, example strings.Builder
			writeCode(&code, l.Usage)
			writeOption(&example, links.Link(l.Commands[0]))
			b.WriteString(string(e.htmlT("%s, e.g. %s", htmltemplate.HTML(code.String()), htmltemplate.HTML(example.String()))))
		case l.Prefix != "":
			b.WriteString(`<span style="` + prefixStyle + `">`)
			writeText(b, l.Prefix)
			b.WriteString("</span> ")
			for _, v := range l.Values {
				writeOption(b, links.LinkAs(l.Prefix, v))
				b.WriteByte(' ')
			}
		default:
			writeOption(b, links.Link(l.Commands[0]))
		}
		b.WriteString("</div>\n")
	}
}
