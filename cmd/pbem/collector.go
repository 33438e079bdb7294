package main

import (
	"runtime/debug"
)

// pbem serve's garbage collector settings (issue 40). Under a 32-game
// load pbem serve keeps about 12 MB live and allocates some 370 kB a
// command, so with Go's default (GOGC=100, a collection each time the
// heap doubles) it collected a dozen times a second, 9 to 14 % of its
// CPU (docs/profiles.md). A collection costs what is live, not what was
// allocated, so collecting a quarter as often costs a quarter of that:
// the heap may grow to five times the live data before a collection,
// and a memory limit keeps that bounded whatever the live data.
// BENCHMARKS.md has the measurements behind the two values.
const (
	// serveGCPercent is GOGC for pbem serve: a collection when the heap
	// has grown by four times what was live after the last.
	serveGCPercent = 400
	// serveMemoryLimit is GOMEMLIMIT for pbem serve: near it, the
	// collector runs as often as it must to stay under it, whatever
	// serveGCPercent allows.
	serveMemoryLimit int64 = 256 << 20
)

// collectorSettings are the collector's settings tuneCollector chose, for
// the log: GCPercent and MemoryLimit are what the process runs with, and
// FromEnv names the variables the environment set, which win.
type collectorSettings struct {
	GCPercent   int
	MemoryLimit int64
	FromEnv     []string
}

// tuneCollector sets pbem serve's collector settings, each unless the
// environment sets it (lookup is os.LookupEnv): an operator's GOGC or
// GOMEMLIMIT, which the runtime read as the process started, is kept.
func tuneCollector(lookup func(string) (string, bool)) collectorSettings {
	var s collectorSettings
	if _, ok := lookup("GOGC"); ok {
		s.FromEnv = append(s.FromEnv, "GOGC")
		s.GCPercent = debug.SetGCPercent(-1) // read it: -1 turns it off...
		debug.SetGCPercent(s.GCPercent)      // ...until it is set back
	} else {
		debug.SetGCPercent(serveGCPercent)
		s.GCPercent = serveGCPercent
	}
	if _, ok := lookup("GOMEMLIMIT"); ok {
		s.FromEnv = append(s.FromEnv, "GOMEMLIMIT")
		s.MemoryLimit = debug.SetMemoryLimit(-1) // a negative limit only reads it
	} else {
		debug.SetMemoryLimit(serveMemoryLimit)
		s.MemoryLimit = serveMemoryLimit
	}
	return s
}
