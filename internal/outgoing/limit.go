package outgoing

import (
	"context"
	"time"

	"github.com/pbem/pbem/store"
)

// Buckets of the store's budget table that outgoing counts in. The
// daemon's lobby limits have buckets of their own (its limits.go).
const (
	bucketAnswers     = "answers"      // mails about no running game of the address
	bucketBreakerTold = "breaker-told" // admins told that the breaker tripped
	// The loop breaker's buckets, one for each of an address's threads
	// (LoopThread): its mails answered there, and the notices that pbem
	// holds its answers there.
	bucketExchange = "exchange"     // + LoopThread.suffix
	bucketHeldTold = "breaker-held" // + LoopThread.suffix
)

// Windows of the limits.
const (
	answersWindow   = 24 * time.Hour
	exchangeWindow  = time.Minute
	breakerTellOnce = time.Hour
)

// withinLimit decides whether a mail of the unit may go to om.To,
// counting it against the limit of the mailbox it reaches (MailboxOf),
// whatever spelling of it the mail names. To a mailbox that answered pbem
// (MarkAnswered), a game mail to a seat of a game that runs (or has just
// ended) is not limited: the player asked for it by playing; nor is a
// digest, which gathers such mails. The answer to a seat's own mail in
// its game's thread is not limited, whatever the game's state. Everything
// else — answers, help, rules, refusals, invitations, and every mail to
// a mailbox that never answered — counts against the mailbox's daily
// limit (Config.AnswersPerDay); and such a mailbox gets nothing more of a
// game it was invited to than the invitation (unaskedFollowUp). (The
// loop breaker has held what it holds before: Breaker.)
func (p *Post) withinLimit(u Unit, om Mail) (bool, error) {
	if om.Admin {
		return true, nil
	}
	if own := u.Out.loop.seat; own != nil && om.To == u.From && om.GameID == own.GameID && om.Seat == own.Seat {
		// The answer to a seat's own mail, in its game's thread: only
		// the seat's player, who holds its secret address, can ask for
		// it, so it does not count against his daily limit, which
		// anyone who writes his address in From can use up. The loop
		// breaker bounds it.
		return true, nil
	}
	box := p.MailboxOf(om.To)
	answered, err := p.answered(u.Ctx, u.Tx, box)
	if err != nil {
		return false, err
	}
	switch {
	case answered && om.Digest:
		// A digest is the game mails of a player's running games (and
		// of those that ended since his last mail), gathered into one:
		// it is not limited, as each of them would not be. It is at
		// most one a day, to a player who asked for it.
		return true, nil
	case answered && om.GameID > 0 && om.Seat >= 0:
		g, err := u.Tx.Game(u.Ctx, om.GameID)
		if err != nil {
			return false, err
		}
		switch g.Status {
		case store.StatusActive, store.StatusPaused, store.StatusFinished:
			return true, nil
		}
	case !answered && !om.Invitation && om.GameID > 0 && om.Seat >= 0:
		unasked, err := unaskedFollowUp(u.Ctx, u.Tx, om)
		if err != nil || unasked {
			return false, err
		}
	}
	return u.Tx.Spend(u.Ctx, box, bucketAnswers, p.now(), answersWindow, p.cfg.AnswersPerDay)
}

// unaskedFollowUp reports whether om, to a mailbox that never answered,
// is about a game it was invited to and has not joined, other than the
// invitation itself (a decline, an abort): one invitation is one mail.
func unaskedFollowUp(ctx context.Context, tx *store.Tx, om Mail) (bool, error) {
	seat, err := tx.Seat(ctx, om.GameID, om.Seat)
	if err != nil {
		return false, err
	}
	return seat.State != store.SeatJoined && seat.State != store.SeatResigned, nil
}

// MarkAnswered marks the sender's mailbox as answered: it lifts the
// limits on the game mails it gets (withinLimit) and on invitations to
// it. The daemon calls it only for a mail only the mailbox's owner could
// have sent (its answeredBy).
func (p *Post) MarkAnswered(ctx context.Context, tx *store.Tx, from string) error {
	return tx.MarkAnswered(ctx, p.MailboxOf(from), p.now())
}

// LongestWindow is the longest window of outgoing's limits: a row of the
// budget table older than it counts towards none of them any more.
const LongestWindow = max(answersWindow, exchangeWindow, breakerTellOnce)
