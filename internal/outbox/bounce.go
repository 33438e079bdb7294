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

// bouncedAll says, for each mail of a batch, whether it goes to an
// unreachable address, and if so whether it is withheld or sent as the
// address's probe. It asks the store once for the whole batch
// (store's UnreachableAmong), not once per mail, and not at all when
// the claim read it. Without a bounce key the outbox knows nothing of
// bounces. When the store cannot say, the mail is sent: a mail too many
// to a dead address costs less than holding the claimed batch.
func (o *Outbox) bouncedAll(ctx context.Context, b batch) []bounced {
	due := b.due
	out := make([]bounced, len(due))
	if o.bounceKey == nil || len(due) == 0 {
		return out
	}
	unreachable := b.unreachable
	if unreachable == nil {
		var err error
		if unreachable, err = o.store.UnreachableAmong(ctx, recipients(due)); err != nil {
			o.log.Warn("outbox: whether the addresses of a batch bounced", "mails", len(due), "err", err)
			return out
		}
	}
	now := o.now()
	for i, m := range due {
		u, ok := unreachable[store.NormalizeAddress(m.To)]
		if !ok {
			continue
		}
		last := u.ProbedAt
		if last.IsZero() {
			last = u.Since
		}
		out[i] = withheld
		if now.Sub(last) >= ProbeEvery {
			out[i] = probe
		}
	}
	return out
}

// recipients are the addresses of the mails due, in their order.
func recipients(due []store.Outgoing) []string {
	to := make([]string, len(due))
	for i, m := range due {
		to[i] = m.To
	}
	return to
}

// recheckWithheld asks the store again, after the batch went out,
// whether the addresses of the mails it withheld are still unreachable:
// the batch's bounces were read once, before its first mail, and a
// player who wrote from his address meanwhile made it reachable again
// (store's Reachable). His withheld mail is not marked dead but
// released, to go with the next batch. When the store cannot say, the
// mail stays withheld, as it was found.
func (o *Outbox) recheckWithheld(ctx context.Context, marks []owedMark, unsent []int64) ([]owedMark, []int64) {
	var to []string
	for _, m := range marks {
		if m.bounced == withheld {
			to = append(to, m.out.To)
		}
	}
	if len(to) == 0 {
		return marks, unsent
	}
	unreachable, err := o.store.UnreachableAmong(ctx, to)
	if err != nil {
		o.log.Warn("outbox: whether withheld addresses still bounce", "mails", len(to), "err", err)
		return marks, unsent
	}
	kept := marks[:0]
	for _, m := range marks {
		if _, ok := unreachable[store.NormalizeAddress(m.out.To)]; m.bounced == withheld && !ok {
			unsent = append(unsent, m.out.ID)
			continue
		}
		kept = append(kept, m)
	}
	return kept, unsent
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
	return o.markAttempt(ctx, tx, m)
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
