package parser

import (
	"errors"
	"fmt"
	"io"
	"mime"
	"net/textproto"
	"strings"

	"github.com/jhillyerd/enmime/v2"
)

// DefaultMaxBytes is the size limit Extract applies when
// ExtractOptions.MaxBytes is zero. A player's reply with a phone photo
// attached fits; a mail bomb does not.
const DefaultMaxBytes = 1 << 20

// ErrTooLarge is returned (wrapped) by Extract for a message larger than
// ExtractOptions.MaxBytes. Test for it with errors.Is.
var ErrTooLarge = errors.New("message too large")

// ExtractOptions tunes Extract. The zero value is ready to use.
type ExtractOptions struct {
	// MaxBytes bounds the raw message; Extract reads at most one byte
	// more and returns ErrTooLarge beyond it. Zero means DefaultMaxBytes.
	MaxBytes int64
	// OwnMarkers are lines that start a copy of pbem's own mail, such as
	// the first line of the turn summary the player replies to. A line
	// that begins with one of them (ignoring case and surrounding space)
	// cuts the text there, so that a client that quotes without ">" does
	// not make pbem read its own words. Lines starting with "--- pbem"
	// (see ReplyMarker) always cut.
	OwnMarkers []string
	// ServiceAddress is pbem's own address ("game@pbem.example"). A line
	// that names it, also with a "+tag" (game+g42@pbem.example), is the
	// header of a quote of pbem's mail and cuts the text there.
	ServiceAddress string
}

// ReplyMarker is the line pbem puts above what it writes in a mail. A
// reply that copies the mail without quoting it is cut at this line.
const ReplyMarker = "--- pbem: write your commands above this line ---"

// Message is what Extract finds in a mail. Header fields are decoded
// (RFC 2047) and trimmed; addresses are bare and lower-case; message ids
// lose their angle brackets.
type Message struct {
	From        string   // the From field as written, decoded: `Alice <alice@x.test>`
	FromName    string   // the display name of From, if any
	FromAddress string   // the bare From address; "" when it cannot be read
	To          []string // bare addresses
	Cc          []string // bare addresses
	Subject     string
	MessageID   string
	InReplyTo   string
	References  []string
	// Fields that tell an automatic message from a person's.
	AutoSubmitted string
	Precedence    string
	ListID        string
	DeliveredTo   string
	ReturnPath    string // the bare address, "" for the null sender <>

	// HTML reports that the text came from an HTML body because the
	// message had no text/plain one.
	HTML bool
	// Body is the whole text body after decoding and normalisation,
	// before cutting: what an admin looks at when the cut went wrong.
	Body string
	// Text is the player's own new text: Body without quotes,
	// attributions, signatures, footers and copies of pbem's mail.
	Text string
}

// Extract reads a raw RFC 5322 message and finds the player's own text in
// it. Attachments are ignored. A message that is not MIME at all is read
// as plain text. The only errors are an unreadable raw, ErrTooLarge and a
// message whose header cannot be parsed.
func Extract(raw io.Reader, opts ExtractOptions) (Message, error) {
	limit := opts.MaxBytes
	if limit <= 0 {
		limit = DefaultMaxBytes
	}
	// The message is parsed as it is read: no copy of the raw bytes.
	lr := &limitReader{r: raw, limit: limit}
	root, err := enmime.NewParser(
		enmime.SkipMalformedParts(true),
		enmime.SetReadPartErrorPolicy(enmime.AllowCorruptTextPartErrorPolicy),
		enmime.MaxStoredPartErrors(10),
		enmime.DisableTextConversion(true),
	).ReadParts(lr)
	// The parser may skip a part that failed to read: the size decides.
	if lr.over() {
		return Message{}, lr.err()
	}
	if err != nil {
		return Message{}, fmt.Errorf("reading the message: %w", err)
	}
	m := headerFields(root.Header)
	body, isHTML := bodyText(root)
	m.HTML = isHTML
	m.Body = normalize(body)
	m.Text = ownText(m.Body, cutOptions{
		markers: opts.OwnMarkers,
		service: opts.ServiceAddress,
		sender:  senderNames(m.FromName, m.FromAddress),
		signer:  signerNames(m.FromName),
	})
	return m, nil
}

// limitReader reads from r until more than limit bytes have come, and
// then fails with ErrTooLarge: the parser stops there, without the rest
// of the message ever being read.
type limitReader struct {
	r     io.Reader
	limit int64
	n     int64 // bytes read so far
}

func (l *limitReader) Read(p []byte) (int, error) {
	if l.n > l.limit {
		return 0, l.err()
	}
	if rest := l.limit + 1 - l.n; int64(len(p)) > rest {
		p = p[:rest]
	}
	n, err := l.r.Read(p)
	l.n += int64(n)
	if l.n > l.limit {
		return n, l.err()
	}
	return n, err
}

func (l *limitReader) over() bool { return l.n > l.limit }

func (l *limitReader) err() error {
	return fmt.Errorf("%w: more than %d bytes", ErrTooLarge, l.limit)
}

func headerFields(h textproto.MIMEHeader) Message {
	get := func(k string) string { return strings.TrimSpace(enmime.DecodeRFC2047(h.Get(k))) }
	m := Message{
		From:          get("From"),
		To:            addresses(h.Get("To")),
		Cc:            addresses(h.Get("Cc")),
		Subject:       get("Subject"),
		MessageID:     firstID(h.Get("Message-Id")),
		InReplyTo:     firstID(h.Get("In-Reply-To")),
		References:    messageIDs(h.Get("References")),
		AutoSubmitted: get("Auto-Submitted"),
		Precedence:    get("Precedence"),
		ListID:        get("List-Id"),
		DeliveredTo:   strings.ToLower(get("Delivered-To")),
	}
	if list, err := enmime.ParseAddressList(h.Get("From")); err == nil && len(list) > 0 {
		m.FromName = strings.TrimSpace(list[0].Name)
		m.FromAddress = strings.ToLower(list[0].Address)
	}
	if rp := addresses(h.Get("Return-Path")); len(rp) > 0 {
		m.ReturnPath = rp[0]
	}
	return m
}

// addresses reads an address list leniently: what cannot be parsed is
// left out.
func addresses(field string) []string {
	list, err := enmime.ParseAddressList(field)
	if err != nil {
		return nil
	}
	var out []string
	for _, a := range list {
		if a.Address != "" {
			out = append(out, strings.ToLower(a.Address))
		}
	}
	return out
}

// messageIDs splits a References-style field into ids without brackets.
func messageIDs(field string) []string {
	var ids []string
	for _, f := range strings.Fields(field) {
		if id := strings.Trim(f, "<>,"); id != "" {
			ids = append(ids, id)
		}
	}
	return ids
}

func firstID(field string) string {
	ids := messageIDs(field)
	if len(ids) == 0 {
		return ""
	}
	return ids[0]
}

// bodyText finds the text a person reads in a MIME tree: text/plain
// where there is one, else HTML converted to text. Attachments and
// attached messages (forwards) are not the player's text.
func bodyText(root *enmime.Part) (string, bool) {
	b := collectBody(root, 0)
	if b.plain {
		return b.text, false
	}
	if b.html != "" {
		return htmlToText(b.html), true
	}
	return "", false
}

// maxDepth bounds how deeply collectBody follows nested multiparts; no
// client nests more than a handful.
const maxDepth = 20

type body struct {
	text  string // plain text, or text converted from HTML
	plain bool   // text came from a text/plain part
	html  string // an HTML part, when no plain text was found
}

func collectBody(p *enmime.Part, depth int) body {
	if p == nil || depth > maxDepth || isAttachment(p) {
		return body{}
	}
	ct := strings.ToLower(p.ContentType)
	switch {
	case ct == "text/plain" || (ct == "" && p.FirstChild == nil):
		return body{text: plainContent(p), plain: true}
	case ct == "text/html":
		return body{html: string(p.Content)}
	case ct == "multipart/alternative":
		// The alternatives say the same thing: take the plain one.
		var html string
		for c := p.FirstChild; c != nil; c = c.NextSibling {
			b := collectBody(c, depth+1)
			if b.plain {
				return b
			}
			if html == "" {
				html = b.html
			}
		}
		return body{html: html}
	case strings.HasPrefix(ct, "multipart/"):
		// mixed, related, signed, ...: the text parts in order (Apple
		// Mail splits a body around an inline picture). An HTML part
		// among them counts only when there is no plain text at all.
		var texts []string
		var html string
		for c := p.FirstChild; c != nil; c = c.NextSibling {
			b := collectBody(c, depth+1)
			if b.plain {
				texts = append(texts, b.text)
			} else if b.html != "" && html == "" {
				html = b.html
			}
		}
		if len(texts) > 0 {
			return body{text: strings.Join(texts, "\n"), plain: true}
		}
		return body{html: html}
	}
	// message/rfc822 (a forward), images, PDFs, signatures...
	return body{}
}

// isAttachment tells a file from the body. A part marked attachment is
// one; so is a text part marked inline that carries a file name, which
// is how some clients attach a .txt file.
func isAttachment(p *enmime.Part) bool {
	d := strings.ToLower(p.Disposition)
	if d == "attachment" {
		return true
	}
	return d == "inline" && p.FileName != "" && !strings.HasPrefix(strings.ToLower(p.ContentType), "multipart/")
}

// plainContent returns a text/plain part's text, undoing format=flowed.
func plainContent(p *enmime.Part) string {
	text := string(p.Content)
	// enmime leaves Part.ContentTypeParams empty when reading.
	_, params, err := mime.ParseMediaType(p.Header.Get("Content-Type"))
	if err == nil && strings.EqualFold(params["format"], "flowed") {
		text = unflow(text, strings.EqualFold(params["delsp"], "yes"))
	}
	return text
}
