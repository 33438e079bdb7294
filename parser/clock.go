package parser

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pbem/pbem/engine"
)

// Clock is a game's time bank (`clock 2d+12h max 5d`): each player has
// a bank of time, each decision's time is taken from it, the increment
// is added after each of his moves, and it never holds more than Max.
// A game has either a clock or the classic time per decision
// (Command.Deadline), never both.
type Clock struct {
	Start     time.Duration // each player's bank at the start; zero: no bank (the classic deadline per decision)
	Increment time.Duration // added after each of his moves; may be zero
	Max       time.Duration // the most the bank holds; zero: no cap
}

// On tells whether the game has a time bank at all.
func (c Clock) On() bool { return c.Start > 0 }

// The words of `new ... clock START[+INCREMENT] [max MAX]`. `clock` is
// exclusive with `deadline`: a game has either a time per decision or a
// clock, and `new` refuses the two together.
const (
	clockWord = "clock"
	plusWord  = "+"
	maxWord   = "max"
)

// maxWords are the words that introduce a clock's cap.
var maxWords = []string{maxWord, "maximum"}

// The range of a clock. A bank of less than an hour is no time to read a
// mail (as MinDeadline); more than a month keeps the table waiting on one
// who left for a whole game's worth of decisions. More than a week added
// after each move would make the bank grow faster than anyone plays. The
// cap is at most two months, the longest the table may wait on one
// decision; a cap below the start would take from the bank before the
// first move, so `new` refuses it.
const (
	MinClockStart     = time.Hour
	MaxClockStart     = 30 * 24 * time.Hour
	MaxClockIncrement = 7 * 24 * time.Hour
	MaxClockMax       = 60 * 24 * time.Hour
)

// bothTimes is why `new` refuses a deadline and a clock together.
var bothTimes = engine.Msg("a game has either a time per decision (deadline) or a clock, not both")

// clockForm is how to write a clock, said when one is not understood.
var clockForm = engine.Msg("write each player's time bank after \"clock\", between 1 hour and 30 days, then + the time added after each of his moves (at most 7 days) and max the most the bank holds (at most 60 days), such as clock 2d+12h max 5d or clock 3d")

// timeOption finds new's time among the words after the addresses:
// "deadline 48h" or "clock 2d+12h max 5d", which run to the end of the
// words (weekendsOff has taken "weekends off" out already), and returns
// the words before it. why says what is wrong, or is zero.
func timeOption(rest []token) (deadline time.Duration, c Clock, left []token, why engine.Message) {
	at := func(word string) int {
		return slices.IndexFunc(rest, func(t token) bool { return t.low == word })
	}
	d, k := at(deadlineWord), at(clockWord)
	switch {
	case d >= 0 && k >= 0:
		return 0, Clock{}, nil, bothTimes
	case d >= 0:
		deadline, why = readDeadline(rest[d+1:])
		return deadline, Clock{}, rest[:d], why
	case k >= 0:
		c, why = readClock(rest[k+1:])
		return 0, c, rest[:k], why
	}
	return 0, Clock{}, rest, engine.Message{}
}

// readClock reads the words after "clock": START, then optionally "+"
// and INCREMENT, then optionally "max" and MAX, each a duration as
// `deadline` reads it ("2d", "36 hours", "1 day and 12 hours"); the "+"
// may stand alone or be joined to its neighbours ("2d+12h"). why says what
// is wrong, or is zero.
func readClock(toks []token) (c Clock, why engine.Message) {
	words := clockWords(toks)
	var capped []string
	if i := slices.IndexFunc(words, func(w string) bool { return slices.Contains(maxWords, w) }); i >= 0 {
		words, capped = words[:i], words[i+1:]
		if len(capped) == 0 {
			return Clock{}, clockForm
		}
	}
	start, inc, plus := cutPlus(words)
	var ok bool
	if c.Start, ok = clockDuration(start); !ok {
		return Clock{}, clockForm
	}
	if plus {
		if c.Increment, ok = clockDuration(inc); !ok {
			return Clock{}, clockForm
		}
	}
	if capped != nil {
		if c.Max, ok = clockDuration(capped); !ok {
			return Clock{}, clockForm
		}
	}
	return c, clockBounds(c, start, inc, capped)
}

// clockWords are the words of a clock, lower-case, without "and", with
// each "+" a word of its own: "2d+12h" is "2d", "+", "12h".
func clockWords(toks []token) []string {
	var words []string
	for _, t := range toks {
		if t.low != "" && t.low != "and" {
			for i, part := range strings.Split(t.low, plusWord) {
				if i > 0 {
					words = append(words, plusWord)
				}
				if part != "" {
					words = append(words, part)
				}
			}
		}
		if t.plus {
			words = append(words, plusWord)
		}
	}
	return words
}

// cutPlus cuts words at their one "+": the start before it, the
// increment after it. A second "+" stays in the increment, which then
// does not read.
func cutPlus(words []string) (start, inc []string, plus bool) {
	i := slices.Index(words, plusWord)
	if i < 0 {
		return words, nil, false
	}
	return words[:i], words[i+1:], true
}

// clockDuration reads one of a clock's durations; no words are none.
func clockDuration(words []string) (time.Duration, bool) {
	if len(words) == 0 {
		return 0, false
	}
	return sumDurationWords(words)
}

// clockBounds says what is out of range in c, whose parts were written
// start, inc and capped, or is zero.
func clockBounds(c Clock, start, inc, capped []string) engine.Message {
	switch {
	case c.Start < MinClockStart || c.Start > MaxClockStart:
		return engine.Msg("a clock starts with between 1 hour and 30 days, not %s", strings.Join(start, " "))
	case c.Increment < 0 || c.Increment > MaxClockIncrement: // < 0: the sum of huge numbers overflowed
		return engine.Msg("a clock adds at most 7 days after each move, not %s", strings.Join(inc, " "))
	case capped != nil && c.Max > MaxClockMax:
		return engine.Msg("a clock holds at most 60 days, not %s", strings.Join(capped, " "))
	case capped != nil && c.Max < c.Start:
		return engine.Msg("a clock's max is at least the time it starts with (%s), not %s", strings.Join(start, " "), strings.Join(capped, " "))
	}
	return engine.Message{}
}

// ClockText writes c as `new` reads it back: "2d+12h max 5d", "3d",
// "36h+90m"; no "+" without an increment, no "max" without a cap.
func ClockText(c Clock) string {
	text := clockDurationText(c.Start)
	if c.Increment > 0 {
		text += plusWord + clockDurationText(c.Increment)
	}
	if c.Max > 0 {
		text += " " + maxWord + " " + clockDurationText(c.Max)
	}
	return text
}

// clockDurationText writes d as DeadlineText does, but whole days as
// days: "2d", "36h", "90m".
func clockDurationText(d time.Duration) string {
	const day = 24 * time.Hour
	if d%day == 0 {
		return strconv.FormatInt(int64(d/day), 10) + "d"
	}
	return DeadlineText(d)
}
