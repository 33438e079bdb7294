package store

import (
	"context"
	"testing"
	"time"
)

// TestTimeBank: a game keeps its time bank; its seats start with the
// bank's start; a seat's bank is set to the second; the clock recorded
// at a decision's end lands on its move, and only there;
// a game without a bank has none anywhere.
func TestTimeBank(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	bank := Bank{Start: 48 * time.Hour, Increment: 12 * time.Hour, Max: 120 * time.Hour}
	var banked, classic int64
	mustTx(t, s, func(tx *Tx) error {
		var err error
		if banked, err = tx.CreateGame(ctx, NewGame{Kind: "felix", Setup: []byte(`{}`), Creator: "ann@x.test", CreatedAt: t0, Bank: bank}); err != nil {
			return err
		}
		if classic, err = tx.CreateGame(ctx, NewGame{Kind: "felix", Setup: []byte(`{}`), Creator: "ann@x.test", CreatedAt: t0, TurnTime: time.Hour}); err != nil {
			return err
		}
		for _, g := range []int64{banked, classic} {
			for i, a := range []string{"ann@x.test", "bob@x.test"} {
				if err := tx.AddSeat(ctx, g, i, a, a[:3], NewToken()); err != nil {
					return err
				}
			}
		}
		return nil
	})
	mustTx(t, s, func(tx *Tx) error {
		g, err := tx.Game(ctx, banked)
		if err != nil {
			return err
		}
		if g.Bank != bank || !g.Bank.On() {
			t.Errorf("bank %+v, want %+v", g.Bank, bank)
		}
		if g, err := tx.Game(ctx, classic); err != nil || g.Bank.On() || g.Bank != (Bank{}) {
			t.Errorf("a classic game has a bank %+v (%v)", g.Bank, err)
		}
		for _, gs := range []struct {
			id   int64
			want time.Duration
		}{{banked, bank.Start}, {classic, 0}} {
			seats, err := tx.Seats(ctx, gs.id)
			if err != nil {
				return err
			}
			for _, st := range seats {
				if st.Bank != gs.want {
					t.Errorf("game %d seat %d starts with %v, want %v", gs.id, st.Seat, st.Bank, gs.want)
				}
			}
		}
		if err := tx.SetSeatBank(ctx, banked, 1, 30*time.Hour+1500*time.Millisecond); err != nil {
			return err
		}
		if err := tx.SetSeatBank(ctx, banked, 1, -time.Second); err == nil {
			t.Error("a negative bank was stored")
		}
		st, err := tx.Seat(ctx, banked, 1)
		if err != nil {
			return err
		}
		if st.Bank != 30*time.Hour+time.Second {
			t.Errorf("bank %v, want 30h0m1s", st.Bank)
		}
		if ok, err := tx.SetMoveClock(ctx, banked, 1, time.Hour); err != nil || ok {
			t.Errorf("a clock recorded on no move: %v %v", ok, err)
		}
		for i, seat := range []int{0, 1, 0, 1} {
			if _, err := tx.AppendMove(ctx, banked, Move{Seat: seat, Command: "play " + string(rune('a'+i)), Source: SourceMail, At: t0}); err != nil {
				return err
			}
		}
		if ok, err := tx.SetMoveClock(ctx, banked, 3, 90*time.Minute); err != nil || !ok {
			t.Errorf("the clock was not recorded: %v %v", ok, err)
		}
		moves, err := tx.Moves(ctx, banked, 0)
		if err != nil {
			return err
		}
		for _, m := range moves {
			if want := m.Seq == 3; m.HasClock != want || (want && m.ClockLeft != 90*time.Minute) {
				t.Errorf("move %d: clock %v (%v), want it on move 3 only", m.Seq, m.ClockLeft, m.HasClock)
			}
		}
		return nil
	})
}
