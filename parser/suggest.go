package parser

import (
	"sort"
	"strings"

	"github.com/pbem/pbem/engine"
)

// nearWords returns the candidates a mistyped word is probably meant to
// be: those within a small edit distance (one edit for short words, two
// for longer ones), closest first.
func nearWords(word string, candidates []string) []string {
	if word == "" || len(word) > 40 {
		return nil
	}
	max := 1
	if len([]rune(word)) >= 5 {
		max = 2
	}
	type hit struct {
		w string
		d int
	}
	var hits []hit
	seen := map[string]bool{}
	for _, c := range candidates {
		lc := strings.ToLower(c)
		if seen[c] || len(lc) > 40 {
			continue
		}
		if d := distance(word, lc); d <= max {
			seen[c] = true
			hits = append(hits, hit{c, d})
		}
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].d < hits[j].d })
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.w
	}
	return out
}

// nearChoices finds the values of a Choice argument a mistyped word is
// probably meant to be, comparing with every form of each value.
func nearChoices(word string, w engine.Word) []string {
	var out []string
	for _, c := range w.Choices {
		forms := append([]string{c.Value}, c.Aliases...)
		if len(nearWords(word, forms)) > 0 {
			out = append(out, c.Value)
		}
	}
	return out
}

// distance is the Damerau-Levenshtein (optimal string alignment) edit
// distance between two words, in runes: "bif"/"bid" 1, "plya"/"play" 1.
func distance(a, b string) int {
	s, t := []rune(a), []rune(b)
	prev2 := make([]int, len(t)+1)
	prev := make([]int, len(t)+1)
	cur := make([]int, len(t)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(s); i++ {
		cur[0] = i
		for j := 1; j <= len(t); j++ {
			cost := 1
			if s[i-1] == t[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && s[i-1] == t[j-2] && s[i-2] == t[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(t)]
}
