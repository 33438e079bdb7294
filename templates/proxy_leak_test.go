package templates

import (
	"strings"
	"testing"

	"github.com/pbem/pbem/engine"
)

// TestProxyLimitStaysPrivate plays the proxy scenario move by move and
// renders, after every move, each player's mail (text and HTML) and his
// whole history: bob's limit (6) and carol's standing pass are theirs
// alone. What the others may read of them is only the bids and passes
// themselves, worded as bids and passes by hand. The limit is searched
// for in the sentences that carry it, since a bare 6 is on every table.
func TestProxyLimitStaysPrivate(t *testing.T) {
	t.Parallel()
	const file = "engine/felix/testdata/proxy-outbids-4p.txt"
	r := newRenderer(t)
	_, _, all := play(t, file, -1)
	// Words only an order's giver may read, whoever gave it.
	// (Everyone who may give an order is told how: "bid up to N (pbem
	// then bids for you up to a total stake of N)"; that is no secret.)
	secret := []string{"limit", "bid up to 6", "total stake of 6", "pbem bids 3", "pbem bids 6", "pbem will bid", "pbem will pass", "pbem passes for you, as you asked", "You let pbem"}
	owner := map[string]bool{"bob": true, "carol": true}
	shown := map[string]int{} // how often each owner saw his order: the test must not be vacuous
	for n := 0; n <= len(all); n++ {
		g, opening, steps := play(t, file, n)
		for seat, name := range g.Players() {
			whole := visible(seat, opening)
			for _, s := range steps {
				whole = append(whole, visible(seat, s.events)...)
			}
			latest := mailFor(t, g, seat, MailTurn, sinceLastMove(seat, opening, steps))
			history := mailFor(t, g, seat, MailStatus, whole)
			history.WholeHistory = true
			for _, m := range []GameMail{latest, history} {
				mail := render(t, r, m)
				for part, text := range map[string]string{"text": unwrap(mail.Text), "HTML": unwrap(htmlText(mail.HTML))} {
					for _, w := range secret {
						if !strings.Contains(text, w) {
							continue
						}
						if !owner[name] {
							t.Fatalf("after %d moves, the %s of %s's mail says %q:\n%s", n, part, name, w, text)
						}
						shown[name]++
					}
					if name == "carol" && strings.Contains(text, "limit") {
						t.Fatalf("after %d moves, carol's %s reads of a limit:\n%s", n, part, text)
					}
				}
			}
		}
	}
	for name := range owner {
		if shown[name] == 0 {
			t.Errorf("%s never read of his own order: the check proves nothing", name)
		}
	}
	// The public side of a proxy's bid is a bid by hand's.
	var public []string
	for _, s := range steps(t, file) {
		for _, e := range s {
			if e.VisibleTo(engine.Public) {
				public = append(public, e.Text)
			}
		}
	}
	for _, want := range []string{"bob bids 3.", "bob bids 6."} {
		found := false
		for _, p := range public {
			found = found || p == want
		}
		if !found {
			t.Errorf("the public log lacks %q:\n%s", want, strings.Join(public, "\n"))
		}
	}
}

// steps are the events of every move of file, in order.
func steps(t *testing.T, file string) [][]engine.Event {
	_, _, all := play(t, file, -1)
	out := make([][]engine.Event, len(all))
	for i, s := range all {
		out[i] = s.events
	}
	return out
}
