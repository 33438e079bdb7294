package intake

import (
	"strings"
	"testing"

	"github.com/pbem/pbem/mailer"
	"github.com/pbem/pbem/parser/hostile"
)

// verdictOf reads raw as the daemon does before its transaction (Read)
// and returns the verdict. It needs no store: reading and judging a mail
// touch no state.
func verdictOf(t *testing.T, cfg Config, raw string) Verdict {
	t.Helper()
	return Read(cfg, mailer.Message{UID: 1, Raw: []byte(raw)}).Verdict
}

// testConfig is a Config for pbem@example.test that reads mail up to
// 64 KB, with the store's spellings of its keys written out.
func testConfig() Config {
	return Config{
		Address: "pbem@example.test", Separator: "+", Mailbox: "INBOX", MaxMessageBytes: 64 << 10,
		NormalizeAddress: func(a string) string { return strings.ToLower(strings.TrimSpace(a)) },
		SentAs: func(id, from, to string) string {
			if id == "" {
				return ""
			}
			return from + " " + to + " " + id
		},
	}
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
	plain := testConfig()
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
		notice  RefusalKind
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
		{name: "bot seat's address", cfg: plain, raw: verdictMail("bea@"+BotDomain, "help"),
			reason: reasonBotSender, outcome: OutcomeRefused, detail: "sender address is a bot seat's"},
		{name: "not authenticated", cfg: trusting, raw: verdictMail("alice@x.test", "help", "Authentication-Results: mx.pbem.test; dmarc=fail header.from=x.test"),
			reason: reasonUnauthenticated, outcome: OutcomeRefused, detail: "not authenticated: ",
			notice: RefusalNotRead, answer: "could not confirm that it comes from alice@x.test"},
		{name: "From not one plain address", cfg: plain, raw: verdictMail("bob@pbem.test <mallory@evil.test>", "help"),
			reason: reasonFromNotPlain, outcome: OutcomeRefused,
			notice: RefusalNotRead, answer: "its From field is not one plain address"},
		{name: "too large", cfg: plain, raw: verdictMail("alice@x.test", strings.Repeat("help\r\n", 20<<10)),
			reason: reasonTooLarge, outcome: OutcomeRefused,
			notice: RefusalTooLarge, answer: "larger than 64 KB"},
		{name: "read", cfg: plain, raw: verdictMail("alice@x.test", "help"),
			reason: reasonRead, outcome: OutcomeHandling},
		{name: "read, authenticated", cfg: trusting, raw: verdictMail("alice@x.test", "help", pass),
			reason: reasonRead, outcome: OutcomeHandling},

		// The order of the checks: what cannot be answered is decided
		// before what can.
		{name: "automatic before a bot's address", cfg: plain, raw: verdictMail("bea@"+BotDomain, "help", "Precedence: bulk"),
			reason: reasonAutomatic, outcome: OutcomeIgnored},
		{name: "bot's address before authentication", cfg: trusting, raw: verdictMail("bea@"+BotDomain, "help"),
			reason: reasonBotSender, outcome: OutcomeRefused},
		{name: "authentication before the From's shape", cfg: trusting, raw: verdictMail("bob@pbem.test <mallory@evil.test>", "help"),
			reason: reasonUnauthenticated, outcome: OutcomeRefused, notice: RefusalNotRead},
		{name: "a too large mail's header is judged", cfg: plain, raw: verdictMail("alice@x.test", strings.Repeat("help\r\n", 20<<10), "Auto-Submitted: auto-generated"),
			reason: reasonAutomatic, outcome: OutcomeIgnored},
		{name: "authentication before size", cfg: trusting, raw: verdictMail("alice@x.test", strings.Repeat("help\r\n", 20<<10)),
			reason: reasonUnauthenticated, outcome: OutcomeRefused, notice: RefusalNotRead},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			v := verdictOf(t, tc.cfg, tc.raw)
			if v.reason != tc.reason || v.Outcome != tc.outcome {
				t.Fatalf("verdict %s, %s (%q); want %s, %s", v.reason, v.Outcome, v.Detail, tc.reason, tc.outcome)
			}
			if v.Act() != (tc.reason == reasonRead) {
				t.Errorf("Act() = %v for %s", v.Act(), v.reason)
			}
			if !strings.HasPrefix(v.Detail, tc.detail) {
				t.Errorf("detail %q; want it to start with %q", v.Detail, tc.detail)
			}
			switch {
			case tc.notice == "" && v.Refusal != nil:
				t.Errorf("notice %s %q; want none: this sender is not answered", v.Refusal.Kind, v.Refusal.Text)
			case tc.notice != "" && v.Refusal == nil:
				t.Errorf("no notice; want %s", tc.notice)
			case tc.notice != "" && (v.Refusal.Kind != tc.notice || !strings.Contains(v.Refusal.Text, tc.answer)):
				t.Errorf("notice %s %q; want %s with %q", v.Refusal.Kind, v.Refusal.Text, tc.notice, tc.answer)
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
	cfg := testConfig()
	cfg.TrustAuthServID = "mx.pbem.test"
	raw := verdictMail("alice@x.test", "help", "Authentication-Results: mx.pbem.test; dmarc=fail header.from=x.test")
	v := verdictOf(t, cfg, raw)
	want := "not authenticated: " + mailer.CheckAuthResults([]byte(raw), cfg.TrustAuthServID, "x.test").Why
	if v.Detail != want {
		t.Errorf("detail %q; want %q", v.Detail, want)
	}
	if v.Refusal == nil || strings.Contains(v.Refusal.Text, "dmarc=fail") {
		t.Errorf("notice %+v: want a refusal that does not quote the results", v.Refusal)
	}
}

// TestVerdictsOfHostileCorpus judges the hostile corpus without a store:
// what must be refused or ignored is never acted on or answered.
func TestVerdictsOfHostileCorpus(t *testing.T) {
	t.Parallel()
	cfg := testConfig()
	for _, m := range hostile.Corpus() {
		v := verdictOf(t, cfg, string(m.Raw))
		switch m.Want {
		case hostile.Refused:
			if v.reason != reasonHostile || v.Refusal != nil {
				t.Errorf("%s: verdict %s (%s); want hostile, unanswered", m.Name, v.reason, v.Detail)
			}
		case hostile.Automatic:
			if v.reason != reasonAutomatic || v.Refusal != nil {
				t.Errorf("%s: verdict %s (%s); want automatic, unanswered", m.Name, v.reason, v.Detail)
			}
		case hostile.FromProblem:
			if v.Act() {
				t.Errorf("%s: a mail with a forged From is to be acted on", m.Name)
			}
		}
	}
}
