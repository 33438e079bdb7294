package daemon

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/pbem/pbem/store"
)

// Tests of issue 23, findings 3 to 5: whatever one player does costs each
// of his co-players a bounded number of mails, per mail and per day, and
// without sender authentication nobody changes another player's settings
// by forging his From to pbem's own address. Each storm is the one the
// attack sent.

// stormWorld has the default lobby budget (lobby_per_hour 20) and no
// other limit in the way: the storms are bounded by what they test.
func stormWorld(t *testing.T) *world {
	return limitedWorld(t, Limits{AnswersPerDay: 1 << 20, LobbyPerHour: 20, LoopPerMinute: 1 << 20})
}

// counts is how many mails each address has now.
func (w *world) counts(addrs ...string) map[string]int {
	n := map[string]int{}
	for _, a := range addrs {
		n[a] = len(w.inbox[a])
	}
	return n
}

// One seat mail of 25 pairs of `vacation 1d` and `back` once sent 50
// game mails to each co-player, and each back gave the day back. Now
// pbem reads one vacation or back per mail, and answers the rest "not
// done"; a vacation and its return reach each table at most
// tableNewsPerDay times a day; and the vacation commands in a game's
// thread count against the lobby budget.
func TestVacationStormIsBounded(t *testing.T) {
	t.Parallel()
	w := stormWorld(t)
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test"}
	reply, id := w.startGame("felix", players...)
	deadline := w.deadline(id, 0)
	n := w.counts(players...)
	w.send(players[0], reply[players[0]], strings.Repeat("vacation 1d\nback\n", 25))
	for _, p := range players[1:] {
		if got := len(w.inbox[p]) - n[p]; got > 1 {
			t.Errorf("%s got %d mails from alice's one mail, want at most 1", p, got)
		}
	}
	answer := w.answer(players[0])
	if !strings.Contains(answer, "You are away until") {
		t.Errorf("the first vacation was not done:\n%s", answer)
	}
	if c := strings.Count(answer, "Not done: back: pbem reads one vacation or back per mail; send another mail for another."); c != 25 {
		t.Errorf("%d backs were answered as not done, want 25:\n%s", c, answer)
	}
	if c := strings.Count(answer, "Not done: vacation 1d: pbem reads one vacation or back per mail"); c != 24 {
		t.Errorf("%d vacations were answered as not done, want 24:\n%s", c, answer)
	}
	// Back at once: the vacation counted nothing and her deadline has
	// the time it had; nothing was gained either.
	w.send(players[0], reply[players[0]], "back")
	if a := w.answer(players[0]); !strings.Contains(a, "This vacation counts 0 days; you have 21 of your 21 days left in 2026.") {
		t.Errorf("back:\n%s", a)
	}
	if got := w.deadline(id, 0); !got.Equal(deadline) {
		t.Errorf("alice's deadline is %s after the storm, want %s as before", got, deadline)
	}

	// Mail after mail: the lobby budget (20 an hour, alice's new and the
	// two mails above included) and the tables' daily notices bound it.
	n = w.counts(players...)
	refused := 0
	for i := 0; i < 40; i++ {
		cmd := "vacation 1d"
		if i%2 == 1 {
			cmd = "back"
		}
		w.send(players[0], reply[players[0]], cmd)
		if strings.Contains(w.answer(players[0]), "Not done: "+cmd+": pbem does at most 20 settings commands an hour for one address") {
			refused++
		}
		w.clock = w.clock.Add(time.Minute)
	}
	if refused != 23 {
		t.Errorf("%d of 40 vacation commands were refused for the lobby budget, want 23 (20 an hour: alice's new and the two mails above spent 3)", refused)
	}
	for _, p := range players[1:] {
		// The first mail of the storm above told them once already.
		if got := len(w.inbox[p]) - n[p]; got > tableNewsPerDay-1 {
			t.Errorf("%s got %d mails about alice's vacations in a day, want at most %d", p, got, tableNewsPerDay-1)
		}
	}
	if !w.said(players[0], 0, fmt.Sprintf("pbem did not mail the other players of your one running game about it: it mails a table about one player's vacations at most %d times a day; they read it with their next mail.", tableNewsPerDay)) {
		t.Error("alice was not told that her tables were not mailed")
	}
	// A day later the tables are told again.
	w.clock = w.clock.Add(25 * time.Hour)
	n = w.counts(players...)
	w.send(players[0], reply[players[0]], "vacation 2d")
	for _, p := range players[1:] {
		if got := len(w.inbox[p]) - n[p]; got != 1 {
			t.Errorf("the next day, %s got %d mails about alice's vacation, want 1", p, got)
		}
	}
}

// Fifty `name` lines in one seat mail renamed alice fifty times, and each
// rename was listed in the others' next mail. Now pbem reads one name
// per mail, and a name changes at most renamesPerDay times a day.
func TestRenameStormIsBounded(t *testing.T) {
	t.Parallel()
	w := stormWorld(t)
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test"}
	reply, id := w.startGame("felix", players...)
	var body strings.Builder
	for i := 1; i <= 50; i++ {
		fmt.Fprintf(&body, "name anna%d\n", i)
	}
	w.send(players[0], reply[players[0]], body.String())
	if got := w.seat(id, 0).Name; got != "anna1" {
		t.Errorf("alice is called %s, want anna1", got)
	}
	if a := w.answer(players[0]); strings.Count(a, "Not done: name anna") != 49 || !strings.Contains(a, "Not done: name anna50: pbem reads one name command per mail; send another mail for another.") {
		t.Errorf("alice's answer:\n%s", a)
	}
	for i := 2; i <= 5; i++ {
		w.send(players[0], reply[players[0]], fmt.Sprintf("name bea%d", i))
	}
	if got := w.seat(id, 0).Name; got != "bea3" {
		t.Errorf("alice is called %s, want bea3 (the third name of the day)", got)
	}
	if a := w.answer(players[0]); !strings.Contains(a, fmt.Sprintf("Your name was not changed: pbem changes a player's name at most %d times a day", renamesPerDay)) {
		t.Errorf("the fourth rename's answer:\n%s", a)
	}
	if n := w.eventsOf(id, EventRename); n != renamesPerDay {
		t.Errorf("%d renames told to the table, want %d", n, renamesPerDay)
	}
	w.clock = w.clock.Add(25 * time.Hour)
	w.send(players[0], reply[players[0]], "name cleo")
	if got := w.seat(id, 0).Name; got != "cleo" {
		t.Errorf("the next day alice is called %s, want cleo", got)
	}
}

// Twenty-five undo/refuse pairs in a mail sent one mail to every other
// player per mail, even to one whose notify is off. Now a seat asks its
// table at most undoAsksPerDay times a day.
func TestUndoStormIsBounded(t *testing.T) {
	t.Parallel()
	w := stormWorld(t)
	reply, id := w.startGame("felix", gamers...)
	w.send(gamers[3], reply[gamers[3]], "notify off")
	w.send(gamers[0], reply[gamers[0]], w.legal(id, 0))
	n := w.counts(gamers...)
	w.send(gamers[0], reply[gamers[0]], strings.Repeat("undo\nrefuse\n", 25))
	for _, p := range gamers[1:] {
		if got := len(w.inbox[p]) - n[p]; got != 1 {
			t.Errorf("%s got %d mails from alice's mail, want 1", p, got)
		}
	}
	limit := fmt.Sprintf("Nothing was taken back: you may ask this table to take a move back at most %d times a day, and you have asked it %d times since", undoAsksPerDay, undoAsksPerDay)
	if a := w.answer(gamers[0]); strings.Count(a, limit) != 25-undoAsksPerDay {
		t.Errorf("alice's answer does not refuse the undos past the day's %d:\n%s", undoAsksPerDay, a)
	}
	for i := 0; i < 10; i++ {
		w.send(gamers[0], reply[gamers[0]], "undo\nrefuse")
	}
	if got := len(w.inbox[gamers[3]]) - n[gamers[3]]; got != 1 {
		t.Errorf("dave (notify off) got %d mails from alice's undos, want 1", got)
	}
	// A day later she may ask again, and dave is asked.
	w.clock = w.clock.Add(25 * time.Hour)
	n = w.counts(gamers...)
	w.send(gamers[0], reply[gamers[0]], "undo")
	if got := len(w.inbox[gamers[3]]) - n[gamers[3]]; got != 1 {
		t.Errorf("the next day dave got %d mails for alice's undo, want 1", got)
	}
}

// Fifty `rematch` lines once made fifty games and spent the invitees'
// answer budgets on invitations. One mail starts at most one game.
func TestRematchStormMakesOneGame(t *testing.T) {
	t.Parallel()
	w := stormWorld(t)
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test"}
	reply, id := w.startGame("felix", players...)
	w.playOut(id, reply, players, rand.New(rand.NewPCG(23, 4)))
	n := w.counts(players...)
	w.send(players[0], reply[players[0]], strings.Repeat("rematch\n", 50))
	games, err := w.st.AllGames(context.Background())
	if err != nil || len(games) != 2 {
		t.Fatalf("%d games (%v), want the first and one rematch", len(games), err)
	}
	for _, p := range players[1:] {
		if got := len(w.inbox[p]) - n[p]; got != 1 {
			t.Errorf("%s got %d mails, want one invitation", p, got)
		}
	}
	if !w.said(players[0], n[players[0]], "Not done: rematch: pbem starts one game per mail; send another mail for another game.") {
		t.Errorf("alice was not told why 49 rematches were not done")
	}
	if got := w.mailsWith(players[0], "Not done: rematch: pbem starts one game per mail"); got != 1 {
		t.Errorf("%d mails say the rematches were not done, want 1", got)
	}
}

// say and poke were bounded already: one mail of many says reaches each
// other player as one mail, a seat's says are relayed at most
// maxSaysPerDay times a day, and a game is poked once a day.
func TestTalkStormIsBounded(t *testing.T) {
	t.Parallel()
	w := stormWorld(t)
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test"}
	reply, id := w.startGame("felix", players...)
	w.send(players[0], reply[players[0]], w.legal(id, 0))
	n := w.counts(players...)
	w.send(players[0], reply[players[0]], strings.Repeat("poke\n", 20)+"say hello")
	for _, p := range players[1:] {
		if got := len(w.inbox[p]) - n[p]; got != 1 {
			t.Errorf("%s got %d mails from one mail of pokes and a say, want 1", p, got)
		}
	}
	for i := 0; i < 30; i++ {
		w.send(players[0], reply[players[0]], fmt.Sprintf("say hello %d", i))
		w.send(players[0], reply[players[0]], "poke")
	}
	for _, p := range players[1:] {
		if got := len(w.inbox[p]) - n[p]; got > 1+maxSaysPerDay {
			t.Errorf("%s got %d mails from a day of alice's talk, want at most %d", p, got, 1+maxSaysPerDay)
		}
	}
}

// Without sender authentication, a forged mail to pbem's bare address
// renamed carol in her running game, set her notify off, spent her
// vacation days and changed her time zone; a forged back pulled her
// deadline in. Now such settings count only in a game's thread, whose
// address is the player's secret, or from authenticated mail.
func TestForgedSettingsAtBareAddress(t *testing.T) {
	t.Parallel()
	w := stormWorld(t)
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test"}
	reply, id := w.startGame("felix", players...)
	carol := players[2]
	w.send(carol, reply[carol], "vacation 3d") // her own, from her thread
	deadline := w.deadline(id, 2)
	before := w.player(carol)
	n := w.counts(players...)
	for _, forged := range []string{"name loser", "notify off", "vacation 21d", "timezone Asia/Tokyo", "confirm off", "back"} {
		w.send(carol, "pbem@example.test", forged)
		if a := oneLine(w.last(carol).Text); !strings.Contains(a, "Not done: "+forged+": anyone can put your address in a mail's From") ||
			!strings.Contains(a, "reply with it to a mail of one of your games") {
			t.Errorf("the answer to a forged %q:\n%s", forged, a)
		}
	}
	if got := w.seat(id, 2).Name; got != "carol" {
		t.Errorf("a forged mail renamed carol to %s", got)
	}
	if after := w.player(carol); after.Notify != before.Notify || after.TimeZone != before.TimeZone || after.Confirm != before.Confirm || after.Name != before.Name {
		t.Errorf("a forged mail changed carol's settings: %+v, was %+v", after, before)
	}
	if got := w.deadline(id, 2); !got.Equal(deadline) {
		t.Errorf("carol's deadline moved from %s to %s by forged mail", deadline, got)
	}
	if away, until, _ := w.onVacation(carol); !away || !until.Equal(w.clock.Add(3*24*time.Hour)) {
		t.Errorf("carol's vacation is %v until %s, want her own 3 days", away, until)
	}
	for _, p := range players[:2] {
		if len(w.inbox[p]) != n[p] {
			t.Errorf("%s was mailed about the forged settings", p)
		}
	}
	// never changes no game: it stays open at the bare address.
	w.send(carol, "pbem@example.test", "never")
	if never, _, err := w.st.InviteStatus(context.Background(), carol); err != nil || !never {
		t.Errorf("never at the bare address was not done (%v)", err)
	}
	// In her game's thread, the same settings are hers to change.
	w.send(carol, reply[carol], "back\nname carla\nnotify turns")
	if got := w.seat(id, 2).Name; got != "carla" {
		t.Errorf("carol's own rename in her thread was not done: %s", got)
	}
	if got := w.player(carol).Notify; got != store.NotifyTurns {
		t.Errorf("carol's notify in her thread: %s", got)
	}
}

// An address with no game that is not over may still choose notify,
// timezone and confirm at the bare address (there is no table or
// deadline of his to change), but not name or vacation: those reach the
// tables of his games to come.
func TestSettingsWithoutGameAtBareAddress(t *testing.T) {
	t.Parallel()
	w := stormWorld(t)
	w.send("dan@x.test", "pbem@example.test", "notify turns\ntimezone Europe/Berlin\nconfirm off\nname daniel\nvacation 2d")
	p := w.player("dan@x.test")
	if p.Notify != store.NotifyTurns || p.TimeZone != "Europe/Berlin" || p.Confirm {
		t.Errorf("dan's settings: %+v", p)
	}
	if p.Name == "daniel" {
		t.Error("name at the bare address was done without authentication")
	}
	if away, _, _ := w.onVacation("dan@x.test"); away {
		t.Error("vacation at the bare address was done without authentication")
	}
	a := oneLine(w.last("dan@x.test").Text)
	for _, c := range []string{"name daniel", "vacation 2d"} {
		if !strings.Contains(a, "Not done: "+c+": anyone can put your address in a mail's From") {
			t.Errorf("%q was not answered as not done:\n%s", c, a)
		}
	}
	if !strings.Contains(a, "You have no game yet") {
		t.Errorf("the answer does not say how to do it without a game:\n%s", a)
	}
}

// With sender authentication configured, authenticated mail to the bare
// address changes the player's settings as before.
func TestAuthenticatedSettingsAtBareAddress(t *testing.T) {
	t.Parallel()
	w := newWorldConfig(t, func(c *Config) { c.Limits, c.TrustAuthServID = unlimited, "mx.pbem.test" })
	auth := func(addr string) string {
		return "Authentication-Results: mx.pbem.test; dmarc=pass header.from=" + addr[strings.IndexByte(addr, '@')+1:]
	}
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test"}
	w.send(players[0], "pbem@example.test", "new felix with bob@y.test carol@z.test", auth(players[0]))
	for _, p := range players[1:] {
		w.send(p, w.last(p).ReplyTo, "join", auth(p))
	}
	id := w.gameOf(w.last(players[0]).ReplyTo)
	deadline := w.deadline(id, 2)
	w.send(players[2], "pbem@example.test", "name carla\nvacation 2d\nnotify turns", auth(players[2]))
	if got := w.seat(id, 2).Name; got != "carla" {
		t.Errorf("an authenticated rename at the bare address: %s", got)
	}
	if got := w.deadline(id, 2); !got.Equal(deadline.Add(48 * time.Hour)) {
		t.Errorf("an authenticated vacation: deadline %s, want %s", got, deadline.Add(48*time.Hour))
	}
	if got := w.player(players[2]).Notify; got != store.NotifyTurns {
		t.Errorf("an authenticated notify: %s", got)
	}
}

// A player starts at most one rematch of a game: a second, in another
// mail, would invite the same players again and spend their answer
// budgets.
func TestOneRematchPerGame(t *testing.T) {
	t.Parallel()
	w := stormWorld(t)
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test"}
	reply, id := w.startGame("felix", players...)
	w.playOut(id, reply, players, rand.New(rand.NewPCG(23, 5)))
	w.send(players[0], reply[players[0]], "rematch")
	n := w.counts(players...)
	for range 5 {
		w.send(players[0], reply[players[0]], "rematch")
	}
	games, err := w.st.AllGames(context.Background())
	if err != nil || len(games) != 2 {
		t.Fatalf("%d games (%v), want the first and one rematch", len(games), err)
	}
	for _, p := range players[1:] {
		if got := len(w.inbox[p]) - n[p]; got != 0 {
			t.Errorf("%s got %d more invitations", p, got)
		}
	}
	if a := w.answer(players[0]); !strings.Contains(a, "Not done: rematch: each player starts at most one rematch of a game, and you have started one of this game already.") {
		t.Errorf("the second rematch's answer:\n%s", a)
	}
	// Another player of the game may start his own.
	w.send(players[1], reply[players[1]], "rematch")
	if games, _ := w.st.AllGames(context.Background()); len(games) != 3 {
		t.Errorf("bob's rematch: %d games, want 3", len(games))
	}
}

// Whatever one mail of a player's in a running game holds (moves,
// settings, vacations, renames, undos and answers, says and pokes, in any
// order and number), each other player of the game gets at most one
// mail from it, whatever his notify setting.
func TestPropertyOneMailPerCoPlayer(t *testing.T) {
	t.Parallel()
	w := stormWorld(t)
	round := 0
	rapid.Check(t, func(rt *rapid.T) {
		round++
		players := []string{fmt.Sprintf("a%d@x.test", round), fmt.Sprintf("b%d@y.test", round), fmt.Sprintf("c%d@z.test", round)}
		reply, id := w.startGame("felix", players...)
		for _, p := range players[1:] {
			n := rapid.SampledFrom([]string{"normal", "all", "turns", "off"}).Draw(rt, "notify")
			w.send(p, reply[p], "notify "+n)
		}
		lines := []string{"vacation 1d", "vacation 2d", "back", "name zed", "name yan", "undo", "refuse", "agree",
			"say hi", "poke", "status", "history", "confirm off", "notify all", "MOVE"}
		for range rapid.IntRange(1, 6).Draw(rt, "mails") {
			var body []string
			for range rapid.IntRange(1, 8).Draw(rt, "lines") {
				l := rapid.SampledFrom(lines).Draw(rt, "line")
				if l == "MOVE" {
					tb := w.table(id)
					if !slices.Contains(tb.game.Waiting(), 0) {
						continue
					}
					l = w.legal(id, 0)
				}
				body = append(body, l)
			}
			if len(body) == 0 {
				continue
			}
			n := w.counts(players...)
			w.send(players[0], reply[players[0]], strings.Join(body, "\n"))
			for _, p := range players[1:] {
				if got := len(w.inbox[p]) - n[p]; got > 1 {
					rt.Fatalf("%s got %d mails from alice's mail:\n%s", p, got, strings.Join(body, "\n"))
				}
			}
			// Now and then a co-player moves, so that undos meet moves.
			if rapid.Bool().Draw(rt, "others move") {
				tb := w.table(id)
				for _, s := range tb.game.Waiting() {
					if s != 0 {
						w.send(players[s], reply[players[s]], w.legal(id, s))
						break
					}
				}
			}
			w.clock = w.clock.Add(time.Minute)
		}
	})
}
