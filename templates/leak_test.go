package templates

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/felix"
	"github.com/pbem/pbem/engine/gracias"
)

// randomGame plays a whole game with random legal commands (and now and
// then the deadline default) and calls mail after every move for every
// seat, with what that seat may see of what happened since its last
// mail and the whole log so far.
func randomGame(t *testing.T, rules engine.Rules, n int, seed uint64, mail func(g engine.Game, seat int, kind MailKind, happened, log []engine.Event)) {
	t.Helper()
	players := []string{"alice", "bob", "carol", "dave", "erin", "frank"}[:n]
	g, opening, err := rules.New(engine.Setup{Players: players, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	rnd := rand.New(rand.NewPCG(seed, 99))
	log := slices.Clone(opening)
	pending := make([][]engine.Event, n)
	for p := range pending {
		pending[p] = visible(p, opening)
	}
	send := func(kind MailKind) {
		for p := range n {
			mail(g, p, kind, pending[p], log)
			pending[p] = nil
		}
	}
	send("start")
	for moves := 0; !g.Result().Finished; moves++ {
		if moves > 2000 {
			t.Fatal("the game does not end")
		}
		if q, text := orderAhead(g, rnd); text != "" {
			// A Felix standing order: only q may read of it.
			c, err := engine.ParseCommand(rules.Specs(), players, text)
			if err != nil {
				t.Fatal(err)
			}
			ev, err := g.Apply(q, c)
			if err != nil {
				t.Fatalf("%s: %v", text, err)
			}
			log = append(log, ev...)
			for p := range n {
				pending[p] = append(pending[p], visible(p, ev)...)
			}
			send(MailStatus)
			continue
		}
		w := g.Waiting()
		seat := w[rnd.IntN(len(w))]
		var cmd engine.Command
		if rnd.IntN(10) == 0 {
			c, ok := g.Default(seat)
			if !ok {
				t.Fatalf("no default for waiting seat %d", seat)
			}
			cmd = c
		} else {
			var all []string
			for _, o := range g.Options(seat) {
				all = append(all, o.Commands...)
			}
			c, err := engine.ParseCommand(rules.Specs(), players, all[rnd.IntN(len(all))])
			if err != nil {
				t.Fatal(err)
			}
			cmd = c
		}
		ev, err := g.Apply(seat, cmd)
		if err != nil {
			t.Fatalf("%s: %v", cmd.Text, err)
		}
		log = append(log, ev...)
		for p := range n {
			pending[p] = append(pending[p], visible(p, ev)...)
		}
		send(MailTurn)
	}
}

// orderAhead picks, now and then, a Felix player who may give a standing
// order ahead of his turn, and the order: a limit he could bid, or pass.
func orderAhead(g engine.Game, rnd *rand.Rand) (int, string) {
	if rnd.IntN(4) != 0 {
		return 0, ""
	}
	for _, q := range rnd.Perm(len(g.Players())) {
		v, ok := g.View(q).(felix.View)
		if !ok || !v.Ahead {
			continue
		}
		lo, hi := v.HighStake+1, *v.Money+v.Players[q].Stake
		if lo > hi || rnd.IntN(4) == 0 {
			return q, "pass"
		}
		return q, fmt.Sprintf("bid up to %d", lo+rnd.IntN(hi-lo+1))
	}
	return 0, ""
}

// ownOrderLeaks lists the standing-order sentences of text (unwrapped)
// that are not the reader's own order.
func ownOrderLeaks(text string, own felix.View) []string {
	var out []string
	for _, m := range limitLine.FindAllStringSubmatch(text, -1) {
		if m[1] != fmt.Sprint(own.Limit) {
			out = append(out, "a limit not the reader's: "+m[0])
		}
	}
	if strings.Contains(text, standingPassLine) && !own.StandingPass {
		out = append(out, "a standing pass not the reader's")
	}
	return out
}

var (
	limitLine        = regexp.MustCompile(`You let pbem bid for you in this auction up to a total stake of (\d+)`)
	standingPassLine = "pbem will pass for you when the auction comes to you"
)

var moneyWord = regexp.MustCompile(`(?i)\bmoney\b`)

// rowLeaks reads the row of a Felix mail's text, "Row: alice 3 · bob
// (your 5, face down) · carol (face down)" (wrapped over lines up to
// "Mouse cards:"), and lists the positions that show a face-down card
// not the reader's.
func rowLeaks(lines []string, public, own felix.View) []string {
	var row []string
	for i, l := range lines {
		rest, ok := strings.CutPrefix(l, "Row: ")
		if !ok {
			continue
		}
		for _, more := range lines[i+1:] {
			if strings.HasPrefix(more, "Mouse cards:") {
				break
			}
			rest += " " + more
		}
		row = strings.Split(unwrap(rest), " · ")
		break
	}
	if len(row) != len(public.Row) {
		return []string{fmt.Sprintf("the row shows %d positions, not %d: %q", len(row), len(public.Row), row)}
	}
	var out []string
	for i, item := range row {
		owner, shown, _ := strings.Cut(item, " ")
		rc := public.Row[i]
		if owner != rc.Owner {
			out = append(out, fmt.Sprintf("position %d of the row is %q, not %s's", i+1, item, rc.Owner))
		}
		if !rc.FaceUp && owner != own.You && shown != "(face down)" && shown != "(not placed yet)" {
			out = append(out, "face-down card of "+owner+": "+item)
		}
	}
	return out
}

// leaks lists what the mail to seat p shows that p may not know, judged
// against the true state of g and the whole log: other players' private
// log entries, money, hands, set-aside cards, face-down row cards
// (Felix) and face-down cards (Gracias). Once the game is over everything
// is public except private log entries.
func leaks(m Mail, g engine.Game, p int, log []engine.Event) []string {
	lines := strings.Split(m.Text, "\n")
	out := privateLeaks(unwrap(m.Text), p, log)
	if g.Result().Finished {
		return out
	}
	switch own := g.View(p).(type) {
	case felix.View:
		out = append(out, ownOrderLeaks(unwrap(m.Text), own)...)
		public := g.View(engine.Public).(felix.View)
		out = append(out, rowLeaks(lines, public, own)...)
		for _, l := range lines {
			if moneyWord.MatchString(l) && l != "Money: "+ownMoney(own) {
				out = append(out, "money: "+l)
			}
			if rest, ok := strings.CutPrefix(l, "Hand: "); ok && rest != cardWords(own.Hand) {
				out = append(out, "a hand not the reader's: "+l)
			}
			if rest, ok := strings.CutPrefix(l, "Set aside at the start: "); ok && !strings.HasPrefix(rest, cardWord(own.SetAside)+" ") {
				out = append(out, "a set-aside card not the reader's: "+l)
			}
		}
	case gracias.View:
		for _, l := range lines {
			if rest, ok := strings.CutPrefix(l, "Your face-down cards: "); ok {
				want := "none yet"
				if len(own.FaceDown) > 0 {
					want = strings.Join(own.FaceDown, ", ")
				}
				if rest != want {
					out = append(out, "face-down cards not the reader's: "+l)
				}
			}
			if rest, ok := strings.CutPrefix(l, "Its face-down card is "); ok {
				if own.Pending == nil || !strings.HasPrefix(rest, own.Pending.FaceDown+";") {
					out = append(out, "a triplet's face-down card the reader did not take: "+l)
				}
			}
		}
	}
	return out
}

// privateLeaks lists the log entries that p may not see and text shows.
func privateLeaks(text string, p int, log []engine.Event) []string {
	var out []string
	mine := map[string]bool{}
	var seen []string
	for _, e := range log {
		if e.VisibleTo(p) {
			seen = append(seen, e.Text)
		}
	}
	// A private entry of another player may read like a part of one
	// of p's own ("The face-down card of triplet 3 is red; ...").
	ownText := func(s string) bool {
		if mine[s] {
			return true
		}
		for _, t := range seen {
			if strings.Contains(t, s) {
				mine[s] = true
				return true
			}
		}
		return false
	}
	for _, e := range log {
		if !e.VisibleTo(p) && strings.Contains(text, e.Text) && !ownText(e.Text) {
			out = append(out, fmt.Sprintf("private log entry of seat %d: %q", e.To, e.Text))
		}
	}
	return out
}

// htmlLeaks is leaks for the HTML part, read as htmlLines shows it: the
// same secrets, where the HTML part puts them (the row one position a
// table row, hands and face-down cards as tiles side by side).
func htmlLeaks(m Mail, g engine.Game, p int, log []engine.Event) []string {
	lines := htmlLines(m.HTML)
	out := privateLeaks(unwrap(strings.Join(lines, " ")), p, log)
	if g.Result().Finished {
		return out
	}
	labels := func(cards []string) string {
		out := make([]string, len(cards))
		for i, c := range cards {
			out[i] = cardWord(c)
		}
		return strings.Join(out, " ")
	}
	switch own := g.View(p).(type) {
	case felix.View:
		out = append(out, ownOrderLeaks(unwrap(strings.Join(lines, " ")), own)...)
		public := g.View(engine.Public).(felix.View)
		inRow, rows := false, 0
		for _, cells := range lines {
			l := strings.ReplaceAll(cells, "\t", " ")
			switch {
			case l == "The row:":
				inRow = true
			case strings.HasPrefix(l, "Mouse cards:"):
				inRow = false
			case inRow:
				rows++
				r := htmlRowLine.FindStringSubmatch(cells)
				if r == nil {
					out = append(out, "unreadable row line "+cells)
					continue
				}
				var pos int
				fmt.Sscan(r[1], &pos)
				rc := public.Row[pos-1]
				if !rc.FaceUp && r[2] != own.You && r[3] != "face down" && r[3] != "not placed yet" {
					out = append(out, "face-down card of "+r[2]+": "+l)
				}
			}
			if moneyWord.MatchString(l) && l != "Money: "+ownMoney(own) {
				out = append(out, "money: "+l)
			}
			if rest, ok := strings.CutPrefix(l, "Hand: "); ok && rest != labels(own.Hand) {
				out = append(out, "a hand not the reader's: "+l)
			}
			if rest, ok := strings.CutPrefix(l, "Set aside at the start: "); ok && !strings.HasPrefix(rest, cardWord(own.SetAside)+" ") {
				out = append(out, "a set-aside card not the reader's: "+l)
			}
		}
		if rows != len(public.Row) {
			out = append(out, fmt.Sprintf("the row shows %d positions, not %d", rows, len(public.Row)))
		}
	case gracias.View:
		for _, cells := range lines {
			l := strings.ReplaceAll(cells, "\t", " ")
			if rest, ok := strings.CutPrefix(l, "Your face-down cards: "); ok {
				want := "none yet"
				if len(own.FaceDown) > 0 {
					want = strings.Join(own.FaceDown, " ")
				}
				if rest != want {
					out = append(out, "face-down cards not the reader's: "+l)
				}
			}
			if rest, ok := strings.CutPrefix(l, "Its face-down card is "); ok {
				if own.Pending == nil || !strings.HasPrefix(rest, own.Pending.FaceDown+";") {
					out = append(out, "a triplet's face-down card the reader did not take: "+l)
				}
			}
		}
	}
	return out
}

// ownMoney is the only money line a Felix mail may show: the reader's
// own mice in hand, and his own stake while he has one (stakes are
// public anyway).
func ownMoney(own felix.View) string {
	m := engine.Plural(*own.Money, "mouse", "mice")
	if st := own.Players[own.Seat].Stake; st > 0 {
		m += fmt.Sprintf(" in hand, %d staked", st)
	}
	return m
}

var htmlRowLine = regexp.MustCompile(`^(\d+)\.\t([^\t]+)\t(.*)$`)

// unwrap undoes the line wrapping, so that log entries can be found.
func unwrap(s string) string { return strings.Join(strings.Fields(s), " ") }

func TestNoMailLeaks(t *testing.T) {
	r := newRenderer(t)
	type game struct {
		rules engine.Rules
		n     int
		seed  uint64
	}
	var list []game
	for i, n := range []int{3, 4, 5, 4} {
		list = append(list, game{felix.Rules{}, n, uint64(100 + i)})
	}
	for i, n := range []int{3, 4, 5, 6} {
		list = append(list, game{gracias.Rules{}, n, uint64(200 + i)})
	}
	for _, gm := range list {
		t.Run(fmt.Sprintf("%s-%dp-%d", gm.rules.Name(), gm.n, gm.seed), func(t *testing.T) {
			t.Parallel() // the renderer is safe for concurrent use
			mails := 0
			randomGame(t, gm.rules, gm.n, gm.seed, func(g engine.Game, seat int, kind MailKind, happened, log []engine.Event) {
				m := mailFor(t, g, seat, kind, happened)
				mail, err := r.Game(m)
				if err != nil {
					t.Fatal(err)
				}
				mails++
				checkShape(t, mail)
				checkSameContent(t, m, mail)
				if readerWaitsInSubject(mail.Headline, m.Reader) {
					t.Fatalf("the headline of %s's mail waits for %s: %q", m.Reader, m.Reader, mail.Headline)
				}
				if bad := leaks(mail, g, seat, log); len(bad) > 0 {
					t.Fatalf("mail to %s leaks:\n%s\n\n%s", g.Players()[seat], strings.Join(bad, "\n"), mail.Text)
				}
				if bad := htmlLeaks(mail, g, seat, log); len(bad) > 0 {
					t.Fatalf("the HTML part of the mail to %s leaks:\n%s\n\n%s", g.Players()[seat], strings.Join(bad, "\n"), strings.Join(htmlLines(mail.HTML), "\n"))
				}
			})
			if mails == 0 {
				t.Fatal("no mails rendered")
			}
		})
	}
}

// cardWord and cardWords are Felix's own words for cards, as its
// templates write them.
func cardWord(c string) string {
	return felix.Rules{}.Funcs(engine.English)["card"].(func(string) string)(c)
}

func cardWords(cs []string) string {
	return felix.Rules{}.Funcs(engine.English)["cards"].(func([]string) string)(cs)
}
