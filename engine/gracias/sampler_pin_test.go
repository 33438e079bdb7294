package gracias

import (
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/pbem/pbem/engine"
)

// samplerDigest is the SHA-256 of what NewSampler reads from, and its
// samples deal for, every seat of a fixed set of games part-played at
// random: the bot's behaviour is pinned bit for bit, so that the
// sampler's code can be rearranged without changing what it computes.
// A change to what the bot knows or draws must change this on purpose
// (the test prints the new value).
const samplerDigest = "c05f800bc1a7cd58fd77fc093d8f58304bec208e12ed345a322fe23e45296436"

// TestSamplerPinned: the sampler built from each seat's knowledge, and
// three samples drawn from it with a fixed seed, are those of the code the
// digest was taken from.
func TestSamplerPinned(t *testing.T) {
	t.Parallel()
	h := sha256.New()
	for seed := uint64(1); seed <= 120; seed++ {
		n := 3 + int(seed)%4
		g, log := botGame(t, seed+5000, n, int(seed*17)%(3*rounds*n*2+8))
		for seat := 0; seat < n; seat++ {
			sm, err := Rules{}.NewSampler(engine.KnowledgeOf(g, seat, log))
			if err != nil {
				fmt.Fprintf(h, "%d/%d: %v\n", seed, seat, err)
				continue
			}
			fmt.Fprintf(h, "%d/%d: %+v\n", seed, seat, *sm.(*sampler))
			rng := rand.New(rand.NewPCG(seed, uint64(seat)))
			for k := 0; k < 3; k++ {
				fmt.Fprintf(h, "  %+v\n", *sm.Sample(rng).(*botPlayout))
			}
		}
	}
	if got := fmt.Sprintf("%x", h.Sum(nil)); got != samplerDigest {
		t.Errorf("the samplers' digest is %s, not %s", got, samplerDigest)
	}
}
