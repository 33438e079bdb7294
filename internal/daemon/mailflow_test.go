package daemon

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/pbem/pbem/engine"
)

// The black-box count of issue 25: whole games played by mail with the
// default settings, each player's mails read as he reads them. It
// reports, per player, the mails per decision, the length of his turn
// mails and where in them the first command he may send appears, the
// mails that asked him a decision the rules had publicly made for him,
// the mails that said "nothing" beside commands he may send, and whether
// his first game mail says how to score. docs/mail.md ("Mail counts,
// before and after issue 25") records the figures:
//
//	go test ./internal/daemon -run TestMailFlow -v
//
// It asserts the bounds of items 3 and 4: at most 1.5 mails per decision
// for every player of every game and size, and no mail that asks a
// publicly forced decision. PBEM_MAILFLOW_DUMP=DIR writes every mail of
// the reported games there, one file per player, to read them whole.

// flowGames are every game and size.
var flowGames = []struct {
	game    string
	players int
}{
	{"felix", 3}, {"felix", 4}, {"felix", 5}, {"gracias", 3}, {"gracias", 4}, {"gracias", 5}, {"gracias", 6},
}

// maxMailsPerDecision is issue 25's bound with the default settings.
const maxMailsPerDecision = 1.5

// flowPlayer is what one player's mails of one game came to.
type flowPlayer struct {
	mails, decisions int
	turnLines        []int // the text lines of each mail that asked him to decide
	firstCommand     []int // in those mails, the line of the first command offered (1 is the first line)
	allLines         int   // the most text lines of any of his game mails
	forcedAsked      int   // mails asking a decision the rules publicly forced
	nothing          int   // mails saying "nothing" beside commands he may send
	scoring          bool  // his first game mail says how to score
	// echoes are the answers to his own moves that asked nothing of him;
	// news the mails that were no answer and asked nothing either.
	echoes, news int
}

func (f flowPlayer) perDecision() float64 { return float64(f.mails) / float64(f.decisions) }

// flowGame plays a whole game of kind game with n players and the
// default settings, a random waiting player sending a random offered
// command at each step, and reads every player's mails.
func flowGame(t *testing.T, game string, n int, seed uint64) (*countedPlay, []flowPlayer) {
	t.Helper()
	cp := startCounted(t, game, n, "")
	w := cp.w
	out := make([]flowPlayer, n)
	// The last mail of each player is now the game's first: its start.
	for i, p := range cp.players {
		out[i].scoring = saysHowToScore(w.last(p).Text)
	}
	rng := rand.New(rand.NewPCG(seed, 25))
	for steps := 0; ; steps++ {
		if steps > 1000 {
			t.Fatal("the game does not end")
		}
		tb := w.loaded(cp.id)
		if tb.State.Result().Finished {
			break
		}
		before := make([]int, n)
		for i, p := range cp.players {
			before[i] = len(w.inbox[p])
		}
		waiting := tb.State.Waiting()
		mover := waiting[rng.IntN(len(waiting))]
		cp.move(tb, mover, rng)
		// Every mail of this step was written against the table as it
		// is now.
		tb = w.loaded(cp.id)
		active := !tb.State.Result().Finished
		for seat, p := range cp.players {
			var cmds []string
			if active {
				for _, o := range tb.State.Options(seat) {
					cmds = append(cmds, o.Commands...)
				}
			}
			_, forced := engine.ForcedCommand(tb.State, seat)
			for _, m := range w.inbox[p][before[seat]:] {
				f := &out[seat]
				lines := strings.Split(strings.TrimRight(strings.ReplaceAll(m.Text, "\r\n", "\n"), "\n"), "\n")
				f.allLines = max(f.allLines, len(lines))
				asks := active && slices.Contains(tb.State.Waiting(), seat)
				switch {
				case asks:
				case seat == mover:
					f.echoes++
				default:
					f.news++
				}
				if asks {
					f.turnLines = append(f.turnLines, len(lines))
					f.firstCommand = append(f.firstCommand, firstCommandLine(lines, cmds))
					if forced {
						f.forcedAsked++
					}
				}
				if saysNothingBeside(lines, cmds) {
					f.nothing++
				}
			}
		}
	}
	moves, err := w.st.Moves(context.Background(), cp.id, 0)
	if err != nil {
		t.Fatal(err)
	}
	for seat, p := range cp.players {
		out[seat].mails = len(w.inbox[p]) - cp.first[p]
		out[seat].decisions = 1 // his new or join
		for _, m := range moves {
			if m.Seat == seat {
				out[seat].decisions++
			}
		}
	}
	return cp, out
}

// firstCommandLine is the line (from 1) of the first of lines that holds
// one of cmds as words of its own, 0 for none.
func firstCommandLine(lines, cmds []string) int {
	var res []*regexp.Regexp
	for _, c := range cmds {
		res = append(res, regexp.MustCompile(`(?i)(^|[\s:`+"`"+`'"(])`+regexp.QuoteMeta(c)+`($|[\s.,;:·|)`+"`"+`'"])`))
	}
	for i, l := range lines {
		for _, re := range res {
			if re.MatchString(l) {
				return i + 1
			}
		}
	}
	return 0
}

// saysNothingBeside reports whether a mail says "Nothing …" on a line of
// its own while it offers commands: the reader's (cmds, the game waits on
// him) or orders he may send ahead of his turn.
func saysNothingBeside(lines, cmds []string) bool {
	nothing, offers := false, len(cmds) > 0
	for _, l := range lines {
		l = strings.TrimLeft(l, " -*>")
		if strings.HasPrefix(strings.ToLower(l), "nothing") {
			nothing = true
		}
		if strings.Contains(strings.ToLower(l), "you may send") {
			offers = true
		}
	}
	return nothing && offers
}

// scoreWords are how a rules summary says what a player scores.
var scoreWords = regexp.MustCompile(`(?i)\b(scores?|scoring|points?)\b`)

// saysHowToScore reports whether a game's first mail tells how to score:
// it names scoring outside the footer.
func saysHowToScore(text string) bool {
	body, _, _ := strings.Cut(text, "\n-- \n")
	return scoreWords.MatchString(body)
}

func median(xs []int) int {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

func TestMailFlow(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("plays whole games")
	}
	skipUnderRace(t)
	dump := os.Getenv("PBEM_MAILFLOW_DUMP")
	var report strings.Builder
	fmt.Fprintf(&report, "| game | player | mails | decisions | mails per decision | turn mails | median lines | most lines | most lines, any mail | first command, median line | first command, last line | echoes | news | forced asked | nothing beside options | first mail says how to score |\n")
	fmt.Fprintf(&report, "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n")
	for _, g := range flowGames {
		for _, seed := range []uint64{7, 8, 9} {
			cp, players := flowGame(t, g.game, g.players, seed)
			for seat, f := range players {
				name := fmt.Sprintf("%s-%dp seed %d, seat %d", g.game, g.players, seed, seat)
				if f.perDecision() > maxMailsPerDecision {
					t.Errorf("%s: %d mails for %d decisions, %.2f per decision, more than %.1f", name, f.mails, f.decisions, f.perDecision(), maxMailsPerDecision)
				}
				if f.forcedAsked > 0 {
					t.Errorf("%s: %d mails asked a decision the rules had publicly forced", name, f.forcedAsked)
				}
				if seed != 7 {
					continue
				}
				fmt.Fprintf(&report, "| %s %dp | %d | %d | %d | %.2f | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d | %v |\n",
					g.game, g.players, seat, f.mails, f.decisions, f.perDecision(), len(f.turnLines), median(f.turnLines), slices.Max(append(f.turnLines, 0)),
					f.allLines, median(f.firstCommand), slices.Max(append(f.firstCommand, 0)), f.echoes, f.news, f.forcedAsked, f.nothing, f.scoring)
			}
			if dump != "" && seed == 7 {
				for _, p := range cp.players {
					var b strings.Builder
					for i, m := range cp.w.inbox[p][cp.first[p]:] {
						fmt.Fprintf(&b, "==================== mail %d: %s\n%s\n", i+1, m.Subject, m.Text)
					}
					file := filepath.Join(dump, fmt.Sprintf("%s-%dp-%s.txt", g.game, g.players, strings.TrimSuffix(p, "@x.test")))
					if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
	}
	t.Logf("each player's mails from the game's creation to its result, default settings, seed 7:\n%s", report.String())
}
