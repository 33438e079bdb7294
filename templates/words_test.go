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
