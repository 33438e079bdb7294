package daemon

import (
	"context"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/pbem/pbem/parser"
)

// TestUnreadableAnswerListsOptions: an answer to a mail that could not
// be read names what was wrong and lists what the player can do now, his
// legal options as the game mail lists them, not the whole help (issue
// 24). "play dog" from bob, who holds neither dog any more, does not
// say the word could be either dog as if both were his to play.
func TestUnreadableAnswerListsOptions(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test"}
	reply, id := w.startGame("felix", players...)
	const bob = 1
	dogs := []string{"play large-dog", "play small-dog"}
	var plays []string
	for step := 0; ; step++ {
		if step > 300 {
			t.Fatal("bob never had to place a card without a dog")
		}
		g := w.loaded(id).State
		waiting := g.Waiting()
		if len(waiting) == 0 {
			t.Fatal("the game ended first")
		}
		seat := waiting[0]
		opts := g.Options(seat)
		var all []string
		for _, o := range opts {
			all = append(all, o.Commands...)
		}
		cmd := all[0]
		if seat == bob {
			canPlay, hasDog := false, false
			for _, c := range all {
				canPlay = canPlay || strings.HasPrefix(c, "play ")
				hasDog = hasDog || slices.Contains(dogs, c)
			}
			if canPlay && !hasDog {
				plays = all
				break
			}
			for _, d := range dogs {
				if slices.Contains(all, d) {
					cmd = d
				}
			}
		}
		w.send(players[seat], reply[players[seat]], cmd)
	}
	before := w.moves(id)
	w.send("bob@y.test", reply["bob@y.test"], "play dog")
	if w.moves(id) != before {
		t.Fatal("a move was applied")
	}
	got := strings.ReplaceAll(w.last("bob@y.test").Text, "\r\n", "\n")
	flat := strings.Join(strings.Fields(got), " ")
	if !strings.Contains(flat, `"play dog"`) {
		t.Errorf("the answer does not name what was not read:\n%s", got)
	}
	if strings.Contains(flat, "could be large-dog or small-dog") {
		t.Errorf("the answer offers dogs bob does not hold:\n%s", got)
	}
	if !strings.Contains(got, "Your move:") {
		t.Errorf("the answer does not list what bob can do now:\n%s", got)
	}
	for _, p := range plays {
		if !offers(got, p) {
			t.Errorf("the answer does not list %q:\n%s", p, got)
		}
	}
	for _, help := range []string{"Commands of Felix", "new GAME with", "notify normal|all"} {
		if strings.Contains(got, help) {
			t.Errorf("the answer holds the whole help (%q):\n%s", help, got)
		}
	}
	// That bob may play neither dog tells of his hand: his answer says
	// it, the log and the stored detail do not.
	inbound, err := w.st.AllInbound(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var details strings.Builder
	for _, in := range inbound {
		details.WriteString(in.Detail + "\n")
	}
	for where, text := range map[string]string{"log": w.logs.String(), "inbound details": details.String()} {
		if strings.Contains(text, "possible now") || strings.Contains(text, "neither") {
			t.Errorf("the %s tells what bob may play:\n%s", where, text)
		}
	}
	if !strings.Contains(details.String(), string(parser.ProblemAmbiguousValue)) {
		t.Errorf("no detail of the unreadable mail: the check proves nothing:\n%s", details.String())
	}
}

// TestUnreadableAnswerWhenNotHisTurn: with nothing to decide, the answer
// says so instead of listing commands.
func TestUnreadableAnswerWhenNotHisTurn(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test"}
	reply, id := w.startGame("felix", players...)
	g := w.loaded(id).State
	// The one who has placed his card waits for the others.
	seat := g.Waiting()[0]
	w.send(players[seat], reply[players[seat]], w.legal(id, seat))
	if len(w.loaded(id).State.Options(seat)) != 0 {
		t.Fatal("the seat still has options after placing: the test would prove nothing")
	}
	w.send(players[seat], reply[players[seat]], "blurb 5")
	got := strings.ReplaceAll(w.last(players[seat]).Text, "\r\n", "\n")
	if !strings.Contains(got, `"blurb 5"`) || !strings.Contains(got, "No decision of yours is due") || strings.Contains(got, "Commands of Felix") {
		t.Errorf("answer:\n%s", got)
	}
}

// TestUnreadableStaleReplyListsOptions: an unreadable reply to an older
// mail of the game still lists what the player can do now: that his mail
// is old does not make his decision any less due.
func TestUnreadableStaleReplyListsOptions(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test"}
	reply, id := w.startGame("felix", players...)
	for p := 0; p < 3; p++ {
		w.send(players[p], reply[players[p]], w.legal(id, p))
	}
	// The first bidder bids; the others answer until he must decide again.
	p := w.loaded(id).State.Waiting()[0]
	old := w.last(players[p])
	w.send(players[p], reply[players[p]], w.legal(id, p))
	for steps := 0; !slices.Contains(w.loaded(id).State.Waiting(), p); steps++ {
		if steps > 100 {
			t.Fatal("the bidder never had to decide again")
		}
		q := w.loaded(id).State.Waiting()[0]
		w.send(players[q], reply[players[q]], w.legal(id, q))
	}
	cmd := w.legal(id, p)
	w.reply(players[p], reply[players[p]], "blurb 5", old.MessageID)
	got := strings.ReplaceAll(w.last(players[p]).Text, "\r\n", "\n")
	if !strings.Contains(got, `"blurb 5"`) || !strings.Contains(got, "Your move:") || !offers(got, cmd) {
		t.Errorf("the answer does not list %q:\n%s", cmd, got)
	}
	if strings.Contains(got, "No decision of yours is due") {
		t.Errorf("the answer says nothing is due:\n%s", got)
	}
}

// offers reports whether a mail's text offers cmd: on a line of its own,
// among its kind ("play -8 · 3 · rabbit", "bid 2 · 3 · … · 17", which
// the parser's NFKC may have made "..."), or as a pattern's example
// ("bid up to N, e.g. bid up to 9").
func offers(text, cmd string) bool {
	i := strings.LastIndexByte(cmd, ' ')
	if i < 0 {
		return regexp.MustCompile(`(?m)^\s*` + regexp.QuoteMeta(cmd) + `\s*$`).MatchString(text)
	}
	prefix, value := regexp.QuoteMeta(cmd[:i]), regexp.QuoteMeta(cmd[i+1:])
	whole := regexp.MustCompile(`(?m)^\s*(` + prefix + `( \S+ ·)* ` + value + `( ·.*)?|.*, e\.g\. ` + regexp.QuoteMeta(cmd) + `)\s*$`)
	if whole.MatchString(text) {
		return true
	}
	// Within a run "a · b · c · … · z".
	n, err := strconv.Atoi(cmd[i+1:])
	if err != nil {
		return false
	}
	run := regexp.MustCompile(`(?m)^\s*` + prefix + ` (?:-?\d+ · )*(-?\d+) · (?:…|\.\.\.) · (-?\d+)`)
	for _, m := range run.FindAllStringSubmatch(text, -1) {
		lo, _ := strconv.Atoi(m[1])
		hi, _ := strconv.Atoi(m[2])
		if lo < n && n < hi {
			return true
		}
	}
	return false
}
