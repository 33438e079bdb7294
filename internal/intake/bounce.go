package intake

import (
	"errors"

	"github.com/pbem/pbem/mailer"
	"github.com/pbem/pbem/parser"
)

// reasonBounce: the mail came to a bounce address of pbem's (the
// envelope sender of its outgoing mail, mailer.BounceAddress). It is
// never answered: the daemon checks the address and reads the bounce.
const reasonBounce reason = "bounce"

// IsBounce says whether the mail came to a bounce address: the daemon
// reads it as a bounce (Mail.Bounce), and nothing else.
func (v Verdict) IsBounce() bool { return v.reason == reasonBounce }

// bounceVerdict is the verdict on a mail to a bounce address, whose
// token is token: every such mail is a bounce candidate, whatever marks
// it carries (a DSN is automatic mail, which would be ignored), unless
// the parser refused it as hostile. ok is false for a mail to any other
// address, which classify judges. A DSN to the bare address or to a
// seat's is no bounce candidate: it is automatic mail, ignored there.
func bounceVerdict(token string, err error) (Verdict, bool) {
	if !mailer.IsBounceToken(token) || errors.Is(err, parser.ErrHostile) {
		return Verdict{}, false
	}
	return Verdict{reason: reasonBounce, Outcome: OutcomeIgnored, Detail: "bounce"}, true
}
