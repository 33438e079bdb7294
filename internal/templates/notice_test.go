package templates

import (
	"strings"
	"sync"
	"testing"

	"github.com/pbem/pbem/engine"
)

var felixUsages = []string{
	"play CARD", "bid N", "pass", "buy",
	"help", "rules [GAME]", "new GAME with ADDRESS...", "join", "decline", "games",
	"status", "name NAME", "history", "resign", "notify normal|all|turns|digest|off",
}

func noticeCases() map[string]Notice {
	base := func(kind NoticeKind) Notice {
		return Notice{Service: "pbem", Marker: "-- pbem: write your reply above this line --", Kind: kind, To: "alice@example.org"}
	}
	cases := map[string]Notice{}
	n := base("help")
	n.GameID, n.Game, n.Title = 12, "felix", "Felix: The Cat in the Sack"
	n.Usages = felixUsages
	cases["help-felix"] = n

	n = base("help")
	cases["help-lobby"] = n

	n = base("rules")
	n.Game, n.Title = "felix", "Felix: The Cat in the Sack"
	cases["rules-felix"] = n

	n = base("rules")
	n.Game, n.Title = "gracias", "Gracias"
	cases["rules-gracias"] = n

	n = base("invite")
	n.Game, n.Title, n.GameID, n.From = "felix", "Felix: The Cat in the Sack", 12, "alice@example.org"
	n.To = "bob@example.org"
	n.Players = []string{"bob@example.org", "carol@example.org", "dave@example.org"}
	cases["invite"] = n

	n = base("joined")
	n.Game, n.Title, n.GameID = "gracias", "Gracias", 7
	n.Players = []string{"alice", "bob"}
	n.Waiting = []string{"carol@example.org"}
	n.Lines = []string{"bob has joined."}
	cases["joined"] = n

	n = base("declined")
	n.Game, n.Title, n.GameID = "gracias", "Gracias", 7
	n.From = "carol"
	n.Players = []string{"alice", "bob", "carol"}
	cases["declined"] = n

	n = base("games")
	n.Games = []GameLine{
		{ID: 12, Game: "felix", Title: "Felix: The Cat in the Sack", Status: "round 4 of 9, bidding", Players: "alice, bob, carol, dave", YourTurn: "your turn to bid"},
		{ID: 7, Game: "gracias", Title: "Gracias", Status: "session 2, round 3", Players: "alice, bob, carol", YourTurn: "waiting for carol"},
	}
	cases["games"] = n

	n = base("games")
	cases["games-none"] = n

	n = base("refusal")
	n.To = "mallory@example.org"
	n.Reason = "This game address belongs to another player, so pbem did not read your mail. Commands count only from the address that was invited."
	cases["refusal"] = n

	n = base("error")
	n.Game, n.Title, n.GameID = "felix", "Felix: The Cat in the Sack", 12
	n.Reason = `"bd 5" is not a command`
	n.DidYouMean = []string{"bid 5"}
	n.Usages = felixUsages
	cases["error"] = n

	n = base("invalid")
	n.Reason = "Felix: The Cat in the Sack is for 3 to 5 players; with you, that was 2. Write: new felix with ADDRESS ADDRESS ..."
	n.Usages = []string{"help", "rules [GAME]", "new GAME with ADDRESS...", "games"}
	cases["invalid"] = n

	n = base("admin")
	n.GameID, n.Game, n.Title = 0, "", ""
	n.Reason = "a mail loop was stopped"
	n.Lines = []string{"More than 20 mails were exchanged with robot@example.org within a minute, so pbem stopped answering that address until the flood stops."}
	cases["admin"] = n
	n = base("toolarge")
	n.Reason = "it holds 12 MB; pbem reads mails up to 1 MB"
	cases["toolarge"] = n

	n = base("created")
	n.Game, n.Title, n.GameID = "felix", "Felix: The Cat in the Sack", 12
	n.Players = []string{"alice@example.org", "bob@example.org", "carol@example.org", "dave@example.org"}
	n.Waiting = []string{"bob@example.org", "carol@example.org", "dave@example.org"}
	cases["created"] = n

	n = base("unknown")
	n.Reason = "`bid 5` needs a game."
	cases["unknown"] = n

	n = base(NoticeRepair)
	n.Game, n.Title, n.GameID = "felix", "Felix: The Cat in the Sack", 12
	n.Lines = []string{"pbem met a problem with this game that it cannot solve by itself, so the game is paused while the admins repair it. Nothing that was applied is lost, and no deadline passes while it waits. You will get a mail when it goes on.",
		"Your last mail was not applied: please send your commands again once the game goes on."}
	cases["repair"] = n
	return cases
}

func TestGoldenNotices(t *testing.T) {
	r := newRenderer(t)
	seen := map[NoticeKind]bool{}
	for name, n := range noticeCases() {
		seen[n.Kind] = true
		t.Run(name, func(t *testing.T) {
			m, err := r.Notice(n)
			if err != nil {
				t.Fatal(err)
			}
			checkShape(t, m)
			if !strings.HasPrefix(m.Text, n.Marker+"\n") {
				t.Errorf("the body does not start with the marker:\n%s", m.Text)
			}
			checkGolden(t, "notice-"+name, m)
		})
	}
	for _, k := range NoticeKinds() {
		if !seen[k] {
			t.Errorf("notice kind %s has no golden test", k)
		}
	}
}

func TestRenderErrors(t *testing.T) {
	r := newRenderer(t)
	if _, err := r.Notice(Notice{Kind: "nonsense"}); err == nil {
		t.Error("an unknown notice kind renders")
	}
	if _, err := r.Notice(Notice{Kind: "rules", Game: "chess"}); err == nil {
		t.Error("rules of an unknown game render")
	}
	if _, err := r.Game(GameMail{Game: "chess", View: struct{}{}}); err == nil {
		t.Error("a mail of an unknown game renders")
	}
	if _, err := r.Game(GameMail{}); err == nil {
		t.Error("a mail without a game renders")
	}
}

// TestConcurrent renders from many goroutines at once; run with -race.
func TestConcurrent(t *testing.T) {
	r := newRenderer(t)
	g, opening, steps := play(t, "engine/felix/testdata/basics-4p.txt", -1)
	var wg sync.WaitGroup
	for seat := range g.Players() {
		m := mailFor(t, g, seat, "turn", sinceLastMove(seat, opening, steps))
		wg.Add(2)
		go func() {
			defer wg.Done()
			if _, err := r.Game(m); err != nil {
				t.Error(err)
			}
		}()
		go func() {
			defer wg.Done()
			if _, err := r.Notice(noticeCases()["help-felix"]); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
}

// TestGameMailBasics checks what every game mail must hold, apart from
// the golden files: the order of the parts and the footer.
func TestGameMailBasics(t *testing.T) {
	r := newRenderer(t)
	g, opening, steps := play(t, "engine/felix/testdata/basics-4p.txt", -1)
	bob := engine.Seat(g, "bob")
	m := mailFor(t, g, bob, "turn", sinceLastMove(bob, opening, steps))
	m.Intro = []string{"Applied: play 5."}
	mail := render(t, r, m)
	order := []string{m.Marker, "Applied: play 5.", "What happened", "The row:", "Yours, bob",
		"What you can do now", "bid 2", "bid 17", "pass", "Reply by Tue 24 Nov 18:00 CET", "help", "notify normal|all|turns|digest|off", "timezone"}
	at := 0
	for _, s := range order {
		i := strings.Index(mail.Text[at:], s)
		if i < 0 {
			t.Fatalf("%q missing or out of order in:\n%s", s, mail.Text)
		}
		at += i + len(s)
	}
	if want := "Felix #12: your turn to bid (round 2)"; mail.Subject != want {
		t.Errorf("subject %q, want %q", mail.Subject, want)
	}
	// No marker, no location: no marker line, a deadline in UTC.
	m.Marker, m.Location = "", nil
	mail = render(t, r, m)
	if !strings.HasPrefix(mail.Text, "Felix: The Cat in the Sack, game #12") {
		t.Errorf("without a marker the body starts %q", strings.SplitN(mail.Text, "\n", 2)[0])
	}
	if !strings.Contains(mail.Text, "Reply by Tue 24 Nov 17:00 UTC.") {
		t.Errorf("no deadline in UTC:\n%s", mail.Text)
	}
}
