package mailer

import (
	"bytes"
	"io"

	"github.com/wneessen/go-mail/smtp"
)

// crlf ends every line of a message as the wire format has it.
var crlf = []byte("\r\n")

// crlfLines says whether every line of raw ends in CRLF, with no bare CR
// or LF anywhere, the last line ended too. Then net/textproto's DATA
// writer (go-mail's), which dot-stuffs, turns bare LF into CRLF and ends
// an unended last line, only dot-stuffs it: it gives every line that
// begins with a dot one more, and adds the final ".\r\n". pbem's
// messages are built so (Compose writes CRLF and quoted-printable or
// base64 bodies); the check costs a few passes at memory speed over raw.
// A quoted-printable line of a 25 kB HTML part may well begin with a dot
// (a soft line break before a full stop), so stuffing is the common
// case, not the exception.
func crlfLines(raw []byte) bool {
	if len(raw) < len(crlf) || !bytes.HasSuffix(raw, crlf) {
		return false
	}
	lines := bytes.Count(raw, crlf)
	return bytes.Count(raw, []byte{'\r'}) == lines && bytes.Count(raw, []byte{'\n'}) == lines
}

// writeData writes raw, the message of a DATA command the server took,
// to w, go-mail's DATA writer on sc. The DATA writer copies one byte at
// a time through its dot-stuffing (3.5 % of pbem serve's CPU under load,
// docs/profiles.md). A message whose lines are crlfLines is stuffed here
// instead, in runs between the lines that begin with a dot, and all of it
// but its last CRLF goes to the connection's buffered writer. The last
// CRLF goes through w, which leaves w where raw would have left it (at
// the start of a line), so that w's Close ends the data with ".\r\n",
// flushes and reads the reply as always. The bytes on the wire are the
// same either way.
func writeData(sc *smtp.Client, w io.Writer, raw []byte) error {
	if sc.Text == nil || !crlfLines(raw) {
		_, err := w.Write(raw)
		return err
	}
	if err := writeStuffed(sc.Text.W, raw[:len(raw)-len(crlf)]); err != nil {
		return err
	}
	_, err := w.Write(crlf)
	return err
}

// writeStuffed writes body, which begins at the start of a line and
// whose line ends are all CRLF, to out with one more dot at the start of
// every line that begins with one (RFC 5321, section 4.5.2). With CRLF
// line ends only, a line begins exactly where body begins and after
// every LF.
func writeStuffed(out io.Writer, body []byte) error {
	dot := []byte{'.'}
	for len(body) > 0 {
		if body[0] == '.' {
			if _, err := out.Write(dot); err != nil {
				return err
			}
		}
		// The next line that begins with a dot, past this line's start.
		i := bytes.Index(body, []byte("\n."))
		if i < 0 {
			_, err := out.Write(body)
			return err
		}
		if _, err := out.Write(body[:i+1]); err != nil {
			return err
		}
		body = body[i+1:]
	}
	return nil
}
