package outbox

import (
	"context"
	"errors"
	"time"

	"github.com/pbem/pbem/store"
)

// ProbeEvery is how often an unreachable address still gets one mail,
// its probe, as Mailman probes a disabled member: often enough that a
// mailbox that works again is found within a week (its player sees the
// mail and writes, which makes it reachable), rarely enough that a dead
// address costs the sending server's reputation nearly nothing.
const ProbeEvery = 7 * 24 * time.Hour

// bounced is what the address of a mail being sent bounced.
type bounced int

const (
	reachable bounced = iota // never bounced, or wrote since: sent
	withheld                 // unreachable: not sent, marked dead
	probe                    // unreachable, and its probe is due: sent
)

// bounced says whether m goes to an unreachable address, and if so
// whether it is withheld or sent as the address's probe. Without a
// bounce key the outbox knows nothing of bounces. When the store cannot
// say, the mail is sent: a mail too many to a dead address costs less
// than holding the claimed batch.
func (o *Outbox) bounced(ctx context.Context, m store.Outgoing) bounced {
	if o.bounceKey == nil {
		return reachable
	}
	u, err := o.store.UnreachableAddress(ctx, m.To)
	if errors.Is(err, store.ErrNotFound) {
		return reachable
	}
	if err != nil {
		o.log.Warn("outbox: whether the address bounced", "message_id", m.MessageID, "err", err)
		return reachable
	}
	last := u.ProbedAt
	if last.IsZero() {
		last = u.Since
	}
	if o.now().Sub(last) >= ProbeEvery {
		return probe
	}
	return withheld
}

// markBounced marks a mail to an unreachable address: withheld, it is
// dead unsent; sent as a probe, its probe time is recorded.
func (o *Outbox) markBounced(ctx context.Context, tx *store.Tx, m owedMark) error {
	if m.bounced == withheld {
		return tx.MarkDead(ctx, m.out.ID, "withheld: the address bounced")
	}
	if err := tx.Probed(ctx, m.out.To, m.at); err != nil && !errors.Is(err, store.ErrNotFound) {
		return err // not found: the player wrote meanwhile, and is reachable
	}
	switch {
	case m.sendErr == nil:
		return tx.MarkSent(ctx, m.out.ID, m.at)
	case o.cfg.Permanent(m.sendErr):
		return o.markRefused(ctx, tx, m)
	case m.out.Attempts+1 >= o.cfg.MaxAttempts:
		return tx.MarkDead(ctx, m.out.ID, m.sendErr.Error())
	default:
		return tx.MarkFailed(ctx, m.out.ID, m.sendErr.Error(), m.at.Add(o.cfg.backoff(m.out.Attempts+1)))
	}
}

// WithRefused sets what the outbox calls, after the commit, when a
// permanent refusal at SMTP time made an address unreachable: the daemon
// acts on it at once, as it does after a DSN, with no mail to wait for.
func WithRefused(f func(context.Context)) Option { return func(o *Outbox) { o.refused = f } }

// tellRefused calls the WithRefused function when marks hold a
// permanent refusal recorded as a hard bounce.
func (o *Outbox) tellRefused(ctx context.Context, marks []owedMark) {
	if o.refused == nil || o.bounceKey == nil {
		return
	}
	for _, m := range marks {
		if m.sendErr != nil && o.cfg.Permanent(m.sendErr) {
			o.refused(ctx)
			return
		}
	}
}
