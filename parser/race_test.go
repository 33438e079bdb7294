//go:build race

package parser

// raceEnabled says that the race detector is on. It makes sync.Pool drop
// a quarter of what is put back, so that a regular expression allocates
// a fresh matcher (regexp.bitState) for many of its matches: memory
// bounds measured without it do not hold.
const raceEnabled = true
