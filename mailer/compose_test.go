package mailer

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-message/mail"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/parser"
)

func TestCompose(t *testing.T) {
	t.Parallel()
	e := Envelope{
		FromName: "pbem", From: "pbem@example.test", To: "alice@x.test",
		ReplyTo: "pbem+tok123@example.test", Subject: "Felix #3: your turn to bid (round 2) — ça va",
		MessageID: "g3.s0.e17@example.test", InReplyTo: "g3.s0.e9@example.test",
		References: []string{"g3.s0.e1@example.test", "g3.s0.e9@example.test"},
		Date:       time.Date(2026, 11, 21, 10, 2, 0, 0, time.UTC),
	}
	for _, html := range []string{"", "<p>bid 5</p>"} {
		raw, err := Compose(e, "You can: bid 5..12, pass\n", html)
		if err != nil {
			t.Fatal(err)
		}
		r, err := mail.CreateReader(bytes.NewReader(raw))
		if err != nil {
			t.Fatal(err)
		}
		h := r.Header
		if id, _ := h.MessageID(); id != e.MessageID {
			t.Errorf("Message-ID %q", id)
		}
		if s, _ := h.Subject(); s != e.Subject {
			t.Errorf("Subject %q", s)
		}
		if rt, _ := h.AddressList("Reply-To"); len(rt) != 1 || rt[0].Address != e.ReplyTo {
			t.Errorf("Reply-To %v", rt)
		}
		if refs, _ := h.MsgIDList("References"); len(refs) != 2 || refs[1] != "g3.s0.e9@example.test" {
			t.Errorf("References %v", refs)
		}
		if irt, _ := h.MsgIDList("In-Reply-To"); len(irt) != 1 || irt[0] != e.InReplyTo {
			t.Errorf("In-Reply-To %v", irt)
		}
		if h.Get("Auto-Submitted") != "auto-generated" {
			t.Error("no Auto-Submitted")
		}
		var texts []string
		for {
			p, err := r.NextPart()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(p.Body)
			texts = append(texts, string(b))
		}
		if len(texts) == 0 || !strings.Contains(texts[0], "bid 5..12") {
			t.Errorf("parts %q", texts)
		}
		if html != "" && (len(texts) != 2 || !strings.Contains(texts[1], "<p>bid 5</p>")) {
			t.Errorf("html parts %q", texts)
		}
	}
	if _, err := Compose(Envelope{From: "a@b"}, "x", ""); err == nil {
		t.Error("compose without To and MessageID succeeded")
	}
}

// TestComposeListUnsubscribe: the unsubscribe URI is written as RFC 2369
// asks, between angle brackets, and nothing but a plain mailto: URI is
// written at all.
func TestComposeListUnsubscribe(t *testing.T) {
	t.Parallel()
	e := Envelope{
		FromName: "pbem", From: "pbem@example.test", To: "alice@x.test", Subject: "Felix #3 with alice, bob, carol",
		MessageID: "g3.s0.e17@example.test", Date: time.Date(2026, 11, 21, 10, 2, 0, 0, time.UTC),
		ListUnsubscribe: "mailto:pbem+tok123@example.test?subject=notify%20off",
	}
	raw, err := Compose(e, "text\n", "<p>text</p>")
	if err != nil {
		t.Fatal(err)
	}
	r, err := mail.CreateReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Header.Get("List-Unsubscribe"); got != "<mailto:pbem+tok123@example.test?subject=notify%20off>" {
		t.Errorf("List-Unsubscribe %q", got)
	}
	e.ListUnsubscribe = ""
	raw, err = Compose(e, "text\n", "")
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(raw, []byte("List-Unsubscribe")) {
		t.Error("List-Unsubscribe without a URI")
	}
	for _, bad := range []string{
		"https://pbem.example/unsubscribe",
		"mailto:pbem@example.test>\r\nBcc: <x@y",
		"mailto:pbem@example.test?subject=notify off",
		"mailto:nobody",
	} {
		e.ListUnsubscribe = bad
		if _, err := Compose(e, "text\n", ""); err == nil {
			t.Errorf("List-Unsubscribe %q was written", bad)
		}
	}
}

// The text part is format=flowed: a flowed reader (the parser's, as a
// phone's mail program) puts each wrapped paragraph together again and
// keeps every other line as it is, indented lines and "-- " included;
// and a reply that quotes the mail is still read for its own command.
func TestComposeFlowed(t *testing.T) {
	e := Envelope{From: "pbem@example.test", To: "alice@x.test", Subject: "Felix #3", MessageID: "m1@example.test",
		Date: time.Date(2026, 11, 21, 10, 2, 0, 0, time.UTC)}
	// As the renderer wraps: a soft break is a line that ends in a space.
	text := "Felix #3: your turn to bid (round 2)\n\n" +
		"- carol passes, takes back a stake of 3 and takes the 2-mouse card \nwith 2 mice.\n" +
		"Your move: reply with one of these:\n  bid 2 · 3 · 4\n  pass\n" +
		">not a quote\nFrom the start: alice.\n\n-- \nAny time: help · status\n"
	want := "Felix #3: your turn to bid (round 2)\n\n" +
		"- carol passes, takes back a stake of 3 and takes the 2-mouse card with 2 mice.\n" +
		"Your move: reply with one of these:\n  bid 2 · 3 · 4\n  pass\n" +
		">not a quote\nFrom the start: alice.\n\n-- \nAny time: help · status"
	for _, html := range []string{"", "<p>bid 5</p>"} {
		raw, err := Compose(e, text, html)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(raw, []byte("text/plain; charset=utf-8; format=flowed; delsp=no")) {
			t.Fatalf("the text part is not declared format=flowed:\n%s", raw)
		}
		m, err := parser.Extract(bytes.NewReader(raw), parser.ExtractOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.TrimRight(m.Body, "\n"); got != want {
			t.Errorf("a flowed reader reads\n%q\nnot\n%q", got, want)
		}
	}
	// A reply that quotes the mail line by line, as mail programs do.
	raw, err := Compose(e, text, "")
	if err != nil {
		t.Fatal(err)
	}
	orig, err := parser.Extract(bytes.NewReader(raw), parser.ExtractOptions{})
	if err != nil {
		t.Fatal(err)
	}
	quoted := "> " + strings.ReplaceAll(strings.TrimRight(orig.Body, "\n"), "\n", "\n> ")
	reply := "From: alice@x.test\r\nTo: pbem@example.test\r\nSubject: Re: Felix #3\r\nMessage-ID: <r1@x.test>\r\n" +
		"Content-Type: text/plain; charset=utf-8; format=flowed\r\n\r\nbid 3\r\n\r\nOn Sat, pbem wrote:\r\n" +
		strings.ReplaceAll(quoted, "\n", "\r\n") + "\r\n"
	m, err := parser.Extract(strings.NewReader(reply), parser.ExtractOptions{ServiceAddress: "pbem@example.test"})
	if err != nil {
		t.Fatal(err)
	}
	bid := engine.Spec{Name: "bid", Words: []engine.Word{engine.Kw("bid"), engine.NumArg("N")}}
	cmds, prob := parser.Read(m.Text, parser.Grammar{Specs: []engine.Spec{bid}})
	if prob != nil || len(cmds) != 1 || cmds[0].Text != "bid 3" {
		t.Errorf("the reply quoting the mail reads as %v, %v (its text: %q)", cmds, prob, m.Text)
	}
}

// TestSpaceStuffAsSplit checks spaceStuff, which leaves a text that
// needs no stuffing as it is (issue 40), against stuffing every line.
func TestSpaceStuffAsSplit(t *testing.T) {
	stuffAll := func(text string) string {
		lines := strings.Split(text, "\n")
		for i, l := range lines {
			if strings.HasPrefix(l, " ") || strings.HasPrefix(l, ">") || strings.HasPrefix(l, "From ") {
				lines[i] = " " + l
			}
		}
		return strings.Join(lines, "\n")
	}
	for _, text := range []string{
		"", "plain\ntext\n", " indented", "a\n indented", ">quote", "a\n>quote\n", "From here", "a\nFrom here\n",
		"a From here", "a > b", "Fromage\n", "\n\n", "a\n\n>b",
	} {
		if got, want := spaceStuff(text), stuffAll(text); got != want {
			t.Errorf("spaceStuff(%q) = %q, want %q", text, got, want)
		}
	}
}

// BenchmarkCompose measures composing a game mail of the usual size: a
// text part of a screenful and an HTML part of about 24 kB, both
// quoted-printable (issue 40).
//
//	go test -run '^$' -bench BenchmarkCompose -benchmem ./mailer/
func BenchmarkCompose(b *testing.B) {
	text := strings.Repeat("Felix #12: your turn to bid (round 2)\n- alice bids 4.\n  bid 5 · 6 · 7 · … · 17\n", 12)
	html := strings.Repeat(`<span style="display:inline-block;vertical-align:middle;min-width:30px;margin:2px 1px;padding:4px 7px;border-radius:6px;">rabbit</span>`+"\n", 180)
	e := Envelope{FromName: "pbem", From: "pbem@pbem.example", To: "bob@y.test", ReplyTo: "pbem+k7x2qp9w@pbem.example",
		Subject: "Felix #12 with alice, bob, carol, dave", MessageID: "pbem.q3v5n2ksd7hxo4mfw6ty2lba@pbem.example",
		InReplyTo: "a@x.test", References: []string{"a@x.test"}, Date: time.Date(2026, 11, 24, 17, 0, 0, 0, time.UTC),
		ListUnsubscribe: "mailto:pbem+unsub@pbem.example?subject=unsubscribe"}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := Compose(e, text, html); err != nil {
			b.Fatal(err)
		}
	}
}
