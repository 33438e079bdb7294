package intake

import (
	"errors"
	"strings"

	"github.com/pbem/pbem/mailer"
	"github.com/pbem/pbem/parser"
	"github.com/pbem/pbem/templates"
)

// Outcome is what became of an inbound mail. Its text is what the store
// keeps (store.Inbound.Outcome), what the log says and the metrics label.
// A verdict gives the outcome of a mail pbem does not act on; the daemon
// gives that of one it acts on (applied or answered) and of one it sets
// aside (failed). It is one type, declared here at the bottom, so that
// the record, the log and the metrics share one vocabulary.
type Outcome string

// Outcomes recorded for inbound mail.
const (
	OutcomeHandling Outcome = "handling" // recorded, not yet handled: seen only inside the transaction
	OutcomeApplied  Outcome = "applied"  // at least one command changed something
	OutcomeAnswered Outcome = "answered" // read and answered; nothing changed
	OutcomeRefused  Outcome = "refused"  // not accepted: wrong sender, unknown address, too large
	OutcomeIgnored  Outcome = "ignored"  // automatic mail: never answered
	OutcomeUnusable Outcome = "unusable" // no header we could trust
	OutcomeFailed   Outcome = "failed"   // set aside after repeated errors: nothing applied
)

// reason says which check decided a mail's verdict. Each reason is one
// check of classify, in the order classify makes them.
type reason string

// The reasons of a verdict.
const (
	// reasonHostile: a shape no mail program writes, refused by the
	// parser's pre-scan (parser.ErrHostile).
	reasonHostile reason = "hostile"
	// reasonUnreadable: the parser could not read the mail.
	reasonUnreadable reason = "unreadable"
	// reasonAutomatic: a mail a program sent (parser.Automatic).
	reasonAutomatic reason = "automatic"
	// reasonNoSender: no From address to answer.
	reasonNoSender reason = "no-sender"
	// reasonSenderUnusable: a From address with control or bidi
	// characters, quotes or spaces (parser.CheckAddress).
	reasonSenderUnusable reason = "sender-unusable"
	// reasonBotSender: a From address in the bot seats' domain.
	reasonBotSender reason = "bot-sender"
	// reasonUnauthenticated: sender authentication is trusted
	// (Config.TrustAuthServID) and does not show the From domain
	// authenticated.
	reasonUnauthenticated reason = "unauthenticated"
	// reasonFromNotPlain: the From field is not one plain address.
	reasonFromNotPlain reason = "from-not-plain"
	// reasonTooLarge: over Config.MaxMessageBytes, read for its header
	// only.
	reasonTooLarge reason = "too-large"
	// reasonRead: none of the above; the mail is read and acted on.
	reasonRead reason = "read"
)

// A Verdict is what reading a mail decides before anything is stored:
// whether pbem acts on the mail, and if not, why and what the sender is
// told. classify makes it from the mail and the Config alone, once,
// outside the transaction, as mox's smtpserver/analyze.go judges a
// delivery before acting on it. The transaction adds only what needs the
// database: whether the mail was seen before, the refusal budget, the
// loop breaker, and the routing of a mail that is acted on.
type Verdict struct {
	reason reason
	// Outcome is the mail's outcome; OutcomeHandling for a mail that is
	// acted on (Act), whose outcome its commands decide.
	Outcome Outcome
	// Detail is what the inbound record and the log keep. For a verdict
	// with a Refusal it is empty when the refusal's text says it.
	Detail string
	// Refusal is what the sender is told, within his refusal budget;
	// nil when he is not answered.
	Refusal *Refusal
}

// Act says whether the mail is read and acted on.
func (v Verdict) Act() bool { return v.reason == reasonRead }

// RefusalKind says which notice a refusal is sent as. It is intake's own
// word, mapped to the template by the daemon, so that judging a mail
// needs no renderer.
type RefusalKind string

// The kinds of refusal.
const (
	// RefusalNotRead: the mail is not read for what its header shows
	// (its From, its authentication).
	RefusalNotRead RefusalKind = "not-read"
	// RefusalTooLarge: the mail is over Config.MaxMessageBytes.
	RefusalTooLarge RefusalKind = "too-large"
)

// A Refusal is the answer that tells a mail's sender why pbem did not
// act on it.
type Refusal struct {
	Kind RefusalKind
	Text string // what the sender reads: why, and what to do; English, as the record keeps it
	// Says is Text in the words of the sender's language, which the
	// daemon knows from its store (issue 39).
	Says func(templates.Words) string
}

// parsedMail is an inbound mail as the parser read it: what classify judges.
type parsedMail struct {
	raw      []byte         // the mail as received, for its Authentication-Results
	msg      parser.Message // what the parser read
	from     string         // msg's From address, bare and normalised
	tooLarge bool           // over the size limit: msg holds the header only
	err      error          // why the mail could not be read, if it could not
}

// classify decides what becomes of a read mail, from the mail and cfg
// alone. The checks run in a fixed order, the cheap and certain before
// the rest: a mail is refused without an answer when its sender cannot
// be trusted to be the one answered (a hostile shape, automatic mail, an
// address that is a trick or a bot's), and refused with an answer when
// he can but the mail cannot be acted on.
func classify(r parsedMail, cfg Config) Verdict {
	domain, bot := domainOf(r.from), IsBotAddress(r.from)
	automatic := parser.Automatic(r.msg)
	switch {
	case errors.Is(r.err, parser.ErrHostile):
		// Not answered: its From is as likely forged as anything in it.
		return Verdict{reason: reasonHostile, Outcome: OutcomeRefused, Detail: r.err.Error()}
	case r.err != nil && !r.tooLarge:
		return Verdict{reason: reasonUnreadable, Outcome: OutcomeUnusable, Detail: r.err.Error()}
	case automatic != "":
		return Verdict{reason: reasonAutomatic, Outcome: OutcomeIgnored, Detail: "automatic mail: " + automatic}
	case r.from == "":
		return Verdict{reason: reasonNoSender, Outcome: OutcomeUnusable, Detail: "no sender address"}
	case parser.CheckAddress(r.from) != nil:
		// Never mailed: an address with control or bidi characters,
		// quotes or spaces is a trick, not a player.
		return Verdict{reason: reasonSenderUnusable, Outcome: OutcomeRefused, Detail: "sender address not usable"}
	case bot:
		// Bot seats' addresses are in a domain no mail comes from
		// honestly (BotDomain): a forgery, never acted on or answered.
		return Verdict{reason: reasonBotSender, Outcome: OutcomeRefused, Detail: "sender address is a bot seat's"}
	}
	if cfg.TrustAuthServID != "" {
		// Read once: its answer decides, and its why is what the
		// record keeps.
		if auth := mailer.CheckAuthResults(r.raw, cfg.TrustAuthServID, domain); !auth.Pass {
			return refusal(reasonUnauthenticated, RefusalNotRead,
				func(say templates.Words) string { return say.NotAuthenticated(r.from) },
				"not authenticated: "+auth.Why)
		}
	}
	switch {
	case r.msg.FromProblem != "":
		return refusal(reasonFromNotPlain, RefusalNotRead,
			func(say templates.Words) string { return say.FromNotPlain(r.msg.FromProblem) }, "")
	case r.tooLarge:
		return refusal(reasonTooLarge, RefusalTooLarge,
			func(say templates.Words) string { return say.MailTooLarge(cfg.MaxMessageBytes >> 10) }, "")
	}
	return Verdict{reason: reasonRead, Outcome: OutcomeHandling}
}

// refusal is the verdict that refuses a mail and tells its sender why.
// detail is what the record keeps, if not the answer's words.
func refusal(why reason, kind RefusalKind, answer func(templates.Words) string, detail string) Verdict {
	return Verdict{reason: why, Outcome: OutcomeRefused, Detail: detail, Refusal: &Refusal{Kind: kind, Text: answer(templates.Say), Says: answer}}
}

// domainOf is the domain of a bare address.
func domainOf(addr string) string {
	_, d, _ := strings.Cut(addr, "@")
	return d
}
