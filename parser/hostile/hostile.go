// Package hostile builds the mails an open inbox must survive: shapes
// that make a MIME parser slow, header injection, forged From fields and
// the automatic mails that make two programs answer each other for
// ever. The parser's tests read them, and so can an integration test of
// another package: the package imports nothing of pbem's and holds no
// test code.
//
// Small ones are also kept as .eml files in parser/testdata/hostile
// (written from here, checked by the parser's tests), to read by eye or
// to feed to `pbem parse`.
package hostile

import (
	"bytes"
	"fmt"
	"strings"
)

// Want is what pbem must make of a hostile mail.
type Want string

// What Mail.Want can be.
const (
	// Refused: parser.Extract returns an error matching
	// parser.ErrHostile; Detail is the limit (a parser.Limit's text).
	Refused Want = "refused"
	// Bounded: Extract reads it with bounded work and no error; Detail
	// is a command its Text must hold.
	Bounded Want = "bounded"
	// FromProblem: Message.FromProblem is set; Detail is the address
	// FromAddress must be ("" for none), never the display name's.
	FromProblem Want = "from-problem"
	// Clean: read with no error and no FromProblem, and no control
	// character in Subject, From or FromName; Detail is what
	// parser.SanitizeName makes of the display name.
	Clean Want = "clean"
	// Automatic: parser.Automatic returns a reason starting with Detail.
	Automatic Want = "automatic"
	// Person: a person's ordinary mail, the control: no error, no
	// FromProblem, not automatic; Detail is a command its Text holds.
	Person Want = "person"
)

// Mail is one hostile message.
type Mail struct {
	Name   string // a file-name-like name: "forged-from-unquoted"
	Raw    []byte
	Want   Want
	Detail string // see Want
}

// Corpus returns every hostile shape, each just big enough to show its
// point (the largest is about 40 KB).
func Corpus() []Mail {
	mails := []Mail{
		{"nested", Nested(25), Refused, "nesting depth"},
		{"wide", Wide(600), Refused, "parts"},
		{"unclosed-boundaries", Unclosed(600), Refused, "parts"},
		{"many-headers", ManyHeaders(1100), Refused, "header fields"},
		{"long-header-line", LongHeaderLine(40 << 10), Refused, "header field length"},
		{"long-folded-header", LongFoldedHeader(40 << 10), Refused, "header field length"},
		{"long-body-line", LongBodyLine(100 << 10), Bounded, "pass"},
		{"base64-part", Base64Part(100 << 10), Bounded, "pass"},
		{"nested-html", NestedHTML(5000), Bounded, "pass"},
		{"nfkc-expansion", Expanding(30 << 10), Bounded, "pass"},
		{"person", person(), Person, "pass"},
	}
	mails = append(mails, headerMails()...)
	mails = append(mails, fromMails()...)
	mails = append(mails, loopMails()...)
	return mails
}

// Big returns a mail of about size bytes of each shape that costs the
// parser work in proportion to its size or worse.
func Big(size int) []Mail {
	return []Mail{
		{"nested", Nested(nestedLevels(size)), Refused, "nesting depth"},
		{"wide", Wide(size / len(widePart)), Refused, "parts"},
		{"unclosed-boundaries", Unclosed((size - 300) / unclosedPart), Refused, "parts"},
		{"many-headers", ManyHeaders(size / len(manyHeader)), Refused, "header fields"},
		{"long-header-line", LongHeaderLine(size - 200), Refused, "header field length"},
		{"long-body-line", LongBodyLine(size - 200), Bounded, "pass"},
		{"base64-part", Base64Part(size - 400), Bounded, "pass"},
		{"nested-html", NestedHTML((size - 200) / len("<div>")), Bounded, "pass"},
		{"nfkc-expansion", Expanding(size - 200), Bounded, "pass"},
		{"dash-lines", Lines(size-200, strings.Repeat("-", lineMax-1)+"x"), Bounded, "pass"},
		{"underscore-lines", Lines(size-200, strings.Repeat("_", lineMax-1)+"x"), Bounded, "pass"},
		{"quote-lines", Lines(size-200, strings.Repeat(">", lineMax)), Bounded, "pass"},
		{"space-lines", Lines(size-200, strings.Repeat(" ", lineMax)), Bounded, "pass"},
		{"header-lines", Lines(size-200, "To: x\r\nFrom"+strings.Repeat(" ", lineMax-5)+"x"), Bounded, "pass"},
		{"date-lines", Lines(size-200, "On 2026 at 10:02"+strings.Repeat(" aaaa", 36)+" x:"), Bounded, "pass"},
		{"date-and-short-lines", Lines(size-200, "On Sun, Nov 22, 2026 at 09:06 "+strings.Repeat("x", 20)+"\r\n"+strings.Repeat("y ", 30)), Bounded, "pass"},
		{"address-lines", Lines(size-200, strings.Repeat("a@b ", 99)), Bounded, "pass"},
		{"comma-lines", Lines(size-200, strings.Repeat("pass, ", 66)), Bounded, "pass"},
	}
}

// lineMax is the longest line RFC 5322 allows, without its CRLF.
const lineMax = 990

// Lines is a plain-text message of about n bytes: the command "pass",
// then line over and over. The lines Big repeats are each just not what
// the text cutter looks for, so that it looks at every one of them: a
// rule of dashes (or underscores) with a letter at its end, which is
// tested as a separator; a short header field above a long line that
// starts like one, which makes the cutter look for a header block below
// every other line; a line of 200 bytes with a year and a colon at its
// end, which the cutter tries to join with the next ones into a wrapped
// attribution, or one with a date and a line of text below it; lines of
// 400 bytes with an "@" in each word, which the cutter searches for
// pbem's address, or of commands and commas, which it searches for a
// date. Quote marks and spaces are the control: the cutter
// skips such lines at once.
func Lines(n int, line string) []byte {
	var b bytes.Buffer
	b.WriteString(top + "Content-Type: text/plain; charset=utf-8\r\n\r\npass\r\n")
	for b.Len()+len(line)+2 <= n {
		b.WriteString(line + "\r\n")
	}
	return b.Bytes()
}

const top = "From: Mallory <mallory@evil.test>\r\nTo: game@pbem.example\r\nSubject: pass\r\nMessage-ID: <hostile@evil.test>\r\n"

// nestedLevels is how many levels of Nested fit in size bytes.
func nestedLevels(size int) int { return size / len(nestedLevel(99999)) }

func nestedLevel(i int) string {
	return fmt.Sprintf("Content-Type: multipart/mixed; boundary=b%d\r\n\r\n--b%d\r\n", i, i)
}

// Nested is a message of multiparts nested levels deep, each the only
// part of the one around it, that never close: the shape that took the
// MIME parser minutes at 14,000 levels in 1 MB.
func Nested(levels int) []byte {
	var b bytes.Buffer
	b.WriteString(top + "MIME-Version: 1.0\r\n")
	for i := range levels {
		b.WriteString(nestedLevel(i))
	}
	b.WriteString("Content-Type: text/plain\r\n\r\npass\r\n")
	return b.Bytes()
}

const widePart = "--w\r\n\r\nx\r\n"

// Wide is a multipart of parts empty parts.
func Wide(parts int) []byte {
	var b bytes.Buffer
	b.WriteString(top + "MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=w\r\n\r\n--w\r\nContent-Type: text/plain\r\n\r\npass\r\n")
	for range parts {
		b.WriteString(widePart)
	}
	b.WriteString("--w--\r\n")
	return b.Bytes()
}

// unclosedPart is about the size of one part of Unclosed.
const unclosedPart = len("--o\r\nContent-Type: multipart/mixed; boundary=u99999\r\n\r\n--u99999\r\n\r\n")

// Unclosed is a multipart whose parts each open a multipart of their
// own that never closes (the outer delimiter ends it).
func Unclosed(parts int) []byte {
	var b bytes.Buffer
	b.WriteString(top + "MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=o\r\n\r\n--o\r\nContent-Type: text/plain\r\n\r\npass\r\n")
	for i := range parts {
		fmt.Fprintf(&b, "--o\r\nContent-Type: multipart/mixed; boundary=u%d\r\n\r\n--u%d\r\n\r\n", i, i)
	}
	return b.Bytes()
}

const manyHeader = "X-Filler: x\r\n"

// ManyHeaders is a message with n header fields.
func ManyHeaders(n int) []byte {
	return []byte(top + strings.Repeat(manyHeader, n) + "\r\npass\r\n")
}

// LongHeaderLine is a message whose Subject is one line of n bytes.
func LongHeaderLine(n int) []byte {
	return []byte("From: Mallory <mallory@evil.test>\r\nSubject: pass " + strings.Repeat("a", n) + "\r\n\r\npass\r\n")
}

// LongFoldedHeader is a message whose Subject is n bytes folded into
// short lines: no line is long, the field is.
func LongFoldedHeader(n int) []byte {
	return []byte("From: Mallory <mallory@evil.test>\r\nSubject: pass" + strings.Repeat("\r\n aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", n/33) + "\r\n\r\npass\r\n")
}

// LongBodyLine is a plain-text message whose second line is n bytes.
func LongBodyLine(n int) []byte {
	return []byte(top + "\r\npass\r\n" + strings.Repeat("a", n) + "\r\n")
}

// Base64Part is a command and an attachment of about n bytes of base64.
func Base64Part(n int) []byte {
	var b bytes.Buffer
	b.WriteString(top + "MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=bb\r\n\r\n--bb\r\nContent-Type: text/plain\r\n\r\npass\r\n--bb\r\nContent-Type: application/octet-stream\r\nContent-Disposition: attachment; filename=big.bin\r\nContent-Transfer-Encoding: base64\r\n\r\n")
	line := strings.Repeat("QUJD", 19) + "\r\n"
	for range n / len(line) {
		b.WriteString(line)
	}
	b.WriteString("--bb--\r\n")
	return b.Bytes()
}

// NestedHTML is an HTML-only message with the command and then levels
// nested <div>s.
func NestedHTML(levels int) []byte {
	return []byte(top + "MIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<p>pass</p>" + strings.Repeat("<div>", levels) + "x\r\n")
}

// Expanding is a command and n bytes of U+FDFA, which NFKC turns into
// 33 bytes each three.
func Expanding(n int) []byte {
	return []byte(top + "Content-Type: text/plain; charset=utf-8\r\n\r\npass\r\n" + strings.Repeat("\ufdfa", n/3) + "\r\n")
}

func person() []byte {
	return []byte("From: \"Bob Smith\" <bob@x.test>\r\nTo: game@pbem.example\r\nSubject: Re: Felix #12\r\nMessage-ID: <p1@x.test>\r\n\r\npass\r\n\r\nOn Mon, pbem wrote:\r\n> your turn\r\n")
}

// mail is a short plain-text message with the given header fields
// before the usual ones; from replaces the From field when not "".
func mail(from string, fields ...string) []byte {
	if from == "" {
		from = "Bob <bob@x.test>"
	}
	return []byte("From: " + from + "\r\n" + strings.Join(append(fields, ""), "\r\n") +
		"To: game@pbem.example\r\nSubject: pass\r\nMessage-ID: <m@x.test>\r\n\r\npass\r\n")
}

func headerMails() []Mail {
	return []Mail{
		{"injection-subject", mail("", "Subject: =?utf-8?q?pass=0D=0ABcc:_victim@x.test?="), Clean, "Bob"},
		{"injection-from-name", mail("=?utf-8?q?Bob=0D=0AX-Evil=3A_1?= <bob@x.test>"), Clean, "Bob X-Evil: 1"},
		{"injection-from-name-lf", mail("=?utf-8?b?Qm9iClgtRXZpbDogMQ==?= <bob@x.test>"), Clean, "Bob X-Evil: 1"},
		// An injected Bcc names another address in the display name.
		{"injection-from-bcc", mail("=?utf-8?q?Bob=0D=0ABcc:_victim@x.test?= <bob@x.test>"), FromProblem, "bob@x.test"},
		{"bidi-name", mail("=?utf-8?q?Bob_=E2=80=AEtxt.exe?= <bob@x.test>"), Clean, "Bob txt.exe"},
		{"bidi-isolate-name", mail("=?utf-8?q?=E2=81=A6Bob=E2=81=A9=E2=80=8B?= <bob@x.test>"), Clean, "Bob"},
		{"markup-name", mail(`"<b>Bob</b> <script>alert(1)</script>" <bob@x.test>`), Clean, "<b>Bob</b> <script>alert(1)</script>"},
		{"control-name", mail("=?utf-8?q?Bob=07=1B=5B31m?= <bob@x.test>"), Clean, "Bob [31m"},
	}
}

func fromMails() []Mail {
	return []Mail{
		{"forged-from-unquoted", mail("bob@pbem.test <mallory@evil.test>"), FromProblem, "mallory@evil.test"},
		{"forged-from-comment", mail("bob@pbem.test(x) <mallory@evil.test>"), FromProblem, "mallory@evil.test"},
		{"forged-from-two-angles", mail("<bob@pbem.test> <mallory@evil.test>"), FromProblem, ""},
		{"forged-from-list", mail("bob@pbem.test, mallory@evil.test"), FromProblem, ""},
		{"forged-from-quoted", mail(`"bob@pbem.test" <mallory@evil.test>`), FromProblem, "mallory@evil.test"},
		{"forged-from-encoded", mail("=?utf-8?q?bob=40pbem.test?= <mallory@evil.test>"), FromProblem, "mallory@evil.test"},
		{"forged-from-fullwidth-at", mail("=?utf-8?q?bob=EF=BC=A0pbem.test?= <mallory@evil.test>"), FromProblem, "mallory@evil.test"},
		{"forged-from-two-fields", mail("bob@pbem.test", "From: mallory@evil.test"), FromProblem, ""},
		{"forged-from-group", mail("bob@pbem.test:;"), FromProblem, ""},
	}
}

func loopMails() []Mail {
	loop := func(name, reason string, m []byte) Mail { return Mail{"loop-" + name, m, Automatic, reason} }
	report := func(kind string) []byte {
		return []byte("From: Mail Delivery System <MAILER-DAEMON@mx.x.test>\r\nTo: game@pbem.example\r\nSubject: Undelivered Mail\r\n" +
			"MIME-Version: 1.0\r\nContent-Type: multipart/report; report-type=" + kind + "; boundary=r\r\n\r\n" +
			"--r\r\nContent-Type: text/plain\r\n\r\nThe mail could not be delivered.\r\n" +
			"--r\r\nContent-Type: message/" + kind + "\r\n\r\nReporting-MTA: dns; mx.x.test\r\n\r\n--r--\r\n")
	}
	mdn := []byte("From: Bob <bob@x.test>\r\nTo: game@pbem.example\r\nSubject: Read: your turn\r\n" +
		"MIME-Version: 1.0\r\nContent-Type: multipart/report; report-type=disposition-notification; boundary=r\r\n\r\n" +
		"--r\r\nContent-Type: text/plain\r\n\r\nThe message was displayed.\r\n" +
		"--r\r\nContent-Type: message/disposition-notification\r\n\r\nDisposition: manual-action/MDN-sent-manually; displayed\r\n\r\n--r--\r\n")
	return []Mail{
		loop("auto-submitted", "Auto-Submitted", mail("", "Auto-Submitted: auto-replied")),
		loop("auto-submitted-generated", "Auto-Submitted", mail("", "Auto-Submitted: auto-generated")),
		loop("x-autoreply", "X-Autoreply", mail("", "X-Autoreply: yes")),
		loop("x-autorespond", "X-Autorespond", mail("", "X-Autorespond: Out of office")),
		loop("precedence-bulk", "Precedence", mail("", "Precedence: bulk")),
		loop("precedence-junk", "Precedence", mail("", "Precedence: junk")),
		loop("precedence-list", "Precedence", mail("", "Precedence: list")),
		loop("precedence-auto-reply", "Precedence", mail("", "Precedence: auto_reply")),
		loop("x-precedence", "X-Precedence", mail("", "X-Precedence: bulk")),
		loop("x-loop", "X-Loop", mail("", "X-Loop: tickets@x.test")),
		loop("list-id", "List-Id", mail("", "List-Id: Games <games.x.test>")),
		loop("list-unsubscribe", "List-Unsubscribe", mail("", "List-Unsubscribe: <mailto:unsub@x.test>")),
		loop("return-path-null", "Return-Path", mail("", "Return-Path: <>")),
		loop("dsn", "Content-Type: multipart/report", report("delivery-status")),
		loop("mdn", "Content-Type: multipart/report", mdn),
		loop("mailer-daemon", "sender", mail("MAILER-DAEMON@mx.x.test")),
		loop("postmaster", "sender", mail("Postmaster <postmaster@x.test>")),
		loop("noreply", "sender", mail("noreply@x.test")),
		loop("no-reply", "sender", mail("Shop <no-reply@x.test>")),
		loop("donotreply", "sender", mail("donotreply@x.test")),
		loop("do-not-reply", "sender", mail("do-not-reply@x.test")),
		loop("bounce-verp", "sender", mail("bounces+123-bob=x.test@lists.x.test")),
		loop("bounce", "sender", mail("bounce@x.test")),
		loop("auto-reply", "sender", mail("auto-reply@x.test")),
		loop("noreply-suffix", "sender", mail("noreply-alerts@x.test")),
	}
}
