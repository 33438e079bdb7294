package daemon

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pbem/pbem/engine/games"
	"github.com/pbem/pbem/engine/transcript"
	"github.com/pbem/pbem/internal/intake"
	"github.com/pbem/pbem/store"
)

// checkBotExport exports the game, replays it to the service's game and
// checks every bot line by computing it again.
func (w *world) checkBotExport(id int64) string {
	w.t.Helper()
	text := w.replayedExport(id)
	tr, err := transcript.Read(strings.NewReader(text), games.Lookup)
	if err != nil {
		w.t.Fatal(err)
	}
	if err := tr.CheckBots(); err != nil {
		w.t.Errorf("the export's bot lines are not the bot's moves: %v\n%s", err, text)
	}
	return text
}

func TestBotSeatPlaysAtOnce(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	alice, bob := "alice@x.test", "bob@y.test"
	reply, id := w.botGame("felix", bob+" and a strong bot", alice, bob)
	// The bot was seated, not invited: the invitation counts the
	// players (it names none the inviter chose: issue 33), and both it
	// and the creator's notice say who the bot is and that nobody waits
	// on it.
	seated := "bea is pbem's bot, Bot Bea (strong): it moves as soon as the game waits on it, and reads no mail."
	inv := w.inbox[bob][0]
	if text := oneLine(inv.Text); !strings.Contains(text, "It is a game for 3 players.") || !strings.Contains(text, seated) || strings.Contains(text, "Invited") {
		t.Errorf("bob's invitation does not count the players and name the bot:\n%s", inv.Text)
	}
	if created := oneLine(w.inbox[alice][0].Text); !strings.Contains(created, "Invitations have been sent to "+bob+".") || !strings.Contains(created, seated) {
		t.Errorf("alice's notice of the new game does not name the bot:\n%s", w.inbox[alice][0].Text)
	}
	start := w.last(alice)
	if !strings.Contains(oneLine(start.Text), "bea is pbem's bot, Bot Bea (strong): it moves as soon as the game waits on it, and reads no mail.") {
		t.Errorf("alice's start mail does not say who the bot is:\n%s", start.Text)
	}
	seats := w.seatsOf(id)
	if len(seats) != 3 || seats[2].Bot != "strong" || seats[2].Name != "bea" || seats[2].State != store.SeatJoined || !intake.IsBotAddress(seats[2].Address) {
		t.Fatalf("seats: %+v", seats)
	}
	w.playPeople(id, reply, map[int]string{0: alice, 1: bob}, rand.New(rand.NewPCG(3, 4)))
	for addr := range w.inbox {
		if intake.IsBotAddress(addr) {
			t.Errorf("%d mails went to the bot's address %s", len(w.inbox[addr]), addr)
		}
	}
	botMoves := 0
	for _, m := range w.movesOf(id) {
		if m.Seat == 2 {
			botMoves++
		}
	}
	if botMoves == 0 {
		t.Fatal("the bot made no move")
	}
	// What only the bot's seat sees reaches nobody: not the people's
	// mails, not the log.
	w.noLeak(id, []string{alice, bob})
	evs, err := w.st.Events(context.Background(), id, 0)
	if err != nil {
		t.Fatal(err)
	}
	private := 0
	for _, e := range evs {
		if e.To == 2 {
			private++
			if strings.Contains(w.logs.String(), e.Text) {
				t.Errorf("the log holds the bot's private %q", e.Text)
			}
		}
	}
	if private == 0 {
		t.Fatal("the bot's seat saw nothing of its own: the leak check proves nothing")
	}
	export := w.checkBotExport(id)
	if !strings.Contains(export, "players alice bob bot:strong\n") {
		t.Errorf("the export's players line does not show the bot:\n%s", export)
	}
	if strings.Contains(w.logs.String(), "bot.pbem.invalid") && strings.Contains(w.logs.String(), "mail not sent") {
		t.Errorf("a mail to the bot was made and dropped:\n%s", w.logs.String())
	}
}

func TestAloneWithBots(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	alice := "alice@x.test"
	reply, id := w.botGame("gracias", "2 bots", alice)
	tb := w.table(id)
	if tb.row.Status != store.StatusActive {
		t.Fatalf("a game of one person and two bots is %s, not active", tb.row.Status)
	}
	if n := len(w.inbox[alice]); n != 1 {
		t.Errorf("alice got %d mails for her new game, not one start mail", n)
	}
	if !strings.Contains(oneLine(w.last(alice).Text), "bea and cid are pbem's bots, Bot Bea (normal) and Bot Cid (normal)") {
		t.Errorf("the start mail does not name the bots:\n%s", w.last(alice).Text)
	}
	w.playPeople(id, reply, map[int]string{0: alice}, rand.New(rand.NewPCG(5, 6)))
	w.checkBotExport(id)
}

func TestBotGameSizeChecked(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.send("alice@x.test", "pbem@example.test", "new felix with 5 bots")
	if got := oneLine(w.last("alice@x.test").Text); !strings.Contains(got, "Felix: The Cat in the Sack is for 3 to 5 players; with you and 5 bots, that was 6.") {
		t.Errorf("the refusal says %q", got)
	}
	w.send("alice@x.test", "pbem@example.test", "new felix with a bot")
	if got := oneLine(w.last("alice@x.test").Text); !strings.Contains(got, "with you and 1 bot, that was 2.") {
		t.Errorf("the refusal says %q", got)
	}
}

// TestStandIn is the stand-in for a player whose deadline passed, by
// service.default_player: the bot (the default) or the fixed default.
func TestStandIn(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		who          DefaultPlayer
		others, self string
	}{
		{DefaultPlayerBot, "bob's deadline passed, so pbem's bot played for bob.", "Your deadline passed, so pbem's bot played for you: "},
		{DefaultPlayerSimple, "bob's deadline passed, so pbem made the default move for bob.", "Your deadline passed, so pbem made the default move for you: "},
	} {
		t.Run(string(tc.who), func(t *testing.T) {
			t.Parallel()
			w := newWorldConfig(t, func(c *Config) { c.DefaultPlayer = tc.who })
			players := []string{"alice@x.test", "bob@y.test", "carol@z.test"}
			_, id := w.startGame("felix", players...)
			w.missDeadline(id, players)
			if w.eventsOf(id, EventDefault) == 0 {
				t.Fatal("no move was made at bob's deadline")
			}
			w.flush()
			if w.mailsWith("bob@y.test", tc.self) == 0 {
				t.Errorf("bob was never told %q", tc.self)
			}
			// The others hear of it with their next mail.
			evs, err := w.st.Events(context.Background(), id, 0)
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, e := range visible(evs, 0) {
				found = found || e.Text == tc.others
			}
			if !found {
				t.Errorf("alice's history does not say %q", tc.others)
			}
		})
	}
}

// TestBotAddressRefused: mail from a bot seat's address is a forgery (the
// domain is .invalid): it is refused, answered to nobody, and moves
// nothing.
func TestBotAddressRefused(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	alice := "alice@x.test"
	_, id := w.botGame("felix", "2 bots", alice)
	bea := w.seatsOf(id)[1]
	before := w.moves(id)
	sent := w.mailsSent()
	w.send(bea.Address, w.seatAddress(bea.Token), "play rabbit")
	w.send(bea.Address, "pbem@example.test", "new felix with alice@x.test and a bot")
	if got := w.outcome(); got.Outcome != string(OutcomeRefused) || got.Detail != "sender address is a bot seat's" {
		t.Errorf("mail from the bot's address: %s (%s)", got.Outcome, got.Detail)
	}
	if w.moves(id) != before || w.mailsSent() != sent {
		t.Errorf("mail from the bot's address made %d moves and %d mails", w.moves(id)-before, w.mailsSent()-sent)
	}
}

// TestRematchKeepsBots: a rematch seats the same bots at the same levels.
func TestRematchKeepsBots(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	alice, bob := "alice@x.test", "bob@y.test"
	reply, id := w.botGame("felix", bob+" and an easy bot", alice, bob)
	w.playPeople(id, reply, map[int]string{0: alice, 1: bob}, rand.New(rand.NewPCG(7, 8)))
	w.send(alice, reply[alice], "rematch")
	games, err := w.st.GamesOf(context.Background(), alice)
	if err != nil {
		t.Fatal(err)
	}
	next := games[0].ID
	for _, g := range games {
		next = max(next, g.ID)
	}
	if next == id {
		t.Fatal("no rematch was made")
	}
	seats := w.seatsOf(next)
	if len(seats) != 3 || seats[2].Bot != "easy" || seats[1].Address != bob || seats[1].State != store.SeatInvited {
		t.Errorf("the rematch's seats: %+v", seats)
	}
}

// TestResignAmongBots: the one person at a table of bots resigns. Her
// answer comes at once, and no move with it: a search for every move of
// the rest of the game would hold that one transaction for seconds. The
// next deadline sweep plays the game out, one move a transaction, the
// bots as bots (the export still checks) and her seat by the stand-in,
// and she gets the result.
func TestResignAmongBots(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	alice := "alice@x.test"
	reply, id := w.botGame("gracias", "2 normal bots", alice)
	mails := len(w.inbox[alice])
	before := w.moves(id)
	w.send(alice, reply[alice], "resign")
	if n := w.moves(id) - before; n != 0 {
		t.Errorf("the resignation made %d moves in its own transaction", n)
	}
	if got := w.answer(alice); !strings.Contains(got, "You have resigned. pbem's bot plays for you until the game ends; you will get only its final result.") {
		t.Errorf("alice's answer: %s", got)
	}
	if err := w.sweep(); err != nil {
		t.Fatal(err)
	}
	if tb := w.table(id); !tb.game.Result().Finished || tb.row.Status != store.StatusFinished {
		t.Fatalf("after the sweep the game is %s", tb.row.Status)
	}
	box := w.inbox[alice][mails:]
	if len(box) != 2 || !strings.Contains(strings.ToLower(box[1].Headline), "over") {
		t.Errorf("alice got %d mails, want her answer and the end", len(box))
	}
	if strings.Contains(oneLine(box[1].Text), "deadline passed") {
		t.Errorf("the end mail tells of deadlines that nobody had:\n%s", box[1].Text)
	}
	w.checkBotExport(id)
}

// TestReplaceBotWithPerson: an admin gives a bot's seat to a person, who
// then plays it by mail: the bot moves no more, and the export shows the
// seat as a person's.
func TestReplaceBotWithPerson(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	alice, bob, carol := "alice@x.test", "bob@y.test", "carol@z.test"
	reply, id := w.botGame("felix", bob+" and a bot", alice, bob)
	ctx := context.Background()
	if err := w.svc.Replace(ctx, id, "bea", "bea@bot.pbem.invalid", "root"); err == nil || !strings.Contains(err.Error(), "is a bot seat's address") {
		t.Errorf("replace with a bot address: %v", err)
	}
	if err := w.svc.Extend(ctx, id, "bea", 24*time.Hour, "root"); err == nil || !strings.Contains(err.Error(), "has no deadline") {
		t.Errorf("extend a bot's deadline: %v", err)
	}
	if err := w.svc.Replace(ctx, id, "bea", carol, "root"); err != nil {
		t.Fatal(err)
	}
	w.flush()
	if st := w.seat(id, 2); st.Bot != "" || st.Address != carol {
		t.Fatalf("after the replace the seat is %+v", st)
	}
	if len(w.inbox[carol]) == 0 {
		t.Fatal("carol was not told she plays the seat")
	}
	reply[carol] = w.last(carol).ReplyTo
	w.playPeople(id, reply, map[int]string{0: alice, 1: bob, 2: carol}, rand.New(rand.NewPCG(1, 1)))
	if export := w.replayedExport(id); !strings.Contains(export, "players alice bob bea\n") {
		t.Errorf("the export still shows a bot:\n%s", export)
	}
}

// TestBotGameWithRename: a person renames himself in the middle of a game
// with a bot. The export carries the new name everywhere, and the bot's
// moves before the rename still check: the bot's choice does not depend
// on the words the names are written with.
func TestBotGameWithRename(t *testing.T) {
	t.Parallel()
	w := newWorld(t).authenticate()
	alice, bob := "alice@x.test", "bob@y.test"
	reply, id := w.botGame("felix", bob+" and a normal bot", alice, bob)
	seats := map[int]string{0: alice, 1: bob}
	for steps := 0; steps < 30; steps++ {
		p := w.table(id).game.Waiting()[0]
		w.send(seats[p], reply[seats[p]], w.legal(id, p))
	}
	w.send(alice, "pbem@example.test", "name zelda")
	if names := w.table(id).names; names[0] != "zelda" {
		t.Fatalf("after the rename the table is %v", names)
	}
	w.playPeople(id, reply, seats, rand.New(rand.NewPCG(2, 9)))
	if export := w.checkBotExport(id); !strings.Contains(export, "players zelda bob bot:normal\n") {
		t.Errorf("the export's players line:\n%s", export)
	}
}

// TestUndoWithBot: the bot does not vote on an undo. alice's card, put
// face down after the bot placed its own, is taken back when bob alone
// agrees, and the export, undo line included, still checks.
func TestUndoWithBot(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	alice, bob := "alice@x.test", "bob@y.test"
	reply, id := w.botGame("felix", bob+" and a bot", alice, bob)
	if waiting := w.table(id).game.Waiting(); slices.Contains(waiting, 2) || len(waiting) != 2 {
		t.Fatalf("at the start the game waits on %v, want the two people (the bot placed at once)", waiting)
	}
	play := w.legal(id, 0)
	w.send(alice, reply[alice], play)
	before := w.state(id)
	w.send(alice, reply[alice], "undo")
	if a := w.answer(alice); !strings.Contains(a, "You asked bob to let you take back "+play+".") {
		t.Errorf("alice's answer to undo:\n%s", a)
	}
	w.send(bob, reply[bob], "agree")
	if w.state(id) == before {
		t.Fatal("bob agreed, and alice's card was not taken back")
	}
	w.playPeople(id, reply, map[int]string{0: alice, 1: bob}, rand.New(rand.NewPCG(4, 4)))
	if export := w.checkBotExport(id); !strings.Contains(export, "alice: undo") {
		t.Errorf("the export has no undo line:\n%s", export)
	}
}
