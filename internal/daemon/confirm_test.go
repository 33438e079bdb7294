package daemon

import (
	"context"
	"strings"
	"testing"

	"github.com/pbem/pbem/store"
)

// confirmOn sets confirm on for players pbem knows, as `confirm on`
// would, without a mail: for the tests that read the answer to a move or
// a say, which confirm off, the default (store.DefaultConfirm), drops.
func (w *world) confirmOn(addrs ...string) {
	w.t.Helper()
	err := w.st.Tx(context.Background(), func(tx *store.Tx) error {
		for _, a := range addrs {
			if err := tx.SetPlayerConfirm(context.Background(), a, true); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		w.t.Fatal(err)
	}
}

// TestConfirmOff: with confirm off a mail whose moves were all applied is
// not answered when nothing else needs saying, and everything else still
// is: errors, a mail read only in part, questions, and a move that brings
// the player a new decision or a result.
func TestConfirmOff(t *testing.T) {
	t.Parallel()
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test", "dave@x.test"}
	for _, tt := range []struct {
		name    string
		confirm string // the player's setting; "" for the default
		body    func(legal string) string
		// answered: whether bob gets a mail; says: what it must say.
		answered bool
		says     string
	}{
		{"applied, confirm on", "confirm on", func(l string) string { return l }, true, "Applied: "},
		{"applied, by default", "", func(l string) string { return l }, false, ""},
		{"applied, confirm off", "confirm off", func(l string) string { return l }, false, ""},
		{"unreadable, confirm off", "confirm off", func(string) string { return "place 99" }, true, "nothing was applied"},
		{"applied then unreadable, confirm off", "confirm off", func(l string) string { return l + "\nfrobnicate" }, true, "pbem stopped reading"},
		{"status, confirm off", "confirm off", func(string) string { return "status" }, true, "Your move:"},
		{"applied with a setting, confirm off", "confirm off", func(l string) string { return l + "\ntimezone Asia/Tokyo" }, true, "Asia/Tokyo"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			if tt.confirm != "" {
				w.send(players[1], "pbem@example.test", tt.confirm)
			}
			reply, id := w.startGame("felix", players...)
			tb := w.loaded(id)
			if len(tb.State.Waiting()) != len(players) {
				t.Fatalf("the first round's placement waits on %v", tb.State.Waiting())
			}
			legal := tb.State.Options(1)[0].Commands[0]
			before := len(w.inbox[players[1]])
			w.send(players[1], reply[players[1]], tt.body(legal))
			got := w.inbox[players[1]][before:]
			switch {
			case !tt.answered && len(got) > 0:
				t.Errorf("bob was answered:\n%s", got[0].Text)
			case tt.answered && len(got) != 1:
				t.Errorf("bob got %d mails, want one answer", len(got))
			case tt.answered && !strings.Contains(got[0].Text, tt.says):
				t.Errorf("bob's answer lacks %q:\n%s", tt.says, got[0].Text)
			}
			for _, p := range []string{players[0], players[2], players[3]} {
				if n := len(w.inbox[p]); n > 0 && strings.Contains(w.inbox[p][n-1].Text, "bob puts a card") {
					t.Errorf("%s was mailed bob's placement, which decides nothing for him:\n%s", p, w.inbox[p][n-1].Text)
				}
			}
		})
	}
}
