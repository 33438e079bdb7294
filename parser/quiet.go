package parser

import (
	"strconv"
	"strings"

	"github.com/pbem/pbem/engine"
)

// QuietOff is the argument of `quiet off`: no quiet hours.
const QuietOff = "off"

// quiet reads the argument of `quiet`: "off", or two hours of the day,
// from and to ("23-7", "23 - 7", "22:00-08:00", "11pm to 7am"). The
// Command's Args are {"off"} or {FROM, TO}, hours 0-23.
func (r *reader) quiet(lc lobbyCmd, words []token, progress int) (Command, bool) {
	form := engine.Msg("write the hours your night starts and ends, such as quiet 23-7, or quiet off")
	if len(words) == 1 && words[0].low == QuietOff {
		return Command{Lobby: true, Kind: lc.Kind, Name: lc.Name, Args: []string{QuietOff}, Text: lc.Name + " " + QuietOff}, true
	}
	// "23-7" is one word; "23 - 7" and "11pm to 7am" are two, the
	// dash and the "to" between them dropped as filler.
	var from, to string
	switch len(words) {
	case 1:
		from, to, _ = strings.Cut(words[0].low, "-")
	case 2:
		from, to = words[0].low, words[1].low
	}
	start, ok1 := hourOfDay(from)
	end, ok2 := hourOfDay(to)
	if !ok1 || !ok2 {
		r.failWith(progress, nil, form)
		return Command{}, false
	}
	if start == end {
		r.fail(progress, nil, "quiet hours that start and end at %d:00 are none: %s", start, form)
		return Command{}, false
	}
	a, b := strconv.Itoa(start), strconv.Itoa(end)
	return Command{Lobby: true, Kind: lc.Kind, Name: lc.Name, Args: []string{a, b}, Text: lc.Name + " " + a + "-" + b}, true
}

// The words of `new ... weekends off`: the game's clocks stop on
// Saturday and Sunday.
const (
	weekendsWord = "weekends"
	offWord      = "off"
)

// weekendWords begin "weekends off", in English and German
// ("Wochenenden frei").
var weekendWords = map[string]bool{weekendsWord: true, "weekend": true, "wochenenden": true, "wochenende": true}

// germanOff ends the German "Wochenenden frei".
const germanOff = "frei"

// weekendsOff finds "weekends off" among new's words and returns the
// words without it.
func weekendsOff(rest []token) (bool, []token) {
	for i := 0; i+1 < len(rest); i++ {
		if weekendWords[rest[i].low] && (rest[i+1].low == offWord || rest[i+1].low == germanOff) {
			out := append(append([]token(nil), rest[:i]...), rest[i+2:]...)
			return true, out
		}
	}
	return false, rest
}
