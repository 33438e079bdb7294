package parser

import (
	"strconv"
	"strings"
	"time"

	"github.com/pbem/pbem/engine"
)

// durationUnits are the units a duration is written in, in a mail's
// `deadline` and in the configuration: "48h", "48 hours", "2d", "2 days",
// "90m", "1 week".
var durationUnits = map[string]time.Duration{
	"m": time.Minute, "min": time.Minute, "mins": time.Minute, "minute": time.Minute, "minutes": time.Minute,
	"h": time.Hour, "hr": time.Hour, "hrs": time.Hour, "hour": time.Hour, "hours": time.Hour,
	"d": 24 * time.Hour, "day": 24 * time.Hour, "days": 24 * time.Hour,
	"w": 7 * 24 * time.Hour, "week": 7 * 24 * time.Hour, "weeks": 7 * 24 * time.Hour,
	// German: "2 Tage", "36 Stunden", "1 Woche".
	"minuten": time.Minute, "std": time.Hour, "stunde": time.Hour, "stunden": time.Hour,
	"tag": 24 * time.Hour, "tage": 24 * time.Hour, "tagen": 24 * time.Hour,
	"woche": 7 * 24 * time.Hour, "wochen": 7 * 24 * time.Hour,
}

// ParseDuration reads a duration as a mail's `deadline` reads it: one or
// more whole numbers (or numbers spelled out to twenty), each with its
// unit, joined ("36h") or not ("2 days 12 hours", "1 day and 6 hours").
// It is how the configuration reads durations too (internal/config), so
// that what a player may write after `deadline` an operator may write in
// turn_time. It says nothing of a range: the caller has its own.
func ParseDuration(s string) (time.Duration, bool) {
	var words []string
	for _, w := range strings.Fields(engine.Fold(strings.ToLower(s))) {
		if w = strings.Trim(w, ",;"); w != "" && w != "and" && w != "und" {
			words = append(words, w)
		}
	}
	if len(words) == 0 {
		return 0, false
	}
	return sumDurationWords(words)
}

// maxDurationNumber is the largest number a duration's word may hold
// ("10000m"): larger ones are typing accidents, and their sum could
// overflow.
const maxDurationNumber = 10000

// sumDurationWords adds up words, lower-case and without "and": numbers
// each followed by its unit, joined to it or as the next word.
func sumDurationWords(words []string) (d time.Duration, ok bool) {
	for len(words) > 0 {
		w := words[0]
		words = words[1:]
		i := 0
		for i < len(w) && w[i] >= '0' && w[i] <= '9' {
			i++
		}
		num, unit := w[:i], w[i:]
		n, err := strconv.Atoi(num)
		if spelled, ok := numberWords[w]; ok && num == "" {
			n, err, unit = spelled, nil, ""
		}
		if err != nil || n > maxDurationNumber {
			return 0, false
		}
		if unit == "" {
			if len(words) == 0 {
				return 0, false
			}
			unit, words = words[0], words[1:]
		}
		u, ok := durationUnits[unit]
		if !ok {
			return 0, false
		}
		d += time.Duration(n) * u
	}
	return d, true
}
