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
	text := "x\n\nYour move: reply by Tue 24 Nov 18:00 CET with one of these:\n  bid 2 · 3 · 4 · … · 6\n  pass\n  bid up to N, e.g. bid up to 4\n\nAim: x\n-- \nAny time: help · status\n"
	got := strings.Join(Offered(text), ",")
	if got != "bid 2,bid 3,bid 4,bid 5,bid 6,pass,bid up to 4" {
		t.Errorf("offered %q", got)
	}
	// What a player may send ahead of his turn is not a move asked of him.
	text = "Not your turn yet; you may send these now:\n  bid up to N, e.g. bid up to 4\n  pass\n"
	if got := Offered(text); len(got) != 0 {
		t.Errorf("a mail that asks for nothing offers %q", got)
	}
	text = "Your move: reply with one of these:\n  take 1 · 2\n  take T keep COLOUR give PLAYER, e.g. take 1 keep red give bob\n  keep red give alice · bob\n"
	if got := strings.Join(Offered(text), ","); got != "take 1,take 2,take 1 keep red give bob,keep red give alice,keep red give bob" {
		t.Errorf("offered %q", got)
	}
}
