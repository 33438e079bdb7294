package daemon

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/internal/admin"
	"github.com/pbem/pbem/internal/loaded"
	"github.com/pbem/pbem/templates"
)

// TestServiceEventsInEachLanguage (issue 39): the events pbem itself
// writes into a game's log (everyone joined, a player's words, a new
// name, a resignation, the host's acts) are read by a German player in
// German and by the English players in English, each sentence exactly as
// templates' words write it.
func TestServiceEventsInEachLanguage(t *testing.T) {
	w := newWorld(t)
	anna, bob, carol, dave := "anna@x.test", "bob@x.test", "carol@x.test", "dave@x.test"
	others := []string{bob, carol, dave}
	w.send(anna, "pbem@example.test", "neu felix mit "+strings.Join(others, " "), "Content-Language: de")
	reply := map[string]string{anna: w.last(anna).ReplyTo}
	for _, o := range others {
		reply[o] = w.last(o).ReplyTo
		w.send(o, reply[o], "join")
	}
	id := w.gameOf(reply[anna])
	names := w.loaded(id).Names
	de, en := templates.For("de"), templates.Say

	// reads reports whether one of addr's mails, its lines joined, holds
	// sentence.
	reads := func(addr, sentence string) bool {
		want := strings.Join(strings.Fields(sentence), " ")
		for _, m := range w.mailsTo(addr) {
			if strings.Contains(strings.Join(strings.Fields(m.Text), " "), want) {
				return true
			}
		}
		return false
	}
	check := func(what string, german, english string, readers ...string) {
		t.Helper()
		if german == english {
			t.Fatalf("%s: the German is the English: %q", what, german)
		}
		for _, r := range readers {
			want, not := english, german
			if r == anna {
				want, not = german, english
			}
			if !reads(r, want) {
				t.Errorf("%s: no mail of %s says %q", what, r, want)
			}
			if reads(r, not) {
				t.Errorf("%s: a mail of %s says %q", what, r, not)
			}
		}
	}
	seats := []string{anna, bob, carol, dave}
	// move makes the waited-for seat's first option, so that the table
	// is mailed what happened since.
	move := func() {
		t.Helper()
		st := w.loaded(id).State
		seat := st.Waiting()[0]
		cmd := st.Options(seat)[0].Commands[0]
		if seats[seat] == anna {
			cmd = germanCommand(t, w, "felix", cmd)
		}
		w.send(seats[seat], reply[seats[seat]], cmd)
	}
	check("everyone joined", de.EveryoneJoined(), en.EveryoneJoined(), anna, bob)

	w.send(bob, reply[bob], "say hello all")
	check("say", de.Says(names[1], "hello all"), en.Says(names[1], "hello all"), anna, carol)

	w.send(bob, reply[bob], "name robert")
	move()
	check("rename", de.NowCalled(names[1], "robert"), en.NowCalled(names[1], "robert"), anna, carol)
	names = w.loaded(id).Names

	w.send(carol, reply[carol], "resign")
	in := w.svc.standIn()
	check("resign",
		de.PlayerResigned(names[2], in.in(de).playsFor(names[2])),
		en.PlayerResigned(names[2], in.in(en).playsFor(names[2])), anna, bob)

	// The host's acts, announced to the table with its next mail.
	ctx := context.Background()
	if err := w.svc.Admin(ctx, id, admin.StatusAct{To: admin.Pause}, "root"); err != nil {
		t.Fatal(err)
	}
	if err := w.svc.Admin(ctx, id, admin.StatusAct{To: admin.Resume}, "root"); err != nil {
		t.Fatal(err)
	}
	move()
	check("pause", de.AdminDid(de.PausedGame()), en.AdminDid(en.PausedGame()), anna, bob)
	check("resume", de.AdminDid(de.ResumedGame()), en.AdminDid(en.ResumedGame()), anna, bob)

	st := w.loaded(id).State
	seat := st.Waiting()[0]
	cmd := st.Options(seat)[0].Commands[0]
	if err := w.adminWords(ctx, id, "move", append([]string{names[seat]}, strings.Fields(cmd)...), "root"); err != nil {
		t.Fatal(err)
	}
	move()
	check("admin move", de.AdminDid(de.MadeMoveFor(names[seat])), en.AdminDid(en.MadeMoveFor(names[seat])), anna, bob)
	if seats[seat] != carol {
		check("admin move for you", de.AdminMovedForYou(cmd), en.AdminMovedForYou(cmd), seats[seat])
	}

	// An undo: the table reads what it saw of the move, quoted, in
	// each reader's language (the game's own words, through its catalog).
	// stored checks the last stored event of kind as checks does: in
	// German as the renderer writes its phrase, with no English word.
	const anyone = -100 // stored's to for an event to anyone
	stored := func(kind EventKind, to int, readers ...string) {
		t.Helper()
		evs, err := w.st.Events(ctx, id, 0)
		if err != nil {
			t.Fatal(err)
		}
		for i := len(evs) - 1; i >= 0; i-- {
			if evs[i].Kind != string(kind) || (to != anyone && evs[i].To != to) {
				continue
			}
			ev := loaded.EngineEvent(evs[i])
			if ev.Say == nil {
				t.Fatalf("%s: no phrase: %q", kind, ev.Text)
			}
			german := w.svc.render.Words("de").Event(ev)
			if found := foreignWords(german, englishOnly); len(found) > 0 {
				t.Errorf("%s: %v in German %q", kind, found, german)
			}
			if english := w.svc.render.Words("en").Event(ev); english != ev.Text {
				t.Errorf("%s: English %q, Text %q", kind, english, ev.Text)
			}
			check(string(kind), german, ev.Text, readers...)
			return
		}
		t.Fatalf("no %s event", kind)
	}
	for tries := 0; ; tries++ {
		if tries > 20 {
			t.Fatal("neither bob nor dave moves")
		}
		mover := seats[w.loaded(id).State.Waiting()[0]]
		move()
		if mover == bob || mover == dave {
			w.send(mover, reply[mover], "undo")
			stored(EventUndoAsked, anyone, anna, others[0], others[2])
			for _, v := range []string{anna, bob, dave} {
				if v != mover {
					w.send(v, reply[v], "agree")
				}
			}
			other := bob
			if mover == bob {
				other = dave
			}
			stored(EventUndone, anyone, anna, other)
			break
		}
	}

	// A deadline passes: pbem moves for the seat, and tells it and the
	// table.
	late := w.loaded(id).State.Waiting()[0]
	w.clock = w.clock.Add(73 * time.Hour)
	if err := w.sweep(); err != nil {
		t.Fatal(err)
	}
	move()
	var table []string
	for i, a := range seats {
		if i != late && a != carol {
			table = append(table, a)
		}
	}
	stored(EventDefault, int(engine.Others(late)), table...)
	stored(EventDefault, late, seats[late])

	// A vacation: its end is written in the reader's language.
	w.send(dave, reply[dave], "vacation 3d")
	move()
	stored(EventVacation, int(engine.Others(3)), anna, bob)
	w.send(dave, reply[dave], "back")
	move()
	stored(EventVacation, int(engine.Others(3)), anna, bob)

	// The host extends a deadline: its length in the reader's words.
	waited := w.loaded(id).State.Waiting()[0]
	if err := w.adminWords(ctx, id, "extend", []string{names[waited], "2h"}, "root"); err != nil {
		t.Fatal(err)
	}
	move()
	stored(EventAdmin, anyone, anna, bob)
}
