package mailer

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-message/mail"
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
