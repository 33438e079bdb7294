package templates

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/felix"
	"github.com/pbem/pbem/engine/gracias"
)

// turnGame plays a whole game with random legal commands and calls mail
// for each mail a player gets when he must decide, as with `notify
// turns`: the first mail to everyone, then a mail to each seat the game
// comes to wait on with something to send (or that still waits after
// its own move), with what that seat may see of what happened since its
// last mail. The game's last mail goes to everyone.
func turnGame(t *testing.T, rules engine.Rules, n int, seed uint64, mail func(g engine.Game, seat int, kind MailKind, happened []engine.Event)) {
	t.Helper()
	players := []string{"alice", "bob", "carol", "dave", "erin", "frank"}[:n]
	g, opening, err := rules.New(engine.Setup{Players: players, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	rnd := rand.New(rand.NewPCG(seed, 7))
	pending := make([][]engine.Event, n)
	for p := range n {
		mail(g, p, MailStart, visible(p, opening))
	}
	asked := func() map[int]bool {
		m := map[int]bool{}
		for _, w := range g.Waiting() {
			if len(g.Options(w)) > 0 {
				m[w] = true
			}
		}
		return m
	}
	before := asked()
	for moves := 0; !g.Result().Finished; moves++ {
		if moves > 2000 {
			t.Fatal("the game does not end")
		}
		w := g.Waiting()
		seat := w[rnd.IntN(len(w))]
		var all []string
		for _, o := range g.Options(seat) {
			all = append(all, o.Commands...)
		}
		c, err := engine.ParseCommand(rules.Specs(), players, all[rnd.IntN(len(all))])
		if err != nil {
			t.Fatal(err)
		}
		ev, err := g.Apply(seat, c)
		if err != nil {
			t.Fatalf("%s: %v", c.Text, err)
		}
		for p := range n {
			pending[p] = append(pending[p], visible(p, ev)...)
		}
		now := asked()
		for p := range n {
			if g.Result().Finished || (now[p] && (!before[p] || p == seat)) {
				kind := MailTurn
				if g.Result().Finished {
					kind = MailEnd
				}
				mail(g, p, kind, pending[p])
				pending[p] = nil
			}
		}
		before = now
	}
}

// mailFigures are the measures of a whole game's turn mails as a phone
// shows their text: how many lines each has, and on which line the
// first command offered stands.
type mailFigures struct {
	lines, first []int
	// afterStory is, in each mail, the line of the first command counted
	// without the story's lines: where it would stand had nothing
	// happened since the reader's last mail.
	afterStory []int
}

func median(xs []int) int {
	s := slices.Clone(xs)
	sort.Ints(s)
	return s[len(s)/2]
}

func (f mailFigures) String() string {
	return fmt.Sprintf("%d turn mails: lines median %d, max %d; first command on line median %d, max %d; without the story's lines median %d, max %d",
		len(f.lines), median(f.lines), slices.Max(f.lines), median(f.first), slices.Max(f.first), median(f.afterStory), slices.Max(f.afterStory))
}

// firstCommandLine is the number (from 1) of the first line of text that
// starts with one of the commands offered, or 0.
func firstCommandLine(text string, opts []engine.Option) int {
	for i, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(l)
		for _, o := range opts {
			for _, c := range o.Commands {
				if rest, ok := strings.CutPrefix(l, c); ok && (rest == "" || rest[0] == ' ') {
					return i + 1
				}
			}
		}
	}
	return 0
}

// measureGame renders the turn mails of whole games and measures them.
func measureGame(t *testing.T, r *Renderer, rules engine.Rules, n int, seeds []uint64) mailFigures {
	t.Helper()
	var f mailFigures
	for _, seed := range seeds {
		turnGame(t, rules, n, seed, func(g engine.Game, seat int, kind MailKind, happened []engine.Event) {
			m := mailFor(t, g, seat, kind, happened)
			if len(m.Options) == 0 || m.Finished {
				return
			}
			mail, err := r.Game(m)
			if err != nil {
				t.Fatal(err)
			}
			text := strings.TrimRight(mail.Text, "\n")
			first := firstCommandLine(text, m.Options)
			if first == 0 {
				t.Fatalf("no command offered in the mail to %s:\n%s", m.Reader, text)
			}
			f.lines = append(f.lines, strings.Count(text, "\n")+1)
			f.afterStory = append(f.afterStory, first-storyLines(m, rules))
			if dump := os.Getenv("PBEM_DUMP_MAILS"); dump != "" {
				if f, err := os.OpenFile(dump, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
					fmt.Fprintf(f, "==== %d lines\n%s\n", strings.Count(text, "\n")+1, text)
					f.Close()
				}
			}
			f.first = append(f.first, first)
		})
	}
	return f
}

// storyLines is how many lines of text the story at the top of m takes:
// what happened since the reader's last mail, one item a line, wrapped.
func storyLines(m GameMail, rules engine.Rules) int {
	n := 0
	for _, e := range newGameData(m, rules, Say).Recent {
		n += len(wrapLine("- "+e.Text, lineWidth))
	}
	return n
}

// TestTurnMailsFitAPhone measures the text of every turn mail of whole
// games: a 4-player Felix turn mail is one phone screen (a median of at
// most 35 lines), a 6-player Gracias one at most 45, none over 80 lines.
// The story of what happened since the reader's last mail comes first,
// whole and in order (issue 35), and the first command offered follows
// it at once: counted without the story's lines, it is on line 7 or
// above.
func TestTurnMailsFitAPhone(t *testing.T) {
	r := newRenderer(t)
	seeds := []uint64{1, 2, 3, 4, 5}
	cases := []struct {
		rules     engine.Rules
		n         int
		maxMedian int // 0: no median asked for this size
	}{
		{felix.Rules{}, 3, 0}, {felix.Rules{}, 4, 35}, {felix.Rules{}, 5, 0},
		{gracias.Rules{}, 3, 0}, {gracias.Rules{}, 4, 0}, {gracias.Rules{}, 5, 0}, {gracias.Rules{}, 6, 45},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s-%dp", c.rules.Name(), c.n), func(t *testing.T) {
			f := measureGame(t, r, c.rules, c.n, seeds)
			t.Log(f)
			if c.maxMedian > 0 && median(f.lines) > c.maxMedian {
				t.Errorf("median turn mail has %d lines, more than %d", median(f.lines), c.maxMedian)
			}
			if m := slices.Max(f.lines); m > 80 {
				t.Errorf("a turn mail has %d lines, more than 80", m)
			}
			if m := slices.Max(f.afterStory); m > 7 {
				t.Errorf("a turn mail offers its first command %d lines below the story's, more than 7", m)
			}
		})
	}
}
