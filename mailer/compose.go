package mailer

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/emersion/go-message/mail"
	"github.com/emersion/go-message/textproto"
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
	h, err := envelopeHeader(e)
	if err != nil {
		return nil, err
	}

	text = spaceStuff(text)
	var buf bytes.Buffer
	// Room for the whole mail at once: the header, and the parts as
	// quoted-printable makes them, a little longer ("=3D" for each "=" of
	// the HTML's attributes, a soft break every 76 characters).
	buf.Grow(composeHeaderRoom + len(text) + len(html) + len(html)/4)
	if html == "" {
		h.Set("Content-Type", textPlain)
		h.Set("Content-Transfer-Encoding", "quoted-printable")
		setMIMEVersion(&h)
		if err := writeHeader(&buf, h); err != nil {
			return nil, err
		}
		writeQP(&buf, text)
		return buf.Bytes(), nil
	}
	// multipart/alternative, the text first. The header and the parts'
	// headers are go-message's, set in the order its InlineWriter sets
	// them (the order of a header's Sets is the order of its fields);
	// the parts' bodies are written straight into buf, which is all the
	// part writer of a textproto.MultipartWriter does with what it is
	// given.
	mw := textproto.NewMultipartWriter(&buf)
	h.Set("Content-Type", "multipart/alternative")
	setMIMEVersion(&h)
	h.SetContentType("multipart/alternative", map[string]string{"boundary": mw.Boundary()})
	if err := writeHeader(&buf, h); err != nil {
		return nil, err
	}
	for _, part := range []struct{ typ, body string }{{textPlain, text}, {"text/html; charset=utf-8", html}} {
		var ph textproto.Header
		ph.Set("Content-Type", part.typ)
		ph.Set("Content-Disposition", "inline")
		ph.Set("Content-Transfer-Encoding", "quoted-printable")
		if _, err := mw.CreatePart(ph); err != nil {
			return nil, fmt.Errorf("mailer: compose: %w", err)
		}
		writeQP(&buf, part.body)
	}
	if err := mw.Close(); err != nil {
		return nil, fmt.Errorf("mailer: compose: %w", err)
	}
	return buf.Bytes(), nil
}

// envelopeHeader is the header of a mail of e, before its MIME fields.
func envelopeHeader(e Envelope) (mail.Header, error) {
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
		return mail.Header{}, err
	}
	h.Set("Auto-Submitted", "auto-generated")
	h.Set("X-Auto-Response-Suppress", "All")
	return h, nil
}

// setMIMEVersion says that the mail is MIME.
func setMIMEVersion(h *mail.Header) {
	if !h.Has("Mime-Version") {
		h.Set("MIME-Version", "1.0")
	}
}

// writeHeader writes a mail's header.
func writeHeader(buf *bytes.Buffer, h mail.Header) error {
	if err := textproto.WriteHeader(buf, h.Header.Header); err != nil {
		return fmt.Errorf("mailer: compose: %w", err)
	}
	return nil
}

// writeQP writes a part's body as quoted-printable (qpEncoder), ending
// in a line break.
func writeQP(buf *bytes.Buffer, body string) {
	e := qpEncoder{out: buf}
	e.writeString(body)
	if !strings.HasSuffix(body, "\n") {
		e.writeString("\n")
	}
	e.close()
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
