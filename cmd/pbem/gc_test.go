package main

import (
	"bytes"
	"log/slog"
	"math"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/pbem/pbem/internal/config"
)

// TestSetGC checks that [runtime] sets the collector, and that GOGC and
// GOMEMLIMIT in the environment leave it as the runtime set it.
func TestSetGC(t *testing.T) {
	oldPercent := debug.SetGCPercent(100)
	oldLimit := debug.SetMemoryLimit(math.MaxInt64)
	t.Cleanup(func() {
		debug.SetGCPercent(oldPercent)
		debug.SetMemoryLimit(oldLimit)
	})
	env := func(kv map[string]string) func(string) string {
		return func(k string) string { return kv[k] }
	}
	for _, tc := range []struct {
		name        string
		r           config.Runtime
		environ     map[string]string
		wantPercent int
		wantLimit   int64
		wantLog     string
	}{
		{"defaults", config.Default().Runtime, nil, 100, math.MaxInt64, "gc_percent=100 gc_percent_from=config memory_limit=none memory_limit_from=none"},
		{"config", config.Runtime{GCPercent: 150, MemoryLimit: "96MiB"}, nil, 150, 96 << 20, "gc_percent=150 gc_percent_from=config memory_limit=100663296 memory_limit_from=config"},
		{"environment", config.Runtime{GCPercent: 150, MemoryLimit: "96MiB"}, map[string]string{"GOGC": "300", "GOMEMLIMIT": "1GiB"}, 100, math.MaxInt64, "gc_percent=300 gc_percent_from=environment memory_limit=9223372036854775807 memory_limit_from=environment"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			debug.SetGCPercent(100)
			debug.SetMemoryLimit(math.MaxInt64)
			var out bytes.Buffer
			if err := setGC(tc.r, env(tc.environ), slog.New(slog.NewTextHandler(&out, nil))); err != nil {
				t.Fatal(err)
			}
			if got := debug.SetGCPercent(100); got != tc.wantPercent {
				t.Errorf("GC percent %d, want %d", got, tc.wantPercent)
			}
			if got := debug.SetMemoryLimit(-1); got != tc.wantLimit {
				t.Errorf("memory limit %d, want %d", got, tc.wantLimit)
			}
			if !strings.Contains(out.String(), tc.wantLog) {
				t.Errorf("log %q lacks %q", out.String(), tc.wantLog)
			}
		})
	}
}
