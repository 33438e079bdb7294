//go:build race

package store

// raceEnabled says that the race detector is on: the tests that fill a
// store with 100,000 games take minutes under it, and scripts/test runs
// them without it.
const raceEnabled = true
