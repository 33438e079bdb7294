package demo

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/pbem/pbem/engine/games"
	"github.com/pbem/pbem/engine/transcript"
)

// TestDemoGames plays a Felix and a Gracias game through the embedded
// IMAP and SMTP servers and checks them against a replay of the export.
func TestDemoGames(t *testing.T) {
	ctx := context.Background()
	w, err := Start(ctx, Options{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	for _, tc := range []struct {
		kind    string
		players []string
	}{
		{"felix", []string{"alice@pbem.test", "bob@pbem.test", "carol@pbem.test", "dave@pbem.test"}},
		{"gracias", []string{"alice@pbem.test", "bob@pbem.test", "carol@pbem.test"}},
	} {
		g, err := w.Play(ctx, tc.kind, tc.players, 3*time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := transcript.Read(strings.NewReader(g.Transcript), games.Lookup)
		if err != nil {
			t.Fatal(err)
		}
		rg, _, err := tr.Replay()
		if err != nil {
			t.Fatal(err)
		}
		res := rg.Result()
		if !res.Finished {
			t.Fatalf("%s: the replayed game is not finished", tc.kind)
		}
		for i, p := range tc.players {
			if g.Scores[p] != res.Scores[i] {
				t.Errorf("%s: %s scored %d by mail, %d by replay", tc.kind, p, g.Scores[p], res.Scores[i])
			}
		}
		for _, p := range tc.players {
			seen := map[string]bool{}
			for _, m := range g.Mails[p] {
				if seen[m.MessageID] {
					t.Errorf("%s received %s twice", p, m.MessageID)
				}
				seen[m.MessageID] = true
			}
		}
	}
}

func TestOffered(t *testing.T) {
	text := "x\nWhat you can do now\n-------------------\n\nRaise (bid 2..4):\n    bid 2    bid 3    bid 4\n\nLeave:\n    pass\n\n--\n    help\n"
	got := strings.Join(Offered(text), ",")
	if got != "bid 2,bid 3,bid 4,pass" {
		t.Errorf("offered %q", got)
	}
}
