package daemon

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/pbem/pbem/mailer"
	"github.com/pbem/pbem/parser/hostile"
	"github.com/pbem/pbem/store"
)

// uniqueID gives a corpus mail a Message-ID of its own: the corpus reuses
// a few, and pbem rightly records a Message-ID once. It replaces every
// "Message-ID: <...>" (ASCII letters in any case, the angle brackets on
// one line) wherever it stands, as the regular expression
// (?i)Message-ID: <[^>\r\n]*> would, by a plain scan: that expression
// over the megabyte mails took a twentieth of the hostile tests' time
// under -race.
func uniqueID(raw []byte, n int) []byte {
	const field = "message-id: <"
	id := fmt.Appendf(nil, "Message-ID: <corpus%d@hostile.test>", n)
	var out []byte
	last := 0 // raw[:last] is in out already
	for i := 0; i+len(field) <= len(raw); i++ {
		if !asciiFoldedPrefix(raw[i:], field) {
			continue
		}
		end := bytes.IndexAny(raw[i+len(field):], ">\r\n")
		if end < 0 || raw[i+len(field)+end] != '>' {
			continue
		}
		out = append(append(out, raw[last:i]...), id...)
		last = i + len(field) + end + 1
		i = last - 1
	}
	if out == nil {
		return raw
	}
	return append(out, raw[last:]...)
}

// asciiFoldedPrefix reports whether b starts with lower, a lower-case
// ASCII string, ignoring the case of b's ASCII letters.
func asciiFoldedPrefix(b []byte, lower string) bool {
	if len(b) < len(lower) {
		return false
	}
	for i := range len(lower) {
		c := b[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

// sendRaw hands a whole message to the service, as the inbox would.
func (w *world) sendRaw(raw []byte) {
	w.t.Helper()
	w.uid++
	if err := w.svc.HandleMail(context.Background(), mailer.Message{Mailbox: "INBOX", UIDValidity: 1, UID: w.uid, Raw: raw}); err != nil {
		w.t.Fatalf("handle mail %d: %v", w.uid, err)
	}
	w.flush()
}

// outcome is the record of the last mail handled.
func (w *world) outcome() store.Inbound {
	w.t.Helper()
	all, err := w.st.AllInbound(context.Background())
	if err != nil || len(all) == 0 {
		w.t.Fatalf("no inbound record: %v", err)
	}
	return all[len(all)-1]
}

func (w *world) mailsSent() int {
	w.t.Helper()
	n := 0
	for _, box := range w.inbox {
		n += len(box)
	}
	return n
}

// Every mail of the hostile corpus is recorded and costs no answer unless
// a person may have written it: shapes no client writes are refused
// unanswered, automatic mail is ignored, and the control mail after them
// is answered.
func TestHostileCorpus(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	for i, m := range hostile.Corpus() {
		before := w.mailsSent()
		w.sendRaw(uniqueID(m.Raw, i))
		in := w.outcome()
		sent := w.mailsSent() - before
		switch m.Want {
		case hostile.Refused:
			if Outcome(in.Outcome) != OutcomeRefused || sent != 0 {
				t.Errorf("%s: outcome %s (%s), %d mails sent; want refused, unanswered", m.Name, in.Outcome, in.Detail, sent)
			}
		case hostile.Automatic:
			if Outcome(in.Outcome) != OutcomeIgnored || sent != 0 {
				t.Errorf("%s: outcome %s (%s), %d mails sent; want ignored, unanswered", m.Name, in.Outcome, in.Detail, sent)
			}
		case hostile.FromProblem:
			if Outcome(in.Outcome) == OutcomeApplied {
				t.Errorf("%s: a mail with a forged From was applied", m.Name)
			}
		}
		for addr, box := range w.inbox {
			for _, got := range box {
				if strings.ContainsAny(got.Subject+addr, "\r\n\u202e\u2066") {
					t.Errorf("%s: a mail to %q has subject %q", m.Name, addr, got.Subject)
				}
			}
		}
	}
	// The control: a person's mail is answered.
	w.send("alice@x.test", "pbem@example.test", "help")
	if len(w.inbox["alice@x.test"]) != 1 {
		t.Fatal("a person's mail after the hostile ones was not answered")
	}
}

// The 1 MB shapes that took minutes and half a gigabyte are refused by
// the pre-scan, recorded, and not answered.
func TestHostileMegabyte(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	for i, m := range hostile.Big(1_000_000) { // under the 1 MiB limit, as in the audit
		before := w.mailsSent()
		w.sendRaw(uniqueID(m.Raw, i))
		in := w.outcome()
		switch {
		case m.Want == hostile.Refused && (Outcome(in.Outcome) != OutcomeRefused || w.mailsSent() != before):
			t.Errorf("%s (%d bytes): outcome %s (%s), %d answers; want refused, unanswered", m.Name, len(m.Raw), in.Outcome, in.Detail, w.mailsSent()-before)
		case m.Want == hostile.Bounded && w.mailsSent() != before+1:
			// Read with bounded work: a person may have written it, so
			// it gets its one answer.
			t.Errorf("%s (%d bytes): outcome %s (%s), %d answers; want one", m.Name, len(m.Raw), in.Outcome, in.Detail, w.mailsSent()-before)
		}
	}
}

// A From that mail clients and DMARC read as mallory's is never taken for
// bob's, however it is written.
func TestForgedFromIsNotTheSeat(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test"}
	reply, id := w.startGame("felix", players...)
	for _, from := range []string{
		"bob@y.test <mallory@evil.test>",
		"bob@y.test (x) <mallory@evil.test>",
		"<bob@y.test> <mallory@evil.test>",
		"bob@y.test, mallory@evil.test",
		`"bob@y.test" <mallory@evil.test>`,
	} {
		raw := "From: " + from + "\r\nTo: " + reply["bob@y.test"] + "\r\nSubject: move\r\nMessage-ID: <f" + strings.NewReplacer(" ", "", "<", "", ">", "", ",", "", "\"", "", "(", "", ")", "").Replace(from) + "@evil.test>\r\n\r\n" + w.legal(id, 1) + "\r\n"
		w.sendRaw([]byte(raw))
		if n := w.moves(id); n != 0 {
			t.Fatalf("From %q moved for bob (%d moves)", from, n)
		}
		if in := w.outcome(); Outcome(in.Outcome) == OutcomeApplied {
			t.Errorf("From %q: outcome %s", from, in.Outcome)
		}
	}
	// bob himself still plays.
	w.send("bob@y.test", reply["bob@y.test"], w.legal(id, 1))
	if w.moves(id) != 1 {
		t.Fatal("bob's own mail was not applied")
	}
}

// An inviter's address with encoded CR/LF, markup or U+202E never reaches
// the invitation that pbem sends a third party.
func TestInjectionIntoInvitations(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	for i, from := range []string{
		"=?utf-8?q?Bob=0D=0ABcc=3A_x=40evil=2Etest?= <bob@y.test>",
		"\"<b>Bob</b>\" <bob2@y.test>",
		"=?utf-8?b?4oCuZXZpbA==?= <bob3@y.test>",
		"<bob\u202e@y.test>",
		"\"bob\r\n evil\" <bob4@y.test>",
	} {
		raw := "From: " + from + "\r\nTo: pbem@example.test\r\nSubject: new game\r\nMessage-ID: <inj" + string(rune('a'+i)) + "@y.test>\r\n\r\nnew felix with third@z.test fourth@z.test\r\n"
		w.sendRaw([]byte(raw))
	}
	for _, addr := range []string{"third@z.test", "fourth@z.test"} {
		for _, m := range w.inbox[addr] {
			all := m.Subject + "\n" + m.Text
			for _, bad := range []string{"\u202e", "<b>", "Bcc:", "evil"} {
				if strings.Contains(all, bad) {
					t.Errorf("the invitation to %s holds %q:\n%s", addr, bad, all)
				}
			}
			if bytes.ContainsAny([]byte(m.Subject), "\r\n") {
				t.Errorf("the invitation's subject holds a line break: %q", m.Subject)
			}
		}
	}
}

// With trust_authentication_results set, pbem acts only on mail that the
// trusted receiving server authenticated for the From domain.
func TestTrustAuthenticationResults(t *testing.T) {
	t.Parallel()
	w := newWorldConfig(t, func(c *Config) { c.Limits, c.TrustAuthServID = unlimited, "mx.pbem.test" })
	pass := func(domain string) string {
		return "Authentication-Results: mx.pbem.test; dmarc=pass header.from=" + domain
	}
	w.send("alice@x.test", "pbem@example.test", "new felix with bob@y.test carol@z.test", pass("x.test"))
	bob, carol := w.last("bob@y.test").ReplyTo, w.last("carol@z.test").ReplyTo
	w.send("bob@y.test", bob, "join", pass("y.test"))
	w.send("carol@z.test", carol, "join", pass("z.test"))
	id := w.loaded(1).Row.ID
	cmd := w.legal(id, 1)
	for _, tc := range []struct{ name, header string }{
		{"no results", "X-Nothing: 1"},
		{"another server's pass", "Authentication-Results: mx.evil.test; dmarc=pass header.from=y.test"},
		{"our server's fail", "Authentication-Results: mx.pbem.test; dmarc=fail header.from=y.test"},
		{"spf alone", "Authentication-Results: mx.pbem.test; spf=pass smtp.mailfrom=y.test"},
		{"dkim of another domain", "Authentication-Results: mx.pbem.test; dkim=pass header.d=evil.test"},
	} {
		w.send("bob@y.test", bob, cmd, tc.header)
		if w.moves(id) != 0 {
			t.Fatalf("%s: the move was applied", tc.name)
		}
		if in := w.outcome(); Outcome(in.Outcome) != OutcomeRefused || !strings.Contains(in.Detail, "not authenticated") {
			t.Errorf("%s: outcome %s (%s)", tc.name, in.Outcome, in.Detail)
		}
	}
	w.send("bob@y.test", bob, cmd, "Authentication-Results: mx.pbem.test; dkim=pass header.d=y.test")
	if w.moves(id) != 1 {
		t.Fatalf("an authenticated move was not applied: %s", w.last("bob@y.test").Text)
	}
}

// TestUniqueIDAsTheExpression: uniqueID replaces what the regular
// expression it stands for matches, in the corpus and in edge cases (the
// megabyte mails too, without -race, where the expression is fast).
func TestUniqueIDAsTheExpression(t *testing.T) {
	t.Parallel()
	re := regexp.MustCompile(`(?i)Message-ID: <[^>\r\n]*>`)
	mails := hostile.Corpus()
	if !raceEnabled {
		mails = append(mails, hostile.Big(1_000_000)...)
	}
	for _, raw := range []string{
		"", "Message-ID: <", "message-id: <a>", "MESSAGE-ID: <a\r\n>", "X-Message-Id: <x> Message-ID: <>>",
		"Message-ID: <a\nMessage-ID: <b>", "Message-ID:<a>", "Message-ID: <a>Message-ID: <b>\r\n\r\nmessage-ID: <c>",
	} {
		mails = append(mails, hostile.Mail{Name: fmt.Sprintf("%q", raw), Raw: []byte(raw)})
	}
	for i, m := range mails {
		want := re.ReplaceAll(m.Raw, fmt.Appendf(nil, "Message-ID: <corpus%d@hostile.test>", i))
		if got := uniqueID(m.Raw, i); !bytes.Equal(got, want) {
			t.Errorf("%s: uniqueID differs from the expression", m.Name)
		}
	}
}

// An unauthenticated mail past the sender's refusal budget is recorded
// with both why it was refused and that its sender was not told.
func TestUnauthenticatedPastRefusalBudgetSaysNotAnswered(t *testing.T) {
	t.Parallel()
	w := newWorldConfig(t, func(c *Config) {
		c.Limits, c.TrustAuthServID = unlimited, "mx.pbem.test"
		c.RefusalMax = 1
	})
	fail := "Authentication-Results: mx.pbem.test; dmarc=fail header.from=x.test"
	w.send("alice@x.test", "pbem@example.test", "help", fail)
	if in := w.outcome(); strings.Contains(in.Detail, "not answered") {
		t.Fatalf("the first refusal was not answered: %s", in.Detail)
	}
	w.send("alice@x.test", "pbem@example.test", "help", fail)
	in := w.outcome()
	if !strings.Contains(in.Detail, "not authenticated") || !strings.Contains(in.Detail, "(not answered: too many refusals") {
		t.Errorf("detail %q: want why, and that the sender was not told", in.Detail)
	}
}
