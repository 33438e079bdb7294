package parser

import (
	"testing"
	"time"
)

// TestParseDurationIsDeadlines: ParseDuration, which the configuration
// reads its durations with, takes what `new ... deadline` takes, and
// gives the same time (issue 35, finding 9: turn_time = "2 days" was
// refused though a mail could say deadline 2 days).
func TestParseDurationIsDeadlines(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		"48h", "2d", "2 days", "3 Days", "two days", "36 hours", "1 day and 12 hours", "1 day, 12 hours",
		"90m", "90 minutes", "1 week", "2 weeks", "1 hr 30 mins",
		// Refused by both.
		"48", "soon", "2 dayz", "1.5 days", "days",
	} {
		d, ok := ParseDuration(s)
		cmds, p := Read("new felix with a@x.test deadline "+s, lobbyLang())
		mailOK := p == nil && len(cmds) == 1
		if ok != mailOK || (ok && d != cmds[0].Deadline) {
			t.Errorf("%q: ParseDuration %v, %v; the mail's deadline %v (%v)", s, d, ok, cmds, p)
		}
	}
	if _, ok := ParseDuration(""); ok {
		t.Error("the empty string is a duration")
	}
}

// TestDeadlineTextReadsBack: what DeadlineText writes, ParseDuration
// reads as the same time, however many minutes it holds (7 days and 1
// minute were "10081m", a number too large to read).
func TestDeadlineTextReadsBack(t *testing.T) {
	t.Parallel()
	for _, d := range []time.Duration{
		time.Hour, 90 * time.Minute, 48 * time.Hour, maxDurationNumber * time.Minute,
		(maxDurationNumber + 1) * time.Minute, 7*24*time.Hour + time.Minute, MaxDeadline - time.Minute,
	} {
		if got, ok := ParseDuration(DeadlineText(d)); !ok || got != d {
			t.Errorf("DeadlineText(%v) = %q reads as %v, %v", d, DeadlineText(d), got, ok)
		}
	}
	if got := DeadlineText(7*24*time.Hour + time.Minute); got != "168h 1m" {
		t.Errorf("DeadlineText(7 days and 1 minute) = %q", got)
	}
}

// TestGermanDurations: the German units and number words read as the
// English ones, in the configuration and after `deadline` or `Frist`.
func TestGermanDurations(t *testing.T) {
	t.Parallel()
	for s, want := range map[string]time.Duration{
		"2 Tage":               48 * time.Hour,
		"1 Tag":                24 * time.Hour,
		"zwei Tagen":           48 * time.Hour,
		"36 Stunden":           36 * time.Hour,
		"1 Stunde":             time.Hour,
		"3 Std":                3 * time.Hour,
		"90 Minuten":           90 * time.Minute,
		"1 Woche":              7 * 24 * time.Hour,
		"zwölf Stunden":        12 * time.Hour,
		"zwoelf Stunden":       12 * time.Hour,
		"1 Tag und 12 Stunden": 36 * time.Hour,
		"fünf Tage, sechs Std": 5*24*time.Hour + 6*time.Hour,
	} {
		d, ok := ParseDuration(s)
		if !ok || d != want {
			t.Errorf("ParseDuration(%q) = %v, %v; want %v", s, d, ok, want)
		}
		for _, word := range []string{"deadline", "Frist"} {
			cmds, p := Read("neu felix mit a@x.test "+word+" "+s, lobbyLang())
			if p != nil || len(cmds) != 1 || cmds[0].Deadline != want {
				t.Errorf("%s %q: %v, %v; want %v", word, s, cmds, p, want)
			}
		}
	}
}
