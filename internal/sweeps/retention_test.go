package sweeps

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/pbem/pbem/store"
)

// logBuffer is a log the test reads while the sweeper writes it.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// A pass that fails is logged, and RunRetention goes on until its context
// ends: retention never stops the service. In a synctest bubble three
// and a half hours pass at once: the pass at the start and one each hour
// all fail, and RunRetention still runs.
func TestRunRetentionSurvivesErrors(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		st, err := store.Open(t.Context(), filepath.Join(t.TempDir(), "pbem.db"))
		if err != nil {
			t.Fatal(err)
		}
		log := &logBuffer{}
		sw := New(st, nil, Config{Now: func() time.Time { return now }, Log: slog.New(slog.NewTextHandler(log, nil))})
		st.Close() // every pass now fails
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error, 1)
		go func() { done <- sw.RunRetention(ctx, time.Hour, time.Minute) }()
		time.Sleep(3*time.Hour + 30*time.Minute)
		synctest.Wait()
		if n := strings.Count(log.String(), "retention pass failed"); n != 4 {
			t.Errorf("%d failed passes logged in 3.5 hours of hourly passes, want 4:\n%s", n, log.String())
		}
		select {
		case err := <-done:
			t.Fatalf("RunRetention stopped after a failed pass: %v", err)
		default:
		}
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Errorf("RunRetention returned %v, want context.Canceled", err)
		}
	})
}
