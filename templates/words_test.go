package templates

import (
	"testing"
	"time"
)

// TestDuration: a duration reads as people write it, with right plurals,
// never as Go's "24h0m0s".
func TestDuration(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		d    time.Duration
		want string
	}{
		{0, "0 minutes"},
		{time.Second, "1 second"},
		{45 * time.Second, "45 seconds"},
		{time.Minute, "1 minute"},
		{90 * time.Second, "1 minute 30 seconds"},
		{20 * time.Minute, "20 minutes"},
		{90 * time.Minute, "90 minutes"},
		{time.Hour, "1 hour"},
		{2 * time.Hour, "2 hours"},
		{150 * time.Minute, "2 hours 30 minutes"},
		{2*time.Hour + time.Minute + time.Second, "2 hours 1 minute 1 second"},
		{24 * time.Hour, "24 hours"},
		{48 * time.Hour, "48 hours"},
		{50 * time.Hour, "50 hours"},
		{72 * time.Hour, "3 days"},
		{14 * 24 * time.Hour, "14 days"},
		{time.Hour + 500*time.Millisecond, "1 hour"},
		{-time.Hour, "minus 1 hour"},
	} {
		if got := Say.Duration(c.d); got != c.want {
			t.Errorf("Duration(%s) = %q, want %q", c.d, got, c.want)
		}
	}
}

// TestClockDuration: a time bank reads as a clock shows it, days and
// hours from a day up, hours and minutes under a day, minutes under an
// hour, what is below dropped and never rounded up.
func TestClockDuration(t *testing.T) {
	t.Parallel()
	const day = 24 * time.Hour
	for _, c := range []struct {
		d    time.Duration
		want string
	}{
		{-time.Minute, "0 minutes"},
		{0, "0 minutes"},
		{time.Second, "less than a minute"},
		{59 * time.Second, "less than a minute"},
		{time.Minute, "1 minute"},
		{time.Minute + 59*time.Second, "1 minute"},
		{45 * time.Minute, "45 minutes"},
		{59*time.Minute + 59*time.Second, "59 minutes"},
		{time.Hour, "1 hour"},
		{time.Hour + time.Minute, "1 hour 1 minute"},
		{90 * time.Minute, "1 hour 30 minutes"},
		{5*time.Hour + 20*time.Minute + 30*time.Second, "5 hours 20 minutes"},
		{12 * time.Hour, "12 hours"},
		{day - time.Second, "23 hours 59 minutes"},
		{day, "1 day"},
		{day + time.Hour, "1 day 1 hour"},
		{day + 2*time.Hour + 59*time.Minute, "1 day 2 hours"},
		{36 * time.Hour, "1 day 12 hours"},
		{2 * day, "2 days"},
		{3*day + 4*time.Hour + 30*time.Minute, "3 days 4 hours"},
		{5 * day, "5 days"},
		{14*day + 23*time.Hour, "14 days 23 hours"},
	} {
		if got := Say.ClockDuration(c.d); got != c.want {
			t.Errorf("ClockDuration(%s) = %q, want %q", c.d, got, c.want)
		}
	}
}
