// Package rating rates players from the finishing order of their games:
// the Weng-Lin Bayesian rating (Weng and Lin, "A Bayesian Approximation
// Method for Online Ranking", JMLR 12, 2011) with the Plackett-Luce model
// (their Algorithm 4), as OpenSkill computes it. Every player is a team
// of one. It is written here, and tested against the values OpenSkill's
// implementations publish, because github.com/intinig/go-openskill, the
// Go port, is not served by the module proxy.
package rating

import (
	"math"
	"sort"
)

// The model's constants, OpenSkill's defaults.
const (
	Mu    = 25.0      // a new player's mean skill
	Sigma = 25.0 / 3  // a new player's uncertainty
	Beta  = Sigma / 2 // the performance's spread around the skill
	Kappa = 0.0001    // the least factor by which a sigma shrinks
)

// Rating is a player's skill: a normal distribution of mean Mu and
// standard deviation Sigma.
type Rating struct {
	Mu, Sigma float64
}

// New is a new player's rating.
func New() Rating { return Rating{Mu: Mu, Sigma: Sigma} }

// Ordinal is the rating shown and sorted by: Mu - 3 Sigma, a skill the
// player has with 99.7% likelihood. It starts at 0 and grows as games
// make the rating surer.
func (r Rating) Ordinal() float64 { return r.Mu - 3*r.Sigma }

// team is one of a game's teams as the model sees it.
type team struct {
	mu, sigmaSq float64
	rank        int
	members     []Rating
}

// Rate returns the teams' ratings after a game in which they finished in
// the order ranks gives (1 is first; equal ranks are a tie). teams and
// ranks are in the same order, which need not be the finishing order.
func Rate(teams [][]Rating, ranks []int) [][]Rating {
	n := len(teams)
	if n < 2 || len(ranks) != n {
		return teams
	}
	// The model reads the teams in finishing order.
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return ranks[order[a]] < ranks[order[b]] })
	ts := make([]team, n)
	for k, i := range order {
		ts[k] = team{rank: ranks[i], members: teams[i]}
		for _, r := range teams[i] {
			ts[k].mu += r.Mu
			ts[k].sigmaSq += r.Sigma * r.Sigma
		}
	}
	var c float64
	for _, t := range ts {
		c += t.sigmaSq + Beta*Beta
	}
	c = math.Sqrt(c)
	// sumQ[q]: the sum of exp(mu/c) over the teams that finished no
	// better than q; a[q]: how many teams share q's rank.
	sumQ := make([]float64, n)
	a := make([]float64, n)
	for q := range ts {
		for i := range ts {
			if ts[i].rank >= ts[q].rank {
				sumQ[q] += math.Exp(ts[i].mu / c)
			}
			if ts[i].rank == ts[q].rank {
				a[q]++
			}
		}
	}
	out := make([][]Rating, n)
	for k, t := range ts {
		e := math.Exp(t.mu / c)
		var omega, delta float64
		for q := range ts {
			if ts[q].rank > t.rank {
				continue
			}
			quotient := e / sumQ[q]
			if q == k {
				omega += (1 - quotient) / a[q]
			} else {
				omega -= quotient / a[q]
			}
			delta += quotient * (1 - quotient) / a[q]
		}
		gamma := math.Sqrt(t.sigmaSq) / c
		omega *= t.sigmaSq / c
		delta *= gamma * t.sigmaSq / (c * c)
		rated := make([]Rating, len(t.members))
		for j, r := range t.members {
			share := r.Sigma * r.Sigma / t.sigmaSq
			rated[j] = Rating{
				Mu:    r.Mu + share*omega,
				Sigma: r.Sigma * math.Sqrt(math.Max(1-share*delta, Kappa)),
			}
		}
		out[order[k]] = rated
	}
	return out
}

// Ranks turns a game's result into finishing ranks by seat: the winners
// first, sharing rank 1, then the others by score, highest first, equal
// scores sharing a rank.
func Ranks(scores []int, winners []int) []int {
	n := len(scores)
	won := make([]bool, n)
	for _, w := range winners {
		if w >= 0 && w < n {
			won[w] = true
		}
	}
	better := func(i, j int) bool { // i finished ahead of j
		if won[i] != won[j] {
			return won[i]
		}
		return !won[i] && scores[i] > scores[j]
	}
	ranks := make([]int, n)
	for i := range n {
		ranks[i] = 1
		for j := range n {
			if better(j, i) {
				ranks[i]++
			}
		}
	}
	return ranks
}

// ResignedLast ranks the seats that resigned (resigned[i]) last, sharing
// the rank below every seat that finished, whatever the stand-in that
// played their seats after them scored; the seats that finished keep
// their order and ties among themselves (ranks, from Ranks). Resigning
// is giving up, so it must cost a rating at least as much as losing, or
// a player would resign every game he is losing. Several resigned seats
// tie: when each gave up says nothing about who played better.
func ResignedLast(ranks []int, resigned []bool) []int {
	out := make([]int, len(ranks))
	finished := 0
	for i := range ranks {
		if !resigned[i] {
			finished++
		}
	}
	for i := range ranks {
		if resigned[i] {
			out[i] = finished + 1
			continue
		}
		out[i] = 1
		for j := range ranks {
			if !resigned[j] && ranks[j] < ranks[i] {
				out[i]++
			}
		}
	}
	return out
}
