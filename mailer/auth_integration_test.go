//go:build integration

package mailer

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestRealAuthenticationResults sends through the real Postfix, which
// scripts/mailstack sets up as a border MTA pbem may trust (authserv-id
// mx.pbem.test: it strips that id's Authentication-Results from arriving
// mail and, standing in for OpenDMARC, adds its own pass when the test
// asks). A mail that arrives with a forged "mx.pbem.test; dmarc=pass" is
// not authenticated once delivered; one the server itself passed is.
func TestRealAuthenticationResults(t *testing.T) {
	s := mailStack(t)
	user := freshUser("auth")
	to := user + "@" + s.domain
	from := "bob@" + s.domain
	mail := func(subject string, extra ...string) []byte {
		return []byte(fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: %s\r\nMessage-ID: <%s.%d@x>\r\nDate: %s\r\n%s\r\nbid 3\r\n",
			from, to, subject, strings.ReplaceAll(subject, " ", "-"), time.Now().UnixNano(), time.Now().UTC().Format(time.RFC1123Z), strings.Join(append(extra, ""), "\r\n")))
	}
	snd := s.sender(t)
	ctx := context.Background()
	for _, raw := range [][]byte{
		mail("forged", "Authentication-Results: mx.pbem.test; dmarc=pass header.from="+s.domain),
		mail("genuine", "X-Pbem-Test-Dmarc: pass "+s.domain),
	} {
		if err := snd.Send(ctx, from, []string{to}, raw); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(time.Minute)
	var got []StoredMessage
	for len(got) < 2 {
		if time.Now().After(deadline) {
			t.Fatalf("%d of 2 mails delivered within a minute", len(got))
		}
		time.Sleep(100 * time.Millisecond)
		var err error
		if got, err = ReadAll(ctx, s.inboxConfig(user), to); err != nil {
			t.Fatal(err)
		}
	}
	for _, m := range got {
		v := CheckAuthResults(m.Raw, "mx.pbem.test", s.domain)
		forged := strings.Contains(string(m.Raw), "Subject: forged")
		if forged && v.Pass {
			t.Errorf("the forged Authentication-Results were trusted (%s):\n%s", v.Why, m.Raw)
		}
		if !forged && !v.Pass {
			t.Errorf("the server's own pass was not trusted (%s):\n%s", v.Why, m.Raw)
		}
	}
}
