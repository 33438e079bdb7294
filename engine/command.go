package engine

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Command is one command in canonical form. It is plain data: games switch
// on Name and read Args; Text is what transcripts and mails show.
type Command struct {
	Name string   `json:"name"` // the Spec's name
	Args []string `json:"args"` // canonical argument values, in the Spec's order
	Text string   `json:"text"` // canonical text, e.g. "take 2 keep red give bob"
}

func (c Command) String() string { return c.Text }

// ArgKind is the type of an argument slot.
type ArgKind int

const (
	// Literal is not an argument but a fixed keyword of the command.
	Literal ArgKind = iota
	// Number is a whole number written in digits.
	Number
	// Choice is one of a fixed set of values, each with aliases.
	Choice
	// Player is one of the game's player names, matched case-insensitively
	// and by unique prefix.
	Player
)

// Word is one element of a command's pattern: a keyword or an argument.
type Word struct {
	Kind    ArgKind
	Text    string      // the keyword itself, or the argument's name in help ("N", "CARD")
	Choices []ChoiceVal // for Choice
}

// ChoiceVal is one value of a Choice argument and the other ways to write
// it. An alias may have several words ("large dog").
type ChoiceVal struct {
	Value   string
	Aliases []string
}

// Spec describes one command of a game: its pattern and a line of help.
type Spec struct {
	Name  string
	Words []Word
	Help  string
}

// Kw is a keyword word.
func Kw(s string) Word { return Word{Kind: Literal, Text: s} }

// NumArg is a number argument named name in help.
func NumArg(name string) Word { return Word{Kind: Number, Text: name} }

// PlayerArg is a player argument named name in help.
func PlayerArg(name string) Word { return Word{Kind: Player, Text: name} }

// ChoiceArg is a choice argument named name in help.
func ChoiceArg(name string, vals ...ChoiceVal) Word {
	return Word{Kind: Choice, Text: name, Choices: vals}
}

// Usage is the pattern for help: "take T keep COLOUR give PLAYER".
func (s Spec) Usage() string {
	parts := make([]string, len(s.Words))
	for i, w := range s.Words {
		parts[i] = w.Text
	}
	return strings.Join(parts, " ")
}

// Make builds a command of this spec from canonical argument values, one
// per argument slot. It does not check them against the rules: that is
// Game.Apply's job.
func (s Spec) Make(args ...string) Command {
	parts := make([]string, 0, len(s.Words))
	ai := 0
	for _, w := range s.Words {
		if w.Kind == Literal {
			parts = append(parts, w.Text)
			continue
		}
		if ai < len(args) {
			parts = append(parts, args[ai])
		} else {
			parts = append(parts, w.Text)
		}
		ai++
	}
	a := append([]string(nil), args...)
	return Command{Name: s.Name, Args: a, Text: strings.Join(parts, " ")}
}

// Format shows this spec with each argument slot replaced by the given
// text, which may be a set of values ("bid 5..12", "keep red|blue give
// alice|bob"). Missing texts leave the slot's name.
func (s Spec) Format(args ...string) string { return s.Make(args...).Text }

// FindSpec returns the spec named name.
func FindSpec(specs []Spec, name string) (Spec, bool) {
	for _, s := range specs {
		if s.Name == name {
			return s, true
		}
	}
	return Spec{}, false
}

// ParseError explains why a text is not a command.
type ParseError struct {
	Input  string
	Reason string
}

func (e *ParseError) Error() string { return fmt.Sprintf("%q: %s", e.Input, e.Reason) }

// ParseCommand reads one command of the language specs from text. Case
// never matters; keywords and word-like values may be shortened to a
// unique prefix of at least two letters; player names match by unique
// prefix. players is the game's player names, for Player arguments.
func ParseCommand(specs []Spec, players []string, text string) (Command, error) {
	toks := strings.Fields(strings.ToLower(text))
	if len(toks) == 0 {
		return Command{}, &ParseError{Input: text, Reason: "no command"}
	}
	m := matcher{specs: specs, players: players, vocab: vocabulary(specs)}
	var found []Command
	var why string
	whyDepth := -1
	for _, s := range specs {
		args, ok, reason, depth := m.match(s.Words, toks, nil)
		if ok {
			found = append(found, s.Make(args...))
			continue
		}
		// Explain with the spec that starts with the text's first word
		// and reads furthest into it: it is the one the player meant.
		if depth > whyDepth && len(s.Words) > 0 && s.Words[0].Kind == Literal && m.literal(s.Words[0].Text, toks[0]) {
			why, whyDepth = reason, depth
		}
	}
	switch {
	case len(found) == 1:
		return found[0], nil
	case len(found) > 1:
		texts := make([]string, len(found))
		for i, c := range found {
			texts[i] = c.Text
		}
		return Command{}, &ParseError{Input: text, Reason: "ambiguous: it could mean " + strings.Join(texts, " or ")}
	case why != "":
		return Command{}, &ParseError{Input: text, Reason: why}
	default:
		return Command{}, &ParseError{Input: text, Reason: "not a command; commands are: " + usages(specs)}
	}
}

func usages(specs []Spec) string {
	seen := map[string]bool{}
	var out []string
	for _, s := range specs {
		u := s.Usage()
		if !seen[u] {
			seen[u] = true
			out = append(out, u)
		}
	}
	return strings.Join(out, ", ")
}

func vocabulary(specs []Spec) []string {
	seen := map[string]bool{}
	var v []string
	for _, s := range specs {
		for _, w := range s.Words {
			if w.Kind == Literal && !seen[w.Text] {
				seen[w.Text] = true
				v = append(v, w.Text)
			}
		}
	}
	sort.Strings(v)
	return v
}

type matcher struct {
	specs   []Spec
	players []string
	vocab   []string
}

// literal reports whether tok stands for keyword kw: the word itself, or a
// prefix of at least two letters that no other keyword of the game shares.
func (m matcher) literal(kw, tok string) bool {
	if tok == kw {
		return true
	}
	if len(tok) < 2 || !strings.HasPrefix(kw, tok) {
		return false
	}
	for _, other := range m.vocab {
		if other != kw && strings.HasPrefix(other, tok) {
			return false
		}
	}
	return true
}

// match matches words against all of toks, returning the canonical
// argument values; on failure, the reason and how many tokens matched
// before it.
func (m matcher) match(words []Word, toks []string, args []string) ([]string, bool, string, int) {
	return m.matchFrom(words, toks, args, 0)
}

func (m matcher) matchFrom(words []Word, toks []string, args []string, depth int) ([]string, bool, string, int) {
	if len(words) == 0 {
		if len(toks) == 0 {
			return args, true, "", depth
		}
		return nil, false, fmt.Sprintf("unexpected %q at the end", strings.Join(toks, " ")), depth
	}
	w := words[0]
	if len(toks) == 0 {
		return nil, false, fmt.Sprintf("%s is missing", describe(w)), depth
	}
	switch w.Kind {
	case Literal:
		if !m.literal(w.Text, toks[0]) {
			return nil, false, fmt.Sprintf("expected %q, not %q", w.Text, toks[0]), depth
		}
		return m.matchFrom(words[1:], toks[1:], args, depth+1)
	case Number:
		n, err := strconv.Atoi(strings.TrimPrefix(toks[0], "+"))
		if err != nil || len(toks[0]) > 9 {
			return nil, false, fmt.Sprintf("%s must be a whole number, not %q", w.Text, toks[0]), depth
		}
		return m.matchFrom(words[1:], toks[1:], append(args, strconv.Itoa(n)), depth+1)
	case Player:
		name, reason := matchName(m.players, toks[0])
		if reason != "" {
			return nil, false, reason, depth
		}
		return m.matchFrom(words[1:], toks[1:], append(args, name), depth+1)
	case Choice:
		// Exact forms first, longest first, so "large dog" beats a
		// one-word form; then a unique prefix of a one-word form.
		lastReason, lastDepth := "", depth
		for _, n := range choiceLengths(w) {
			if n > len(toks) {
				continue
			}
			phrase := strings.Join(toks[:n], " ")
			for _, c := range w.Choices {
				if choiceHas(c, phrase) {
					got, ok, reason, d := m.matchFrom(words[1:], toks[n:], append(args, c.Value), depth+n)
					if ok {
						return got, true, "", d
					}
					if d >= lastDepth {
						lastReason, lastDepth = reason, d
					}
				}
			}
		}
		if v, ok := choicePrefix(w, toks[0]); ok {
			got, ok, reason, d := m.matchFrom(words[1:], toks[1:], append(args, v), depth+1)
			if ok || d > lastDepth {
				return got, ok, reason, d
			}
		}
		if lastReason != "" {
			return nil, false, lastReason, lastDepth
		}
		return nil, false, fmt.Sprintf("%q is not a %s; %s is one of: %s", toks[0], strings.ToLower(w.Text), w.Text, choiceList(w)), depth
	}
	return nil, false, "bad pattern", depth
}

func describe(w Word) string {
	if w.Kind == Literal {
		return fmt.Sprintf("the word %q", w.Text)
	}
	return w.Text
}

func choiceLengths(w Word) []int {
	seen := map[int]bool{}
	var ls []int
	for _, c := range w.Choices {
		for _, f := range append([]string{c.Value}, c.Aliases...) {
			n := len(strings.Fields(f))
			if !seen[n] {
				seen[n] = true
				ls = append(ls, n)
			}
		}
	}
	sort.Sort(sort.Reverse(sort.IntSlice(ls)))
	return ls
}

func choiceHas(c ChoiceVal, phrase string) bool {
	if strings.ToLower(c.Value) == phrase {
		return true
	}
	for _, a := range c.Aliases {
		if strings.Join(strings.Fields(strings.ToLower(a)), " ") == phrase {
			return true
		}
	}
	return false
}

// choicePrefix finds the one value that has a one-word, letter-led form
// starting with tok (at least two characters).
func choicePrefix(w Word, tok string) (string, bool) {
	if len(tok) < 2 || tok[0] < 'a' || tok[0] > 'z' {
		return "", false
	}
	found := ""
	for _, c := range w.Choices {
		for _, f := range append([]string{c.Value}, c.Aliases...) {
			f = strings.ToLower(f)
			if strings.Contains(f, " ") || !strings.HasPrefix(f, tok) {
				continue
			}
			if found != "" && found != c.Value {
				return "", false
			}
			found = c.Value
		}
	}
	return found, found != ""
}

func choiceList(w Word) string {
	vals := make([]string, len(w.Choices))
	for i, c := range w.Choices {
		vals[i] = c.Value
	}
	return strings.Join(vals, ", ")
}

// matchName finds the player tok names: exactly (ignoring case) or by a
// unique prefix.
func matchName(players []string, tok string) (string, string) {
	for _, p := range players {
		if strings.EqualFold(p, tok) {
			return p, ""
		}
	}
	var hits []string
	for _, p := range players {
		if strings.HasPrefix(strings.ToLower(p), tok) {
			hits = append(hits, p)
		}
	}
	switch len(hits) {
	case 1:
		return hits[0], ""
	case 0:
		return "", fmt.Sprintf("%q is not a player; players are: %s", tok, strings.Join(players, ", "))
	default:
		return "", fmt.Sprintf("%q could be %s", tok, strings.Join(hits, " or "))
	}
}
