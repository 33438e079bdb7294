package parser

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/textproto"
	"strings"
	"time"
	"unicode/utf8"

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
	// Service is ServiceAddress compiled once (CompileService), for a
	// caller that reads many mails: when it is set, ServiceAddress is
	// not read.
	Service *Service
	// ServiceName is the display name of pbem's mails ("pbem"). A line
	// that names it and ends in a colon, right above a quote, is the
	// quote's attribution, in whatever language it is written.
	ServiceName string

	// The limits below bound the work one message costs; zero means the
	// Default of the same name (see limits.go for why each is what it
	// is). A message beyond one of the first four is refused before it
	// is parsed, with a *HostileError (errors.Is(err, ErrHostile)).

	// MaxDepth bounds the nesting of multiparts.
	MaxDepth int
	// MaxParts bounds the MIME parts, the message itself included.
	MaxParts int
	// MaxHeaderFields bounds the header fields of the message and all
	// its parts together.
	MaxHeaderFields int
	// MaxFieldBytes bounds one header field, folded lines included.
	MaxFieldBytes int
	// The last three are not refusals: what is beyond them is read more
	// cheaply. MaxTextBytes bounds the decoded body text; the rest of it
	// is dropped before normalising and cutting.
	MaxTextBytes int
	// MaxHTMLNodes and MaxHTMLDepth bound the HTML body that is parsed
	// into a tree (to remove quotes by their markup); a bigger or deeper
	// one is read as a flat stream of text instead. MaxHTMLDepth is at
	// most DefaultMaxHTMLDepth, what the HTML parser accepts.
	MaxHTMLNodes int
	MaxHTMLDepth int
}

// ReplyMarker is the line pbem puts above what it writes in a mail. A
// reply that copies the mail without quoting it is cut at this line.
const ReplyMarker = "--- pbem: write your commands above this line ---"

// Message is what Extract finds in a mail. Header fields are decoded
// (RFC 2047) and trimmed; addresses are bare and lower-case; message ids
// lose their angle brackets.
type Message struct {
	From        string // the From field as written, decoded: `Alice <alice@x.test>`
	FromName    string // the display name of From, if any; "" when FromProblem is set
	FromAddress string // the bare From address; "" when it cannot be read
	// FromProblem says why From cannot be trusted as it stands, "" when
	// it can: it is not exactly one mailbox in strict RFC 5322 syntax,
	// it holds several addresses, there are several From fields, or
	// the display name is itself an address other than the real one
	// (`bob@pbem.test <mallory@evil.test>`). FromAddress is then the
	// address mail clients show as the author, or "" when that is not
	// clear; never the one in the display name.
	FromProblem string
	To          []string // bare addresses
	Cc          []string // bare addresses
	Subject     string
	// Date is the Date field, with the sender's offset from UTC; zero
	// when absent or unreadable. It says nothing pbem trusts, only where
	// the sender's clock probably is (a suggested time zone).
	Date       time.Time
	MessageID  string
	InReplyTo  string
	References []string
	// Fields that tell an automatic message from a person's; Automatic
	// reads them.
	AutoSubmitted   string
	Precedence      string
	ListID          string
	DeliveredTo     string
	ReturnPath      string // the bare address, "" for the null sender <>
	NullSender      bool   // Return-Path is <>: a bounce or a notification
	XAutoreply      string // X-Autoreply (Yahoo, many vacation programs)
	XAutorespond    string // X-Autorespond
	XPrecedence     string // X-Precedence, Precedence's older twin
	XLoop           string // X-Loop: procmail, ticket systems, lists
	ListUnsubscribe string // List-Unsubscribe: list and bulk mail
	FeedbackID      string // Feedback-ID: recorded, not a marker (see Automatic)
	// ContentLanguage is the Content-Language field, which many mail
	// programs set to the writer's language ("de-DE"): LanguageOf reads
	// it.
	ContentLanguage string
	// ContentType is the message's own media type, lower-case:
	// "multipart/report" for delivery and read notifications.
	ContentType string

	// HTML reports that the text came from an HTML body because the
	// message had no text/plain one.
	HTML bool
	// Body is the whole text body after decoding and normalisation,
	// before cutting: what an admin looks at when the cut went wrong.
	Body string
	// Text is the player's own new text: Body without quotes,
	// attributions, signatures, footers, copies of pbem's mail and
	// reference lines.
	Text string
	// Ref is the reference a one-tap link wrote into the player's text
	// (a line "pbem ref: REF", see RefLine): which of pbem's mails the
	// tap came from. "" when there is none. It is a hint for the
	// stale-reply rule only, as easily forged as the rest of the mail.
	Ref string
}

// Extract reads a raw RFC 5322 message and finds the player's own text in
// it. Attachments are ignored. A message that is not MIME at all is read
// as plain text. The errors are an unreadable raw, ErrTooLarge, a message
// whose header cannot be parsed and ErrHostile (a *HostileError).
//
// The work a message costs is bounded: before the MIME parser sees it, a
// linear pre-scan refuses a message nested too deeply or with too many
// parts or header fields or too long a field (the limits of
// ExtractOptions), and after it the text and HTML are bounded too. A
// refused message whose own header passed the pre-scan comes back with
// its header fields filled in (not Body nor Text), so that the daemon
// can record who sent it.
func Extract(raw io.Reader, opts ExtractOptions) (Message, error) {
	m, _, err := extract(raw, opts)
	return m, err
}

// work is what extract did for one message, counted so that tests and
// the fuzz target can check that it is bounded without timing anything.
type work struct {
	scanned   int // bytes the pre-scan looked at
	textBytes int // bytes of decoded text normalised and cut
	htmlNodes int // HTML nodes built into a tree
	htmlFlat  bool
}

// scanBuffer is the size of the buffer the pre-scan is fed through.
const scanBuffer = 4 << 10

func extract(raw io.Reader, opts ExtractOptions) (Message, work, error) {
	var w work
	limit := opts.MaxBytes
	if limit <= 0 {
		limit = DefaultMaxBytes
	}
	lim := opts.limits()
	lr := &limitReader{r: raw, limit: limit}
	// The pre-scan reads the message first, so that a hostile one stops
	// being read at its first bad line; the parser reads it again. A raw
	// that can seek (the daemon's bytes.Reader) is read twice without a
	// copy; another one is kept, up to the limit.
	again, buf := rewinder(raw)
	scan := newPrescan(lim)
	var dst io.Writer = scan
	if buf != nil {
		dst = io.MultiWriter(buf, scan)
	}
	// io.Copy would make a 32 kB buffer for every mail, most of which
	// are a few kB: a small one costs a few more reads of a long mail
	// and saves most of the bytes a command allocated here (issue 40).
	_, err := io.CopyBuffer(dst, lr, make([]byte, scanBuffer))
	w.scanned = scan.work
	if lr.over() {
		return Message{}, w, lr.err()
	}
	if err == nil {
		err = scan.Close()
	}
	if errors.Is(err, ErrHostile) {
		m := Message{}
		if scan.headerEnd > 0 {
			m = headerOnly(again, scan.headerEnd)
		}
		return m, w, err
	}
	if err != nil {
		return Message{}, w, fmt.Errorf("reading the message: %w", err)
	}
	src, err := again()
	if err != nil {
		return Message{}, w, fmt.Errorf("reading the message again: %w", err)
	}
	root, err := enmime.NewParser(
		enmime.SkipMalformedParts(true),
		enmime.SetReadPartErrorPolicy(enmime.AllowCorruptTextPartErrorPolicy),
		enmime.MaxStoredPartErrors(10),
		enmime.DisableTextConversion(true),
		// A part that names its charset is read in it: guessing costs
		// more than the rest of the parse, and mail programs label
		// their text. A part with no charset is still guessed at.
		enmime.DisableCharacterDetection(true),
	).ReadParts(&limitReader{r: src, limit: limit})
	if err != nil {
		return Message{}, w, fmt.Errorf("reading the message: %w", err)
	}
	m := headerFields(root.Header)
	m.ContentType = strings.ToLower(root.ContentType)
	body, isHTML := bodyText(root, lim, &w)
	m.HTML = isHTML
	body = truncate(body, lim.textBytes)
	w.textBytes = len(body)
	// Normalising may lengthen the text (NFKC turns one character into
	// up to 11 times its bytes), so the bound applies to its output too.
	m.Body = truncate(normalizeMax(body, lim.textBytes), lim.textBytes)
	m.Text = ownText(m.Body, cutOptions{
		markers: opts.OwnMarkers,
		service: opts.service(),
		name:    strings.ToLower(strings.TrimSpace(opts.ServiceName)),
		sender:  senderNames(m.FromName, m.FromAddress),
		signer:  signerNames(m.FromName),
	})
	m.Text, m.Ref = takeRef(m.Text)
	return m, w, nil
}

// rewinder returns a function that gives the message from its start
// again: raw itself, sought back, when it can seek, or else a reader of
// buf, which the caller must fill as it reads raw the first time.
func rewinder(raw io.Reader) (func() (io.Reader, error), *bytes.Buffer) {
	if rs, ok := raw.(io.ReadSeeker); ok {
		if start, err := rs.Seek(0, io.SeekCurrent); err == nil {
			return func() (io.Reader, error) {
				_, err := rs.Seek(start, io.SeekStart)
				return rs, err
			}, nil
		}
	}
	buf := new(bytes.Buffer)
	return func() (io.Reader, error) { return bytes.NewReader(buf.Bytes()), nil }, buf
}

// headerOnly reads the header fields of the message's first n bytes, a
// header that passed the pre-scan (with the empty line after it).
func headerOnly(again func() (io.Reader, error), n int) Message {
	src, err := again()
	if err != nil {
		return Message{}
	}
	root, err := enmime.NewParser(enmime.DisableTextConversion(true)).ReadParts(io.LimitReader(src, int64(n)))
	if err != nil {
		return Message{}
	}
	m := headerFields(root.Header)
	m.ContentType = strings.ToLower(root.ContentType)
	return m
}

// truncate cuts s to at most n bytes, at the start of a character.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
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
	get := func(k string) string { return headerText(enmime.DecodeRFC2047(h.Get(k))) }
	m := Message{
		From:            get("From"),
		To:              addresses(h.Get("To")),
		Cc:              addresses(h.Get("Cc")),
		Subject:         get("Subject"),
		MessageID:       firstID(h.Get("Message-Id")),
		InReplyTo:       firstID(h.Get("In-Reply-To")),
		References:      messageIDs(h.Get("References")),
		AutoSubmitted:   get("Auto-Submitted"),
		Precedence:      get("Precedence"),
		ListID:          get("List-Id"),
		DeliveredTo:     strings.ToLower(get("Delivered-To")),
		XAutoreply:      get("X-Autoreply"),
		XAutorespond:    get("X-Autorespond"),
		XPrecedence:     get("X-Precedence"),
		XLoop:           get("X-Loop"),
		ListUnsubscribe: get("List-Unsubscribe"),
		FeedbackID:      get("Feedback-Id"),
		ContentLanguage: get("Content-Language"),
	}
	if d, err := parseDate(h.Get("Date")); err == nil {
		m.Date = d
	}
	from := readFrom(h.Values("From"))
	m.FromName, m.FromAddress, m.FromProblem = from.name, from.address, from.problem
	for _, rp := range h.Values("Return-Path") {
		if strings.TrimSpace(rp) == "<>" {
			m.NullSender = true
		}
	}
	if rp := addresses(h.Get("Return-Path")); len(rp) > 0 {
		m.ReturnPath = rp[0]
	}
	return m
}

// headerText makes a decoded header field one line of text: an encoded
// CR or LF (=?utf-8?q?x=0D=0ABcc:...?=) or any other control character
// becomes a space, so that nothing downstream can take it for the end of
// a header line, and the ends are trimmed.
func headerText(s string) string {
	if strings.IndexFunc(s, isControl) < 0 {
		return strings.TrimSpace(s)
	}
	return strings.TrimSpace(strings.Map(func(r rune) rune {
		if isControl(r) {
			return ' '
		}
		return r
	}, s))
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
func bodyText(root *enmime.Part, lim limits, w *work) (string, bool) {
	b := collectBody(root, 0, lim)
	if b.plain {
		return b.text, false
	}
	if b.html != "" {
		return htmlToText(truncate(b.html, lim.textBytes), lim, w), true
	}
	return "", false
}

type body struct {
	text  string // plain text, or text converted from HTML
	plain bool   // text came from a text/plain part
	html  string // an HTML part, when no plain text was found
}

// collectBody follows nested multiparts no deeper than the pre-scan let
// through, and stops gathering text parts once they hold more than the
// text limit.
func collectBody(p *enmime.Part, depth int, lim limits) body {
	if p == nil || depth > lim.depth || isAttachment(p) {
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
			b := collectBody(c, depth+1, lim)
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
		size := 0
		for c := p.FirstChild; c != nil && size <= lim.textBytes; c = c.NextSibling {
			b := collectBody(c, depth+1, lim)
			if b.plain {
				texts = append(texts, b.text)
				size += len(b.text) + 1
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
