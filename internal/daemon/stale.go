package daemon

import (
	"errors"

	"github.com/pbem/pbem/internal/loaded"
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
func (w *work) answered(seat store.Seat) (store.Outgoing, bool, error) {
	ids := make([]string, 0, 2+len(w.msg.References))
	if w.msg.InReplyTo != "" {
		ids = append(ids, w.msg.InReplyTo)
	}
	for i := len(w.msg.References) - 1; i >= 0; i-- {
		ids = append(ids, w.msg.References[i])
	}
	if w.msg.Ref != "" {
		ids = append(ids, w.post.RefID(w.msg.Ref))
	}
	for _, id := range ids {
		o, err := w.tx.OutgoingHeader(w.ctx, id)
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
func (w *work) staleReply(lg *loaded.Game, seat store.Seat) (bool, error) {
	o, ok, err := w.answered(seat)
	if err != nil || !ok {
		return false, err
	}
	cur, err := w.tx.Seat(w.ctx, seat.GameID, seat.Seat)
	if err != nil {
		return false, err
	}
	if o.Decision >= cur.Decision {
		return false, nil
	}
	evs, err := w.tx.Events(w.ctx, lg.Row.ID, o.SeenEvent)
	if err != nil {
		return false, err
	}
	return len(visible(evs, seat.Seat)) > 0, nil
}
