//go:build race

package daemon

// raceEnabled says that the race detector is on: tests that play many
// whole games play fewer.
const raceEnabled = true
