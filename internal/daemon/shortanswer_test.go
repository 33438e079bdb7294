package daemon

import (
	"strings"
	"testing"
)

// TestShortAnswer: with confirm on, the answer to a move that asks
// nothing more of its player is a few lines without the table: what was
// applied, what he may see of what followed, and whom the game waits for,
// which is true. A move that makes it his turn again is answered with
// that turn's mail.
func TestShortAnswer(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test", "dave@x.test"}
	reply, id := w.startGame("felix", players...)
	w.confirmOn(players...)
	for placed := 0; placed < len(players); placed++ {
		tb := w.loaded(id)
		p := tb.State.Waiting()[0]
		cmd := tb.State.Options(p)[0].Commands[0]
		before := len(w.inbox[players[p]])
		w.send(players[p], reply[players[p]], cmd)
		got := w.inbox[players[p]][before:]
		if len(got) != 1 {
			t.Fatalf("%s got %d mails for his move, want one answer", players[p], len(got))
		}
		text := oneLine(got[0].Text)
		hidden := w.hidden(id, p) // what p's mails must never show
		after := w.loaded(id)
		if waitsOn(after, p) {
			// The auction came to him: his turn's mail.
			if !strings.Contains(text, "Applied: "+cmd+".") || !strings.Contains(text, "What you can do now") {
				t.Errorf("%s's turn came, and the answer is not his turn's mail:\n%s", players[p], got[0].Text)
			}
			continue
		}
		var waiting []string
		for _, q := range after.State.Waiting() {
			waiting = append(waiting, after.Names[q])
		}
		want := "Next: the game waits for " + joinAnd(waiting) + "."
		if !strings.Contains(text, "above this line --- Applied: "+cmd+".") || !strings.Contains(text, want) {
			t.Errorf("%s's answer does not say what was applied and %q:\n%s", players[p], want, got[0].Text)
		}
		if strings.Contains(text, "The table") || strings.Contains(text, "What you can do now") || strings.Count(got[0].Text, "\n") > 20 {
			t.Errorf("%s's answer is not short:\n%s", players[p], got[0].Text)
		}
		for _, h := range hidden {
			if strings.Contains(text, h) {
				t.Errorf("%s's short answer shows %q, which he may not see:\n%s", players[p], h, got[0].Text)
			}
		}
	}
}
