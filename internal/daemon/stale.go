package daemon

import (
	"context"
	"errors"

	"github.com/pbem/pbem/store"
)

// A reply to an old mail is stale: its commands were written against a
// table that is no longer there. "bid 6", written as a reply to the mail of
// round 1, means nothing in round 3. pbem applies a game command only when
// the mail it answers was written for the player's current decision, or
// when nothing the player may see has happened since that mail. A tap on
// a one-tap link of a mail answers that mail, as its reference line says
// (parser.RefLine). A fresh mail (one that answers no mail of pbem's
// about this seat) is applied as it stands: its writer chose not to
// point at any table.
//
// The rule is documented for players in docs/commands.md ("Replies to old
// mails").

// answered finds the mail of pbem's, threaded under this seat, that the
// inbound message replies to: In-Reply-To first, else the newest entry of
// References that pbem wrote, else the mail its reference line names (a
// one-tap link's mail, which most mail programs send without
// In-Reply-To; see parser.RefLine). ok is false for a fresh mail.
//
// The reference is as easily forged as the rest of the mail, and trusted
// no further: it can at worst make the mail count as answering another
// mail of the same seat; one of another seat or game is ignored below.
func (s *Service) answered(ctx context.Context, tx *store.Tx, t *turn, seat store.Seat) (store.Outgoing, bool, error) {
	ids := make([]string, 0, 2+len(t.msg.References))
	if t.msg.InReplyTo != "" {
		ids = append(ids, t.msg.InReplyTo)
	}
	for i := len(t.msg.References) - 1; i >= 0; i-- {
		ids = append(ids, t.msg.References[i])
	}
	if t.msg.Ref != "" {
		ids = append(ids, s.refID(t.msg.Ref))
	}
	for _, id := range ids {
		o, err := tx.OutgoingByMessageID(ctx, id)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return store.Outgoing{}, false, err
		}
		if o.GameID != seat.GameID || o.Seat != seat.Seat {
			// A mail of another game or seat says nothing about what
			// this seat saw; it is as if the mail were fresh.
			return store.Outgoing{}, false, nil
		}
		return o, true, nil
	}
	return store.Outgoing{}, false, nil
}

// staleReply reports whether the inbound message answers an earlier
// decision of the seat than the current one, and the player may see
// something that happened since that mail.
func (s *Service) staleReply(ctx context.Context, tx *store.Tx, t *turn, tb *table, seat store.Seat) (bool, error) {
	o, ok, err := s.answered(ctx, tx, t, seat)
	if err != nil || !ok {
		return false, err
	}
	cur, err := tx.Seat(ctx, seat.GameID, seat.Seat)
	if err != nil {
		return false, err
	}
	if o.Decision >= cur.Decision {
		return false, nil
	}
	evs, err := tx.Events(ctx, tb.row.ID, o.SeenEvent)
	if err != nil {
		return false, err
	}
	return len(visible(evs, seat.Seat)) > 0, nil
}
