//go:build integration

package mailer

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pbem/pbem/internal/testlib"
)

// TestRealAuthenticationResults sends through the real Postfix, which
// scripts/mailstack sets up as a border MTA pbem may trust (authserv-id
// mx.pbem.test): it deletes that id's Authentication-Results from arriving
// mail with the rule docs/mail-authentication.md gives and, standing in
// for OpenDMARC, adds its own result when a mail asks with the test-only
// field X-Pbem-Test-Dmarc. Each mail is then read back from Dovecot as
// delivered and judged by CheckAuthResults.
func TestRealAuthenticationResults(t *testing.T) {
	t.Parallel()
	s := mailStack(t)
	const id = "mx.pbem.test"
	user := freshUser("auth")
	to := user + "@" + s.domain
	from := "bob@" + s.domain
	forged := func(tag, prefix string) string {
		return prefix + " dmarc=pass reason=" + tag + " header.from=" + s.domain
	}
	type mail struct {
		name  string
		first string   // the first field: the stand-in's request, if any
		extra []string // fields as the sender wrote them
		pass  bool
		// stripped lists reason= tags that must not reach the mailbox;
		// kept lists those that do (forms the deletion rule misses, which
		// pbem must ignore by itself).
		stripped, kept []string
	}
	mails := []mail{
		{name: "forged plain",
			extra:    []string{"Authentication-Results: " + forged("forged-plain", "mx.pbem.test;")},
			stripped: []string{"forged-plain"}},
		{name: "forged folded, other case",
			extra:    []string{"authentication-results:\r\n\tMX.PBEM.TEST;\r\n\t" + forged("forged-folded", "")},
			stripped: []string{"forged-folded"}},
		{name: "forged with space before the colon",
			extra:    []string{"Authentication-Results : " + forged("forged-spaced", "mx.pbem.test;")},
			stripped: []string{"forged-spaced"}},
		{name: "forged dkim pass",
			extra:    []string{"Authentication-Results: mx.pbem.test; dkim=pass reason=forged-dkim header.d=" + s.domain},
			stripped: []string{"forged-dkim"}},
		{name: "forged in forms the rule misses",
			extra: []string{
				"Authentication-Results: (c) " + forged("forged-comment", "mx.pbem.test;"),
				`Authentication-Results: "mx.pbem.test"; ` + forged("forged-quoted", ""),
				"Authentication-Results: " + forged("forged-dot", "mx.pbem.test.;"),
			},
			kept: []string{"forged-comment", "forged-quoted", "forged-dot"}},
		{name: "genuine pass", first: "pass " + s.domain, pass: true},
		{name: "genuine pass above a forged fail", first: "pass " + s.domain,
			extra:    []string{"Authentication-Results: mx.pbem.test; dmarc=fail reason=forged-fail header.from=" + s.domain},
			pass:     true,
			stripped: []string{"forged-fail"}},
		{name: "genuine fail above forged passes", first: "fail " + s.domain,
			extra: []string{
				"Authentication-Results: " + forged("forged-under-fail", "mx.pbem.test;"),
				"Authentication-Results: mx.pbem.test; dkim=pass reason=forged-dkim-under-fail header.d=" + s.domain,
				"Authentication-Results: (c) " + forged("forged-comment-under-fail", "mx.pbem.test;"),
			},
			stripped: []string{"forged-under-fail", "forged-dkim-under-fail"},
			kept:     []string{"forged-comment-under-fail"}},
		{name: "genuine pass for another domain", first: "pass evil.test"},
		{name: "genuine none", first: "none " + s.domain},
	}

	snd := s.sender(t)
	ctx := context.Background()
	for i, m := range mails {
		var h []string
		if m.first != "" {
			h = append(h, "X-Pbem-Test-Dmarc: "+m.first)
		}
		h = append(h, m.extra...)
		h = append(h,
			"From: "+from, "To: "+to, "Subject: auth "+m.name,
			fmt.Sprintf("Message-ID: <auth%d.%d@x.test>", i, time.Now().UnixNano()),
			"Date: "+time.Now().UTC().Format(time.RFC1123Z))
		raw := []byte(strings.Join(h, "\r\n") + "\r\n\r\nbid 3\r\n")
		if err := snd.Send(ctx, from, []string{to}, raw); err != nil {
			t.Fatalf("%s: %v", m.name, err)
		}
	}

	var got []StoredMessage
	testlib.WaitWithin(t, time.Minute, fmt.Sprintf("%d mails delivered", len(mails)), func() bool {
		var err error
		if got, err = ReadAll(ctx, s.inboxConfig(user), to); err != nil {
			t.Fatal(err)
		}
		return len(got) >= len(mails)
	})
	for _, m := range mails {
		var raw string
		for _, g := range got {
			if strings.Contains(string(g.Raw), "Subject: auth "+m.name+"\r\n") {
				raw = string(g.Raw)
			}
		}
		if raw == "" {
			t.Errorf("%s: not delivered", m.name)
			continue
		}
		v := CheckAuthResults([]byte(raw), id, s.domain)
		if v.Pass != m.pass {
			t.Errorf("%s: pass %v (%s), want %v; delivered:\n%s", m.name, v.Pass, v.Why, m.pass, raw)
		}
		for _, tag := range m.stripped {
			if strings.Contains(raw, tag) {
				t.Errorf("%s: the border server kept the forged field %s:\n%s", m.name, tag, raw)
			}
		}
		for _, tag := range m.kept {
			if !strings.Contains(raw, tag) {
				t.Errorf("%s: field %s is gone, so this case tests nothing of pbem's own rule:\n%s", m.name, tag, raw)
			}
		}
		if m.first != "" && !strings.Contains(raw, "Authentication-Results: mx.pbem.test; dmarc=") {
			t.Errorf("%s: the stand-in added no result:\n%s", m.name, raw)
		}
		t.Logf("%s: %s", m.name, v.Why)
	}
}
