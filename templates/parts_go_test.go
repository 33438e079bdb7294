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

// renderTextPart executes the text part's template part of the game
// from the mail m, in the renderer's set for m's language, as what
// renders it by name would.
func renderTextPart(t testing.TB, r *Renderer, part string, m GameMail) string {
	return writePart(t, r, m, func(d *gameData, b *bytes.Buffer) error { return d.game.t.ExecuteTemplate(b, part, d) })
}

// writeWaiting is the mail's game.waiting as a game mail writes it.
func writeWaiting(d *gameData, b *bytes.Buffer) error { return d.writeWaiting(b) }

// writeWaitingText is the mail's game.waiting as a game mail's text
// part writes it.
func writeWaitingText(d *gameData, b *bytes.Buffer) error { return d.writeWaitingText(b) }

// writeHeadline is the mail's game.headline as the renderer r writes a
// game mail's.
func writeHeadline(r *Renderer) func(*gameData, *bytes.Buffer) error {
	return func(d *gameData, b *bytes.Buffer) error {
		s, err := r.headlineText(d)
		b.WriteString(s)
		return err
	}
}

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
// not, with and without a reply address, in the HTML and the text part,
// both with Felix's Go and with the templates it replaced: the
// transcripts reach only some of its branches.
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
					want = renderTextPart(t, then, "game.waiting", m)
					if got := writePart(t, now, m, writeWaitingText); got != want {
						t.Fatalf("the text, %+v, %q, waited on %v, reply address %q:\n got %s\nwant %s", v, lang, waits, reply, got, want)
					}
					if got := renderTextPart(t, now, "game.waiting", m); got != want {
						t.Fatalf("the text's template, %+v, %q, waited on %v, reply address %q:\n got %s\nwant %s", v, lang, waits, reply, got, want)
					}
					compared += 2
				}
			}
		}
	}
	t.Logf("%d parts compared", compared)
}

// TestRenderersWaitingIsTheTemplate writes where the reader of a game
// that says no more than the renderer stands (Gracias), waited on or
// not, in English and German, in the HTML and the text part, with the
// renderer's Go and with the templates it replaced.
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
			want = renderTextPart(t, then, "game.waiting", m)
			if got := writePart(t, now, m, writeWaitingText); got != want {
				t.Errorf("the text, %q, waited on %v:\n got %s\nwant %s", lang, waits, got, want)
			}
			if got := renderTextPart(t, now, "game.waiting", m); got != want {
				t.Errorf("the text's template, %q, waited on %v:\n got %s\nwant %s", lang, waits, got, want)
			}
		}
	}
}

// headlineViews are views of each game's headline cases: none, and
// every phase (Felix) or a first and a later session with and without
// the reader's taken triplet (Gracias).
func headlineViews() map[string][]any {
	out := map[string][]any{"felix": {nil}, "gracias": {nil}}
	for _, phase := range []string{"placing", "bidding", "buying"} {
		out["felix"] = append(out["felix"], felix.View{Game: "felix", You: "bob", Round: 2, Rounds: 3, Phase: phase, Turn: "alice"})
	}
	for _, session := range []int{1, 2} {
		for _, pending := range []*gracias.PendingView{nil, {Number: 2, FaceUp: []string{"red", "blue"}, FaceDown: "green"}} {
			out["gracias"] = append(out["gracias"], gracias.View{Game: "gracias", You: "bob", Session: session, Sessions: 3,
				Round: 2, Rounds: 4, Phase: "take", Turn: "alice", Pending: pending})
		}
	}
	return out
}

// headlineMails are the reader bob's mails of the game from the view v
// that its headline tells apart: in English and German, a new game or
// not, the reader's turn or not, waiting on him, on others or on
// nobody, a session's scores told or not, and the game over with no
// winner, one or two.
func headlineMails(game, title string, v any) []GameMail {
	var out []GameMail
	winners := [][]string{nil, {"alice"}, {"alice", "carol"}}
	for _, lang := range []string{"", "de"} {
		for _, kind := range []MailKind{MailStart, MailTurn, MailStatus} {
			for _, waiting := range [][]string{nil, {"bob"}, {"alice"}, {"bob", "alice", "carol"}} {
				for _, told := range []bool{false, true} {
					for end := -1; end < len(winners); end++ {
						for _, turn := range []bool{false, true} {
							m := GameMail{Game: game, Title: title, GameID: 12, Reader: "bob", View: v, Language: lang, Kind: kind, Waiting: waiting}
							if turn {
								m.Options = []engine.Option{{Text: "pass", Commands: []string{"pass"}}}
							}
							if told {
								m.Happened = []engine.Event{{To: engine.Public, Kind: "score", Text: "a session scored"}}
							}
							if end >= 0 {
								m.Kind, m.Finished, m.Winners = MailEnd, true, winners[end]
							}
							out = append(out, m)
						}
					}
				}
			}
		}
	}
	return out
}

// TestHeadlinesAreTheTemplates writes the headline of each game's
// headlineMails from each of its headlineViews, with its Go and with
// the templates it replaced, and with the template that calls the Go,
// and the whole mail with both: the transcripts never make a mail
// without a view, nor tell Felix's reader a session's scores.
func TestHeadlinesAreTheTemplates(t *testing.T) {
	now := newRenderer(t)
	old := map[string]*Renderer{
		"felix":   oldRenderer(t, "felix", oldFelix{asTemplateGame("felix")}),
		"gracias": oldRenderer(t, "gracias", oldGracias{asTemplateGame("gracias")}),
	}
	titles := map[string]string{"felix": "Felix: The Cat in the Sack", "gracias": "Gracias"}
	compared := 0
	for game, views := range headlineViews() {
		for _, v := range views {
			for _, m := range headlineMails(game, titles[game], v) {
				want := renderTextPart(t, old[game], "game.headline", m)
				if got := writePart(t, now, m, writeHeadline(now)); got != want {
					t.Fatalf("%s, %+v, %s mail, %q, finished %v, winners %v, options %d, waiting %v, told %v:\n got %q\nwant %q",
						game, v, m.Kind, m.Language, m.Finished, m.Winners, len(m.Options), m.Waiting, m.Happened != nil, got, want)
				}
				if got := renderTextPart(t, now, "game.headline", m); got != want {
					t.Fatalf("the template, %s, %+v, %s mail, %q:\n got %q\nwant %q", game, v, m.Kind, m.Language, got, want)
				}
				compareMails(t, now, old[game], m)
				compared++
			}
		}
	}
	t.Logf("%d headlines compared", compared)
}

// compareMails renders the mail m with the renderer as it is and with
// then, a renderer with a game's parts as the templates they were, and
// fails unless they write the same mail.
func compareMails(t *testing.T, now, then *Renderer, m GameMail) {
	t.Helper()
	got, err := now.Game(m)
	if err != nil {
		t.Fatal(err)
	}
	want, err := then.Game(m)
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Fatalf("%s, %+v, %s mail, %q: the mails differ:\n got %+v\nwant %+v", m.Game, m.View, m.Kind, m.Language, got, want)
	}
}

// TestTextPartsRefuseAnotherView: a game's headline and table in the
// text part fail on a view that is not the game's, as its templates
// did, rather than write a table of nothing; and so does its mail.
func TestTextPartsRefuseAnotherView(t *testing.T) {
	r := newRenderer(t)
	for game, view := range map[string]any{"felix": gracias.View{Session: 1}, "gracias": felix.View{Round: 1}} {
		p := games.All()[game].(engine.TextParts)
		d := engine.PartData{View: view, Reader: "bob", Kind: string(MailTurn)}
		if _, err := p.HeadlineText(engine.English, engine.Headline{PartData: d, Name: game, GameID: 3}); err == nil {
			t.Errorf("%s: a headline from a %T", game, view)
		}
		if _, err := p.TableText(engine.English, d); err == nil {
			t.Errorf("%s: a table from a %T", game, view)
		}
		if _, err := r.Game(GameMail{Game: game, Title: game, GameID: 3, Reader: "bob", View: view, Kind: MailTurn}); err == nil {
			t.Errorf("%s: a mail from a %T", game, view)
		}
	}
}
