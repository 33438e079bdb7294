package demo

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/pbem/pbem/internal/config"
)

// TestWholeGameAtServeLimits plays a whole 4-player Felix game through
// the embedded mail servers, with the per-address limits `pbem serve`
// runs with by default (issue 23: the loop breaker took players who
// answer at once for a flood, dropped a move and left the game waiting
// for its deadline). Every player answers the moment his mail lands; the
// game ends, and every command the players sent was applied.
func TestWholeGameAtServeLimits(t *testing.T) {
	ctx := context.Background()
	w, err := Start(ctx, Options{Seed: 23, ServeLimits: true})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if got, want := w.limits, config.Default().Limits; got.LoopPerMinute != want.LoopPerMinute || got.AnswersPerDay != want.AnswersPerDay || got.LobbyPerHour != want.LobbyPerHour {
		t.Fatalf("the service runs with limits %+v, not serve's %+v", got, want)
	}
	players := []string{"alice@pbem.test", "bob@pbem.test", "carol@pbem.test", "dave@pbem.test"}
	playNoneDropped(t, ctx, w, players)
}

// playNoneDropped plays a Felix game among players, who answer the
// moment their mail lands, and checks that the game ended with every
// command they sent recorded, applied and answered.
func playNoneDropped(t *testing.T, ctx context.Context, w *World, players []string) {
	t.Helper()
	if got, want := w.limits, config.Default().Limits; got.LoopPerMinute != want.LoopPerMinute || got.AnswersPerDay != want.AnswersPerDay || got.LobbyPerHour != want.LobbyPerHour {
		t.Fatalf("the service runs with limits %+v, not serve's %+v", got, want)
	}
	start := time.Now()
	g, err := w.Play(ctx, "felix", players, 4*time.Minute)
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	in, err := w.Store.AllInbound(ctx)
	if err != nil {
		t.Fatal(err)
	}
	sent := w.SentMails()
	if len(in) != len(sent) || len(sent) != g.Commands {
		t.Fatalf("the players sent %d mails (%d commands), pbem recorded %d", len(sent), g.Commands, len(in))
	}
	for i, r := range in {
		if r.Outcome != "applied" || strings.Contains(r.Detail, "held") || strings.Contains(r.Detail, "not sent") {
			t.Errorf("mail %d from %s (%q): %s %s", i, r.From, sentText(sent, r.MessageID), r.Outcome, r.Detail)
		}
	}
	decisions := 0
	for _, n := range g.Decisions {
		decisions += n
	}
	if decisions != g.Commands {
		t.Errorf("%d decisions in the game's log for %d commands sent", decisions, g.Commands)
	}
	// Not an assertion on time: the figure says what the run showed.
	t.Logf("%d commands in %s: %.0f a minute, %d players; loop_per_minute is %d", g.Commands, took.Round(time.Second), float64(g.Commands)/took.Minutes(), len(players), w.limits.LoopPerMinute)
	checkReplay(t, ctx, w.Store, g)
}

// sentText is the first line of the sent mail with the Message-ID.
func sentText(sent []Sent, id string) string {
	for _, s := range sent {
		if "<"+s.MessageID+">" == id || s.MessageID == id {
			line, _, _ := strings.Cut(s.Text, "\n")
			return line
		}
	}
	return ""
}
