package main

import (
	"log/slog"
	"runtime/debug"
	"strconv"

	"github.com/pbem/pbem/internal/config"
)

// gcSetting is what setGC did with one of the collector's settings.
type gcSetting string

const (
	gcFromConfig      gcSetting = "config"
	gcFromEnvironment gcSetting = "environment"
	gcNone            gcSetting = "none"
)

// setGC sets the garbage collector of pbem serve from [runtime]: GOGC
// as gc_percent (Go's own 100 by default: 200 saved up to 13 % of the
// CPU a command but took the peak RSS at 128 games to 98 MB, against issue
// 15's 100; issue 40, docs/operations.md "Memory against CPU"), and
// GOMEMLIMIT as memory_limit when one is given. A GOGC or GOMEMLIMIT in the
// environment wins, as for any Go program: the runtime has read it
// already, and setGC leaves that setting alone. getenv is os.Getenv.
func setGC(r config.Runtime, getenv func(string) string, log *slog.Logger) error {
	percent, percentFrom, limit := strconv.Itoa(r.GCPercent), gcFromConfig, gcNone
	if v := getenv("GOGC"); v != "" {
		percent, percentFrom = v, gcFromEnvironment
	} else {
		debug.SetGCPercent(r.GCPercent)
	}
	n, err := r.MemoryLimitBytes()
	if err != nil {
		return err
	}
	switch {
	case getenv("GOMEMLIMIT") != "":
		limit = gcFromEnvironment
	case n > 0:
		debug.SetMemoryLimit(n)
		limit = gcFromConfig
	}
	memory := "none"
	if limit != gcNone {
		memory = strconv.FormatInt(debug.SetMemoryLimit(-1), 10) // a negative limit only reads it
	}
	log.Info("garbage collector", "gc_percent", percent, "gc_percent_from", percentFrom,
		"memory_limit", memory, "memory_limit_from", limit)
	return nil
}
