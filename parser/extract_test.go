package parser

import (
	"bytes"
	"errors"
	"io"
	"runtime"
	"slices"
	"strings"
	"testing"
)

const headerTestMail = "Return-Path: <alice@x.test>\r\n" +
	"Delivered-To: game+g42@pbem.example\r\n" +
	"From: =?UTF-8?Q?Alice_M=C3=BCller?= <Alice@X.test>\r\n" +
	"To: pbem <game+g42@pbem.example>, bob@y.test\r\n" +
	"Cc: Carol <carol@z.test>\r\n" +
	"Subject: =?ISO-8859-1?Q?Re:_Gr=FC=DFe?=\r\n" +
	"Message-ID: <abc@x.test>\r\n" +
	"In-Reply-To: <g42.r3@pbem.example>\r\n" +
	"References: <g42.invite@pbem.example>\r\n <g42.r3@pbem.example>\r\n" +
	"Auto-Submitted: no\r\n" +
	"Precedence: bulk\r\n" +
	"List-Id: <games.pbem.example>\r\n" +
	"\r\n" +
	"bid 4\r\n"

func TestExtractHeaders(t *testing.T) {
	t.Parallel()
	m, err := Extract(strings.NewReader(headerTestMail), ExtractOptions{})
	if err != nil {
		t.Fatal(err)
	}
	check := func(field, got, want string) {
		t.Helper()
		if got != want {
			t.Errorf("%s = %q, want %q", field, got, want)
		}
	}
	check("From", m.From, "Alice Müller <Alice@X.test>")
	check("FromName", m.FromName, "Alice Müller")
	check("FromAddress", m.FromAddress, "alice@x.test")
	check("Subject", m.Subject, "Re: Grüße")
	check("MessageID", m.MessageID, "abc@x.test")
	check("InReplyTo", m.InReplyTo, "g42.r3@pbem.example")
	check("AutoSubmitted", m.AutoSubmitted, "no")
	check("Precedence", m.Precedence, "bulk")
	check("ListID", m.ListID, "<games.pbem.example>")
	check("DeliveredTo", m.DeliveredTo, "game+g42@pbem.example")
	check("ReturnPath", m.ReturnPath, "alice@x.test")
	check("Text", m.Text, "bid 4")
	if !slices.Equal(m.To, []string{"game+g42@pbem.example", "bob@y.test"}) {
		t.Errorf("To = %q", m.To)
	}
	if !slices.Equal(m.Cc, []string{"carol@z.test"}) {
		t.Errorf("Cc = %q", m.Cc)
	}
	if !slices.Equal(m.References, []string{"g42.invite@pbem.example", "g42.r3@pbem.example"}) {
		t.Errorf("References = %q", m.References)
	}
}

func TestExtractBodies(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, raw, want string
		html            bool
	}{
		{"not MIME", "From: a@x.test\n\nbid 4\n", "bid 4", false},
		{"no header at all", "\nbid 4\n", "bid 4", false},
		{"html only", "From: a@x.test\nContent-Type: text/html; charset=utf-8\n\n<div>bid&nbsp;4</div><blockquote>pass</blockquote>", "bid 4", true},
		{"plain preferred", "From: a@x.test\nContent-Type: multipart/alternative; boundary=b\n\n--b\nContent-Type: text/html\n\n<p>buy</p>\n--b\nContent-Type: text/plain\n\npass\n--b--\n", "pass", false},
		{"text attachment ignored", "From: a@x.test\nContent-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: text/plain\n\npass\n--b\nContent-Type: text/plain; name=a.txt\nContent-Disposition: attachment; filename=a.txt\n\nbid 99\n--b--\n", "pass", false},
		{"forward attached ignored", "From: a@x.test\nContent-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: text/plain\n\npass\n--b\nContent-Type: message/rfc822\n\nFrom: x@y.test\n\nbid 99\n--b--\n", "pass", false},
		{"latin-1", "From: a@x.test\nContent-Type: text/plain; charset=iso-8859-1\nContent-Transfer-Encoding: quoted-printable\n\nbid 4\n\nGr=FC=DFe", "bid 4\n\nGrüße", false},
		{"windows-1252 quotes", "From: a@x.test\nContent-Type: text/plain; charset=windows-1252\nContent-Transfer-Encoding: quoted-printable\n\nI=92ll pass", "I'll pass", false},
		{"base64", "From: a@x.test\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: base64\n\nYmlkIDQK\n", "bid 4", false},
		{"flowed", "From: a@x.test\nContent-Type: text/plain; format=flowed\n\nbid 4 \nmice\n", "bid 4 mice", false},
		{"broken multipart", "From: a@x.test\nContent-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: text/plain\n\npass\n", "pass", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Extract(strings.NewReader(tt.raw), ExtractOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if m.Text != tt.want || m.HTML != tt.html {
				t.Errorf("Text = %q, HTML = %v; want %q, %v", m.Text, m.HTML, tt.want, tt.html)
			}
		})
	}
}

// bigMail is a message of about size bytes: a short command and then a
// large base64 attachment.
func bigMail(size int) []byte {
	var b bytes.Buffer
	b.WriteString("From: a@x.test\r\nContent-Type: multipart/mixed; boundary=bb\r\n\r\n--bb\r\nContent-Type: text/plain\r\n\r\npass\r\n--bb\r\nContent-Type: image/jpeg\r\nContent-Disposition: attachment; filename=big.jpg\r\nContent-Transfer-Encoding: base64\r\n\r\n")
	line := strings.Repeat("QUJD", 19) + "\r\n"
	for b.Len() < size-len("--bb--\r\n") {
		b.WriteString(line)
	}
	b.WriteString("--bb--\r\n")
	return b.Bytes()
}

func TestExtractTooLarge(t *testing.T) {
	raw := bigMail(10 << 20)
	_, err := Extract(bytes.NewReader(raw), ExtractOptions{})
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("Extract of 10 MB: err = %v, want ErrTooLarge", err)
	}
	// Refusing reads no more than the limit and a byte, whatever follows.
	r := &countingReader{r: bytes.NewReader(raw)}
	if _, err := Extract(r, ExtractOptions{MaxBytes: 1000}); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("err = %v, want ErrTooLarge", err)
	}
	if r.n > 1001 {
		t.Errorf("read %d bytes for a limit of 1000", r.n)
	}
	// The memory a refusal takes is bounded by the limit, not the
	// message: a few times 1 MB (more under the race detector), well
	// below the 10 MB that reading the message would take.
	alloc := allocated(func() { _, _ = Extract(bytes.NewReader(raw), ExtractOptions{}) })
	if alloc > 6*DefaultMaxBytes {
		t.Errorf("refusing a 10 MB message allocated %d bytes", alloc)
	}
}

func TestExtractLargeAllowed(t *testing.T) {
	raw := bigMail(10 << 20)
	var m Message
	var err error
	alloc := allocated(func() { m, err = Extract(bytes.NewReader(raw), ExtractOptions{MaxBytes: 16 << 20}) })
	if err != nil {
		t.Fatal(err)
	}
	if m.Text != "pass" {
		t.Errorf("Text = %q, want pass", m.Text)
	}
	// A few copies of the message (the parser's buffers, the decoded
	// attachment) at most: nothing grows faster than the size.
	if alloc > 5*uint64(len(raw)) {
		t.Errorf("a 10 MB message allocated %d MB", alloc>>20)
	}
}

func TestExtractHugeTextBody(t *testing.T) {
	t.Parallel()
	// 10 MB of text: cutting and reading stay linear.
	body := "pass\n" + strings.Repeat(strings.Repeat("word ", 20)+"\n", 100_000)
	raw := "From: a@x.test\n\n" + body
	m, err := Extract(strings.NewReader(raw), ExtractOptions{MaxBytes: 16 << 20})
	if err != nil {
		t.Fatal(err)
	}
	cmds, prob := Read(m.Text, felixLang())
	if len(cmds) != 1 || prob == nil || prob.Line != 2 {
		t.Errorf("got %v, problem %v; want pass and a problem on line 2", cmds, prob)
	}
}

func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}
