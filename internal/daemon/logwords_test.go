package daemon

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/pbem/pbem/parser"
)

// TestLogsNameKindsNotWords is issue 23's finding 7: a line that did not
// read was logged and stored word for word ("line 1, \"I hold 15 and
// still the rabbit, what now\": ..."), with the "did you mean"
// suggestions, which are filtered by what is legal now and so tell the
// log's reader what is in the player's hand, and with the options of an
// ambiguous word. Whole games are played in which the player to move
// first sends a line pbem cannot read, made at random of words of his
// own, the values of his legal commands and the keywords of the game;
// then the log and every stored inbound detail are searched for the
// line, its words, the reason, the options and the suggestions. Each
// player's own answer still quotes his line.
func TestLogsNameKindsNotWords(t *testing.T) {
	t.Parallel()
	for _, kind := range []string{"felix", "gracias"} {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			players := []string{"alice@x.test", "bob@y.test", "carol@z.test", "dave@x.test"}
			reply, id := w.startGame(kind, players...)
			rng := rand.New(rand.NewPCG(23, 7))
			secrets := map[string]bool{} // what must not be logged or stored
			problems, suggested := 0, 0
			for steps := 0; !w.loaded(id).State.Result().Finished; steps++ {
				if steps > 600 {
					t.Fatal("the game does not end")
				}
				tb := w.loaded(id)
				p := tb.State.Waiting()[0]
				var legal []string
				for _, o := range tb.State.Options(p) {
					legal = append(legal, o.Commands...)
				}
				marker := fmt.Sprintf("wombat%d", steps)
				line := unreadableLine(rng, marker, legal)
				prob := readProblem(w.svc.workIn(context.Background(), nil).seatGrammar(tb, p), line)
				if prob == nil {
					t.Fatalf("%q reads as commands: the test's line must not", line)
				}
				problems++
				for _, s := range append([]string{marker, prob.Text, prob.Reason}, prob.DidYouMean...) {
					// A player's name alone is no secret: the log names
					// the sender's address.
					if len(s) >= 5 && !strings.Contains(strings.Join(players, " "), s) {
						secrets[s] = true
					}
				}
				if len(prob.DidYouMean) > 0 {
					suggested++
				}
				w.send(players[p], reply[players[p]], line)
				if got := w.last(players[p]).Text; !strings.Contains(strings.Join(strings.Fields(got), " "), prob.Text) {
					t.Fatalf("the answer to %q does not quote it:\n%s", line, got)
				}
				w.send(players[p], reply[players[p]], legal[rng.IntN(len(legal))])
			}
			t.Logf("%d unreadable lines, %d with suggestions, %d things to look for", problems, suggested, len(secrets))
			if problems < 20 || suggested < 5 {
				t.Fatalf("%d unreadable lines, %d with suggestions: the check would prove little", problems, suggested)
			}
			// A move after the end is refused; the detail names the
			// kind, the player is told in words.
			w.send(players[0], reply[players[0]], legalAtEnd[kind])
			if in := w.outcome(); in.Detail != "not applied: game not active" {
				t.Errorf("a move after the end: detail %q, want the kind", in.Detail)
			}
			if got := w.last(players[0]).Text; !strings.Contains(got, "This game is over") && !strings.Contains(got, "this game is over") {
				t.Errorf("a move after the end: the answer does not say the game is over:\n%s", got)
			}
			inbound, err := w.st.AllInbound(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			var details strings.Builder
			for _, in := range inbound {
				details.WriteString(in.Detail + "\n")
			}
			for where, text := range map[string]string{"log": w.logs.String(), "inbound details": details.String()} {
				if !strings.Contains(text, "line 1") {
					t.Errorf("the %s never names an unreadable line: the check would prove nothing", where)
				}
				leaks := 0
				for s := range secrets {
					if strings.Contains(text, s) {
						if leaks++; leaks <= 5 {
							t.Errorf("the %s holds %q", where, s)
						}
					}
				}
				if leaks > 5 {
					t.Errorf("the %s holds %d more", where, leaks-5)
				}
			}
		})
	}
}

// legalAtEnd is a command each game reads, though it is no longer legal
// once the game is over.
var legalAtEnd = map[string]string{"felix": "pass", "gracias": "take 1"}

// unreadableLine is a line pbem cannot read as commands: a sentence of
// the player's own with marker in it, a value of a legal command alone
// (which pbem answers with the commands that take it and are legal now),
// a legal command with a word too many, or a keyword of the game with a
// word that is no value of it.
func unreadableLine(rng *rand.Rand, marker string, legal []string) string {
	cmd := legal[rng.IntN(len(legal))]
	words := strings.Fields(cmd)
	value := words[len(words)-1]
	if len(words) > 1 {
		value = words[1+rng.IntN(len(words)-1)]
	}
	switch rng.IntN(4) {
	case 0:
		return "I hold " + value + " and still the " + marker + ", what now"
	case 1:
		if len(words) > 1 {
			return value
		}
		return "what about " + marker
	case 2:
		return cmd + " " + marker
	}
	return words[0] + " " + marker
}

// readProblem is the problem pbem finds in a mail of line, as the seat's
// mail is read.
func readProblem(grammar parser.Grammar, line string) *parser.Problem {
	_, prob := parser.Read(line, grammar)
	return prob
}
