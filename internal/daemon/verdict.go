package daemon

import (
	"errors"
	"fmt"
	"strings"

	"github.com/pbem/pbem/mailer"
	"github.com/pbem/pbem/parser"
	"github.com/pbem/pbem/templates"
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

// A verdict is what reading a mail decides before anything is stored:
// whether pbem acts on the mail, and if not, why and what the sender is
// told. classify makes it from the mail and the configuration alone,
// once, outside the transaction, as mox's smtpserver/analyze.go judges a
// delivery before acting on it. The transaction adds only what needs the
// database: whether the mail was seen before, the refusal budget, the
// loop breaker, and the routing of a mail that is acted on.
type verdict struct {
	reason reason
	// outcome is the mail's outcome; OutcomeHandling for a mail that is
	// acted on (reasonRead), whose outcome its commands decide.
	outcome Outcome
	// detail is what the inbound record and the log keep. For a verdict
	// with a notice it is empty when the notice's reason says it.
	detail string
	// notice is the refusal to send the sender, within his refusal
	// budget (Service.refuse); nil when he is not answered.
	notice *templates.Notice
}

// act says whether the mail is read and acted on.
func (v verdict) act() bool { return v.reason == reasonRead }

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
func classify(r parsedMail, cfg Config) verdict {
	automatic := parser.Automatic(r.msg)
	switch {
	case errors.Is(r.err, parser.ErrHostile):
		// Not answered: its From is as likely forged as anything in it.
		return verdict{reason: reasonHostile, outcome: OutcomeRefused, detail: r.err.Error()}
	case r.err != nil && !r.tooLarge:
		return verdict{reason: reasonUnreadable, outcome: OutcomeUnusable, detail: r.err.Error()}
	case automatic != "":
		return verdict{reason: reasonAutomatic, outcome: OutcomeIgnored, detail: "automatic mail: " + automatic}
	case r.from == "":
		return verdict{reason: reasonNoSender, outcome: OutcomeUnusable, detail: "no sender address"}
	case parser.CheckAddress(r.from) != nil:
		// Never mailed: an address with control or bidi characters,
		// quotes or spaces is a trick, not a player.
		return verdict{reason: reasonSenderUnusable, outcome: OutcomeRefused, detail: "sender address not usable"}
	case isBotAddress(r.from):
		// Bot seats' addresses are in a domain no mail comes from
		// honestly (botDomain): a forgery, never acted on or answered.
		return verdict{reason: reasonBotSender, outcome: OutcomeRefused, detail: "sender address is a bot seat's"}
	}
	if cfg.TrustAuthServID != "" {
		// Read once: its answer decides, and its why is what the
		// record keeps.
		if auth := mailer.CheckAuthResults(r.raw, cfg.TrustAuthServID, domainOf(r.from)); !auth.Pass {
			return refusal(reasonUnauthenticated, templates.NoticeRefusal,
				"pbem did not act on your mail: the receiving mail server could not confirm that it comes from "+r.from+" (no DMARC or aligned DKIM pass). If you sent it, your mail provider's DKIM or DMARC set-up may be at fault.",
				"not authenticated: "+auth.Why)
		}
	}
	switch {
	case r.msg.FromProblem != "":
		return refusal(reasonFromNotPlain, templates.NoticeRefusal,
			"pbem did not read your mail, because its From field is not one plain address ("+r.msg.FromProblem+"). pbem acts only on mail whose From holds just the address you play from.", "")
	case r.tooLarge:
		return refusal(reasonTooLarge, templates.NoticeTooLarge,
			fmt.Sprintf("Your mail is larger than %d KB, so pbem did not read it. Please reply with only your commands.", cfg.MaxMessageBytes>>10), "")
	}
	return verdict{reason: reasonRead, outcome: OutcomeHandling}
}

// refusal is the verdict that refuses a mail and tells its sender why.
// detail is what the record keeps, if not the answer's words.
func refusal(why reason, kind templates.NoticeKind, answer, detail string) verdict {
	return verdict{reason: why, outcome: OutcomeRefused, detail: detail, notice: &templates.Notice{Kind: kind, Reason: answer}}
}

// domainOf is the domain of a bare address.
func domainOf(addr string) string {
	_, d, _ := strings.Cut(addr, "@")
	return d
}
