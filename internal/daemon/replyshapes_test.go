package daemon

import (
	"strings"
	"testing"
)

// TestLocalisedReplyNoComplaint (issue 36): a reply whose attribution
// names the service by its configured display name, in a language no
// word list has, with the command below the quote, then a phone's
// footer, is applied and draws no complaint: the daemon gives the
// parser the name its mails are sent under.
func TestLocalisedReplyNoComplaint(t *testing.T) {
	t.Parallel()
	w := newWorldConfig(t, func(c *Config) { c.Name = "Game Host" })
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test"}
	reply, id := w.startGame("felix", players...)
	cmd := w.legal(id, 0)
	last := w.inbox["alice@x.test"][len(w.inbox["alice@x.test"])-1]
	quoted := "> " + strings.ReplaceAll(strings.TrimRight(last.Text, "\n"), "\n", "\n> ")
	before, moves := len(w.inbox["alice@x.test"]), w.moves(id)
	// Estonian: "Game Host wrote:"; no date, no address, no known verb.
	w.send("alice@x.test", reply["alice@x.test"], "Game Host kirjutas:\n"+quoted+"\n\n\u200f"+cmd+"\n\nVon meinem iPhone gesendet\n",
		"MIME-Version: 1.0", "Content-Type: text/plain; charset=UTF-8", "Content-Transfer-Encoding: 8bit")
	if w.moves(id) != moves+1 {
		for _, m := range w.inbox["alice@x.test"][before:] {
			t.Log(m.Text)
		}
		t.Fatalf("the move was not applied: %d moves, want %d", w.moves(id), moves+1)
	}
	for _, m := range w.inbox["alice@x.test"][before:] {
		low := strings.ToLower(m.Text)
		for _, complaint := range []string{"stopped reading", "did not understand", "was ignored", "not a command"} {
			if strings.Contains(low, complaint) {
				t.Errorf("alice was told %q:\n%s", complaint, m.Text)
			}
		}
	}
}
