package rating

import (
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// TestPublishedValues: the example OpenSkill's implementations publish
// (openskill.js and openskill.ex, Plackett-Luce): a team of a1 and a2
// beats a team of b1 and b2.
func TestPublishedValues(t *testing.T) {
	a1, a2 := New(), Rating{32.444, 5.123}
	b1, b2 := Rating{43.381, 2.421}, Rating{25.188, 6.211}
	got := Rate([][]Rating{{a1, a2}, {b1, b2}}, []int{1, 2})
	want := [][]Rating{
		{{28.669648436582808, 8.071520788025197}, {33.83086971107981, 5.062772998705765}},
		{{43.071274808241974, 2.4166900452721256}, {23.149503312339064, 6.1378606973362135}},
	}
	for i := range want {
		for j := range want[i] {
			if g, w := got[i][j], want[i][j]; !near(g.Mu, w.Mu) || !near(g.Sigma, w.Sigma) {
				t.Errorf("team %d player %d: %v, want %v", i, j, g, w)
			}
		}
	}
	// The same game told in another order rates the same.
	swapped := Rate([][]Rating{{b1, b2}, {a1, a2}}, []int{2, 1})
	if swapped[1][0] != got[0][0] || swapped[0][1] != got[1][1] {
		t.Errorf("the order of the teams changes the result: %v and %v", swapped, got)
	}
	if o := (New()).Ordinal(); !near(o, 0) {
		t.Errorf("a new player's ordinal is %v, not 0", o)
	}
}

// TestRateProperties: in a game of single players without ties, the
// winner's mean rises, the last's falls, every sigma shrinks, and a tie
// of everyone changes no mean of equal players.
func TestRateProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(2, 6).Draw(t, "n")
		teams := make([][]Rating, n)
		ranks := rapid.Permutation([]int{1, 2, 3, 4, 5, 6}[:n]).Draw(t, "ranks")
		for i := range teams {
			teams[i] = []Rating{{Mu: rapid.Float64Range(0, 50).Draw(t, "mu"), Sigma: rapid.Float64Range(0.5, 9).Draw(t, "sigma")}}
		}
		out := Rate(teams, ranks)
		for i := range teams {
			before, after := teams[i][0], out[i][0]
			if after.Sigma > before.Sigma || after.Sigma <= 0 {
				t.Fatalf("sigma %v → %v", before.Sigma, after.Sigma)
			}
			if ranks[i] == 1 && after.Mu <= before.Mu {
				t.Fatalf("the winner's mu %v → %v", before.Mu, after.Mu)
			}
			if ranks[i] == n && after.Mu >= before.Mu {
				t.Fatalf("the last's mu %v → %v", before.Mu, after.Mu)
			}
		}
	})
	same := [][]Rating{{New()}, {New()}, {New()}}
	for _, r := range Rate(same, []int{1, 1, 1}) {
		if !near(r[0].Mu, Mu) {
			t.Errorf("a tie of equals moves a mean: %v", r[0])
		}
	}
}

func TestRanks(t *testing.T) {
	for _, c := range []struct {
		scores, winners, want []int
	}{
		{[]int{10, 30, 20}, []int{1}, []int{3, 1, 2}},
		{[]int{30, 30, 20}, []int{0, 1}, []int{1, 1, 3}},
		{[]int{5, 9, 9, 1}, []int{0}, []int{1, 2, 2, 4}}, // a tie-break won against the scores
	} {
		got := Ranks(c.scores, c.winners)
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("Ranks(%v, %v) = %v, want %v", c.scores, c.winners, got, c.want)
				break
			}
		}
	}
}

func TestResignedLast(t *testing.T) {
	for _, c := range []struct {
		ranks    []int
		resigned []bool
		want     []int
	}{
		{[]int{1, 2, 3}, []bool{false, false, false}, []int{1, 2, 3}},
		{[]int{1, 2, 3}, []bool{true, false, false}, []int{3, 1, 2}},             // the winner resigned: his stand-in's win is not his
		{[]int{2, 1, 3, 4}, []bool{false, true, false, true}, []int{1, 3, 2, 3}}, // two resigned: tied last
		{[]int{1, 1, 3}, []bool{false, false, true}, []int{1, 1, 3}},
		{[]int{3, 1, 2}, []bool{true, true, false}, []int{2, 2, 1}}, // everyone but one resigned
	} {
		got := ResignedLast(c.ranks, c.resigned)
		if !slices.Equal(got, c.want) {
			t.Errorf("ResignedLast(%v, %v) = %v, want %v", c.ranks, c.resigned, got, c.want)
		}
	}
}

// TestResignedLastProperties: every resigned seat ranks below every
// seat that finished, the resigned tie, the finishers keep their order,
// and under the model a resigned player loses mean skill.
func TestResignedLastProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(2, 6).Draw(t, "n")
		scores := rapid.SliceOfN(rapid.IntRange(0, 5), n, n).Draw(t, "scores")
		winners := rapid.SliceOfNDistinct(rapid.IntRange(0, n-1), 0, n, rapid.ID[int]).Draw(t, "winners")
		resigned := rapid.SliceOfN(rapid.Bool(), n, n).Draw(t, "resigned")
		ranks := Ranks(scores, winners)
		got := ResignedLast(ranks, resigned)
		for i := range n {
			for j := range n {
				switch {
				case resigned[i] && resigned[j] && got[i] != got[j]:
					t.Fatalf("resigned %d and %d do not tie: %v", i, j, got)
				case resigned[i] && !resigned[j] && got[i] <= got[j]:
					t.Fatalf("resigned %d ranks %d, not below finisher %d's %d", i, got[i], j, got[j])
				case !resigned[i] && !resigned[j] && (ranks[i] < ranks[j]) != (got[i] < got[j]):
					t.Fatalf("finishers %d and %d changed order: %v → %v", i, j, ranks, got)
				}
			}
		}
		teams := make([][]Rating, n)
		for i := range teams {
			teams[i] = []Rating{New()}
		}
		finished := slices.Index(resigned, false) >= 0
		for i, r := range Rate(teams, got) {
			if resigned[i] && finished && r[0].Mu >= Mu {
				t.Fatalf("resigned seat %d among equals keeps mean %v (ranks %v)", i, r[0].Mu, got)
			}
		}
	})
}
