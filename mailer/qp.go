package mailer

import "bytes"

// qpLineMax is the longest line of quoted-printable, soft break
// included (RFC 2045, section 6.7).
const qpLineMax = 76

// qpEncoder writes quoted-printable into a buffer, byte for byte what
// mime/quotedprintable's Writer (not Binary) writes, which is what
// go-message used for pbem's parts: the same soft breaks at the same
// places, "=" and every byte that is neither printable ASCII nor a
// space or a tab encoded, CR, LF and CRLF each one hard break, and a
// space or a tab that ends a line encoded.
//
// It is pbem's own, rather than the standard library's, for speed
// alone (issue 40): that Writer handles a byte at a time and hands each
// line to the writer below it, and through go-message's writers
// quoted-printable was 60% of composing a mail. This one copies the
// runs of plain bytes, whole or up to the line's end, into the mail's
// buffer. TestQPEncoderIsTheStandardLibrarys holds it to the standard
// library's output on any bytes.
type qpEncoder struct {
	out *bytes.Buffer
	col int  // bytes written on the current line
	cr  bool // the last byte written was a CR, whose break a LF may complete
}

// qpClass is what the encoder does with a byte.
type qpClass uint8

const (
	qpPlain  qpClass = iota // printable ASCII but "=", a space, a tab: as it is
	qpBreak                 // CR or LF: a hard break
	qpEncode                // anything else: "=XX"
)

// qpClasses holds each byte's qpClass.
var qpClasses = func() (c [256]qpClass) {
	for b := range c {
		switch {
		case b >= '!' && b <= '~' && b != '=', b == ' ', b == '\t':
			c[b] = qpPlain
		case b == '\r', b == '\n':
			c[b] = qpBreak
		default:
			c[b] = qpEncode
		}
	}
	return c
}()

// writeString encodes s.
func (e *qpEncoder) writeString(s string) {
	for i := 0; i < len(s); {
		switch qpClasses[s[i]] {
		case qpPlain:
			j := i + 1
			for j < len(s) && qpClasses[s[j]] == qpPlain {
				j++
			}
			e.plain(s[i:j])
			i = j
		case qpBreak:
			e.lineBreak(s[i])
			i++
		default:
			e.encode(s[i])
			i++
		}
	}
}

// plain writes a run of plain bytes, breaking the line softly before a
// byte that would be its 76th.
func (e *qpEncoder) plain(run string) {
	for len(run) > 0 {
		if e.col == qpLineMax-1 {
			e.softBreak()
		}
		n := min(qpLineMax-1-e.col, len(run))
		e.out.WriteString(run[:n])
		e.col += n
		run = run[n:]
	}
	e.cr = false
}

// lineBreak writes the hard break of a CR or a LF: none for the LF of a
// CRLF, whose CR wrote it.
func (e *qpEncoder) lineBreak(b byte) {
	if e.cr && b == '\n' {
		e.cr = false
		return
	}
	e.cr = b == '\r'
	e.encodeLastSpace()
	e.out.WriteString("\r\n")
	e.col = 0
}

// encode writes b as "=XX", on the next line when fewer than three
// bytes are left on this one. It leaves cr as it was, as the standard
// library's Writer does.
func (e *qpEncoder) encode(b byte) {
	if qpLineMax-1-e.col < 3 {
		e.softBreak()
	}
	const upperhex = "0123456789ABCDEF"
	e.out.Write([]byte{'=', upperhex[b>>4], upperhex[b&0x0f]})
	e.col += 3
}

func (e *qpEncoder) softBreak() {
	e.out.WriteString("=\r\n")
	e.col = 0
}

// encodeLastSpace encodes the space or tab that ends the current line,
// which a mail system may strip.
func (e *qpEncoder) encodeLastSpace() {
	if e.col == 0 {
		return
	}
	last := e.out.Bytes()[e.out.Len()-1]
	if last != ' ' && last != '\t' {
		return
	}
	e.out.Truncate(e.out.Len() - 1)
	e.col--
	e.encode(last)
}

// close ends the encoding as the standard library's Close does.
func (e *qpEncoder) close() { e.encodeLastSpace() }
