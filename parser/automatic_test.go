package parser

import (
	"bytes"
	"strings"
	"testing"

	"github.com/pbem/pbem/parser/hostile"
)

// TestAutomaticLoops reads every loop mail of the hostile corpus: each
// is automatic for the reason it was built with.
func TestAutomaticLoops(t *testing.T) {
	t.Parallel()
	n := 0
	for _, m := range hostile.Corpus() {
		if m.Want != hostile.Automatic {
			continue
		}
		n++
		t.Run(m.Name, func(t *testing.T) {
			msg, err := Extract(bytes.NewReader(m.Raw), ExtractOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if got := Automatic(msg); !strings.HasPrefix(got, m.Detail) {
				t.Errorf("Automatic = %q, want %q...", got, m.Detail)
			}
		})
	}
	if n < 20 {
		t.Errorf("only %d loop mails", n)
	}
}

// TestAutomaticPerson checks mails a person writes: none is automatic,
// also with headers that look automatic but are not markers.
func TestAutomaticPerson(t *testing.T) {
	t.Parallel()
	for _, fields := range []string{
		"",
		"Auto-Submitted: no\r\n",
		"Auto-Submitted:  No \r\n",
		"Precedence: first-class\r\n",
		"X-Auto-Response-Suppress: All\r\n",
		"Feedback-ID: 1:campaign:ses\r\n",
		"Return-Path: <bob@x.test>\r\n",
		"Content-Type: multipart/mixed; boundary=b\r\n",
	} {
		for _, from := range []string{"Bob <bob@x.test>", "replyall@x.test", "bouncer@x.test", "postmasters@x.test", "noreplyer@x.test"} {
			raw := "From: " + from + "\r\n" + fields + "Subject: pass\r\n\r\n--b\r\n\r\npass\r\n--b--\r\n"
			m, err := Extract(strings.NewReader(raw), ExtractOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if got := Automatic(m); got != "" {
				t.Errorf("From %s with %q: Automatic = %q, want a person's", from, fields, got)
			}
		}
	}
	m, _ := Extract(strings.NewReader("From: a@x.test\r\nFeedback-ID: 1:c:ses\r\n\r\npass\r\n"), ExtractOptions{})
	if m.FeedbackID != "1:c:ses" {
		t.Errorf("FeedbackID = %q", m.FeedbackID)
	}
}

func TestAutomaticFields(t *testing.T) {
	t.Parallel()
	tests := []struct {
		m    Message
		want string
	}{
		{Message{AutoSubmitted: "auto-replied"}, "Auto-Submitted: auto-replied"},
		{Message{AutoSubmitted: "no"}, ""},
		{Message{XAutoreply: "yes"}, "X-Autoreply"},
		{Message{XAutorespond: "1"}, "X-Autorespond"},
		{Message{Precedence: "Bulk"}, "Precedence: bulk"},
		{Message{XPrecedence: "auto_reply"}, "X-Precedence: auto_reply"},
		{Message{XLoop: "x"}, "X-Loop"},
		{Message{ListID: "<l.x>"}, "List-Id"},
		{Message{ListUnsubscribe: "<mailto:u@x>"}, "List-Unsubscribe"},
		{Message{NullSender: true}, "Return-Path: <>"},
		{Message{ContentType: "multipart/report"}, "Content-Type: multipart/report"},
		{Message{ContentType: "message/delivery-status"}, "Content-Type: message/delivery-status"},
		{Message{FromAddress: "MAILER-DAEMON@x.test"}, "sender mailer-daemon@"},
		{Message{FromAddress: "bounces+a=b@x.test"}, "sender bounces+a=b@"},
		{Message{FromAddress: "no_reply@x.test"}, "sender no_reply@"},
		{Message{FromAddress: "noreply.alerts@x.test"}, "sender noreply.alerts@"},
		{Message{FromAddress: "bob@x.test", FeedbackID: "x"}, ""},
		{Message{}, ""},
	}
	for _, tt := range tests {
		if got := Automatic(tt.m); got != tt.want {
			t.Errorf("Automatic(%+v) = %q, want %q", tt.m, got, tt.want)
		}
	}
}
