//go:build integration

package demo

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestBounceRealMail invites an address Postfix refuses (scripts/mailstack
// bounces refused-*@example.test after accepting it): Postfix's own DSN
// goes to the invitation's bounce address, pbem reads it from its
// mailbox, and the creator is told within a minute (issue 37, Done when).
// Then a forged DSN, sent to pbem's bare address and to a seat's address,
// changes nothing.
func TestBounceRealMail(t *testing.T) {
	ctx := context.Background()
	w, err := Start(ctx, Options{Seed: 37, Mail: mailSystem(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	alice, bob, refused := w.Player("alice"), w.Player("bob"), w.Player("refused")
	if err := w.Send(ctx, alice, w.Address, "new", "", fmt.Sprintf("new felix with %s %s", bob, refused)); err != nil {
		t.Fatal(err)
	}
	// Within a minute: the bound, and the wait's, not a sleep.
	wait, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	told := waitFor(t, wait, w, alice, func(m Mail) bool {
		return strings.Contains(strings.Join(strings.Fields(m.Text), " "), "bounced, so that address cannot play")
	})
	t.Logf("alice was told: %s", told.Headline)
	if u, err := w.Store.IsUnreachable(ctx, refused); err != nil || !u {
		t.Fatalf("%s unreachable %t (%v), want true", refused, u, err)
	}

	// Forged: Postfix's shape, naming bob, to the bare address and to
	// bob's seat address (his invitation's Reply-To).
	invitation := waitFor(t, wait, w, bob, func(m Mail) bool { return m.ReplyTo != "" })
	// The service's mailbox holds alice's new and the DSN, both handled.
	waitProcessed(t, ctx, w, 2, time.Minute)
	for i, to := range []string{w.Address, invitation.ReplyTo} {
		raw := fmt.Sprintf("From: MAILER-DAEMON@mail.example.test (Mail Delivery System)\r\nTo: %s\r\n"+
			"Subject: Undelivered Mail Returned to Sender\r\nMessage-ID: <forged%d.%s>\r\nAuto-Submitted: auto-replied\r\n"+
			"MIME-Version: 1.0\r\nContent-Type: multipart/report; report-type=delivery-status; boundary=\"B\"\r\n\r\n"+
			"--B\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mail.example.test\r\n\r\n"+
			"Final-Recipient: rfc822; %s\r\nAction: failed\r\nStatus: 5.1.1\r\n\r\n--B--\r\n", to, i, bob, bob)
		if err := w.SendRaw(ctx, "forger@example.test", to, []byte(raw)); err != nil {
			t.Fatal(err)
		}
	}
	waitProcessed(t, ctx, w, 4, time.Minute)
	if u, err := w.Store.IsUnreachable(ctx, bob); err != nil || u {
		t.Errorf("a forged DSN made %s unreachable %t (%v)", bob, u, err)
	}
}
