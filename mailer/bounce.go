package mailer

import (
	"bufio"
	"bytes"
	"io"
	"mime"
	"mime/multipart"
	"net/mail"
	"regexp"
	"strings"
)

// This file reads bounces: delivery status notifications (RFC 3464) and
// the common non-standard shapes that say the same in prose. There is no
// DSN library in Go worth taking (the module lists hold none), and the
// part pbem needs is small: per recipient, failed or delayed, and the
// status code's class.

// BounceKind is how final a bounce is.
type BounceKind string

// The kinds of bounce.
const (
	// BounceNone: the mail is no bounce (an auto-reply, a person's
	// mail, a "relayed" or "delivered" report).
	BounceNone BounceKind = ""
	// BounceHard: the address refused for good (Action: failed with a
	// 5.x.x status, or a 5xx reply quoted in prose).
	BounceHard BounceKind = "hard"
	// BounceSoft: the mail is delayed or failed for now (4.x.x, Action:
	// delayed).
	BounceSoft BounceKind = "soft"
)

// SoftBounceDays is on how many distinct days soft bounces make an
// address unreachable, as Mailman's bounce score does (a soft bounce
// counts once a day): a mailbox full or a server down for a day or two
// is common and passes, so one bad day says nothing, but three days of
// it mean the player is not reading (and his games would wait on him
// for nothing). One hard bounce is enough.
const SoftBounceDays = 3

// Bounce is what a bounce says of its recipient.
type Bounce struct {
	Kind      BounceKind
	Recipient string // the Final- or Original-Recipient, bare; "" when the bounce names none
	Status    string // the status code, "5.1.1"; "" when none was found
}

// maxBounceBytes bounds the bytes a bounce is read for. A DSN's report
// is a few hundred bytes after a short human part; what follows is the
// returned mail, which tells nothing of the failure. Hostile input costs
// no more than this.
const maxBounceBytes = 256 << 10

// maxBounceParts bounds the MIME parts looked at: a report is the
// second of three.
const maxBounceParts = 8

// ReadBounce reads a mail sent to a bounce address. A multipart/report
// with a delivery-status part is read as RFC 3464 says; any other mail
// whose subject says it is a delivery failure is searched for an SMTP
// reply or enhanced status code. A mail that is neither (an auto-reply
// from a vacation program, a person's answer) is BounceNone.
func ReadBounce(raw []byte) Bounce {
	if len(raw) > maxBounceBytes {
		raw = raw[:maxBounceBytes]
	}
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return Bounce{}
	}
	mt, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if err == nil && mt == "multipart/report" && params["boundary"] != "" {
		if b, ok := readReport(msg.Body, params["boundary"]); ok {
			return b
		}
	}
	if !failureSubject(decodeHeader(msg.Header.Get("Subject"))) {
		return Bounce{}
	}
	body, _ := io.ReadAll(io.LimitReader(msg.Body, maxBounceBytes))
	return readProse(string(body))
}

// decodeHeader decodes RFC 2047 words, keeping the raw text when it
// cannot.
func decodeHeader(s string) string {
	if d, err := new(mime.WordDecoder).DecodeHeader(s); err == nil {
		return d
	}
	return s
}

// readReport finds the delivery-status part of a multipart/report and
// reads it; ok is false when there is none.
func readReport(body io.Reader, boundary string) (Bounce, bool) {
	mr := multipart.NewReader(body, boundary)
	for i := 0; i < maxBounceParts; i++ {
		p, err := mr.NextPart()
		if err != nil {
			return Bounce{}, false
		}
		mt, _, _ := mime.ParseMediaType(p.Header.Get("Content-Type"))
		if mt == "message/delivery-status" || mt == "message/global-delivery-status" {
			return readDeliveryStatus(io.LimitReader(p, maxBounceBytes)), true
		}
	}
	return Bounce{}, false
}

// readDeliveryStatus reads the fields of a delivery-status part: one
// per-message block, then one block per recipient. The worst recipient
// wins (a hard failure over a delay); pbem sends each mail to one
// recipient, so there is one in practice.
func readDeliveryStatus(r io.Reader) Bounce {
	var best Bounce
	var cur map[string]string
	flush := func() {
		if b := recipientBounce(cur); rank(b.Kind) > rank(best.Kind) {
			best = b
		}
		cur = nil
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 64<<10)
	last := ""
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		switch {
		case strings.TrimSpace(line) == "":
			flush()
		case (line[0] == ' ' || line[0] == '\t') && cur != nil && last != "":
			cur[last] += " " + strings.TrimSpace(line)
		default:
			name, value, ok := strings.Cut(line, ":")
			if !ok {
				continue
			}
			if cur == nil {
				cur = map[string]string{}
			}
			last = strings.ToLower(strings.TrimSpace(name))
			cur[last] = strings.TrimSpace(value)
		}
	}
	flush()
	return best
}

// rank orders bounce kinds, the most final highest.
func rank(k BounceKind) int {
	switch k {
	case BounceHard:
		return 2
	case BounceSoft:
		return 1
	}
	return 0
}

// statusCode matches an enhanced status code (RFC 3463).
var statusCode = regexp.MustCompile(`\b([245])\.(\d{1,3})\.(\d{1,3})\b`)

// recipientBounce reads one per-recipient block: its Action and Status.
// An action of delivered, relayed or expanded is no failure.
func recipientBounce(f map[string]string) Bounce {
	action := strings.ToLower(f["action"])
	if action == "" {
		return Bounce{}
	}
	status := statusCode.FindString(f["status"])
	b := Bounce{Recipient: reportAddress(f["final-recipient"]), Status: status}
	if b.Recipient == "" {
		b.Recipient = reportAddress(f["original-recipient"])
	}
	switch {
	case strings.HasPrefix(action, "failed") && strings.HasPrefix(status, "5."):
		b.Kind = BounceHard
	case strings.HasPrefix(action, "failed"), strings.HasPrefix(action, "delayed"):
		// A failure with a 4.x.x status (or none) was a transient
		// trouble the sending server gave up on: it may pass later.
		b.Kind = BounceSoft
	}
	return b
}

// reportAddress is the address of a recipient field, "rfc822;
// bob@example.test".
func reportAddress(v string) string {
	_, addr, ok := strings.Cut(v, ";")
	if !ok {
		addr = v
	}
	return strings.ToLower(strings.Trim(strings.TrimSpace(addr), "<>"))
}

// failureSubjects are words that start or make up the subject of the
// bounces servers write in prose, lower-case.
var failureSubjects = []string{
	"undelivered mail returned to sender", // Postfix
	"delivery status notification (failure)",
	"delivery status notification (delay)",
	"mail delivery failed", // Exim
	"undeliverable:",       // Microsoft
	"undeliverable mail",
	"delivery failure",
	"failure notice", // qmail
	"returned mail:", // Sendmail
	"mail delivery failure",
	"delivery has failed",
}

// failureSubject says whether a subject is a bounce's.
func failureSubject(s string) bool {
	s = strings.ToLower(s)
	for _, f := range failureSubjects {
		if strings.Contains(s, f) {
			return true
		}
	}
	return false
}

// smtpReply matches an SMTP reply code at the start of a reply quoted in
// prose: "550 5.1.1", "550-", "said: 550 ", "host ... said: 450".
var smtpReply = regexp.MustCompile(`(?:^|[\s:(])([45])[0-5]\d[\s-]`)

// readProse reads a bounce written in prose: an enhanced status code
// first, else an SMTP reply code. Its class decides; with neither, the
// subject alone says it failed, and a failure named by no code is taken
// as transient (one soft bounce never makes an address unreachable).
func readProse(body string) Bounce {
	if m := statusCode.FindStringSubmatch(body); m != nil && m[1] != "2" {
		return Bounce{Kind: kindOfClass(m[1]), Status: m[0]}
	}
	if m := smtpReply.FindStringSubmatch(body); m != nil {
		return Bounce{Kind: kindOfClass(m[1])}
	}
	return Bounce{Kind: BounceSoft}
}

// kindOfClass is the bounce kind of a status class digit.
func kindOfClass(c string) BounceKind {
	if c == "5" {
		return BounceHard
	}
	return BounceSoft
}
