package templates

import (
	"bytes"
	"testing"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/felix"
	"github.com/pbem/pbem/engine/games"
	"github.com/pbem/pbem/engine/gracias"
)

// oldRenderer is a renderer with the game in old's place: a game with
// some of its parts as the templates they were.
func oldRenderer(t *testing.T, game string, old engine.Rules) *Renderer {
	t.Helper()
	all := games.All()
	all[game] = old
	r, err := New(all)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// renderPart executes the HTML part's template part of the game from the
// mail m, in the renderer's set for m's language, as the web page would.
func renderPart(t testing.TB, r *Renderer, part string, m GameMail) string {
	return writePart(t, r, m, func(d *gameData, b *bytes.Buffer) error { return d.game.h.ExecuteTemplate(b, part, d) })
}

// writePart is what write writes of the HTML part of the mail m, from
// its game data in the renderer's set for m's language.
func writePart(t testing.TB, r *Renderer, m GameMail, write func(*gameData, *bytes.Buffer) error) string {
	t.Helper()
	set := r.set(m.Language)
	g := set.games[m.Game]
	d := newGameData(m, g.rules, set.words)
	d.game = g
	var b bytes.Buffer
	if err := write(d, &b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// writeWaiting is the mail's game.waiting as a game mail writes it.
func writeWaiting(d *gameData, b *bytes.Buffer) error { return d.writeWaiting(b) }

// felixWaitingViews are Felix's views of the reader bob as they may be
// while he waits, and more: every combination of phase, last round or
// not, standing order, stake, money and highest stake, whether he may
// send ahead, whether he passed or placed his card.
func felixWaitingViews() []felix.View {
	var out []felix.View
	five := 5
	for _, phase := range []string{"placing", "bidding", "buying"} {
		for _, round := range []int{2, 3} {
			for _, order := range []struct {
				limit int
				pass  bool
			}{{0, false}, {7, false}, {0, true}} {
				for _, money := range []*int{nil, &five} {
					for _, high := range []int{0, 4, 9} {
						for _, flags := range []int{0, 1, 2, 3, 4, 5, 6, 7} {
							ahead, passed, placed := flags&1 != 0, flags&2 != 0, flags&4 != 0
							out = append(out, felix.View{Game: "felix", You: "bob", Round: round, Rounds: 3, Phase: phase, Turn: "alice",
								HighStake: high, Money: money, Limit: order.limit, StandingPass: order.pass, Ahead: ahead,
								Players: []felix.PlayerView{{Name: "alice", Stake: high}, {Name: "bob", Stake: 2, Passed: passed, Placed: placed}}})
						}
					}
				}
			}
		}
	}
	return out
}

// TestFelixWaitingIsTheTemplate writes where the reader stands from
// every view of felixWaitingViews, in English and German, waited on or
// not, with and without a reply address, both with Felix's Go and with
// the templates it replaced: the transcripts reach only some of its
// branches.
func TestFelixWaitingIsTheTemplate(t *testing.T) {
	now, then := newRenderer(t), oldRenderer(t, "felix", oldFelix{asTemplateGame("felix")})
	compared := 0
	for _, v := range felixWaitingViews() {
		for _, lang := range []string{"", "de"} {
			for _, waits := range []bool{false, true} {
				for _, reply := range []string{"", "felix+tok@pbem.example"} {
					m := GameMail{Game: "felix", Title: "Felix: The Cat in the Sack", GameID: 12, Reader: "bob", View: v,
						Language: lang, ReplyAddress: reply, MessageID: "m1@pbem.example"}
					if waits {
						m.Waiting = []string{"bob"}
					}
					want := renderPart(t, then, "game.waiting", m)
					if got := writePart(t, now, m, writeWaiting); got != want {
						t.Fatalf("%+v, %q, waited on %v, reply address %q:\n got %s\nwant %s", v, lang, waits, reply, got, want)
					}
					if got := renderPart(t, now, "game.waiting", m); got != want {
						t.Fatalf("the template, %+v, %q, waited on %v, reply address %q:\n got %s\nwant %s", v, lang, waits, reply, got, want)
					}
					compared++
				}
			}
		}
	}
	t.Logf("%d parts compared", compared)
}

// TestRenderersWaitingIsTheTemplate writes where the reader of a game
// that says no more than the renderer stands (Gracias), waited on or
// not, in English and German, with the renderer's Go and with the
// template it replaced.
func TestRenderersWaitingIsTheTemplate(t *testing.T) {
	now, then := newRenderer(t), oldRenderer(t, "gracias", oldGracias{asTemplateGame("gracias")})
	for _, lang := range []string{"", "de"} {
		for _, waits := range []bool{false, true} {
			m := GameMail{Game: "gracias", Title: "Gracias", GameID: 7, Reader: "bob", View: gracias.View{}, Language: lang}
			if waits {
				m.Waiting = []string{"bob"}
			}
			want := renderPart(t, then, "game.waiting", m)
			if got := writePart(t, now, m, writeWaiting); got != want {
				t.Errorf("%q, waited on %v:\n got %s\nwant %s", lang, waits, got, want)
			}
			if got := renderPart(t, now, "game.waiting", m); got != want {
				t.Errorf("the template, %q, waited on %v:\n got %s\nwant %s", lang, waits, got, want)
			}
		}
	}
}
