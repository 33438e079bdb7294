package daemon

import (
	"bytes"
	"context"
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/games"
	"github.com/pbem/pbem/engine/transcript"
	"github.com/pbem/pbem/internal/loaded"
	"github.com/pbem/pbem/store"
)

var update = flag.Bool("update", false, "rewrite testdata/undo/*.txt, the undo scenarios' transcripts, from what the service exports (review them by hand)")

// gamers are the players of the undo scenarios: Felix takes all four,
// Gracias the first three.
var gamers = []string{"alice@x.test", "bob@y.test", "carol@z.test", "dave@x.test"}

// exportReplayed exports the game, checks that replaying the transcript
// gives the game the service holds, and compares the transcript, after
// comment lines that tell the scenario (story), with the scenario's in
// testdata/undo (rewritten with -update).
func (w *world) exportReplayed(id int64, scenario, story string) string {
	w.t.Helper()
	var buf bytes.Buffer
	for _, line := range strings.Split(strings.TrimSpace(story), "\n") {
		buf.WriteString("# " + line + "\n")
	}
	buf.WriteString(w.replayedExport(id))
	file := filepath.Join("testdata", "undo", scenario+".txt")
	if *update {
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			w.t.Fatal(err)
		}
		if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
			w.t.Fatal(err)
		}
	}
	golden, err := os.ReadFile(file)
	if err != nil {
		w.t.Fatalf("%v (run with -update to write it)", err)
	}
	if string(golden) != buf.String() {
		w.t.Errorf("%s differs from the export (run with -update and review):\n%s", file, buf.String())
	}
	return buf.String()
}

// replayedExport exports the game and checks that replaying the
// transcript gives the game the service holds.
func (w *world) replayedExport(id int64) string {
	w.t.Helper()
	var buf bytes.Buffer
	if err := loaded.Export(context.Background(), w.st, games.Lookup, id, &buf); err != nil {
		w.t.Fatal(err)
	}
	tr, err := transcript.Read(strings.NewReader(buf.String()), games.Lookup)
	if err != nil {
		w.t.Fatalf("the export does not read: %v\n%s", err, buf.String())
	}
	g, _, err := tr.Replay()
	if err != nil {
		w.t.Fatalf("the export does not replay: %v\n%s", err, buf.String())
	}
	got, _ := g.MarshalJSON()
	if string(got) != w.state(id) {
		w.t.Errorf("export and replay give another game than the service's\n%s", buf.String())
	}
	return buf.String()
}

// answer is the first paragraph of addr's last mail, on one line: what
// pbem says to his commands.
func (w *world) answer(addr string) string {
	w.t.Helper()
	return oneLine(w.last(addr).Text)
}

// state is the game as the service holds it, serialized.
func (w *world) state(id int64) string {
	w.t.Helper()
	b, err := w.loaded(id).State.MarshalJSON()
	if err != nil {
		w.t.Fatal(err)
	}
	return string(b)
}

// noLeak checks that no player's mail shows what only another seat may
// see: the words of the events addressed to one seat alone. (An Others
// event holds only public words about its seat's own act, by the
// engine's contract, and an undo quotes it to everyone.)
func (w *world) noLeak(id int64, players []string) {
	w.t.Helper()
	evs, err := w.st.Events(context.Background(), id, 0)
	if err != nil {
		w.t.Fatal(err)
	}
	for seat, addr := range players {
		seen := map[string]bool{}
		for _, e := range visible(evs, seat) {
			seen[e.Text] = true
		}
		for _, e := range evs {
			h := e.Text
			if e.To < 0 || e.To == seat || seen[h] {
				continue
			}
			for _, m := range w.inbox[addr] {
				if strings.Contains(m.Text, h) || strings.Contains(m.HTML, h) {
					w.t.Errorf("%s's mail %q shows %q", addr, m.Subject, h)
				}
			}
		}
	}
}

// TestUndoAgreedByAll: alice takes back the card she put face down once
// bob, carol and dave agree. dave, with notify off, is asked all the
// same. Nobody else learns which card it was; the move log keeps it and
// the undo line, and export and replay give the service's game.
func TestUndoAgreedByAll(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.send(gamers[3], "pbem@example.test", "notify off")
	reply, id := w.startGame("felix", gamers...)
	w.confirmOn(gamers...) // the test reads answers to moves or says

	before := w.state(id)
	play := w.legal(id, 0)
	w.send(gamers[0], reply[gamers[0]], play)
	n := map[string]int{}
	for _, p := range gamers {
		n[p] = len(w.inbox[p])
	}
	w.send(gamers[0], reply[gamers[0]], "undo")
	if a := w.answer(gamers[0]); !strings.Contains(a, "You asked bob, carol and dave to let you take back "+play+".") {
		t.Errorf("alice's answer to undo:\n%s", a)
	}
	for _, p := range gamers[1:] {
		if len(w.inbox[p]) != n[p]+1 {
			t.Fatalf("%s got %d mails for the undo, want 1", p, len(w.inbox[p])-n[p])
		}
		if got := w.answer(p); !strings.Contains(got, `alice asks to take back a move: "alice puts a card face down into the row (position 4)." Everyone else, answer agree or refuse: it is taken back when bob, carol and dave all agree within 24 hours`) {
			t.Errorf("%s was not asked in these words:\n%s", p, got)
		}
	}
	w.send(gamers[1], reply[gamers[1]], "agree")
	if a := w.answer(gamers[1]); !strings.Contains(a, "You agreed to take back alice's move. It still needs the agreement of carol and dave, by ") {
		t.Errorf("bob's answer:\n%s", a)
	}
	// Agreeing twice changes nothing.
	w.send(gamers[1], reply[gamers[1]], "agree")
	if a := w.answer(gamers[1]); !strings.Contains(a, "It still needs the agreement of carol and dave") {
		t.Errorf("bob's second agree:\n%s", a)
	}
	w.send(gamers[2], reply[gamers[2]], "status")
	if a := w.answer(gamers[2]); !strings.Contains(a, "alice asks to take back a move: answer agree or refuse by Sun 22 Nov 10:00 UTC (still to agree: carol and dave).") {
		t.Errorf("carol's status during the undo:\n%s", a)
	}
	w.send(gamers[0], reply[gamers[0]], "status")
	if a := w.answer(gamers[0]); !strings.Contains(a, "You asked to take back your last command; still to agree: carol and dave, by Sun 22 Nov 10:00 UTC.") {
		t.Errorf("alice's status during the undo:\n%s", a)
	}
	w.send(gamers[2], reply[gamers[2]], "I agree")
	w.send(gamers[3], reply[gamers[3]], "agree")
	if a := w.answer(gamers[3]); !strings.Contains(a, "You agreed, and so has everyone: alice's move is taken back.") {
		t.Errorf("dave's answer:\n%s", a)
	}
	if w.state(id) != before {
		t.Error("the game after the undo is not the game before alice's move")
	}
	if w.mailsWith(gamers[0], "Your command \""+play+"\" is taken back") != 1 {
		t.Error("alice was not told that her command is taken back")
	}
	for _, p := range gamers[1:3] {
		if w.mailsWith(p, `alice's move is taken back, as everyone agreed: "alice puts a card face down into the row (position 4)."`) != 1 {
			t.Errorf("%s was not told that alice's move is taken back", p)
		}
	}
	if st := w.seat(id, 0); st.Deadline.IsZero() {
		t.Error("alice has no deadline for her decision again")
	}
	moves := w.movesOf(id)
	if last := moves[len(moves)-1]; last.Command != engine.UndoCommand || last.Seat != 0 || moves[len(moves)-2].Command != play {
		t.Errorf("the move log ends %+v", moves[len(moves)-2:])
	}
	audit, err := w.st.Audit(context.Background(), id)
	if err != nil || len(audit) == 0 || audit[len(audit)-1].Action != "undo" || audit[len(audit)-1].Detail != "move 1 of alice taken back, as the others agreed: "+play {
		t.Errorf("audit %+v, %v", audit, err)
	}
	w.noLeak(id, gamers)
	// She plays again, and the game goes on from there.
	w.send(gamers[0], reply[gamers[0]], w.legal(id, 0))
	if a := w.answer(gamers[0]); !strings.Contains(a, "Applied: play") {
		t.Errorf("alice's move after the undo:\n%s", a)
	}
	export := w.exportReplayed(id, "felix-agreed", `
Undo agreed by all. alice puts a card face down and sends undo; bob, carol
and dave are asked (dave although his notify is off) and all answer agree:
the card is back in her hand, and she plays again.`)
	if !strings.Contains(export, "alice: undo  # takes back move 1: "+play) {
		t.Errorf("the export does not say what the undo took back:\n%s", export)
	}
}

// twoStep has the Gracias player the game waits on take a triplet and,
// in a second mail, keep a card and give the other: the keep reveals
// nothing, so it may be taken back. It returns the seat and the keep.
func (w *world) twoStep(id int64, reply map[string]string, players []string) (int, string) {
	w.t.Helper()
	p := w.loaded(id).State.Waiting()[0]
	var take string
	for _, o := range w.loaded(id).State.Options(p) {
		for _, c := range o.Commands {
			if strings.HasPrefix(c, "take ") && !strings.Contains(c, "keep") && take == "" {
				take = c
			}
		}
	}
	if take == "" {
		w.t.Fatal("no take of its own among the options")
	}
	w.send(players[p], reply[players[p]], take)
	keep := w.legal(id, p)
	if !strings.HasPrefix(keep, "keep ") {
		w.t.Fatalf("after %s the option is %s", take, keep)
	}
	w.send(players[p], reply[players[p]], keep)
	return p, keep
}

// TestUndoRefusedByOne: in Gracias, a player asks to take back the card
// he kept and gave; the first refuse keeps it. The table is told, the
// game is unchanged, and nobody may answer again.
func TestUndoRefusedByOne(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	players := gamers[:3]
	reply, id := w.startGame("gracias", players...)
	p, keep := w.twoStep(id, reply, players)
	after := w.state(id)
	w.send(players[p], reply[players[p]], "undo")
	if a := w.answer(players[p]); !strings.Contains(a, "to let you take back "+keep+".") {
		t.Fatalf("the undo's answer:\n%s", a)
	}
	q := (p + 1) % 3
	w.send(players[q], reply[players[q]], "refuse")
	name := strings.TrimSuffix(players[p], players[p][strings.IndexByte(players[p], '@'):])
	if a := w.answer(players[q]); !strings.Contains(a, "You refused: "+name+"'s move stands.") {
		t.Errorf("the refuse's answer:\n%s", a)
	}
	r := (p + 2) % 3
	if w.mailsWith(players[r], "refused the undo "+name+" asked for: the move stands.") != 1 || w.mailsWith(players[p], "refused the undo") != 1 {
		t.Error("the table was not told of the refusal")
	}
	if w.state(id) != after {
		t.Error("a refused undo changed the game")
	}
	w.send(players[r], reply[players[r]], "agree")
	if a := w.answer(players[r]); !strings.Contains(a, "Nobody has asked to take a move back in this game") {
		t.Errorf("an agree after the refusal:\n%s", a)
	}
	w.noLeak(id, players)
	w.exportReplayed(id, "gracias-refused", `
Undo refused by one. bob takes triplet 1 and, in a second mail, keeps a
card and gives the other (which reveals nothing); he sends undo, and carol
answers refuse: the move stands, and the log has no undo line.`)
}

// TestUndoTimedOut: without every answer within 24 hours, the undo lapses
// at the sweep after, and the table is told who did not answer.
func TestUndoTimedOut(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	reply, id := w.startGame("felix", gamers...)
	w.send(gamers[0], reply[gamers[0]], w.legal(id, 0))
	after := w.state(id)
	w.send(gamers[0], reply[gamers[0]], "undo")
	w.send(gamers[1], reply[gamers[1]], "agree")
	w.clock = w.clock.Add(23 * time.Hour)
	if err := w.sweep(); err != nil {
		t.Fatal(err)
	}
	if _, err := w.st.PendingUndo(context.Background(), id); err != nil {
		t.Fatalf("the undo lapsed before its time: %v", err)
	}
	w.clock = w.clock.Add(time.Hour)
	if err := w.sweep(); err != nil {
		t.Fatal(err)
	}
	if _, err := w.st.PendingUndo(context.Background(), id); err == nil {
		t.Fatal("the undo did not lapse after 24 hours")
	}
	const lapsed = "The undo alice asked for has lapsed: not everyone answered within 24 hours (carol and dave did not), so the move stands."
	for _, p := range gamers {
		if w.mailsWith(p, lapsed) != 1 {
			t.Errorf("%s was not told once that the undo lapsed", p)
		}
	}
	if w.state(id) != after {
		t.Error("a lapsed undo changed the game")
	}
	// A sweep after it has nothing more to say.
	if err := w.sweep(); err != nil {
		t.Fatal(err)
	}
	if w.mailsWith(gamers[0], lapsed) != 1 {
		t.Error("the lapse was told twice")
	}
	w.send(gamers[2], reply[gamers[2]], "agree")
	if a := w.answer(gamers[2]); !strings.Contains(a, "Nobody has asked to take a move back") {
		t.Errorf("a late agree:\n%s", a)
	}
	w.exportReplayed(id, "felix-timed-out", `
Undo timed out. alice puts a card face down and sends undo; bob agrees,
carol and dave do not answer: 24 hours later the sweep ends the undo and
the move stands. The log has no undo line.`)
}

// TestUndoRefusedByReveal: a command that turned a card up (Felix) or
// showed its player a face-down card (Gracias) is not taken back, and
// nobody is asked. The reason quotes what the player himself saw, and is
// neither stored nor logged.
func TestUndoRefusedByReveal(t *testing.T) {
	t.Parallel()
	t.Run("felix", func(t *testing.T) {
		t.Parallel()
		w := newWorld(t)
		reply, id := w.startGame("felix", gamers...)
		for p := range gamers {
			w.send(gamers[p], reply[gamers[p]], w.legal(id, p))
		}
		bidder := w.loaded(id).State.Waiting()[0]
		w.send(gamers[bidder], reply[gamers[bidder]], "pass")
		evs, _ := w.st.Events(context.Background(), id, 0)
		if !slices.ContainsFunc(evs, func(e store.Event) bool { return e.Kind == "reveal" }) {
			t.Fatal("the pass turned no card up: the scenario proves nothing")
		}
		n := len(w.inbox[gamers[(bidder+1)%4]])
		w.send(gamers[bidder], reply[gamers[bidder]], "undo")
		if a := w.answer(gamers[bidder]); !strings.Contains(a, "Nothing was taken back: it brought hidden information to light (") || !strings.Contains(a, "card is turned up: ") {
			t.Errorf("the undo's answer:\n%s", a)
		}
		if len(w.inbox[gamers[(bidder+1)%4]]) != n {
			t.Error("another player was mailed about a refused undo")
		}
		if w.outcome().Detail != "undo refused" {
			t.Errorf("stored detail %q", w.outcome().Detail)
		}
		w.exportReplayed(id, "felix-revealed", `
Undo refused because a card was revealed since. Everyone puts a card face
down; bob, the first to bid, passes, and his card is turned up. His undo
is refused at once, and nobody is asked.`)
	})
	t.Run("gracias", func(t *testing.T) {
		t.Parallel()
		w := newWorld(t)
		players := gamers[:3]
		reply, id := w.startGame("gracias", players...)
		p := w.loaded(id).State.Waiting()[0]
		var take string
		for _, o := range w.loaded(id).State.Options(p) {
			if c := o.Commands[0]; strings.Contains(c, "keep") {
				take = c
			}
		}
		w.send(players[p], reply[players[p]], take)
		w.send(players[p], reply[players[p]], "undo")
		a := w.answer(players[p])
		if !strings.Contains(a, "Nothing was taken back: it brought hidden information to light (You take triplet") {
			t.Errorf("the undo's answer:\n%s", a)
		}
		// The face-down card he saw is named in his answer only.
		peek := a[strings.Index(a, "Its face-down card is "):]
		peek = peek[:strings.IndexAny(peek, ";)")]
		if strings.Contains(w.logs.String(), peek) || strings.Contains(w.outcome().Detail, "triplet") {
			t.Errorf("the reason %q reached the log or the stored detail", peek)
		}
		w.noLeak(id, players)
		w.exportReplayed(id, "gracias-revealed", `
Undo refused because a face-down card was seen. bob takes triplet 1 (and
sees its face-down card), keeps a card and gives the other in one line;
his undo is refused at once, and nobody is asked.`)
	})
}

// TestUndoOvertaken: a move the table sees ends an undo being answered;
// another player's move before the undo keeps it from being asked at all.
func TestUndoOvertaken(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	reply, id := w.startGame("felix", gamers...)
	w.send(gamers[0], reply[gamers[0]], w.legal(id, 0))
	w.send(gamers[0], reply[gamers[0]], "undo")
	w.send(gamers[1], reply[gamers[1]], w.legal(id, 1))
	for _, p := range []string{gamers[0], gamers[2]} {
		if w.mailsWith(p, "The undo alice asked for has lapsed: bob has moved since, so the move stands.") != 1 {
			t.Errorf("%s was not told that bob's move ended the undo", p)
		}
	}
	w.send(gamers[2], reply[gamers[2]], "agree")
	if a := w.answer(gamers[2]); !strings.Contains(a, "Nobody has asked to take a move back") {
		t.Errorf("an agree after the lapse:\n%s", a)
	}
	w.send(gamers[0], reply[gamers[0]], "undo")
	if a := w.answer(gamers[0]); !strings.Contains(a, "Nothing was taken back: bob has moved since.") {
		t.Errorf("an undo after bob's move:\n%s", a)
	}
	w.send(gamers[3], reply[gamers[3]], "undo")
	if a := w.answer(gamers[3]); !strings.Contains(a, "Nothing was taken back: you have no command in effect to take back.") {
		t.Errorf("an undo with nothing to take back:\n%s", a)
	}
	w.exportReplayed(id, "felix-overtaken", `
Undo overtaken. alice puts a card face down and sends undo; bob puts his
card down before the others answer: the undo lapses. A second undo of
alice's is refused (bob has moved since), and dave has nothing to take back.`)
}

// TestUndoPrivateOrder: a standing order nobody else knows of is taken
// back at once, and nobody is asked or mailed: asking would tell them.
func TestUndoPrivateOrder(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	reply, id := w.startGame("felix", gamers...)
	for p := range gamers {
		w.send(gamers[p], reply[gamers[p]], w.legal(id, p))
	}
	bidder := w.loaded(id).State.Waiting()[0]
	later := (bidder + 2) % 4
	before := w.state(id)
	w.send(gamers[later], reply[gamers[later]], "bid up to 3")
	n := map[string]int{}
	for _, p := range gamers {
		n[p] = len(w.inbox[p])
	}
	w.send(gamers[later], reply[gamers[later]], "undo")
	if a := w.answer(gamers[later]); !strings.Contains(a, "Taken back: bid up to 3. Nobody else could see anything of it, so nobody was asked.") {
		t.Errorf("the undo's answer:\n%s", a)
	}
	for _, p := range gamers {
		if p != gamers[later] && len(w.inbox[p]) != n[p] {
			t.Errorf("%s was mailed about a private undo", p)
		}
	}
	if w.state(id) != before {
		t.Error("the game after the undo is not the game before the order")
	}
	w.noLeak(id, gamers)
	w.exportReplayed(id, "felix-private", `
A private command taken back at once. Everyone puts a card face down;
dave leaves the standing order "bid up to 3" ahead of his turn, which
nobody else can know of, and sends undo: it is taken back without asking.`)
}

// TestAdminUndo: an admin's undo follows the engine's rule without a
// vote: it takes back bob's move, then alice's, which became the last.
func TestAdminUndo(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	reply, id := w.startGame("felix", gamers...)
	start := w.state(id)
	w.send(gamers[0], reply[gamers[0]], w.legal(id, 0))
	w.send(gamers[1], reply[gamers[1]], w.legal(id, 1))
	if err := w.adminWords(ctx, id, "undo", []string{"carol"}, "root"); err == nil || !strings.Contains(err.Error(), "carol's last command cannot be taken back: you have no command in effect") {
		t.Errorf("admin undo of carol: %v", err)
	}
	if err := w.adminWords(ctx, id, "undo", []string{"alice"}, "root"); err == nil || !strings.Contains(err.Error(), "bob has moved since") {
		t.Errorf("admin undo of alice before bob's: %v", err)
	}
	if err := w.adminWords(ctx, id, "undo", []string{"bob"}, "root"); err != nil {
		t.Fatal(err)
	}
	w.flush()
	if w.mailsWith(gamers[2], "bob's move is taken back, by the host:") != 1 {
		t.Error("carol was not told of the admin's undo")
	}
	if err := w.adminWords(ctx, id, "undo", []string{"alice"}, "root"); err != nil {
		t.Fatal(err)
	}
	w.flush()
	if w.state(id) != start {
		t.Error("two undos did not bring the game back to its start")
	}
	audit, _ := w.st.Audit(ctx, id)
	var undos int
	for _, a := range audit {
		if a.Action == "undo" {
			undos++
		}
	}
	if undos != 4 { // each act, and each command taken back
		t.Errorf("%d undo entries in the audit, want 4: %+v", undos, audit)
	}
	w.exportReplayed(id, "felix-admin", `
An admin's undo, without a vote. alice and bob put a card face down; an
admin takes back bob's move, then alice's, which is then the last: the
game is as it started.`)
}

// TestUndoLeaksNothing plays whole games in which players ask to take
// moves back and answer at random, and checks that no mail shows anyone
// what only another seat may see, and that export and replay agree.
func TestUndoLeaksNothing(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		game    string
		players []string
	}{
		{"felix", gamers},
		{"gracias", gamers[:3]},
	} {
		t.Run(tc.game, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			reply, id := w.startGame(tc.game, tc.players...)
			rng := rand.New(rand.NewPCG(9, 10))
			for steps := 0; !w.loaded(id).State.Result().Finished; steps++ {
				if steps > 800 {
					t.Fatal("the game does not end")
				}
				tb := w.loaded(id)
				p := tb.State.Waiting()[0]
				var cmds []string
				for _, o := range tb.State.Options(p) {
					cmds = append(cmds, o.Commands...)
				}
				w.send(tc.players[p], reply[tc.players[p]], cmds[rng.IntN(len(cmds))])
				if rng.IntN(3) == 0 {
					// The one who just moved thinks better of it, and
					// the others answer, or not, at random.
					w.send(tc.players[p], reply[tc.players[p]], "undo")
					for q, addr := range tc.players {
						if q == p {
							continue
						}
						switch rng.IntN(8) {
						case 0, 1, 2, 3, 4, 5:
							w.send(addr, reply[addr], "agree")
						case 6:
							w.send(addr, reply[addr], "refuse")
						}
					}
				}
			}
			if w.eventsOf(id, EventUndone) == 0 || w.eventsOf(id, EventUndoAsked) == 0 {
				t.Fatalf("undos asked %d, applied %d, ended %d: the check would prove little",
					w.eventsOf(id, EventUndoAsked), w.eventsOf(id, EventUndone), w.eventsOf(id, EventUndoEnded))
			}
			w.noLeak(id, tc.players)
			w.replayedExport(id)
		})
	}
}
