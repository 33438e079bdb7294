package felix_test

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/felix"
	"github.com/pbem/pbem/engine/games"
	"github.com/pbem/pbem/engine/transcript"
)

// TestScenarios replays every transcript in testdata and checks the
// expectations written in it as "#! ..." comment lines, computed by hand:
//
//	#! bank N | round N | finished true|false
//	#! to_move NAME... | winners NAME...
//	#! player NAME money=N cats=N score=N won=CARD,CARD
//	#! row NAME 1=CARD 2=? ...   (the row as NAME's view shows it; ? is face down)
//	#! hand NAME CARD,CARD
//	#! log TEXT     (the public log contains TEXT)
//	#! nolog TEXT   (it does not)
//	#! error TEXT   (replay stops with an error containing TEXT)
//	#! seen NAME TEXT    (the log as NAME may see it contains TEXT)
//	#! unseen NAME TEXT  (it does not)
//	#! order NAME none|pass|N  (NAME's standing order as his view shows it)
func TestScenarios(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("testdata/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenarios: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txt"), func(t *testing.T) {
			runScenario(t, file)
		})
	}
}

func runScenario(t *testing.T, file string) {
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr, err := transcript.Read(f, games.Lookup)
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	expects := expectations(t, file)
	if len(expects) == 0 {
		t.Fatal("scenario has no #! expectations")
	}
	g, log, replayErr := tr.Replay()
	var public strings.Builder
	for _, ev := range log {
		if ev.VisibleTo(engine.Public) {
			public.WriteString(ev.Text)
			public.WriteString("\n")
		}
	}
	wantErr := false
	for _, e := range expects {
		if e[0] == "error" {
			wantErr = true
		}
	}
	if replayErr != nil && !wantErr {
		t.Fatalf("replay: %v", replayErr)
	}
	if wantErr && replayErr == nil {
		t.Fatal("replay succeeded; the scenario expects an error")
	}
	sum := g.Summary().(felix.Summary)
	for _, e := range expects {
		key, args := e[0], e[1:]
		rest := strings.Join(args, " ")
		switch key {
		case "error":
			var le *transcript.LineError
			if !errors.As(replayErr, &le) {
				t.Errorf("error %v is not a LineError", replayErr)
			}
			if !strings.Contains(replayErr.Error(), rest) {
				t.Errorf("error = %q, want it to contain %q", replayErr, rest)
			}
		case "bank":
			checkInt(t, "bank", sum.Bank, args[0])
		case "round":
			checkInt(t, "round", sum.Round, args[0])
		case "finished":
			if strconv.FormatBool(sum.Finished) != args[0] {
				t.Errorf("finished = %v, want %s", sum.Finished, args[0])
			}
		case "to_move":
			if !slices.Equal(sum.ToMove, args) && !(len(args) == 0 && len(sum.ToMove) == 0) {
				t.Errorf("to_move = %v, want %v", sum.ToMove, args)
			}
		case "winners":
			if !slices.Equal(sum.Winners, args) {
				t.Errorf("winners = %v, want %v", sum.Winners, args)
			}
		case "player":
			checkPlayer(t, sum, args)
		case "row":
			checkRow(t, g, args)
		case "hand":
			v := g.View(engine.Seat(g, args[0])).(felix.View)
			want := []string{}
			if len(args) > 1 {
				want = strings.Split(args[1], ",")
			}
			if !slices.Equal(v.Hand, want) && !(len(v.Hand) == 0 && len(want) == 0) {
				t.Errorf("%s's hand = %v, want %v", args[0], v.Hand, want)
			}
		case "log":
			if !strings.Contains(public.String(), rest) {
				t.Errorf("public log lacks %q; log:\n%s", rest, public.String())
			}
		case "nolog":
			if strings.Contains(public.String(), rest) {
				t.Errorf("public log has %q", rest)
			}
		case "seen", "unseen":
			name, text, _ := strings.Cut(rest, " ")
			seat := engine.Seat(g, name)
			if seat < 0 {
				t.Fatalf("no player %s", name)
			}
			var seen strings.Builder
			for _, ev := range log {
				if ev.VisibleTo(seat) {
					seen.WriteString(ev.Text + "\n")
				}
			}
			if got := strings.Contains(seen.String(), text); got != (key == "seen") {
				t.Errorf("%s's log contains %q: %v; log:\n%s", name, text, got, seen.String())
			}
		case "order":
			v := g.View(engine.Seat(g, args[0])).(felix.View)
			got := "none"
			if v.StandingPass {
				got = "pass"
			} else if v.Limit > 0 {
				got = strconv.Itoa(v.Limit)
			}
			if got != args[1] {
				t.Errorf("%s's standing order = %s, want %s", args[0], got, args[1])
			}
		default:
			t.Fatalf("unknown expectation %q", key)
		}
	}
}

func expectations(t *testing.T, file string) [][]string {
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out [][]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if rest, ok := strings.CutPrefix(line, "#!"); ok {
			fields := strings.Fields(rest)
			if fields[0] == "log" || fields[0] == "nolog" || fields[0] == "error" || fields[0] == "seen" || fields[0] == "unseen" {
				// Keep the text as written, spaces included.
				text := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(rest), fields[0]))
				out = append(out, []string{fields[0], text})
				continue
			}
			out = append(out, fields)
		}
	}
	return out
}

func checkInt(t *testing.T, what string, got int, want string) {
	t.Helper()
	w, err := strconv.Atoi(want)
	if err != nil {
		t.Fatalf("bad expectation %s %q", what, want)
	}
	if got != w {
		t.Errorf("%s = %d, want %d", what, got, w)
	}
}

func checkPlayer(t *testing.T, sum felix.Summary, args []string) {
	t.Helper()
	var p *felix.PlayerSummary
	for i := range sum.Players {
		if sum.Players[i].Name == args[0] {
			p = &sum.Players[i]
		}
	}
	if p == nil {
		t.Fatalf("no player %s", args[0])
	}
	for _, kv := range args[1:] {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "money":
			checkInt(t, p.Name+"'s money", p.Money, v)
		case "cats":
			checkInt(t, p.Name+"'s cats", p.Cats, v)
		case "score":
			checkInt(t, p.Name+"'s score", p.Score, v)
		case "won":
			want := []string{}
			if v != "" {
				want = strings.Split(v, ",")
			}
			if !slices.Equal(p.Won, want) {
				t.Errorf("%s won %v, want %v", p.Name, p.Won, want)
			}
		default:
			t.Fatalf("unknown player field %q", k)
		}
	}
}

func checkRow(t *testing.T, g engine.Game, args []string) {
	t.Helper()
	v := g.View(engine.Seat(g, args[0])).(felix.View)
	var got []string
	for _, rc := range v.Row {
		c := rc.Card
		if c == "" {
			c = "?"
		}
		if !rc.Placed {
			c = "_"
		}
		got = append(got, strconv.Itoa(rc.Position)+"="+c)
	}
	if !slices.Equal(got, args[1:]) {
		t.Errorf("%s sees the row %v, want %v", args[0], got, args[1:])
	}
}
