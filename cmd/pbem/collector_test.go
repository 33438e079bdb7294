package main

import (
	"math"
	"runtime/debug"
	"slices"
	"testing"
)

// TestTuneCollector checks that pbem serve's collector settings apply
// unless the environment sets its own, which are kept.
func TestTuneCollector(t *testing.T) {
	// The settings are the process's: put back what the test found.
	gc, limit := debug.SetGCPercent(100), debug.SetMemoryLimit(-1)
	t.Cleanup(func() {
		debug.SetGCPercent(gc)
		debug.SetMemoryLimit(limit)
	})
	none := func(string) (string, bool) { return "", false }
	got := tuneCollector(none)
	if got.GCPercent != serveGCPercent || got.MemoryLimit != serveMemoryLimit || got.FromEnv != nil {
		t.Errorf("with nothing in the environment: %+v, want %d%% and %d bytes", got, serveGCPercent, serveMemoryLimit)
	}
	if now := debug.SetGCPercent(serveGCPercent); now != serveGCPercent {
		t.Errorf("GOGC is %d after tuning, want %d", now, serveGCPercent)
	}
	if now := debug.SetMemoryLimit(-1); now != serveMemoryLimit {
		t.Errorf("the memory limit is %d after tuning, want %d", now, serveMemoryLimit)
	}

	// An operator's GOGC=50 and GOMEMLIMIT=off, as the runtime read them.
	debug.SetGCPercent(50)
	debug.SetMemoryLimit(math.MaxInt64)
	both := func(k string) (string, bool) { return "set", k == "GOGC" || k == "GOMEMLIMIT" }
	got = tuneCollector(both)
	if got.GCPercent != 50 || got.MemoryLimit != math.MaxInt64 || !slices.Equal(got.FromEnv, []string{"GOGC", "GOMEMLIMIT"}) {
		t.Errorf("with the environment's settings: %+v, want them kept", got)
	}
	if now := debug.SetGCPercent(50); now != 50 {
		t.Errorf("GOGC is %d after tuning, want the environment's 50", now)
	}
	if now := debug.SetMemoryLimit(-1); now != math.MaxInt64 {
		t.Errorf("the memory limit is %d after tuning, want the environment's (none)", now)
	}
}
