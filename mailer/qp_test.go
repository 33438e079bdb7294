package mailer

import (
	"bytes"
	"io"
	"mime/quotedprintable"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-message/mail"
	"pgregory.net/rapid"
)

// TestQPEncoderIsTheStandardLibrarys compares qpEncoder with
// mime/quotedprintable's Writer, which go-message used before, on any
// bytes, written in any pieces: long runs that need soft breaks,
// spaces and tabs before breaks and at the end, lone CRs and LFs, CRLF,
// "=", control bytes and UTF-8.
func TestQPEncoderIsTheStandardLibrarys(t *testing.T) {
	alphabet := []byte("aZ9 \t\r\n=.~!\x00\x7f\xc3\xa9\xff<>\"")
	rapid.Check(t, func(t *rapid.T) {
		var pieces []string
		n := rapid.IntRange(0, 6).Draw(t, "pieces")
		for i := range n {
			var p []byte
			switch rapid.IntRange(0, 2).Draw(t, "kind") {
			case 0: // any bytes
				p = rapid.SliceOfN(rapid.Byte(), 0, 300).Draw(t, "bytes")
			case 1: // bytes that matter to quoted-printable
				p = rapid.SliceOfN(rapid.SampledFrom(alphabet), 0, 300).Draw(t, "chars")
			default: // a long line, ending in a space or not
				p = bytes.Repeat([]byte{'x'}, rapid.IntRange(60, 240).Draw(t, "long"))
				if rapid.Bool().Draw(t, "space") {
					p = append(p, ' ')
				}
			}
			_ = i
			pieces = append(pieces, string(p))
		}
		var want bytes.Buffer
		w := quotedprintable.NewWriter(&want)
		var got bytes.Buffer
		e := qpEncoder{out: &got}
		for _, p := range pieces {
			if _, err := w.Write([]byte(p)); err != nil {
				t.Fatal(err)
			}
			e.writeString(p)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		e.close()
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Fatalf("pieces %q:\n got %q\nwant %q", pieces, got.Bytes(), want.Bytes())
		}
	})
}

// FuzzQPEncoder is TestQPEncoderIsTheStandardLibrarys for the fuzzer.
func FuzzQPEncoder(f *testing.F) {
	f.Add("bid 4 \r\n=x\t\n")
	f.Fuzz(func(t *testing.T, s string) {
		var want bytes.Buffer
		w := quotedprintable.NewWriter(&want)
		w.Write([]byte(s))
		w.Close()
		var got bytes.Buffer
		e := qpEncoder{out: &got}
		e.writeString(s)
		e.close()
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Fatalf("%q:\n got %q\nwant %q", s, got.Bytes(), want.Bytes())
		}
	})
}

// composeWithGoMessage is Compose's message as go-message's writers
// composed it before qpEncoder (the header made as Compose makes it):
// what Compose must still write, byte for byte but the boundary.
func composeWithGoMessage(t *rapid.T, h mail.Header, text, html string) []byte {
	var buf bytes.Buffer
	writeClose := func(w io.WriteCloser, body string) {
		if _, err := w.Write([]byte(body)); err != nil {
			t.Fatal(err)
		}
		if !strings.HasSuffix(body, "\n") {
			if _, err := w.Write([]byte{'\n'}); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if html == "" {
		h.Set("Content-Type", textPlain)
		w, err := mail.CreateSingleInlineWriter(&buf, h)
		if err != nil {
			t.Fatal(err)
		}
		writeClose(w, text)
		return buf.Bytes()
	}
	iw, err := mail.CreateInlineWriter(&buf, h)
	if err != nil {
		t.Fatal(err)
	}
	for _, part := range []struct{ typ, body string }{{textPlain, text}, {"text/html; charset=utf-8", html}} {
		var ph mail.InlineHeader
		ph.Set("Content-Type", part.typ)
		pw, err := iw.CreatePart(ph)
		if err != nil {
			t.Fatal(err)
		}
		writeClose(pw, part.body)
	}
	if err := iw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// sameBoundary writes the boundary of a multipart message as B, so that
// two messages can be compared whatever boundary each drew.
func sameBoundary(raw []byte) []byte {
	m := regexp.MustCompile(`boundary=([0-9a-f]+)`).FindSubmatch(raw)
	if m == nil {
		return raw
	}
	return bytes.ReplaceAll(raw, m[1], []byte("B"))
}

// TestComposeIsGoMessages checks that Compose, which writes its parts
// with qpEncoder into textproto's multipart writer, writes the message
// go-message's mail writers wrote, header fields in the same order, for
// any text and HTML, with an HTML part or without.
func TestComposeIsGoMessages(t *testing.T) {
	e := Envelope{FromName: "pbem", From: "pbem@pbem.example", To: "bob@y.test", ReplyTo: "pbem+k7x2qp9w@pbem.example",
		Subject: "Felix #12 with alice, bob, carol, dave", MessageID: "m1@pbem.example",
		InReplyTo: "a@x.test", References: []string{"a@x.test"}, Date: time.Date(2026, 11, 24, 17, 0, 0, 0, time.UTC),
		ListUnsubscribe: "mailto:pbem+unsub@pbem.example?subject=unsubscribe", OneClickUnsubscribe: "https://pbem.example/u/x"}
	rapid.Check(t, func(t *rapid.T) {
		text := rapid.String().Draw(t, "text")
		html := ""
		if rapid.Bool().Draw(t, "html") {
			html = rapid.StringOf(rapid.SampledFrom([]rune("<a href=\"x\">é \t=\r\nbid 4 </a>\u00a0"))).Draw(t, "markup")
		}
		got, err := Compose(e, text, html)
		if err != nil {
			t.Fatal(err)
		}
		// The header as Compose made it, before the parts.
		h, err := envelopeHeader(e)
		if err != nil {
			t.Fatal(err)
		}
		want := composeWithGoMessage(t, h, spaceStuff(text), html)
		if !bytes.Equal(sameBoundary(got), sameBoundary(want)) {
			t.Fatalf("Compose wrote\n%q\ngo-message\n%q", got, want)
		}
	})
}
