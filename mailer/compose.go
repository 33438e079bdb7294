package mailer

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/emersion/go-message/mail"
)

// Envelope is the header of a mail to compose.
type Envelope struct {
	FromName   string // display name, e.g. "pbem"
	From       string // bare address
	To         string // bare address
	ReplyTo    string // bare address; empty for none
	Subject    string
	MessageID  string   // without angle brackets; required, so a resend is recognisable
	InReplyTo  string   // without angle brackets; empty for none
	References []string // without angle brackets, oldest first
	Date       time.Time
	// ListUnsubscribe is a mailto: URI (RFC 2369, RFC 6068) that stops
	// such mail, written as the List-Unsubscribe field; empty for none.
	// Mail clients offer it as a one-click "unsubscribe" that sends a
	// mail to it, which pbem reads like the typed command. Only mailto:
	// is accepted here; the web address is OneClickUnsubscribe.
	ListUnsubscribe string
	// OneClickUnsubscribe is an http(s) URL that does what the mailto:
	// does when POSTed to (RFC 8058), or empty. When set beside
	// ListUnsubscribe, List-Unsubscribe names both, the URL first, and
	// List-Unsubscribe-Post says that a POST of
	// "List-Unsubscribe=One-Click" to it is enough. Both fields are among
	// those DKIM signs (dkimHeaders), as RFC 8058 requires.
	OneClickUnsubscribe string
}

// Compose builds a whole RFC 5322 message: plain text alone, or
// multipart/alternative with the plain text first when html is not empty.
// The text is sent as format=flowed (see textPlain).
// Every mail carries Auto-Submitted: auto-generated, so that well-behaved
// auto-responders stay silent, and asks Outlook for the same.
func Compose(e Envelope, text, html string) ([]byte, error) {
	if e.From == "" || e.To == "" || e.MessageID == "" {
		return nil, errors.New("mailer: compose: From, To and MessageID are required")
	}
	var h mail.Header
	h.SetDate(e.Date)
	h.SetAddressList("From", []*mail.Address{{Name: e.FromName, Address: e.From}})
	h.SetAddressList("To", []*mail.Address{{Address: e.To}})
	if e.ReplyTo != "" {
		h.SetAddressList("Reply-To", []*mail.Address{{Name: e.FromName, Address: e.ReplyTo}})
	}
	h.SetSubject(e.Subject)
	h.SetMessageID(e.MessageID)
	if e.InReplyTo != "" {
		h.SetMsgIDList("In-Reply-To", []string{e.InReplyTo})
	}
	if len(e.References) > 0 {
		h.SetMsgIDList("References", e.References)
	}
	if err := setListUnsubscribe(&h, e); err != nil {
		return nil, err
	}
	h.Set("Auto-Submitted", "auto-generated")
	h.Set("X-Auto-Response-Suppress", "All")

	text = spaceStuff(text)
	var buf bytes.Buffer
	// Room for the whole mail at once: the header, and the parts as
	// quoted-printable makes them, a little longer ("=3D" for each "=" of
	// the HTML's attributes, a soft break every 76 characters).
	buf.Grow(composeHeaderRoom + len(text) + len(html) + len(html)/4)
	if html == "" {
		h.Set("Content-Type", textPlain)
		w, err := mail.CreateSingleInlineWriter(&buf, h)
		if err != nil {
			return nil, fmt.Errorf("mailer: compose: %w", err)
		}
		if err := writeClose(w, text, make([]byte, composeChunk)); err != nil {
			return nil, err
		}
		return buf.Bytes(), nil
	}
	iw, err := mail.CreateInlineWriter(&buf, h)
	if err != nil {
		return nil, fmt.Errorf("mailer: compose: %w", err)
	}
	chunk := make([]byte, composeChunk)
	for _, part := range []struct{ typ, body string }{{textPlain, text}, {"text/html; charset=utf-8", html}} {
		var ph mail.InlineHeader
		ph.Set("Content-Type", part.typ)
		pw, err := iw.CreatePart(ph)
		if err != nil {
			return nil, fmt.Errorf("mailer: compose: %w", err)
		}
		if err := writeClose(pw, part.body, chunk); err != nil {
			return nil, err
		}
	}
	if err := iw.Close(); err != nil {
		return nil, fmt.Errorf("mailer: compose: %w", err)
	}
	return buf.Bytes(), nil
}

// textPlain is the text part's type. The text is format=flowed (RFC
// 3676): the renderer ends a line it wrapped with a space (a soft break),
// so that a phone's mail program puts the paragraph together again and
// fits it to its screen, while a terminal shows the lines as written. A
// line without a trailing space is a hard break, as every line of a
// text that was not wrapped is; "-- " is the signature separator, never
// a soft break. delsp=no: the space is part of the text.
const textPlain = "text/plain; charset=utf-8; format=flowed; delsp=no"

// spaceStuff adds a space before each line that begins with a space,
// ">" or "From " (RFC 3676, section 4.4), so that a flowed reader takes
// none of them for a quote, and a reader that removes the one space it
// added keeps the line's own indentation.
func spaceStuff(text string) string {
	if !needsStuffing(text) {
		return text // most texts: no copy
	}
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, " ") || strings.HasPrefix(l, ">") || strings.HasPrefix(l, "From ") {
			lines[i] = " " + l
		}
	}
	return strings.Join(lines, "\n")
}

// needsStuffing reports whether a line of text begins with what
// spaceStuff stuffs.
func needsStuffing(text string) bool {
	for _, start := range []string{" ", ">", "From "} {
		if strings.HasPrefix(text, start) || strings.Contains(text, "\n"+start) {
			return true
		}
	}
	return false
}

// composeChunk is the size of the pieces a part's body is written in.
const composeChunk = 4096

// composeHeaderRoom is about what a mail's header and the parts'
// boundaries and headers take.
const composeHeaderRoom = 2048

// setListUnsubscribe writes List-Unsubscribe, and List-Unsubscribe-Post
// when there is a one-click URL, or nothing when the envelope has no
// mailto:. A one-click URL alone is refused: the mailto: is what every
// mail program can use.
func setListUnsubscribe(h *mail.Header, e Envelope) error {
	if e.ListUnsubscribe == "" {
		if e.OneClickUnsubscribe != "" {
			return errors.New("mailer: compose: a one-click unsubscribe URL without the mailto: beside it")
		}
		return nil
	}
	if err := checkMailtoURI(e.ListUnsubscribe); err != nil {
		return err
	}
	if e.OneClickUnsubscribe == "" {
		h.Set("List-Unsubscribe", "<"+e.ListUnsubscribe+">")
		return nil
	}
	if err := checkHTTPURI(e.OneClickUnsubscribe); err != nil {
		return err
	}
	h.Set("List-Unsubscribe", "<"+e.OneClickUnsubscribe+">, <"+e.ListUnsubscribe+">")
	h.Set("List-Unsubscribe-Post", "List-Unsubscribe=One-Click")
	return nil
}

// checkHTTPURI refuses what is no http(s) URL that can stand between
// angle brackets in a header field, as checkMailtoURI does for mailto:.
func checkHTTPURI(uri string) error {
	if !strings.HasPrefix(uri, "https://") && !strings.HasPrefix(uri, "http://") {
		return fmt.Errorf("mailer: compose: one-click unsubscribe %q is not an http(s) URL", uri)
	}
	if !uriChars(uri) {
		return fmt.Errorf("mailer: compose: one-click unsubscribe %q has a character a URI may not", uri)
	}
	return nil
}

// uriChars reports whether uri holds only characters a URI between angle
// brackets in a header may: printable ASCII, no space, no brackets, no
// quote, no comma (which would start the field's next URI).
func uriChars(uri string) bool {
	for _, r := range uri {
		if r <= ' ' || r >= 0x7f || r == '<' || r == '>' || r == '"' || r == ',' {
			return false
		}
	}
	return true
}

// checkMailtoURI refuses what is no mailto: URI that can stand between
// angle brackets in a header field: anything else would let the caller
// write a header of its choosing.
func checkMailtoURI(uri string) error {
	if !strings.HasPrefix(uri, "mailto:") || !strings.Contains(uri, "@") {
		return fmt.Errorf("mailer: compose: List-Unsubscribe %q is not a mailto: URI", uri)
	}
	if !uriChars(uri) {
		return fmt.Errorf("mailer: compose: List-Unsubscribe %q has a character a URI may not", uri)
	}
	return nil
}

// writeClose writes a part's body, ending in a newline, and closes the
// part. The body goes through chunk, a piece at a time: the part's
// writer takes bytes, and io.WriteString would copy the whole body
// (the HTML part's 20 kB and more) to give it them (issue 40).
func writeClose(w io.WriteCloser, body string, chunk []byte) error {
	for rest := body; len(rest) > 0; {
		n := copy(chunk, rest)
		if _, err := w.Write(chunk[:n]); err != nil {
			return fmt.Errorf("mailer: compose: %w", err)
		}
		rest = rest[n:]
	}
	if !strings.HasSuffix(body, "\n") {
		if _, err := w.Write([]byte{'\n'}); err != nil {
			return fmt.Errorf("mailer: compose: %w", err)
		}
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("mailer: compose: %w", err)
	}
	return nil
}
