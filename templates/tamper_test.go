package templates

import (
	"slices"
	"strings"
	"testing"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/felix"
	"github.com/pbem/pbem/engine/gracias"
)

// TestLeakCheckCatches shows that the leak check of TestNoMailLeaks can
// fail: each case slips one secret of another player into the reader's
// view or log, and the check must name it.
func TestLeakCheckCatches(t *testing.T) {
	t.Parallel()
	r := newRenderer(t)
	fullLog := func(opening []engine.Event, steps []step) []engine.Event {
		log := slices.Clone(opening)
		for _, s := range steps {
			log = append(log, s.events...)
		}
		return log
	}
	privateOf := func(log []engine.Event, seat int) engine.Event {
		for _, e := range slices.Backward(log) {
			if e.To == seat {
				return e
			}
		}
		t.Fatalf("no private entry for seat %d", seat)
		return engine.Event{}
	}

	// Felix, round 2, bob to bid: carol's money, card and hand are secret.
	g, opening, steps := play(t, "engine/felix/testdata/basics-4p.txt", -1)
	log := fullLog(opening, steps)
	bob, carol := engine.Seat(g, "bob"), engine.Seat(g, "carol")
	carolView := g.View(carol).(felix.View)
	felixCases := []struct {
		name   string
		tamper func(m *GameMail, v *felix.View)
	}{
		{"nothing", func(*GameMail, *felix.View) {}},
		{"money", func(_ *GameMail, v *felix.View) {
			v.Players = slices.Clone(v.Players)
			v.Players[carol].Money = carolView.Money
		}},
		{"face-down card", func(_ *GameMail, v *felix.View) {
			v.Row = slices.Clone(v.Row)
			v.Row[2].Card = carolView.Row[2].Card
		}},
		{"hand", func(_ *GameMail, v *felix.View) { v.Hand = carolView.Hand }},
		{"set-aside card", func(_ *GameMail, v *felix.View) { v.SetAside = carolView.SetAside }},
		{"private log entry", func(m *GameMail, _ *felix.View) {
			m.Happened = append(slices.Clone(m.Happened), privateOf(log, carol))
		}},
	}
	for _, c := range felixCases {
		// A status mail: it shows the set-aside card too.
		m := mailFor(t, g, bob, "status", sinceLastMove(bob, opening, steps))
		v := m.View.(felix.View)
		c.tamper(&m, &v)
		m.View = v
		mail, err := r.Game(m)
		if err != nil {
			t.Fatal(err)
		}
		for _, check := range []struct {
			part  string
			bad   []string
			shown string
		}{
			{"text", leaks(mail, g, bob, log), mail.Text},
			{"HTML", htmlLeaks(mail, g, bob, log), strings.Join(htmlLines(mail.HTML), "\n")},
		} {
			if c.name == "nothing" && len(check.bad) > 0 {
				t.Errorf("felix: the untouched mail's %s is reported: %v", check.part, check.bad)
			}
			if c.name != "nothing" && len(check.bad) == 0 {
				t.Errorf("felix: a mail whose %s shows carol's %s passes the check:\n%s", check.part, c.name, check.shown)
			}
		}
	}

	// Gracias, bob has taken triplet 2 and holds its face-down card.
	g, opening, steps = play(t, "engine/gracias/testdata/scoring-3p.txt", 2)
	log = fullLog(opening, steps)
	bob, carol = engine.Seat(g, "bob"), engine.Seat(g, "carol")
	bobView := g.View(bob).(gracias.View)
	graciasCases := []struct {
		name   string
		tamper func(m *GameMail, v *gracias.View)
	}{
		{"nothing", func(*GameMail, *gracias.View) {}},
		{"face-down cards", func(_ *GameMail, v *gracias.View) { v.FaceDown = bobView.FaceDown }},
		{"pending triplet", func(_ *GameMail, v *gracias.View) { v.Pending = bobView.Pending }},
		{"private log entry", func(m *GameMail, _ *gracias.View) {
			m.Happened = append(slices.Clone(m.Happened), privateOf(log, bob))
		}},
	}
	for _, c := range graciasCases {
		m := mailFor(t, g, carol, "turn", sinceLastMove(carol, opening, steps))
		v := m.View.(gracias.View)
		c.tamper(&m, &v)
		m.View = v
		mail, err := r.Game(m)
		if err != nil {
			t.Fatal(err)
		}
		for _, check := range []struct {
			part  string
			bad   []string
			shown string
		}{
			{"text", leaks(mail, g, carol, log), mail.Text},
			{"HTML", htmlLeaks(mail, g, carol, log), strings.Join(htmlLines(mail.HTML), "\n")},
		} {
			if c.name == "nothing" && len(check.bad) > 0 {
				t.Errorf("gracias: the untouched mail's %s is reported: %v", check.part, check.bad)
			}
			if c.name != "nothing" && len(check.bad) == 0 {
				t.Errorf("gracias: a mail whose %s shows bob's %s passes the check:\n%s", check.part, c.name, check.shown)
			}
		}
	}
}
