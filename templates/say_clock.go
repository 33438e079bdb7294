// The sentences of a game played with a clock, a time bank for each
// player (`new … clock 2d+12h max 5d`): what the daemon says of the
// banks (the first mail's rule, a bank run out, restarted, given back),
// and the lines of every game mail and page that show them
// (gameData.ReaderClock, gameData.ClocksLine). Durations come written
// with ClockDuration (words.go), as the banks are everywhere.

package templates

import (
	"strings"
)

// ClockPerGame is what the first mails of a game played with a clock
// say of its time, in place of TimePerDecision: start is what each bank
// holds at first, increment what it gains after each of the player's
// moves and max the most it holds ("" for none of either), weekendsOff
// that the game has `weekends off`, and playsForYou who moves for the
// reader when his bank is empty, as the daemon's stand-in says it
// ("pbem's bot plays for you", "pbem plays your seat with the default
// moves").
func (e Words) ClockPerGame(start, increment, max string, weekendsOff bool, playsForYou string) string {
	var holds string
	switch {
	case increment != "" && max != "":
		holds = e.f("Each player has a clock of %s; it gains %s after each of his moves, up to %s.", start, increment, max)
	case increment != "":
		holds = e.f("Each player has a clock of %s; it gains %s after each of his moves.", start, increment)
	case max != "":
		holds = e.f("Each player has a clock of %s; it never holds more than %s.", start, max)
	default:
		holds = e.f("Each player has a clock of %s.", start)
	}
	runs := e.f("It runs only while the game waits on him, and never in his quiet hours or while he is on vacation.")
	if weekendsOff {
		runs = e.f("It runs only while the game waits on him, and never in his quiet hours or while he is on vacation (nor on Saturdays and Sundays in this game, each player's in his own time zone).")
	}
	return e.f("%s %s %s", holds, runs, e.f("When yours runs out, %s until you send a move or back.", playsForYou))
}

// PlayerClockRanOut tells the others that name's bank is empty, so
// that his seat is on autopilot at once; playsFor is the daemon's
// stand-in's phrase ("pbem's bot plays for carol").
func (e Words) PlayerClockRanOut(name, playsFor string) string {
	return e.f("%s's clock ran out, so %s until %s sends a move or back.", name, playsFor, name)
}

// YourClockRanOut tells the player his bank is empty and his seat on
// autopilot; playsForYou is the stand-in's phrase ("pbem's bot plays
// for you").
func (e Words) YourClockRanOut(playsForYou string) string {
	return e.f("Your clock ran out, so %s until you send a move or back.", playsForYou)
}

// ClockRestarts tells a player who takes his seat back from autopilot
// in a game with a clock what his bank holds again.
func (e Words) ClockRestarts(left string) string {
	return e.f("Your clock starts again with %s.", left)
}

// ClockGivenBack tells a player whose move is taken back (undo) that
// his bank holds again what it held when he made it.
func (e Words) ClockGivenBack(left string) string {
	return e.f("Your clock is back to %s, as it was when you made that move.", left)
}

// YourClock is a game mail's and page's line on the reader's own bank,
// below his deadline: what it holds, and whether it runs down now.
func (e Words) YourClock(left string, running bool) string {
	if running {
		return e.f("Your clock: %s, running until you move (your quiet hours do not count).", left)
	}
	return e.f("Your clock: %s.", left)
}

// YourClockIsOut is the line on the reader's own bank when it is empty
// and pbem moves for him.
func (e Words) YourClockIsOut() string {
	return e.f("Your clock has run out: pbem moves for you until you send a move or back.")
}

// SeatClockEntry is one seat's bank in the table's line (TableClocks):
// "bob 1 day", "alice 2 days 3 hours (running)", "carol out"; who is
// the player's name, or "you" for the reader.
func (e Words) SeatClockEntry(who, left string, running, out bool) string {
	switch {
	case out:
		return e.f("%s out", who)
	case running:
		return e.f("%s %s (running)", who, left)
	}
	return e.f("%s %s", who, left)
}

// TableClocks is the line on every seat's bank, in seat order, each an
// entry of SeatClockEntry.
func (e Words) TableClocks(entries []string) string {
	return e.f("Clocks: %s.", strings.Join(entries, " · "))
}
