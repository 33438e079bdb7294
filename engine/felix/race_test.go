//go:build race

package felix

const raceEnabled = true
