package daemon

import (
	"regexp"
	"strings"
	"testing"
)

// forcedNote is how a player's mail tells him the move pbem made for him
// because the rules left him no other (forcedMove).
var forcedNote = regexp.MustCompile(`pbem made your only move for you: (play [a-z0-9-]+)\.`)

// TestForcedLastCardIsPlayed: in round 9 of Felix every player holds one
// card, and the table knows it. pbem places it at once instead of asking;
// each player alone is told which card pbem placed for him, the export
// holds it as his line and replays, and undo does not take it back.
func TestForcedLastCardIsPlayed(t *testing.T) {
	t.Parallel()
	skipUnderRace(t)
	cp := playCounted(t, "felix", 4, mailSettings[0], 3)
	w := cp.w
	for _, p := range cp.players {
		var notes []string
		for _, m := range w.inbox[p][cp.first[p]:] {
			notes = append(notes, forcedNote.FindAllString(oneLine(m.Text), -1)...)
			if strings.Contains(m.Text, "play") && strings.Contains(m.Subject, "round 9") && strings.Contains(m.Text, "Reply with one of these commands") && strings.Contains(m.Text, "Hand:") {
				for _, l := range strings.Split(m.Text, "\n") {
					if strings.HasPrefix(strings.TrimSpace(l), "play ") {
						t.Errorf("%s was asked to place a card in round 9:\n%s", p, m.Text)
					}
				}
			}
		}
		// Once, and only his own: the card is his secret.
		if len(notes) != 1 {
			t.Fatalf("%s was told %d times of a move pbem made for him (%q), want once", p, len(notes), notes)
		}
	}
	text := w.checkBotExport(cp.id)
	if n := strings.Count(text, "made by pbem: the only move the rules left"); n != 4 {
		t.Errorf("the export notes %d forced moves, want 4 (one per player in round 9):\n%s", n, text)
	}
}
