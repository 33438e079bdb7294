package outbox

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/pbem/pbem/internal/grace"
	"github.com/pbem/pbem/store"
)

// batch is the mail one claim took, in the order to send it, and until
// when the claim holds it.
type batch struct {
	due   []store.Outgoing
	until time.Time
	// unreachable is what the store holds of the mails' recipients'
	// bounces (store's UnreachableAmong), read in the claim's
	// transaction; nil when not read.
	unreachable map[string]store.Unreachable
}

// claim claims the next batch in tx, for Config.Claim() from now, and
// reads its recipients' bounces when the outbox knows of bounces: on
// PostgreSQL the claim read them (issue 40: a round trip of every batch
// after its claim's). When that read fails, bouncedAll reads again.
func (o *Outbox) claim(ctx context.Context, tx *store.Tx) (batch, error) {
	now := o.now()
	until := now.Add(o.cfg.Claim())
	due, err := tx.ClaimOutgoing(ctx, o.node, now, until, o.cfg.Batch)
	b := batch{due: due, until: until}
	if err != nil || o.bounceKey == nil || len(due) == 0 {
		return b, err
	}
	if b.unreachable, err = tx.UnreachableAmong(ctx, recipients(due)); err != nil {
		o.log.Warn("outbox: whether the addresses of a batch bounced, with its claim", "mails", len(due), "err", err)
		b.unreachable = nil
	}
	return b, nil
}

// sent is what became of a batch's mail: the marks to write, the ids of
// the mails claimed and not sent (their claims to release), and why the
// batch ended early, if it did.
type sent struct {
	marks       []owedMark
	unsent      []int64
	unreachable error // the mail server could not be reached
	whole       bool  // every mail was tried: the next batch may be claimed
}

// send sends b's mail one after the other, as SendDue says, withholding
// the mail to unreachable addresses (bounce.go).
func (o *Outbox) send(ctx context.Context, b batch) sent {
	bounces := o.bouncedAll(ctx, b)
	s := sent{marks: make([]owedMark, 0, len(b.due))}
	for i, m := range b.due {
		if ctx.Err() != nil {
			break // stopping: send no more, but mark what went
		}
		if o.now().Add(o.cfg.SendTimeout + ClaimMargin).After(b.until) {
			break // this mail might outlast the claim
		}
		if bounces[i] == withheld {
			s.marks = append(s.marks, owedMark{out: m, at: o.now(), bounced: withheld})
			continue
		}
		// A stop lets the mail in hand go out: cutting the connection
		// mid-DATA would leave it half-sent, to be sent again.
		work, cancel := grace.Detach(ctx, grace.Shutdown)
		sendErr := o.courier.Deliver(work, o.envelopeFrom(m), []string{m.To}, m.Raw)
		cancel()
		if sendErr != nil && o.cfg.unreachable(sendErr) {
			// Nothing about this mail, nor the ones after it, which
			// would find the server as unreachable.
			o.log.Warn("send failed: mail server unreachable", "to", m.To, "message_id", m.MessageID, "err", sendErr)
			o.obs.SendFailed(SendTemporary)
			s.unreachable = sendErr
			break
		}
		s.marks = append(s.marks, owedMark{out: m, sendErr: sendErr, at: o.now(), bounced: bounces[i]})
	}
	for _, m := range b.due[len(s.marks):] {
		s.unsent = append(s.unsent, m.ID)
	}
	s.whole = len(s.unsent) == 0
	s.marks, s.unsent = o.recheckWithheld(ctx, s.marks, s.unsent)
	return s
}

// markAndClaim records the outcomes of attempts to send, all in one
// transaction: each mail sent, failed (deferred with backoff) or dead;
// it releases the claims of the mails unsent, claimed and not tried;
// and, if next, it claims the next batch in the same transaction, so
// that a batch that follows another costs one transaction, not two.
//
// The mails sent, most of a batch, are marked by one statement per
// second they were sent in (store's MarkAllSent), not one each.
func (o *Outbox) markAndClaim(ctx context.Context, marks []owedMark, unsent []int64, next bool) (batch, error) {
	var b batch
	if len(marks) == 0 && len(unsent) == 0 && !next {
		return b, nil
	}
	err := o.store.CommuteTx(ctx, func(tx *store.Tx) error {
		b = batch{}
		if _, err := tx.ReleaseClaims(ctx, o.node, unsent); err != nil {
			return err
		}
		if err := o.markAllSent(ctx, tx, marks); err != nil {
			return err
		}
		for _, m := range marks {
			if m.bounced == reachable && m.sendErr == nil {
				continue // marked by markAllSent
			}
			err := o.markOne(ctx, tx, m)
			if errors.Is(err, store.ErrNotFound) {
				o.notPending(m)
				continue
			}
			if err != nil {
				return fmt.Errorf("%s: %w", m.out.MessageID, err)
			}
		}
		if !next {
			return nil
		}
		var err error
		b, err = o.claim(ctx, tx)
		if err != nil {
			return fmt.Errorf("claim the next batch: %w", err)
		}
		return nil
	})
	return b, err
}

// markAllSent marks the mails of marks that were sent to reachable
// addresses, those sent in one second with one statement.
func (o *Outbox) markAllSent(ctx context.Context, tx *store.Tx, marks []owedMark) error {
	for i := 0; i < len(marks); {
		m := marks[i]
		if m.bounced != reachable || m.sendErr != nil {
			i++
			continue
		}
		// The run of mails sent in m's second, from m on: a batch is
		// sent in order, so a second's mails are together.
		var ids []int64
		j := i
		for ; j < len(marks) && marks[j].at.Unix() == m.at.Unix(); j++ {
			if marks[j].bounced == reachable && marks[j].sendErr == nil {
				ids = append(ids, marks[j].out.ID)
			}
		}
		done, err := tx.MarkAllSent(ctx, ids, m.at)
		if err != nil {
			return err
		}
		if len(done) < len(ids) {
			for _, mm := range marks[i:j] {
				if mm.bounced == reachable && mm.sendErr == nil && !slices.Contains(done, mm.out.ID) {
					o.notPending(mm)
				}
			}
		}
		i = j
	}
	return nil
}

// markOne marks a mail that was not simply sent to a reachable address:
// withheld, sent as a probe, refused or failed.
func (o *Outbox) markOne(ctx context.Context, tx *store.Tx, m owedMark) error {
	if m.bounced != reachable {
		return o.markBounced(ctx, tx, m)
	}
	return o.markAttempt(ctx, tx, m)
}

// markAttempt marks a mail by what its sending did: sent, refused, dead
// after its last attempt, or failed for another attempt later.
func (o *Outbox) markAttempt(ctx context.Context, tx *store.Tx, m owedMark) error {
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

// notPending logs a mark skipped because its mail is no longer pending
// (marked by another hand): nothing is owed for it. Failing the batch
// for it would stop the outbox for good, every later batch owing the
// same mark.
func (o *Outbox) notPending(m owedMark) {
	o.log.Warn("outbox: a mail to mark was no longer pending", "message_id", m.out.MessageID)
}
