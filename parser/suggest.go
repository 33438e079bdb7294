package parser

import (
	"slices"
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

// legality is what Grammar.Legal allows now.
type legality struct {
	commands map[string]bool // the concrete legal commands
	words    map[string]bool // the words of those, lower-case
	specs    map[string]bool // the specs an option names
	// open lists the specs whose option names no concrete command: an
	// engine that does not list them allows every command of the spec.
	open map[string]bool
}

// legality asks Legal once; nil means no limit.
func (c *compiled) legality() *legality {
	if c.Legal == nil {
		return nil
	}
	if c.legal == nil {
		l := &legality{commands: map[string]bool{}, words: map[string]bool{}, specs: map[string]bool{}, open: map[string]bool{}}
		for _, o := range c.Legal() {
			l.specs[o.Spec] = true
			if len(o.Commands) == 0 {
				l.open[o.Spec] = true
			}
			for _, cmd := range o.Commands {
				l.commands[cmd] = true
				for _, w := range strings.Fields(cmd) {
					l.words[strings.ToLower(w)] = true
				}
			}
		}
		c.legal = l
	}
	return c.legal
}

// allowed reports whether a command may be suggested: a lobby command
// always, a game command when it is legal now.
func (c *compiled) allowed(cmd Command) bool {
	if cmd.Lobby {
		return true
	}
	l := c.legality()
	return l == nil || l.commands[cmd.Text] || l.open[cmd.Name]
}

// allowedWord reports whether a single word may be suggested: a lobby
// keyword or a game's name always, a game's keyword, value or player
// when some legal command has it.
func (c *compiled) allowedWord(w string) bool {
	l := c.legality()
	if l == nil || len(l.open) > 0 {
		return true
	}
	w = strings.ToLower(w)
	if l.words[w] || w == "with" || slices.Contains(c.Games, w) {
		return true
	}
	for _, lc := range lobbyCmds {
		if slices.Contains(lc.words, w) {
			return true
		}
	}
	return false
}

// allowedSpec reports whether the commands of a spec may be suggested.
func (c *compiled) allowedSpec(s engine.Spec) bool {
	l := c.legality()
	return l == nil || l.specs[s.Name]
}

// allowedWords keeps the words that may be suggested.
func (c *compiled) allowedWords(ws []string) []string {
	var out []string
	for _, w := range ws {
		if c.allowedWord(w) {
			out = append(out, w)
		}
	}
	return out
}
