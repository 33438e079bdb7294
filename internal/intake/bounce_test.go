package intake

import (
	"fmt"
	"testing"

	"github.com/pbem/pbem/mailer"
)

// A mail to a bounce address is a bounce candidate whatever its marks,
// read as a bounce; the same DSN to the bare address or a seat's is
// automatic mail, ignored there.
func TestBounceVerdict(t *testing.T) {
	const report = "Return-Path: <>\r\nFrom: MAILER-DAEMON@mx.y.test\r\nTo: %s\r\nSubject: Undelivered Mail Returned to Sender\r\n" +
		"Message-ID: <d@mx.y.test>\r\nContent-Type: multipart/report; report-type=delivery-status; boundary=B\r\n\r\n" +
		"--B\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx.y.test\r\n\r\n" +
		"Final-Recipient: rfc822; bob@y.test\r\nAction: failed\r\nStatus: 5.1.1\r\n\r\n--B--\r\n"
	cases := []struct {
		to     string
		bounce bool
	}{
		{"pbem+b-1-abcdefghijklmnop@example.test", true},
		{"PBEM+B-1-abcdefghijklmnop@example.test", true},
		{"pbem@example.test", false},
		{"pbem+abcdefghijklmnop@example.test", false},
		{"pbem+b-1-abcdefghijklmnop@elsewhere.test", false},
	}
	for _, c := range cases {
		m := Read(testConfig(), mailer.Message{Raw: []byte(fmt.Sprintf(report, c.to))})
		if m.Verdict.IsBounce() != c.bounce {
			t.Errorf("to %s: bounce %t, want %t", c.to, m.Verdict.IsBounce(), c.bounce)
		}
		if c.bounce && (m.Bounce.Kind != mailer.BounceHard || m.Verdict.Act() || m.Verdict.Refusal != nil) {
			t.Errorf("to %s: %+v, %+v; want a hard bounce, not acted on nor answered", c.to, m.Bounce, m.Verdict)
		}
		if !c.bounce && (m.Bounce.Kind != mailer.BounceNone || m.Verdict.Outcome != OutcomeIgnored) {
			t.Errorf("to %s: %+v, %+v; want automatic mail, ignored", c.to, m.Bounce, m.Verdict)
		}
	}
}
