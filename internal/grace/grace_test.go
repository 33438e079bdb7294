package grace

import (
	"context"
	"testing"
	"testing/synctest"
	"time"
)

// TestDetach: the detached context outlives its parent by the grace, and
// no longer; and it ends at once when the work is done.
func TestDetach(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		parent, stop := context.WithCancel(context.Background())
		work, cancel := Detach(parent, 10*time.Second)
		defer cancel()
		stop()
		time.Sleep(9 * time.Second)
		synctest.Wait()
		if work.Err() != nil {
			t.Fatalf("9 s after the stop, within the grace: %v", work.Err())
		}
		time.Sleep(2 * time.Second)
		synctest.Wait()
		if work.Err() == nil {
			t.Fatal("11 s after the stop, past the grace of 10 s, the work goes on")
		}
	})
	synctest.Test(t, func(t *testing.T) {
		work, cancel := Detach(context.Background(), time.Hour)
		cancel()
		if work.Err() == nil {
			t.Fatal("the work's context outlived its cancel")
		}
	})
}
