package daemon

import (
	"context"
	"fmt"
	"html"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pbem/pbem/internal/admin"
)

// The test of this file reads what whole games say, sentence by
// sentence, for words that are not plain or not true: a duration as Go
// writes it, a count with the wrong noun, a headline that waits on a
// game that is over.

var (
	// goDuration is a time.Duration's String: "24h0m0s", "1h30m", "90m0s".
	goDuration = regexp.MustCompile(`\b\d+h\d+m(\d+s)?\b|\b\d+m\d+s\b|\b\d+h0m\b`)
	// wrongPlural is a count of one with a plural noun.
	wrongPlural = regexp.MustCompile(`(^|[^\d.,+-])1 (mice|cards|points|days|hours|minutes|seconds|players|bots|commands|games|stacks)\b`)
	// overWords are what no mail or page of a game that is over says.
	overWords = []string{"waiting for", "Waiting for", "your turn", "Your move", "Nothing to send for now", "Not your turn yet",
		"Everyone puts a card face down", "Auction: ", "Nobody bid: ", "Now: "}
	tagsOrStyle = regexp.MustCompile(`(?s)<style.*?</style>|<script.*?</script>|<[^>]+>`)
)

// pageText is a page's words, without its markup.
func pageText(page string) string {
	return strings.Join(strings.Fields(html.UnescapeString(tagsOrStyle.ReplaceAllString(page, " "))), " ")
}

// sentences splits text, unwrapped, into its sentences and lines.
func sentences(text string) []string {
	var out []string
	for _, para := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n\n") {
		one := strings.Join(strings.Fields(para), " ")
		for _, s := range regexp.MustCompile(`[.!?:] `).Split(one, -1) {
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
	}
	return out
}

// plainWords lists what is wrong with one sentence.
func plainWords(s string) []string {
	var bad []string
	if m := goDuration.FindString(s); m != "" {
		bad = append(bad, fmt.Sprintf("a Go duration %q", m))
	}
	if m := wrongPlural.FindString(s); m != "" && !strings.Contains(s, "ession"+m) {
		// ("Session 1 points: …" are the points of session 1.)
		bad = append(bad, fmt.Sprintf("a wrong plural %q", strings.TrimSpace(m)))
	}
	for _, login := range []string{"Admin root", "admin root", "root:"} {
		if strings.Contains(s, login) {
			bad = append(bad, "the admin's login name")
		}
	}
	return bad
}

// TestEverySentencePlain plays whole random games of Felix and Gracias
// by mail, with an admin extending a deadline, bad commands answered,
// and a second game ended by the host halfway, and reads every distinct
// sentence of every mail, answer and seat page: none holds a Go
// duration, a wrong plural or the admin's login name; and no mail or page
// of a game that is over says it waits for anyone.
func TestEverySentencePlain(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, kind := range []string{"felix", "gracias"} {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			w := webWorld(t)
			seen := map[string]string{} // sentence -> where it was read
			read := func(where, text string) {
				for _, s := range sentences(text) {
					if _, ok := seen[s]; !ok {
						seen[s] = where
					}
				}
			}
			players := []string{"alice@x.test", "bob@y.test", "carol@z.test", "dave@x.test"}
			for _, aborted := range []bool{false, true} {
				before := map[string]int{}
				for _, p := range players {
					before[p] = len(w.inbox[p])
				}
				reply, id := w.startGame(kind, players...)
				toks := make([]string, len(players))
				for i, p := range players {
					toks[i] = linkIn(t, w.last(p))
				}
				if err := w.svc.Admin(ctx, id, admin.ExtendAct{Who: "bob", By: 24 * time.Hour}, "root"); err != nil {
					t.Fatal(err)
				}
				if err := w.svc.Admin(ctx, id, admin.ExtendAct{Who: "carol", By: 90 * time.Minute}, "root"); err != nil {
					t.Fatal(err)
				}
				w.flush()
				for _, bad := range []string{"play elefant", "bid lots", "take 9", "frobnicate", "deadline 20 minutes"} {
					w.send(players[0], reply[players[0]], bad)
				}
				w.send(players[0], "pbem@example.test", "new "+kind+" with bob@y.test deadline 20 minutes")
				rng := rand.New(rand.NewPCG(35, 1))
				for steps := 0; !w.loaded(id).State.Result().Finished; steps++ {
					if steps > 600 {
						t.Fatal("the game does not end")
					}
					if aborted && steps == 12 {
						if err := w.svc.Admin(ctx, id, admin.StatusAct{To: admin.Abort}, "root"); err != nil {
							t.Fatal(err)
						}
						w.flush()
						break
					}
					tb := w.loaded(id)
					seat := tb.State.Waiting()[0]
					var cmds []string
					for _, o := range tb.State.Options(seat) {
						cmds = append(cmds, o.Commands...)
					}
					w.send(players[seat], reply[players[seat]], cmds[rng.IntN(len(cmds))])
					if steps%7 == 0 {
						for i, tok := range toks {
							page, err := w.svc.Pages().Page(ctx, tok, -1)
							if err != nil {
								t.Fatal(err)
							}
							read(fmt.Sprintf("%s's page, step %d", players[i], steps), pageText(page))
						}
					}
				}
				// The last mail of each player, and his page, say the
				// game is over and wait on nobody.
				for i, p := range players {
					for j, m := range w.inbox[p][before[p]:] {
						read(fmt.Sprintf("mail %d to %s", j, p), m.Text)
						read(fmt.Sprintf("mail %d to %s, HTML", j, p), pageText(m.HTML))
					}
					last := w.last(p)
					page, err := w.svc.Pages().Page(ctx, toks[i], -1)
					if err != nil {
						t.Fatal(err)
					}
					for _, part := range []string{last.Headline, last.Text, pageText(page)} {
						for _, wrong := range overWords {
							if strings.Contains(part, wrong) {
								t.Errorf("aborted %v: the game is over, and %s's last mail or page says %q:\n%s", aborted, p, wrong, part)
							}
						}
					}
					if aborted && !strings.Contains(last.Headline, "ended by the host") {
						t.Errorf("the headline of %s's mail on an aborted game: %q", p, last.Headline)
					}
				}
			}
			var bad []string
			for s, where := range seen {
				for _, b := range plainWords(s) {
					bad = append(bad, fmt.Sprintf("%s, in %s: %q", b, where, s))
				}
			}
			slices.Sort(bad)
			for _, b := range bad {
				t.Error(b)
			}
			if len(seen) < 100 {
				t.Errorf("only %d distinct sentences read", len(seen))
			}
			for _, want := range []string{"The host extended bob's deadline by 24 hours", "The host extended carol's deadline by 90 minutes"} {
				if !slices.ContainsFunc(slices.Collect(mapsKeys(seen)), func(s string) bool { return strings.Contains(s, want) }) {
					t.Errorf("no mail says %q", want)
				}
			}
		})
	}
}

// mapsKeys is the keys of m.
func mapsKeys(m map[string]string) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}
