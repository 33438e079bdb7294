package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pbem/pbem/engine/bot"
	"github.com/pbem/pbem/engine/games"
	"github.com/pbem/pbem/engine/transcript"
)

// botTranscript is a Felix game's first round with a bot seat, bea, whose
// lines are her moves (bot.Move with bot.SeedAt, as the service makes
// them), and the index in it of bea's first line.
func botTranscript(t *testing.T) (text string, beaLine int) {
	t.Helper()
	text = "game felix\nplayers alice bob bot:easy\nseed 5\n"
	people := map[string][]string{"alice": {"play 15", "pass"}, "bob": {"play rabbit", "pass"}}
	beaLine = -1
	for ply := 0; ply < 6; ply++ {
		tr, err := transcript.Read(strings.NewReader(text), games.Lookup)
		if err != nil {
			t.Fatal(err)
		}
		g, log, err := tr.Replay()
		if err != nil {
			t.Fatal(err)
		}
		p := g.Waiting()[0]
		name := g.Players()[p]
		if name == "bea" {
			c, err := bot.Move(g, p, log, bot.Easy, bot.SeedAt(5, ply))
			if err != nil {
				t.Fatal(err)
			}
			if beaLine < 0 {
				beaLine = strings.Count(text, "\n") + 1
			}
			text += "bea: " + c.Text + "\n"
			continue
		}
		if len(people[name]) == 0 {
			break
		}
		text += name + ": " + people[name][0] + "\n"
		people[name] = people[name][1:]
	}
	if beaLine < 0 {
		t.Fatalf("bea never moved:\n%s", text)
	}
	return text, beaLine
}

// TestReplayChecksBots: pbem replay accepts a transcript whose bot lines
// are the bot's moves, and stops at a bot line that is not.
func TestReplayChecksBots(t *testing.T) {
	text, beaLine := botTranscript(t)
	code, stdout, stderr := runPbem(t, text, "replay", "-")
	if code != 0 || !strings.Contains(stdout, "bea") {
		t.Fatalf("exit %d, stdout %q, stderr %q\n%s", code, stdout, stderr, text)
	}
	// The standings say which seat is the bot, as the service's mails do.
	standings := 0
	for _, l := range strings.Split(stdout, "\n") {
		if !strings.HasPrefix(l, "  ") {
			continue // the public log, not a standing
		}
		if name := strings.Fields(l)[0]; name == "alice" || name == "bob" || name == "bea" {
			standings++
			if bot := strings.HasSuffix(l, "  (Bot Bea (easy))"); bot != (name == "bea") {
				t.Errorf("the standing %q marks the bot wrongly", l)
			}
		}
	}
	if standings != 3 {
		t.Errorf("%d standings, want 3:\n%s", standings, stdout)
	}

	lines := strings.Split(text, "\n")
	played := strings.TrimPrefix(lines[beaLine-1], "bea: ")
	other := "play -8"
	if played == other {
		other = "play -5"
	}
	lines[beaLine-1] = "bea: " + other
	edited := strings.Join(lines, "\n")
	want := fmt.Sprintf("line %d: bea is a bot (easy): it plays %q here, but the line says %q", beaLine, played, other)
	if code, _, stderr := runPbem(t, edited, "replay", "-"); code != 1 || !strings.Contains(stderr, want) {
		t.Fatalf("edited bot line: exit %d, stderr %q; want 1 and %q\n%s", code, stderr, want, edited)
	}
	// The same line in a transcript without the bot seat is a person's
	// move, and replays.
	human := strings.Replace(edited, "players alice bob bot:easy", "players alice bob bea", 1)
	if code, _, stderr := runPbem(t, human, "replay", "-"); code != 0 {
		t.Fatalf("without bots: exit %d, stderr %q", code, stderr)
	}
}
