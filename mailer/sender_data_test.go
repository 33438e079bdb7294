package mailer

import (
	"bufio"
	"bytes"
	"context"
	"net"
	"net/textproto"
	"strings"
	"testing"
	"time"
)

// dotStuffed is what net/textproto's DATA writer (go-mail's) puts on the
// wire for raw, its final ".\r\n" included.
func dotStuffed(raw []byte) []byte {
	var out bytes.Buffer
	bw := bufio.NewWriter(&out)
	w := textproto.NewWriter(bw).DotWriter()
	w.Write(raw)
	w.Close()
	return out.Bytes()
}

// stuffedHere is what writeData puts on the wire for raw when its lines
// are crlfLines: raw stuffed by writeStuffed, its last CRLF, and the
// DATA writer's final ".\r\n".
func stuffedHere(t testing.TB, raw []byte) []byte {
	var out bytes.Buffer
	if err := writeStuffed(&out, raw[:len(raw)-len(crlf)]); err != nil {
		t.Fatal(err)
	}
	out.WriteString("\r\n.\r\n")
	return out.Bytes()
}

// TestCRLFLines: a message whose lines crlfLines finds all CRLF is
// written by writeStuffed as the DATA writer would have written it; the
// others, which need line ends, are left to the DATA writer.
func TestCRLFLines(t *testing.T) {
	t.Parallel()
	composed, err := Compose(Envelope{
		From: "pbem@example.test", To: "ann@example.test", Subject: "Felix #1",
		Date: time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC), MessageID: "m1@example.test",
	}, strings.Repeat("A line of a game mail.\r\n", 50)+"Ünïcode, and a long line "+strings.Repeat("x", 200)+"\r\n",
		"<p>html</p>"+strings.Repeat("<p>A sentence long enough to be broken by quoted-printable just before its full stop.</p>", 30))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(composed, []byte("\n.")) {
		t.Fatalf("the composed message has no line that begins with a dot, which the test needs:\n%s", composed)
	}
	for _, tc := range []struct {
		name  string
		raw   string
		ready bool
	}{
		{"composed", string(composed), true},
		{"plain", "Subject: x\r\n\r\nbody\r\n", true},
		{"one line", "x\r\n", true},
		{"dot inside a line", "Subject: x\r\n\r\na.b\r\n", true},
		{"leading dot", ".x\r\n", true},
		{"dot line", "Subject: x\r\n\r\n.\r\nmore\r\n", true},
		{"dot lines in a row", ".\r\n..\r\n.a\r\n", true},
		{"last line a dot", "a\r\n.\r\n", true},
		{"dot after a bare LF", "a\n.b\r\n", false},
		{"bare LF", "Subject: x\n\nbody\n", false},
		{"bare CR", "a\rb\r\n", false},
		{"CR CR LF", "a\r\r\n", false},
		{"unended last line", "a\r\nb", false},
		{"ends in CR", "a\r\nb\r", false},
		{"empty", "", false},
		{"just CRLF", "\r\n", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			raw := []byte(tc.raw)
			if got := crlfLines(raw); got != tc.ready {
				t.Errorf("crlfLines(%q) = %t, want %t", tc.raw, got, tc.ready)
			}
			if crlfLines(raw) {
				if got, want := stuffedHere(t, raw), dotStuffed(raw); !bytes.Equal(got, want) {
					t.Errorf("%.40q: writeStuffed writes %q, the DATA writer %q", tc.raw, got, want)
				}
			}
		})
	}
}

// FuzzCRLFLines: whatever crlfLines lets past goes on the wire as the
// DATA writer would have written it.
func FuzzCRLFLines(f *testing.F) {
	for _, s := range []string{"a\r\n", ".\r\n", "a\n.b\r\n", "a\r\r\n", "a\rb\r\n", "x\r\n.\r\n", "\r\n", ".a\r\n..\r\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if crlfLines(raw) {
			if got, want := stuffedHere(t, raw), dotStuffed(raw); !bytes.Equal(got, want) {
				t.Fatalf("%q: writeStuffed writes %q, the DATA writer %q", raw, got, want)
			}
		}
	})
}

// wireServer is an SMTP server that takes every message and hands on
// the bytes each DATA carried, up to and with the final ".\r\n".
func wireServer(t *testing.T) (addr string, data <-chan []byte) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	out := make(chan []byte, 16)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go serveWire(c, out)
		}
	}()
	return ln.Addr().String(), out
}

func serveWire(c net.Conn, out chan<- []byte) {
	defer c.Close()
	r := bufio.NewReader(c)
	reply := func(s string) { c.Write([]byte(s + "\r\n")) }
	reply("220 wire.test ESMTP")
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		switch cmd := strings.ToUpper(strings.TrimSpace(line)); {
		case strings.HasPrefix(cmd, "EHLO"):
			reply("250 wire.test")
		case cmd == "DATA":
			reply("354 go on")
			var data []byte
			for !bytes.HasSuffix(data, []byte("\r\n.\r\n")) && !bytes.Equal(data, []byte(".\r\n")) {
				b, err := r.ReadByte()
				if err != nil {
					return
				}
				data = append(data, b)
			}
			out <- data
			reply("250 taken")
		case cmd == "QUIT":
			reply("221 bye")
			return
		default:
			reply("250 ok")
		}
	}
}

// TestSenderDataOnTheWire: the bytes after DATA are what net/textproto's
// DATA writer makes of the message, whether its lines all end in CRLF
// (stuffed by writeStuffed) or not (written through the DATA writer),
// message after message over one session.
func TestSenderDataOnTheWire(t *testing.T) {
	t.Parallel()
	addr, data := wireServer(t)
	s, err := NewSender(SenderConfig{Addr: addr, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	big := "Subject: big\r\n\r\n" + strings.Repeat("A line of a game mail, as long as most of them are.\r\n", 400)
	for _, raw := range []string{
		big,
		"Subject: dots\r\n\r\n.leading\r\n..two\r\n.\r\nend\r\n",
		"Subject: bare\n\nLF only\nand no end",
		"Subject: x\r\n\r\nplain\r\n",
		big + ".after a big one\r\n",
	} {
		if err := s.Send(context.Background(), "pbem@wire.test", []string{"ann@wire.test"}, []byte(raw)); err != nil {
			t.Fatal(err)
		}
		if got, want := <-data, dotStuffed([]byte(raw)); !bytes.Equal(got, want) {
			t.Errorf("DATA of %.20q…: %d bytes on the wire, want the DATA writer's %d", raw, len(got), len(want))
		}
	}
	if d := s.Dials(); d != 1 {
		t.Errorf("%d sessions, want 1", d)
	}
}
