package daemon

import (
	"strings"
	"testing"

	"github.com/pbem/pbem/mailer"
	"github.com/pbem/pbem/parser/hostile"
	"github.com/pbem/pbem/templates"
)

// verdictOf reads raw as the service does before its transaction
// (Service.read) and returns the verdict. It needs no store: reading and
// judging a mail touch no state.
func verdictOf(t *testing.T, cfg Config, raw string) verdict {
	t.Helper()
	s := &Service{cfg: cfg}
	s.newPost()
	return s.read(mailer.Message{UID: 1, Raw: []byte(raw)}).v
}

// verdictMail is a mail from from to pbem with extra header lines.
func verdictMail(from, text string, header ...string) string {
	var b strings.Builder
	b.WriteString("From: " + from + "\r\nTo: pbem@example.test\r\nSubject: hi\r\nMessage-ID: <v1@x.test>\r\n")
	for _, h := range header {
		b.WriteString(h + "\r\n")
	}
	b.WriteString("\r\n" + text + "\r\n")
	return b.String()
}

// TestVerdicts has one row for each reason classify can give, and rows
// for the order its checks are made in.
func TestVerdicts(t *testing.T) {
	t.Parallel()
	plain := Config{Address: "pbem@example.test", MaxMessageBytes: 64 << 10}
	trusting := plain
	trusting.TrustAuthServID = "mx.pbem.test"
	pass := "Authentication-Results: mx.pbem.test; dmarc=pass header.from=x.test"
	for _, tc := range []struct {
		name    string
		cfg     Config
		raw     string
		reason  reason
		outcome Outcome
		detail  string // what the detail starts with
		notice  templates.NoticeKind
		answer  string // what the notice's reason holds
	}{
		{name: "hostile", cfg: plain, raw: string(hostile.Nested(25)),
			reason: reasonHostile, outcome: OutcomeRefused, detail: "hostile message: "},
		{name: "unreadable", cfg: plain, raw: "From alice@x.test\r\nthis is no header\r\n\r\nplay 1\r\n",
			reason: reasonUnreadable, outcome: OutcomeUnusable},
		{name: "automatic", cfg: plain, raw: verdictMail("alice@x.test", "I am away", "Auto-Submitted: auto-replied"),
			reason: reasonAutomatic, outcome: OutcomeIgnored, detail: "automatic mail: Auto-Submitted: auto-replied"},
		{name: "no sender", cfg: plain, raw: "To: pbem@example.test\r\nSubject: hi\r\n\r\nhelp\r\n",
			reason: reasonNoSender, outcome: OutcomeUnusable, detail: "no sender address"},
		{name: "sender address a trick", cfg: plain, raw: verdictMail(`"a b"@x.test`, "help"),
			reason: reasonSenderUnusable, outcome: OutcomeRefused, detail: "sender address not usable"},
		{name: "bot seat's address", cfg: plain, raw: verdictMail("bea@"+botDomain, "help"),
			reason: reasonBotSender, outcome: OutcomeRefused, detail: "sender address is a bot seat's"},
		{name: "not authenticated", cfg: trusting, raw: verdictMail("alice@x.test", "help", "Authentication-Results: mx.pbem.test; dmarc=fail header.from=x.test"),
			reason: reasonUnauthenticated, outcome: OutcomeRefused, detail: "not authenticated: ",
			notice: templates.NoticeRefusal, answer: "could not confirm that it comes from alice@x.test"},
		{name: "From not one plain address", cfg: plain, raw: verdictMail("bob@pbem.test <mallory@evil.test>", "help"),
			reason: reasonFromNotPlain, outcome: OutcomeRefused,
			notice: templates.NoticeRefusal, answer: "its From field is not one plain address"},
		{name: "too large", cfg: plain, raw: verdictMail("alice@x.test", strings.Repeat("help\r\n", 20<<10)),
			reason: reasonTooLarge, outcome: OutcomeRefused,
			notice: templates.NoticeTooLarge, answer: "larger than 64 KB"},
		{name: "read", cfg: plain, raw: verdictMail("alice@x.test", "help"),
			reason: reasonRead, outcome: OutcomeHandling},
		{name: "read, authenticated", cfg: trusting, raw: verdictMail("alice@x.test", "help", pass),
			reason: reasonRead, outcome: OutcomeHandling},

		// The order of the checks: what cannot be answered is decided
		// before what can.
		{name: "automatic before a bot's address", cfg: plain, raw: verdictMail("bea@"+botDomain, "help", "Precedence: bulk"),
			reason: reasonAutomatic, outcome: OutcomeIgnored},
		{name: "bot's address before authentication", cfg: trusting, raw: verdictMail("bea@"+botDomain, "help"),
			reason: reasonBotSender, outcome: OutcomeRefused},
		{name: "authentication before the From's shape", cfg: trusting, raw: verdictMail("bob@pbem.test <mallory@evil.test>", "help"),
			reason: reasonUnauthenticated, outcome: OutcomeRefused, notice: templates.NoticeRefusal},
		{name: "a too large mail's header is judged", cfg: plain, raw: verdictMail("alice@x.test", strings.Repeat("help\r\n", 20<<10), "Auto-Submitted: auto-generated"),
			reason: reasonAutomatic, outcome: OutcomeIgnored},
		{name: "authentication before size", cfg: trusting, raw: verdictMail("alice@x.test", strings.Repeat("help\r\n", 20<<10)),
			reason: reasonUnauthenticated, outcome: OutcomeRefused, notice: templates.NoticeRefusal},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			v := verdictOf(t, tc.cfg, tc.raw)
			if v.reason != tc.reason || v.outcome != tc.outcome {
				t.Fatalf("verdict %s, %s (%q); want %s, %s", v.reason, v.outcome, v.detail, tc.reason, tc.outcome)
			}
			if v.act() != (tc.reason == reasonRead) {
				t.Errorf("act() = %v for %s", v.act(), v.reason)
			}
			if !strings.HasPrefix(v.detail, tc.detail) {
				t.Errorf("detail %q; want it to start with %q", v.detail, tc.detail)
			}
			switch {
			case tc.notice == "" && v.notice != nil:
				t.Errorf("notice %s %q; want none: this sender is not answered", v.notice.Kind, v.notice.Reason)
			case tc.notice != "" && v.notice == nil:
				t.Errorf("no notice; want %s", tc.notice)
			case tc.notice != "" && (v.notice.Kind != tc.notice || !strings.Contains(v.notice.Reason, tc.answer)):
				t.Errorf("notice %s %q; want %s with %q", v.notice.Kind, v.notice.Reason, tc.notice, tc.answer)
			}
		})
	}
}

// TestVerdictUnauthenticatedSaysWhy: the record of an unauthenticated
// mail keeps what the receiving server's results said, read once with
// the verdict, and the sender is told only that his mail was not
// confirmed.
func TestVerdictUnauthenticatedSaysWhy(t *testing.T) {
	t.Parallel()
	cfg := Config{Address: "pbem@example.test", MaxMessageBytes: 64 << 10, TrustAuthServID: "mx.pbem.test"}
	raw := verdictMail("alice@x.test", "help", "Authentication-Results: mx.pbem.test; dmarc=fail header.from=x.test")
	v := verdictOf(t, cfg, raw)
	want := "not authenticated: " + mailer.CheckAuthResults([]byte(raw), cfg.TrustAuthServID, "x.test").Why
	if v.detail != want {
		t.Errorf("detail %q; want %q", v.detail, want)
	}
	if v.notice == nil || strings.Contains(v.notice.Reason, "dmarc=fail") {
		t.Errorf("notice %+v: want a refusal that does not quote the results", v.notice)
	}
}

// TestVerdictsOfHostileCorpus judges the hostile corpus without a store:
// what must be refused or ignored is never acted on or answered.
func TestVerdictsOfHostileCorpus(t *testing.T) {
	t.Parallel()
	cfg := Config{Address: "pbem@example.test", MaxMessageBytes: 64 << 10}
	for _, m := range hostile.Corpus() {
		v := verdictOf(t, cfg, string(m.Raw))
		switch m.Want {
		case hostile.Refused:
			if v.reason != reasonHostile || v.notice != nil {
				t.Errorf("%s: verdict %s (%s); want hostile, unanswered", m.Name, v.reason, v.detail)
			}
		case hostile.Automatic:
			if v.reason != reasonAutomatic || v.notice != nil {
				t.Errorf("%s: verdict %s (%s); want automatic, unanswered", m.Name, v.reason, v.detail)
			}
		case hostile.FromProblem:
			if v.act() {
				t.Errorf("%s: a mail with a forged From is to be acted on", m.Name)
			}
		}
	}
}
