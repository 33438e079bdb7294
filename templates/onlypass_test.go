package templates

import (
	"strings"
	"testing"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/felix"
)

// TestOnlyPassSaysWhy: a Felix player whose turn it is and who cannot
// afford the lowest bid is asked as usual (his money is his secret, so
// pbem does not pass for him), and his mail says why pass is all that is
// left. Nobody else's mail says it.
func TestOnlyPassSaysWhy(t *testing.T) {
	gi, _, err := felix.Rules{}.New(engine.Setup{Players: []string{"alice", "bob", "carol", "dave"}, Seed: 1, Start: "alice"})
	if err != nil {
		t.Fatal(err)
	}
	g := gi.(*felix.Game)
	do := func(seat int, text string) {
		t.Helper()
		cmd, err := engine.ParseCommand(felix.Rules{}.Specs(), g.Players(), text)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := g.Apply(seat, cmd); err != nil {
			t.Fatal(err)
		}
	}
	for seat := range 4 {
		do(seat, g.Options(seat)[0].Commands[0])
	}
	do(0, "bid 3")
	g.S.Money[1] = 2 // bob cannot bid 4
	r := newRenderer(t)
	want := "Only pass is left: a bid must be at least 4, and you own 2 mice."
	for seat := range 4 {
		m, err := r.Game(mailFor(t, g, seat, MailTurn, nil))
		if err != nil {
			t.Fatal(err)
		}
		text, html := strings.Join(strings.Fields(m.Text), " "), strings.Join(strings.Fields(htmlText(m.HTML)), " ")
		if got := strings.Contains(text, want) && strings.Contains(html, want); got != (seat == 1) {
			t.Errorf("seat %d's mail says why only pass is left: %v, want %v:\n%s", seat, got, seat == 1, m.Text)
		}
	}
}
