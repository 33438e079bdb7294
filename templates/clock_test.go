package templates

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// testClocks are the banks of basics-4p.txt's players at its end, where
// the game waits on bob: his runs, carol's ran out.
var testClocks = []SeatClock{
	{Name: "alice", Left: 2*24*time.Hour + 3*time.Hour + 40*time.Minute},
	{Name: "bob", Left: 24*time.Hour + 4*time.Hour + 30*time.Minute, Running: true},
	{Name: "carol", Autopilot: true},
	{Name: "dave", Left: 5 * 24 * time.Hour},
}

// TestClockLines: a mail shows the reader's bank and the table's while
// the game is played, the reader's as "you"; the public page (no
// reader) only the table's, by name; a game without clocks, or over,
// neither.
func TestClockLines(t *testing.T) {
	t.Parallel()
	const table = "Clocks: alice 2 days 3 hours · bob 1 day 4 hours (running) · carol out · dave 5 days."
	for _, c := range []struct {
		name, reader     string
		clocks           []SeatClock
		finished, ended  bool
		wantOwn, wantAll string
	}{
		{"running", "bob", testClocks, false, false,
			"Your clock: 1 day 4 hours, running until you move (your quiet hours do not count).",
			"Clocks: alice 2 days 3 hours · you 1 day 4 hours (running) · carol out · dave 5 days."},
		{"waiting", "dave", testClocks, false, false, "Your clock: 5 days.",
			"Clocks: alice 2 days 3 hours · bob 1 day 4 hours (running) · carol out · you 5 days."},
		{"out", "carol", testClocks, false, false, "Your clock has run out: pbem moves for you until you send a move or back.",
			"Clocks: alice 2 days 3 hours · bob 1 day 4 hours (running) · you out · dave 5 days."},
		{"public", "", testClocks, false, false, "", table},
		{"no clocks", "bob", nil, false, false, "", ""},
		{"finished", "bob", testClocks, true, false, "", ""},
		{"ended by the host", "bob", testClocks, false, true, "", ""},
	} {
		d := mailData(GameMail{Reader: c.reader, Clocks: c.clocks, Finished: c.finished, Aborted: c.ended})
		if got := d.ReaderClock(); got != c.wantOwn {
			t.Errorf("%s: ReaderClock() = %q, want %q", c.name, got, c.wantOwn)
		}
		if got := d.ClocksLine(); got != c.wantAll {
			t.Errorf("%s: ClocksLine() = %q, want %q", c.name, got, c.wantAll)
		}
	}
}

// TestPageClocks: the seat's page shows his bank and the table's where
// the mail does, in "Your move"; the public page the table's alone. The
// seat's page is a golden (page-felix-clocks.html), with names as long
// as they go, which TestScreenshotWidths loads on a 360px screen.
func TestPageClocks(t *testing.T) {
	t.Parallel()
	r := newRenderer(t)
	long := func(name string) string { return (name + "_longername_xyz")[:16] }
	// At felix-mid's point the game waits on carol: her bank runs, and
	// bob's ran out.
	clocks := []SeatClock{
		{Name: long("alice"), Left: 2*24*time.Hour + 3*time.Hour},
		{Name: long("bob"), Autopilot: true},
		{Name: long("carol"), Left: 24*time.Hour + 4*time.Hour + 30*time.Minute, Running: true},
		{Name: long("dave"), Left: 5 * 24 * time.Hour},
	}
	withClocks := func(m *GameMail) { m.Clocks, m.Autopilot = clocks, []string{long("bob")} }
	seat := webCasePageWith(t, r, webCases[0], withClocks)
	if reader := pageReader(seat); reader != long("carol") {
		t.Fatalf("the page is %s's, not carol's", reader)
	}
	own := "Your clock: 1 day 4 hours, running until you move (your quiet hours do not count)."
	all := "Clocks: alice_longername 2 days 3 hours · bob_longername_x out · you 1 day 4 hours (running) · dave_longername_ 5 days."
	// Where the mail has them: in what he can do, after his options,
	// above the table.
	todo, table := strings.Index(seat, `id="pb-todo"`), strings.Index(seat, "The row:")
	for _, want := range []string{"Your move", own, all} {
		if i := strings.Index(seat, want); i < todo || i > table {
			t.Errorf("the seat's page lacks %q in what he can do, above the table:\n%s", want, strings.Join(htmlLines(seat), "\n"))
		}
	}
	compareGolden(t, filepath.Join(goldenDir, "page-felix-clocks.html"), seat)
	public := webCasePageWith(t, r, webCases[2], withClocks)
	if !strings.Contains(public, strings.Replace(all, "you", long("carol"), 1)) || strings.Contains(public, "Your clock") {
		t.Errorf("the public page does not show the table's clocks alone:\n%s", strings.Join(htmlLines(public), "\n"))
	}
}
