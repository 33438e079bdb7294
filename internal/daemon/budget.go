package daemon

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/pbem/pbem/store"
)

// Buckets of the store's budget table. An invitation's bucket names the
// inviter, so that one inviter's invitations do not use up another's.
const (
	bucketAnswers     = "answers"      // mails about no running game of the address
	bucketLobby       = "lobby"        // lobby commands read from a sender
	bucketExchange    = "exchange"     // mails from an address and answers to it
	bucketBreakerTold = "breaker-told" // admins told that the breaker tripped
	bucketInvitePfx   = "invite:"      // + inviter: invitations to one who never joined
)

// Windows of the limits.
const (
	answersWindow   = 24 * time.Hour
	lobbyWindow     = time.Hour
	exchangeWindow  = time.Minute
	breakerTellOnce = time.Hour
	inviteWindow    = 24 * time.Hour
)

// loopTripped notes one more mail exchanged with addr (a mail from it, or
// an answer to it) and reports whether the circuit breaker is tripped: more
// than LoopPerMinute of them in the last minute. Automatic replies are
// caught by their markers; the breaker is for a loop no marker shows. The
// count includes the mails refused while tripped, so that the breaker
// stays open while the flood goes on and closes a minute after it stops.
func (s *Service) loopTripped(ctx context.Context, tx *store.Tx, addr string) (bool, error) {
	n, err := tx.Note(ctx, addr, bucketExchange, s.now(), exchangeWindow)
	if err != nil {
		return false, err
	}
	return n > s.cfg.Limits.LoopPerMinute, nil
}

// tripBreaker records that the breaker stopped answering t's sender and
// tells the admins, at most once an hour per address.
func (s *Service) tripBreaker(ctx context.Context, tx *store.Tx, t *turn) error {
	t.outcome = OutcomeRefused
	t.detail = fmt.Sprintf("loop breaker: more than %d mails exchanged with this address within a minute; not answered", s.cfg.Limits.LoopPerMinute)
	ok, err := tx.Spend(ctx, t.from, bucketBreakerTold, s.now(), breakerTellOnce, 1)
	if err != nil || !ok {
		return err
	}
	s.log.Warn("loop breaker tripped: pbem stops answering an address", "address", t.from, "per_minute", s.cfg.Limits.LoopPerMinute)
	for _, admin := range strings.Split(s.cfg.Admins, ",") {
		admin = store.NormalizeAddress(admin)
		if admin == "" {
			continue
		}
		line := fmt.Sprintf("More than %d mails were exchanged with %s within a minute, so pbem stopped answering that address until the flood stops. It may be a mail loop with an auto-responder that marks its mail in no standard way.", s.cfg.Limits.LoopPerMinute, t.from)
		// Addressed to the admin, not the sender: admin mail is not
		// budgeted (the admins are configured, not the internet).
		if err := s.adminNotice(t, admin, "a mail loop was stopped", line); err != nil {
			return err
		}
	}
	return nil
}

// allowOut decides whether a mail of this turn may go to om.to, spending
// from the address's budgets. A game mail to a seat of a game that runs
// (or has just ended) costs nothing: the player asked for it by playing;
// so does a digest, which gathers such mails.
// Everything else — answers, help, rules, refusals, invitations — comes
// from the address's daily budget, and an answer to the sender counts
// towards the loop breaker.
func (s *Service) allowOut(ctx context.Context, tx *store.Tx, t *turn, om outMail) (bool, error) {
	if om.admin {
		return true, nil
	}
	if om.digest {
		// A digest is the game mails of a player's running games (and
		// of those that ended since his last mail), gathered into one:
		// it costs nothing, like each of them would. It is at most one
		// a day, to a player who asked for it.
		return true, nil
	}
	if om.to == t.from && t.from != "" {
		tripped, err := s.loopTripped(ctx, tx, om.to)
		if err != nil || tripped {
			return false, err
		}
	}
	if om.gameID > 0 && om.seat >= 0 {
		g, err := tx.Game(ctx, om.gameID)
		if err != nil {
			return false, err
		}
		switch g.Status {
		case store.StatusActive, store.StatusPaused, store.StatusFinished:
			return true, nil
		}
	}
	return tx.Spend(ctx, om.to, bucketAnswers, s.now(), answersWindow, s.cfg.Limits.AnswersPerDay)
}
