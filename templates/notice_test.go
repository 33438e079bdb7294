package templates

import (
	"html"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/parser"
)

var felixUsages = []string{
	"play CARD", "bid N", "pass", "buy",
	"help", "rules [GAME]", "new GAME with ADDRESS... [and N bots] [deadline 48h] [weekends off]", "join", "decline", "games",
	"status", "name NAME", "history", "resign", "notify normal|all|turns|digest|off",
}

// TestHelpExplainsEveryCommand: help shows the parser's help beside
// every lobby command, so that no command is listed without a word on
// what it does.
func TestHelpExplainsEveryCommand(t *testing.T) {
	t.Parallel()
	d := newNoticeData(noticeCases()["help-every-command"], nil, Say)
	if len(d.Commands) != len(parser.LobbyCommands()) {
		t.Fatalf("%d commands in help, %d in the parser's table", len(d.Commands), len(parser.LobbyCommands()))
	}
	for i, lc := range parser.LobbyCommands() {
		if c := d.Commands[i]; c.Usage != lc.Usage || c.Help != upperFirst(lc.Help) || c.Help == "" {
			t.Errorf("help shows %q: %q, the table %q: %q", c.Usage, c.Help, lc.Usage, lc.Help)
		}
	}
}

// An invitation shows nothing its inviter chose but his address, and
// that not in its Subject nor its headline: not the other addresses he
// invited, not the names made of them (issue 33).
func TestInvitationShowsOnlyTheInviter(t *testing.T) {
	t.Parallel()
	r := newRenderer(t)
	from := "www.spam-shop.example/deal-70-off@spam.test"
	others := []string{"buy.pills.example/now@spam.test", "bob@example.org"}
	for _, thread := range []bool{true, false} {
		n := noticeCases()["invite"]
		n.From, n.Players = from, append([]string{from}, others...)
		if !thread {
			n.ThreadSubject, n.ThreadRef, n.ReplyAddress = "", "", ""
		}
		m, err := r.Notice(n)
		if err != nil {
			t.Fatal(err)
		}
		for _, head := range []string{m.Subject, m.Headline} {
			if strings.Contains(head, "spam") || strings.Contains(head, "deal") {
				t.Errorf("thread %v: the inviter's text in %q", thread, head)
			}
		}
		for _, part := range []string{m.Text, htmlText(m.HTML)} {
			if !strings.Contains(part, from+" invites you") {
				t.Errorf("thread %v: the inviter is not named:\n%s", thread, part)
			}
			for _, o := range others {
				if strings.Contains(part, o) {
					t.Errorf("thread %v: the invitation shows %s, whom the inviter chose:\n%s", thread, o, part)
				}
			}
			if !strings.Contains(part, "a game for 3 players") {
				t.Errorf("thread %v: the invitation does not say how many play:\n%s", thread, part)
			}
		}
	}
}

func noticeCases() map[string]Notice {
	base := func(kind NoticeKind) Notice {
		return Notice{Service: "pbem", Marker: "-- pbem: write your reply above this line --", Kind: kind, To: "alice@example.org"}
	}
	cases := map[string]Notice{}
	n := base("help")
	n.GameID, n.Game, n.Title = 12, "felix", "Felix: The Cat in the Sack"
	n.Usages = felixUsages
	n.ThreadSubject, n.ThreadRef = "Felix #12 with alice, bob, carol, dave", "Felix #12"
	cases["help-felix"] = n

	// Asked for in a game's thread: the answer is in that thread.
	n = base("rules")
	n.Game, n.Title = "gracias", "Gracias"
	n.ThreadSubject, n.ThreadRef = "Felix #12 with alice, bob, carol, dave", "Felix #12"
	cases["rules-in-thread"] = n

	n = base("help")
	cases["help-lobby"] = n

	// Every command of the lobby's table, with the help the parser's
	// table gives it.
	n = base("help")
	n.Usages = parser.Grammar{}.Usages()
	cases["help-every-command"] = n

	n = base(NoticeStandings)
	n.Standings = []StandingsTable{{Title: "Felix: The Cat in the Sack", Rows: []StandingsRow{
		{Place: 1, Name: "carol", Rating: "4.1", Games: 3},
		{Place: 2, Name: "alice", You: true, Rating: "1.0", Games: 1},
		{Place: 3, Name: "bob", Rating: "-2.6", Games: 2},
	}}}
	cases["standings"] = n
	// `standings detail`: the skill and its uncertainty too.
	n = base(NoticeStandings)
	n.Detail = true
	n.Standings = []StandingsTable{{Title: "Felix: The Cat in the Sack", Rows: []StandingsRow{
		{Place: 1, Name: "carol", Rating: "4.1", Skill: "27.3 ± 7.7", Games: 3},
		{Place: 2, Name: "alice", You: true, Rating: "1.0", Skill: "25.8 ± 8.3", Games: 1},
		{Place: 3, Name: "bob", Rating: "-2.6", Skill: "22.7 ± 8.4", Games: 2},
	}}}
	cases["standings-detail"] = n
	n = base(NoticeStandings)
	cases["standings-none"] = n

	n = base("rules")
	n.Game, n.Title = "felix", "Felix: The Cat in the Sack"
	cases["rules-felix"] = n

	n = base("rules")
	n.Game, n.Title = "gracias", "Gracias"
	cases["rules-gracias"] = n

	n = base("invite")
	n.Game, n.Title, n.GameID, n.From = "felix", "Felix: The Cat in the Sack", 12, "alice@example.org"
	n.To = "bob@example.org"
	n.Players = []string{"alice@example.org", "bob@example.org", "carol@example.org", "dave@example.org"}
	n.ThreadSubject, n.ThreadRef = ThreadSubject("felix", "Felix: The Cat in the Sack", 12), "Felix #12"
	// In the game's thread, from the seat's address: its commands are
	// buttons.
	n.ReplyAddress, n.MessageID, n.RefLine = testReplyAddress, "pbem."+testRef+"@pbem.example", "pbem ref: "+testRef
	cases["invite"] = n

	n = base("joined")
	n.Game, n.Title, n.GameID = "gracias", "Gracias", 7
	n.Players = []string{"alice", "bob"}
	n.Waiting = []string{"carol@example.org"}
	n.Lines = []string{"bob has joined."}
	n.ThreadSubject, n.ThreadRef = "Gracias #7 with alice, bob, carol", "Gracias #7"
	cases["joined"] = n

	n = base("declined")
	n.Game, n.Title, n.GameID = "gracias", "Gracias", 7
	n.From = "carol"
	n.Players = []string{"alice", "bob", "carol"}
	n.ThreadSubject, n.ThreadRef = "Gracias #7 with alice, bob, carol", "Gracias #7"
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
	n.ThreadSubject, n.ThreadRef = "Felix #12 with alice, bob, carol, dave", "Felix #12"
	cases["error"] = n

	// In his seat's thread: what he can do now, not every command.
	n = base("error")
	n.Game, n.Title, n.GameID = "felix", "Felix: The Cat in the Sack", 12
	n.Reason = `pbem could not read "play dog": neither "play large-dog" nor "play small-dog" is possible now`
	n.Seated = true
	n.Options = []engine.Option{{Spec: "play", Text: "play -8|3|rabbit", Commands: []string{"play -8", "play 3", "play rabbit"}}}
	n.ThreadSubject, n.ThreadRef = "Felix #12 with alice, bob, carol, dave", "Felix #12"
	cases["error-seat"] = n

	n = base("error")
	n.Game, n.Title, n.GameID = "felix", "Felix: The Cat in the Sack", 12
	n.Reason = `pbem could not read "blurb 5": "blurb" is not a command`
	n.Seated = true
	n.ThreadSubject, n.ThreadRef = "Felix #12 with alice, bob, carol, dave", "Felix #12"
	cases["error-seat-nothing-due"] = n

	n = base("invalid")
	n.Reason = "Felix: The Cat in the Sack is for 3 to 5 players; with you, that was 2. Write: new felix with ADDRESS ADDRESS ..."
	n.Usages = []string{"help", "rules [GAME]", "new GAME with ADDRESS... [and N bots] [deadline 48h] [weekends off]", "games"}
	cases["invalid"] = n

	n = base("admin")
	n.GameID, n.Game, n.Title = 0, "", ""
	n.Reason = "a mail loop was stopped"
	n.Lines = []string{"More than 20 mails from robot@example.org to pbem's own address within a minute called for an answer, so pbem holds its answers to that address there until fewer than 20 of them have come within the last minute. It still reads that address's mails and plays their moves. It may be a mail loop with an auto-responder that marks its mail in no standard way."}
	cases["admin"] = n

	n = base(NoticeHeld)
	n.Reason = "pbem is holding its answers to you for about 60 seconds"
	n.Lines = []string{"pbem had to answer more than 20 of your mails to its own address, pbem@example.org, within a minute. That is what a mail program that answers pbem's mails by itself looks like, so it does not answer them until fewer than 20 of them have come within the last minute: in about 60 seconds if you send nothing more.",
		"Until then pbem still reads your mails to pbem@example.org and does what they ask, but sends you no answer from that address. Mail to your games' own addresses is counted apart. If you wanted an answer, send your mail again after that."}
	cases["held"] = n

	n = base(NoticeAddress)
	n.GameID, n.Game, n.Title = 0, "", ""
	n.Reason = Say.AddressConfirmHeadline()
	n.Lines = []string{Say.AddressConfirmAsked("alice@example.org", "alice@work.example", false), Say.AddressConfirmHow("Sun 2 Mar 2025 12:00", false)}
	cases["address-confirm"] = n

	// With web pages, the confirmation also offers its page's button.
	n = base(NoticeAddress)
	n.GameID, n.Game, n.Title = 0, "", ""
	n.Reason = Say.AddressConfirmHeadline()
	n.Lines = []string{Say.AddressConfirmAsked("alice@example.org", "alice@work.example", false), Say.AddressConfirmHow("Sun 2 Mar 2025 12:00", true)}
	n.Button = WebButton{URL: "https://pbem.example.org/a/abcdefghijklmnop", Label: Say.AddressConfirmButton()}
	cases["address-confirm-web"] = n

	n = base(NoticeHeld)
	n.Game, n.Title, n.GameID = "felix", "Felix: The Cat in the Sack", 12
	n.Reason = "pbem is holding its answers to you in this game for about 42 seconds"
	n.Lines = []string{"pbem had to answer more than 20 of your mails to this game within a minute that changed nothing in it. That is what a mail program that answers pbem's mails by itself looks like, so it does not answer such mails until fewer than 20 of them have come within the last minute: in about 42 seconds if you send nothing more.",
		"Your moves still count: pbem reads every mail you send to this game, plays the moves in it and sends the game's mails as always. Only a mail that changes nothing gets no answer until then, such as a command that is not legal now, a mail without a command, or help or status. Send it again after that if you want its answer."}
	n.ThreadSubject, n.ThreadRef = "Felix #12 with alice, bob, carol, dave", "Felix #12"
	cases["held-in-thread"] = n
	n = base("toolarge")
	n.Reason = "it holds 12 MB; pbem reads mails up to 1 MB"
	cases["toolarge"] = n

	n = base("created")
	n.Game, n.Title, n.GameID = "felix", "Felix: The Cat in the Sack", 12
	n.Players = []string{"alice@example.org", "bob@example.org", "carol@example.org", "dave@example.org"}
	n.Waiting = []string{"bob@example.org", "carol@example.org", "dave@example.org"}
	n.ThreadSubject, n.ThreadRef = "Felix #12 with alice, bob, carol, dave", "Felix #12"
	cases["created"] = n

	n = base("unknown")
	n.Reason = "`bid 5` needs a game."
	cases["unknown"] = n

	n = base(NoticeRepair)
	n.Game, n.Title, n.GameID = "felix", "Felix: The Cat in the Sack", 12
	n.Lines = []string{"pbem met a problem with this game that it cannot solve by itself, so the game is paused while the host repairs it. Nothing that was applied is lost, and no deadline passes while it waits. You will get a mail when it goes on.",
		"Your last mail was not applied: please send your commands again once the game goes on."}
	n.ThreadSubject, n.ThreadRef = "Felix #12 with alice, bob, carol, dave", "Felix #12"
	cases["repair"] = n

	// The short answer to a move that asks nothing more of its player.
	n = base(NoticeApplied)
	n.Game, n.Title, n.GameID = "felix", "Felix: The Cat in the Sack", 12
	n.Lines = []string{"Applied: bid 14.", "- You bid 14.", "Next: the game waits for bob."}
	n.Waiting = []string{"bob"}
	n.ThreadSubject, n.ThreadRef = "Felix #12 with alice, bob, carol, dave", "Felix #12"
	cases["applied"] = n

	n = base(NoticeDigest)
	n.Location = mustZone("Asia/Tokyo")
	n.Digest = []DigestGame{digestFelix(), digestGracias()}
	cases["digest"] = n

	n = base(NoticeDigest)
	over := digestGracias()
	over.State, over.Waiting, over.Winners = DigestOver, nil, []string{"carol"}
	over.Happened = append(over.Happened, engine.Event{To: engine.Public, Text: "The game is over: carol wins with 31 points."})
	n.Digest = []DigestGame{over}
	cases["digest-over"] = n

	n = base(NoticeDigest)
	aborted := digestFelix()
	aborted.State, aborted.YourTurn, aborted.Options = DigestAborted, false, nil
	aborted.Happened = []engine.Event{{To: engine.Public, Text: "The host ended the game before its end; it takes no more moves."}}
	paused := digestGracias()
	paused.State = DigestPaused
	n.Digest = []DigestGame{aborted, paused}
	cases["digest-aborted"] = n
	return cases
}

// digestFelix is a digest's game that waits on its reader.
func digestFelix() DigestGame {
	return DigestGame{
		GameID: 12, Game: "felix", Title: "Felix: The Cat in the Sack", Reader: "alice",
		Address:  "pbem+k3j9x2@example.org",
		Happened: []engine.Event{{To: engine.Public, Text: "bob bids 3."}, {To: engine.Public, Text: "carol passes and takes the 2-mouse card."}},
		Options: []engine.Option{
			{Spec: "bid", Text: "bid 4..9", Commands: []string{"bid 4", "bid 5", "bid 6", "bid 7", "bid 8", "bid 9"}},
			{Spec: "pass", Text: "pass", Commands: []string{"pass"}},
		},
		YourTurn: true, Waiting: nil, State: DigestRunning,
		Deadline: time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC),
	}
}

// digestGracias is a digest's game that waits on another player.
func digestGracias() DigestGame {
	return DigestGame{
		GameID: 7, Game: "gracias", Title: "Gracias", Reader: "alice",
		Address:  "pbem+q8w7e6@example.org",
		Happened: []engine.Event{{To: engine.Public, Text: "bob takes two cards."}},
		Waiting:  []string{"carol"}, State: DigestRunning,
	}
}

func mustZone(name string) *time.Location {
	loc, err := time.LoadLocation(name)
	if err != nil {
		panic(err)
	}
	return loc
}

// The digest's subject is true whatever it holds: how many games wait on
// the reader, else how many have news, singular and plural.
func TestDigestSubject(t *testing.T) {
	t.Parallel()
	r := newRenderer(t)
	waits, other := digestFelix(), digestGracias()
	quiet := other
	quiet.Happened = nil
	news2 := other
	news2.GameID = 8
	for _, tc := range []struct {
		name  string
		games []DigestGame
		want  string
	}{
		{"nothing", nil, "pbem digest: nothing new, and nothing waits for you"},
		{"one waits", []DigestGame{waits}, "pbem digest: 1 game waits for you"},
		{"one waits, one news", []DigestGame{waits, other}, "pbem digest: 1 game waits for you"},
		{"two wait", []DigestGame{waits, func() DigestGame { g := waits; g.GameID = 13; return g }()}, "pbem digest: 2 games wait for you"},
		{"one news", []DigestGame{other, quiet}, "pbem digest: news from 1 game, none waits for you"},
		{"two news", []DigestGame{other, news2}, "pbem digest: news from 2 games, none waits for you"},
		{"waits but paused", []DigestGame{func() DigestGame { g := waits; g.State = DigestPaused; return g }()}, "pbem digest: news from 1 game, none waits for you"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := r.Notice(Notice{Service: "pbem", Kind: NoticeDigest, To: "alice@example.org", Digest: tc.games})
			if err != nil {
				t.Fatal(err)
			}
			checkShape(t, m)
			if m.Subject != tc.want {
				t.Errorf("subject %q, want %q", m.Subject, tc.want)
			}
		})
	}
}

// Each game of a digest says where to write, and the HTML part links it.
func TestDigestAddresses(t *testing.T) {
	t.Parallel()
	m, err := newRenderer(t).Notice(noticeCases()["digest"])
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range []DigestGame{digestFelix(), digestGracias()} {
		if !strings.Contains(unwrap(m.Text), " to "+g.Address+" (you are alice there)") {
			t.Errorf("the text does not say to write to %s:\n%s", g.Address, m.Text)
		}
		if !strings.Contains(html.UnescapeString(m.HTML), `<a href="mailto:`+g.Address+`">`) {
			t.Errorf("the HTML part does not link %s", g.Address)
		}
	}
	if !strings.Contains(m.Text, "Reply by Tue 24 Nov 18:00 JST.") {
		t.Errorf("the deadline is not in the reader's zone:\n%s", m.Text)
	}
}

func TestGoldenNotices(t *testing.T) {
	t.Parallel()
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
			if n.ThreadSubject == "" && !strings.HasPrefix(m.Text, n.Marker+"\n") {
				t.Errorf("the body does not start with the marker:\n%s", m.Text)
			}
			if n.ThreadSubject != "" {
				checkThreaded(t, m, n.ThreadSubject, n.ThreadRef, n.Marker)
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
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
	r := newRenderer(t)
	g, opening, steps := play(t, "engine/felix/testdata/basics-4p.txt", -1)
	bob := engine.Seat(g, "bob")
	m := mailFor(t, g, bob, "turn", sinceLastMove(bob, opening, steps))
	m.Intro = []string{"Applied: play 5."}
	mail := render(t, r, m)
	order := []string{m.Marker, "Applied: play 5.", "- alice bids 1.", "Your move: reply by Tue 24 Nov 18:00 CET",
		"  bid 2 · 3 · 4 · … · 17", "  pass", "Aim:", "Row: ", "Hand: ", "Money: ", "help · status · history · rules · notify digest"}
	at := 0
	for _, s := range order {
		i := strings.Index(mail.Text[at:], s)
		if i < 0 {
			t.Fatalf("%q missing or out of order in:\n%s", s, mail.Text)
		}
		at += i + len(s)
	}
	if want := "Felix #12: your turn to bid (round 2)"; mail.Headline != want {
		t.Errorf("headline %q, want %q", mail.Headline, want)
	}
	checkThreaded(t, mail, m.ThreadSubject, "Felix #12", m.Marker)
	// Outside a thread (no daemon sends such a game mail, but a caller
	// may), the headline is the subject.
	m.ThreadSubject = ""
	if mail := render(t, r, m); mail.Subject != mail.Headline {
		t.Errorf("without a thread subject: subject %q, headline %q", mail.Subject, mail.Headline)
	}
	// No marker, no location: no marker line, a deadline in UTC.
	m.Marker, m.Location = "", nil
	mail = render(t, r, m)
	if !strings.HasPrefix(mail.Text, "Felix #12: your turn to bid (round 2)\n\nApplied: play 5.") {
		t.Errorf("without a marker the body starts %q", strings.SplitN(mail.Text, "\n", 4)[:3])
	}
	if !strings.Contains(mail.Text, "reply by Tue 24 Nov 17:00 UTC with") {
		t.Errorf("no deadline in UTC:\n%s", mail.Text)
	}
}

// checkThreaded checks a mail of a game's thread: the thread's subject,
// and the headline, which starts with the game's reference, first in the
// text (above the marker) and first in the HTML part's visible text.
func checkThreaded(t *testing.T, m Mail, subject, ref, marker string) {
	t.Helper()
	if m.Subject != subject {
		t.Errorf("subject %q, want the thread's %q", m.Subject, subject)
	}
	if !strings.HasPrefix(m.Headline, ref+":") && !strings.HasPrefix(m.Headline, ref+" ") && !strings.HasPrefix(m.Headline, "Reminder: "+ref) {
		t.Errorf("headline %q does not start with %q", m.Headline, ref)
	}
	if want := strings.Join(wrapLine(m.Headline, lineWidth), "\n") + "\n\n" + marker + "\n"; !strings.HasPrefix(m.Text, want) {
		t.Errorf("the text does not start with the headline, then the marker:\n%s", m.Text)
	}
	if got := firstVisibleText(m.HTML); got != m.Headline {
		t.Errorf("the HTML part's first visible text is %q, want the headline %q", got, m.Headline)
	}
}

// firstVisibleText is the first text of an HTML part's body, outside
// tags, entities decoded.
func firstVisibleText(h string) string {
	_, body, ok := strings.Cut(h, "<body")
	if !ok {
		return ""
	}
	inTag := true // in <body ...>
	var b strings.Builder
	for _, r := range body {
		switch {
		case r == '<':
			if strings.TrimSpace(b.String()) != "" {
				return html.UnescapeString(strings.TrimSpace(b.String()))
			}
			inTag = true
		case r == '>':
			inTag = false
		case !inTag:
			b.WriteRune(r)
		}
	}
	return html.UnescapeString(strings.TrimSpace(b.String()))
}
