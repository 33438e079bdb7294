package mailer

import (
	"bytes"
	"io"

	"github.com/wneessen/go-mail/smtp"
)

// crlf ends every line of a message as the wire format has it.
var crlf = []byte("\r\n")

// wireReady says whether raw goes on the wire after DATA unchanged: every
// line ends in CRLF, with no bare CR or LF anywhere, and none begins
// with a dot. Then the DATA writer of net/textproto (go-mail's), which
// dot-stuffs, turns bare LF into CRLF and ends an unended last line,
// would write raw byte for byte as it is, and only add the final
// ".\r\n". pbem's messages are built so (Compose writes CRLF and
// quoted-printable or base64 bodies, whose lines do not begin with a
// dot); the check costs a few passes at memory speed over raw.
func wireReady(raw []byte) bool {
	n := len(raw)
	if n < len(crlf) || raw[0] == '.' || !bytes.HasSuffix(raw, crlf) || bytes.Contains(raw, []byte("\n.")) {
		return false
	}
	lines := bytes.Count(raw, crlf)
	return bytes.Count(raw, []byte{'\r'}) == lines && bytes.Count(raw, []byte{'\n'}) == lines
}

// writeData writes raw, the message of a DATA command the server took,
// to w, go-mail's DATA writer on sc. The DATA writer copies one byte at
// a time through its dot-stuffing; a message that is wireReady needs no
// stuffing, and all of it but its last CRLF goes to the connection's
// buffered writer in one Write (one system call for a mail of any size,
// the buffer being empty after the DATA command). The last CRLF goes
// through w, which leaves w where raw would have left it, so that w's
// Close ends the data with ".\r\n", flushes and reads the reply as
// always. The bytes on the wire are the same either way.
func writeData(sc *smtp.Client, w io.Writer, raw []byte) error {
	if sc.Text == nil || !wireReady(raw) {
		_, err := w.Write(raw)
		return err
	}
	body := raw[:len(raw)-len(crlf)]
	if _, err := sc.Text.W.Write(body); err != nil {
		return err
	}
	_, err := w.Write(crlf)
	return err
}
