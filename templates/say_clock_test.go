package templates

import "testing"

// TestSayClock: the sentences of a game with a clock, word for word,
// with each clause that depends on an argument both with and without it.
func TestSayClock(t *testing.T) {
	t.Parallel()
	const (
		bot    = "pbem's bot plays for you"
		rules  = " It runs only while the game waits on him, and never in his quiet hours or while he is on vacation."
		rulesW = " It runs only while the game waits on him, and never in his quiet hours or while he is on vacation (nor on Saturdays and Sundays in this game, each player's in his own time zone)."
		end    = " When yours runs out, pbem's bot plays for you until you send a move or back."
	)
	for _, c := range []struct{ got, want string }{
		{Say.ClockPerGame("2 days", "12 hours", "5 days", false, bot),
			"Each player has a clock of 2 days; it gains 12 hours after each of his moves, up to 5 days." + rules + end},
		{Say.ClockPerGame("2 days", "12 hours", "5 days", true, bot),
			"Each player has a clock of 2 days; it gains 12 hours after each of his moves, up to 5 days." + rulesW + end},
		{Say.ClockPerGame("2 days", "1 hour", "", false, bot),
			"Each player has a clock of 2 days; it gains 1 hour after each of his moves." + rules + end},
		{Say.ClockPerGame("3 days", "", "", false, "pbem plays your seat with the default moves"),
			"Each player has a clock of 3 days." + rules + " When yours runs out, pbem plays your seat with the default moves until you send a move or back."},
		{Say.ClockPerGame("3 days", "", "5 days", false, bot),
			"Each player has a clock of 3 days; it never holds more than 5 days." + rules + end},
		{Say.PlayerClockRanOut("carol", "pbem's bot plays for carol"),
			"carol's clock ran out, so pbem's bot plays for carol until carol sends a move or back."},
		{Say.YourClockRanOut(bot),
			"Your clock ran out, so pbem's bot plays for you until you send a move or back."},
		{Say.ClockRestarts("12 hours"), "Your clock starts again with 12 hours."},
		{Say.ClockGivenBack("1 day 2 hours"), "Your clock is back to 1 day 2 hours, as it was when you made that move."},
		{Say.YourClock("3 days 4 hours", false), "Your clock: 3 days 4 hours."},
		{Say.YourClock("3 days 4 hours", true), "Your clock: 3 days 4 hours, running until you move (your quiet hours do not count)."},
		{Say.YourClockIsOut(), "Your clock has run out: pbem moves for you until you send a move or back."},
		{Say.SeatClockEntry("bob", "1 day", false, false), "bob 1 day"},
		{Say.SeatClockEntry("you", "2 days 3 hours", true, false), "you 2 days 3 hours (running)"},
		{Say.SeatClockEntry("carol", "0 minutes", false, true), "carol out"},
		{Say.TableClocks([]string{"you 2 days 3 hours (running)", "bob 1 day", "carol out"}),
			"Clocks: you 2 days 3 hours (running) · bob 1 day · carol out."},
	} {
		if c.got != c.want {
			t.Errorf("got  %q\nwant %q", c.got, c.want)
		}
	}
}
