package daemon

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/pbem/pbem/engine"
)

// The admin who runs pbem often plays too: what pbem logs and keeps as an
// inbound mail's detail must not tell him an opponent's hand, set-aside
// card or money. A whole random game is played in which every player
// first tries commands the rules refuse (whose reasons and valid options
// speak of his cards and money), and the log and the details are searched
// for those words.
func TestLogsKeepHiddenValues(t *testing.T) {
	t.Parallel()
	for _, kind := range []string{"felix", "gracias"} {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			players := []string{"alice@x.test", "bob@y.test", "carol@z.test", "dave@x.test"}
			reply, id := w.startGame(kind, players...)
			rng := rand.New(rand.NewPCG(9, 9))
			var secrets []string // what must not be logged
			for steps := 0; !w.loaded(id).State.Result().Finished; steps++ {
				if steps > 600 {
					t.Fatal("the game does not end")
				}
				tb := w.loaded(id)
				p := tb.State.Waiting()[0]
				if bad, words := refused(tb.State, tb.Rules.Specs(), tb.Names, p, rng); bad != "" {
					for _, s := range words {
						if len(s) >= 8 { // "pass" alone is no secret, and common
							secrets = append(secrets, s)
						}
					}
					w.send(players[p], reply[players[p]], bad)
				}
				var cmds []string
				for _, o := range tb.State.Options(p) {
					cmds = append(cmds, o.Commands...)
				}
				w.send(players[p], reply[players[p]], cmds[rng.IntN(len(cmds))])
			}
			if len(secrets) < 10 {
				t.Fatalf("only %d refused commands were tried: the check would prove little", len(secrets))
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
				if !strings.Contains(text, "illegal command") {
					t.Errorf("the %s never mentions an illegal command: the check would prove nothing", where)
				}
				for _, s := range secrets {
					if strings.Contains(text, s) {
						t.Errorf("the %s holds %q", where, s)
					}
				}
			}
		})
	}
}

// refused finds a command the rules refuse seat now, and the words of its
// refusal that speak of the seat's own cards or money: the reason and the
// valid options.
func refused(g engine.Game, specs []engine.Spec, names []string, seat int, rng *rand.Rand) (string, []string) {
	var candidates []string
	for _, sp := range specs {
		for _, w := range sp.Words {
			switch w.Kind {
			case engine.Choice:
				for _, c := range w.Choices {
					candidates = append(candidates, sp.Make(c.Value).Text)
				}
			case engine.Number:
				for _, n := range []string{"1", "3", "40"} {
					candidates = append(candidates, sp.Make(n).Text)
				}
			}
		}
	}
	rng.Shuffle(len(candidates), func(i, j int) { candidates[i], candidates[j] = candidates[j], candidates[i] })
	for _, text := range candidates {
		c, err := engine.ParseCommand(specs, names, text)
		if err != nil {
			continue
		}
		_, err = g.Clone().Apply(seat, c)
		var ie *engine.IllegalError
		if errors.As(err, &ie) {
			words := []string{ie.Reason}
			if len(ie.Options) > 0 {
				words = append(words, engine.OptionsText(ie.Options))
			}
			return text, words
		}
	}
	return "", nil
}
