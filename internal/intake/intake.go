// Package intake reads an inbound mail and judges it, before anything is
// stored: the first stage of the turn loop. Read parses the mail's bytes
// (parser.Extract, within the size limit), finds its sender and the keys
// that make it known when it comes again, and gives the verdict on it
// (classify): whether pbem acts on it, and if not, why and what its
// sender is told.
//
// Intake is pure: it touches no store, no clock and no state, so that the
// daemon reads a batch of mails on every core before its transaction and
// each mail is read once. Everything it needs of the service is its own
// Config; the daemon does what needs the database (whether the mail was
// seen before, the refusal budget, the routing) with the Mail it returns.
package intake

import (
	"bytes"
	"errors"

	"github.com/pbem/pbem/mailer"
	"github.com/pbem/pbem/parser"
)

// Config is what reading and judging a mail needs of the service: its
// own small copy, so that intake depends on no configuration package.
type Config struct {
	Address   string // the service's bare address, "pbem@example.test"
	Name      string // the display name of its mails, "pbem"
	Separator string // between the local part and a seat's token: "+"
	// Mailbox is the IMAP mailbox read, which a mail that names none
	// (mailer.Message.Mailbox) is recorded in: "INBOX".
	Mailbox string
	// MaxMessageBytes bounds a mail pbem reads: a larger one is read for
	// its header only, and refused.
	MaxMessageBytes int64
	// OwnMarkers start the headlines of pbem's own mails, where a reply
	// that copies one without quoting it is cut
	// (parser.ExtractOptions.OwnMarkers).
	OwnMarkers []string
	// Service is Address compiled for the parser (parser.CompileService);
	// nil: compiled for each mail.
	Service *parser.Service
	// TrustAuthServID, when set, is the authserv-id of the receiving
	// mail server whose Authentication-Results are trusted: a mail
	// whose From domain they do not show authenticated is refused.
	TrustAuthServID string
	// NormalizeAddress and SentAs are how the store spells an address
	// and the key of a mail by its Message-ID (store.NormalizeAddress,
	// store.SentAs), which store.InboundSeen compares. They are given,
	// not imported, so that the one spelling stays the store's and
	// intake stays below it, free of SQL.
	NormalizeAddress func(addr string) string
	SentAs           func(messageID, from, to string) string
}

// Mail is an inbound mail as intake read and judged it: all the daemon
// needs to act on it in its transaction, with nothing left to read.
type Mail struct {
	Received mailer.Message // as the mail server handed it over
	// Message is what the parser read: the header alone for a mail over
	// the size limit, and what it could read of one it refused.
	Message parser.Message
	From    string // Message's From address, bare and normalised
	// Mailbox is the mailbox whose UIDs the mail's UID counts in:
	// Received's, or Config.Mailbox when it names none.
	Mailbox string
	// Key identifies the mail in the Message-IDs of the mail it causes
	// (CauseKey with "in").
	Key string
	// Token is the token of the address of pbem's the mail is handled
	// at: its Delivered-To first, then its To and Cc (Config.Token); ""
	// for pbem's bare address.
	Token string
	// SentAs and Digest make the mail known when it comes again (see
	// sameMail).
	SentAs, Digest string
	Verdict        Verdict
	// Bounce is what the mail says of a failed delivery, read only for
	// a mail to a bounce address (Verdict.IsBounce).
	Bounce mailer.Bounce
}

// Read parses m and judges it. It touches no state, so that a batch of
// mails can be read in parallel.
func Read(cfg Config, m mailer.Message) Mail {
	msg, tooLarge, err := extract(cfg, m)
	from := cfg.NormalizeAddress(msg.FromAddress)
	token := cfg.Token(append(append([]string{msg.DeliveredTo}, msg.To...), msg.Cc...)...)
	v, bounce := bounceVerdict(token, err)
	if !bounce {
		v = classify(parsedMail{raw: m.Raw, msg: msg, from: from, tooLarge: tooLarge, err: err}, cfg)
	}
	mailbox := m.Mailbox
	if mailbox == "" {
		mailbox = cfg.Mailbox
	}
	sentAs := ""
	if v.Act() {
		sentAs = cfg.sameMail(msg, from)
	}
	mail := Mail{
		Received: m, Message: msg, From: from, Mailbox: mailbox,
		Key:    CauseKey("in", m, m.Mailbox, msg.MessageID),
		Token:  token,
		SentAs: sentAs, Digest: Digest(m), Verdict: v,
	}
	if bounce {
		mail.Bounce = mailer.ReadBounce(m.Raw)
	}
	return mail
}

// Unread is m as a Mail when it could not be read at all (the parser
// panicked on it): nothing of its text, only what m itself says, so that
// the daemon can count its failures and, in the end, record it as set
// aside and move past it.
func Unread(cfg Config, m mailer.Message) Mail {
	mailbox := m.Mailbox
	if mailbox == "" {
		mailbox = cfg.Mailbox
	}
	return Mail{Received: m, Mailbox: mailbox, Key: CauseKey("in", m, m.Mailbox, ""), Digest: Digest(m)}
}

// extract reads the message. A message over the size limit is read for
// its header only, so that its sender can be told.
func extract(cfg Config, m mailer.Message) (parser.Message, bool, error) {
	opts := parser.ExtractOptions{MaxBytes: cfg.MaxMessageBytes, ServiceAddress: cfg.Address, Service: cfg.Service, ServiceName: cfg.Name, OwnMarkers: cfg.OwnMarkers}
	raw := m.Raw
	tooLarge := m.TooLarge
	if !tooLarge && int64(len(raw)) > cfg.MaxMessageBytes {
		tooLarge = true
	}
	if tooLarge {
		raw = headerOf(raw)
	}
	msg, err := parser.Extract(bytes.NewReader(raw), opts)
	if errors.Is(err, parser.ErrTooLarge) {
		// Only a header over the limit gets here (the body is cut off
		// above): it is not read at all, and there is no sender to tell.
		tooLarge = true
	}
	return msg, tooLarge, err
}

// headerOf is the header of a raw message, with the empty line after it.
func headerOf(raw []byte) []byte {
	for _, sep := range []string{"\r\n\r\n", "\n\n"} {
		if i := bytes.Index(raw, []byte(sep)); i >= 0 {
			return raw[:i+len(sep)]
		}
	}
	return raw
}
