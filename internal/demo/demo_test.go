package demo

import (
	"context"
	"strings"
	"testing"
	"time"
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
		checkReplay(t, ctx, w.Store, g)
		checkLeaks(t, ctx, w.Store, g)
	}
	rows, err := w.Store.AllOutgoing(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"alice@pbem.test", "bob@pbem.test", "carol@pbem.test", "dave@pbem.test"} {
		mails, err := w.Inbox(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		if rep := compareInbox(mails, rows, p); rep.duplicates > 0 || len(rep.unknown) > 0 || len(rep.missing) > 0 {
			t.Errorf("%s: %+v", p, rep)
		}
	}
}

// TestBotGame plays a Felix game of two players and a strong bot through
// the embedded servers: the bot moves at once, gets no mail, and every
// bot line of the export is the bot's move computed again.
func TestBotGame(t *testing.T) {
	ctx := context.Background()
	w, err := Start(ctx, Options{Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	players := []string{"alice@pbem.test", "bob@pbem.test"}
	g, err := w.PlayWithBots(ctx, "felix", players, "a strong bot", 3*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(g.Transcript, "players alice bob bot:strong\n") {
		t.Fatalf("the export does not show the bot seat:\n%s", g.Transcript)
	}
	checkReplay(t, ctx, w.Store, g)
	checkLeaks(t, ctx, w.Store, g)
}

func TestOffered(t *testing.T) {
	text := "x\nWhat you can do now\n-------------------\n\nRaise (bid 2..4):\n    bid 2    bid 3    bid 4\n\nLeave:\n    pass\n\n--\n    help\n"
	got := strings.Join(Offered(text), ",")
	if got != "bid 2,bid 3,bid 4,pass" {
		t.Errorf("offered %q", got)
	}
	// A pattern that only shows the choices is not a command to copy.
	text = "What you can do now\n\nTake:\n    take 1\n    take 2\n\nOr:\n    take 1|2|3|4|5|6 keep COLOUR give a|b|c|e|f\n\n--\n"
	if got := strings.Join(Offered(text), ","); got != "take 1,take 2" {
		t.Errorf("offered %q", got)
	}
}
