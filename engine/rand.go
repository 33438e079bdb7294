package engine

import "math/rand/v2"

// SeededRand is the random source a game draws its set-up from. Every game
// uses this one construction, so that a seed means the same in each
// (math/rand/v2's PCG is specified, so it also means the same in every Go
// release); transcripts never depend on it, since Game.Setup writes out
// whatever it decided.
func SeededRand(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}
