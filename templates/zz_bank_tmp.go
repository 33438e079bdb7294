package templates

import "time"

// TEMPORARY until the bank-words branch is merged.

func (English) ClockRestarts(left string) string  { return "Your clock starts again with " + left + "." }
func (English) ClockDuration(d time.Duration) string { return duration(d.Truncate(time.Minute)) }
func (English) ClockGivenBack(left string) string { return "Your clock is back to " + left + "." }
func (English) ClockPerGame(start, inc, most string, weekendsOff bool, movesForYou string) string {
	return "Each player has a clock of " + start + "."
}
func (English) PlayerClockRanOut(name, playsFor string) string { return name + "'s clock ran out." }
func (English) YourClockRanOut(playsForYou string) string     { return "Your clock ran out." }
