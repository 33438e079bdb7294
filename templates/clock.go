package templates

// The time banks of a game played with a clock, as every game mail and
// page shows them (GameMail.Clocks): the reader's own, below his
// deadline, and the table's, every seat in seat order. A bank is public,
// as the waiting is: everyone sees everyone's.

// showsClocks says that the mail shows the banks: the game has them and
// is still played.
func (d *gameData) showsClocks() bool {
	return len(d.Clocks) > 0 && !d.Finished && !d.Aborted
}

// ReaderClock is the line on the reader's own bank: "Your clock: 3 days
// 4 hours." "" when the game has no clocks, or the reader no seat (the
// public page).
func (d *gameData) ReaderClock() string {
	if !d.showsClocks() || d.Reader == "" {
		return ""
	}
	for _, c := range d.Clocks {
		if c.Name != d.Reader {
			continue
		}
		if c.Autopilot {
			return d.words.YourClockIsOut()
		}
		return d.words.YourClock(d.words.ClockDuration(c.Left), c.Running)
	}
	return ""
}

// ClocksLine is the line on every seat's bank, in seat order, the
// reader's as "you": "Clocks: you 2 days 3 hours (running) · bob 1 day ·
// carol out." "" when the game has no clocks.
func (d *gameData) ClocksLine() string {
	if !d.showsClocks() {
		return ""
	}
	entries := make([]string, len(d.Clocks))
	for i, c := range d.Clocks {
		who := c.Name
		if d.Reader != "" && c.Name == d.Reader {
			who = d.words.f("you|whose clock it is")
		}
		entries[i] = d.words.SeatClockEntry(who, d.words.ClockDuration(c.Left), c.Running, c.Autopilot)
	}
	return d.words.TableClocks(entries)
}
