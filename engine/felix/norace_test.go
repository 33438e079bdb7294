//go:build !race

package felix

const raceEnabled = false
