package store

import (
	"context"
	"testing"
	"time"
)

// Talked lists a seat's says or pokes in the window, oldest first, per
// game, seat and kind, and drops older rows.
func TestTalk(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	id := newGame(t, s, "alice@x.test", "bob@y.test")
	mustTx(t, s, func(tx *Tx) error {
		for _, at := range []time.Time{t0, t0.Add(time.Hour), t0.Add(25 * time.Hour)} {
			if err := tx.Talk(ctx, id, 0, TalkSay, at); err != nil {
				return err
			}
		}
		if err := tx.Talk(ctx, id, 0, TalkPoke, t0); err != nil {
			return err
		}
		return tx.Talk(ctx, id, 1, TalkSay, t0)
	})
	var says, pokes, bobs []time.Time
	mustTx(t, s, func(tx *Tx) error {
		var err error
		now := t0.Add(25 * time.Hour)
		if says, err = tx.Talked(ctx, id, 0, TalkSay, now, 24*time.Hour); err != nil {
			return err
		}
		if pokes, err = tx.Talked(ctx, id, 0, TalkPoke, now, 24*time.Hour); err != nil {
			return err
		}
		bobs, err = tx.Talked(ctx, id, 1, TalkSay, t0.Add(time.Minute), 24*time.Hour)
		return err
	})
	// The say of t0+1h is exactly a window old: out.
	if len(says) != 1 || !says[0].Equal(t0.Add(25*time.Hour)) {
		t.Errorf("says in the window: %v", says)
	}
	if len(pokes) != 0 {
		t.Errorf("pokes in the window: %v", pokes)
	}
	if len(bobs) != 1 {
		t.Errorf("bob's says: %v", bobs)
	}
	if n := count(t, s, "talk"); n != 2 {
		t.Errorf("%d rows kept, want 2 (alice's old says and poke dropped)", n)
	}
}
