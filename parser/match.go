package parser

import (
	"fmt"
	"net/mail"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/pbem/pbem/engine"
)

// token is one word of a command as written.
type token struct {
	orig string // as written, punctuation included
	raw  string // without surrounding punctuation, case kept
	low  string // raw in lower case
	// end is set when the word ended a clause (",", ";" or a sentence
	// end after it): a place where a line may hold the next command.
	end bool
}

// tokenize splits a line into words, peeling off the punctuation people
// put around them ("Pass.", "bid 4!", "*play* rabbit", "<a@x.test>,").
// Signs and inner hyphens stay: "-8", "+3", "large-dog".
func tokenize(line string) []token {
	var toks []token
	for _, f := range strings.Fields(line) {
		raw := strings.TrimLeft(f, "\"'([{*_<#")
		trimmed := strings.TrimRight(raw, ".,;!?:\"')]}*_>")
		clause := strings.ContainsAny(raw[len(trimmed):], ",;.!?")
		if trimmed == "" || trimmed == "-" || trimmed == "+" {
			// A lone dash separates like a comma: "pass - sorry".
			if (clause || trimmed == "-") && len(toks) > 0 {
				toks[len(toks)-1].end = true
			}
			continue
		}
		if trimmed == "&" {
			trimmed = "and"
		}
		toks = append(toks, token{orig: f, raw: trimmed, low: strings.ToLower(trimmed), end: clause})
	}
	return toks
}

// failure is why a command did not match, and how far it got: the
// deepest failure is the one that explains best what the player meant.
type failure struct {
	reason   string
	progress int // tokens consumed before failing
	near     []string
}

type reader struct {
	lang   *compiled
	budget int // match steps left; bounds pathological input
	best   failure
}

// maxSteps bounds the matching work per line, however the fillers and
// aliases combine.
const maxSteps = 20000

func (r *reader) fail(progress int, near []string, format string, args ...any) {
	if r.best.reason == "" || progress > r.best.progress {
		r.best = failure{reason: fmt.Sprintf(format, args...), progress: progress, near: near}
	}
}

// matchAll returns every distinct command toks can be read as.
func (r *reader) matchAll(toks []token) []Command {
	var found []Command
	seen := map[string]bool{}
	add := func(c Command) {
		if !seen[c.Text] {
			seen[c.Text] = true
			found = append(found, c)
		}
	}
	for _, s := range r.lang.Specs {
		var results [][]string
		r.matchWords(s.Words, toks, 0, 0, nil, &results)
		for _, args := range results {
			mv := s.Make(args...)
			add(Command{Name: mv.Name, Args: mv.Args, Text: mv.Text, Move: mv})
		}
	}
	for _, lc := range lobbyCmds {
		for _, c := range r.matchLobby(lc, toks) {
			add(c)
		}
	}
	return found
}

// matchWords matches a spec's words against toks from wi and ti, skipping
// filler words, and appends each complete reading's arguments to out.
func (r *reader) matchWords(words []engine.Word, toks []token, wi, ti int, args []string, out *[][]string) {
	if r.budget--; r.budget < 0 {
		return
	}
	if wi == len(words) {
		for j := ti; j < len(toks); j++ {
			if !r.lang.filler[toks[j].low] {
				r.fail(j, nil, "%q at the end is not part of the command", joinRaw(toks[j:]))
				return
			}
		}
		*out = append(*out, append([]string(nil), args...))
		return
	}
	if ti == len(toks) {
		r.fail(ti, nil, "%s is missing", describe(words[wi]))
		return
	}
	tok := toks[ti]
	if r.lang.filler[tok.low] {
		r.matchWords(words, toks, wi, ti+1, args, out)
	}
	w := words[wi]
	switch w.Kind {
	case engine.Literal:
		if r.lang.isKeyword(strings.ToLower(w.Text), tok.low) {
			r.matchWords(words, toks, wi+1, ti+1, args, out)
		} else if wi > 0 && !r.lang.filler[tok.low] {
			r.fail(ti, nil, "expected %q, not %q", w.Text, tok.raw)
		}
	case engine.Number:
		if n, ok := number(tok.low); ok {
			r.matchWords(words, toks, wi+1, ti+1, append(args, strconv.Itoa(n)), out)
		} else if !r.lang.filler[tok.low] {
			r.fail(ti, nil, "%s must be a whole number, not %q", w.Text, tok.raw)
		}
	case engine.Player:
		name, hits := matchName(r.lang.Players, tok.low)
		switch {
		case name != "":
			r.matchWords(words, toks, wi+1, ti+1, append(args, name), out)
		case r.lang.filler[tok.low]:
		case len(hits) > 1:
			r.fail(ti, hits, "%q could be %s", tok.raw, orList(hits))
		default:
			r.fail(ti, nearWords(tok.low, r.lang.Players), "%q is not a player; the players are %s", tok.raw, strings.Join(r.lang.Players, ", "))
		}
	case engine.Choice:
		r.matchChoice(words, toks, wi, ti, args, out)
	}
}

// matchChoice matches a Choice argument: an exact value or alias of one
// or more words (longest first, so "large dog" is read as one), else a
// unique prefix of a one-word form.
func (r *reader) matchChoice(words []engine.Word, toks []token, wi, ti int, args []string, out *[][]string) {
	w := words[wi]
	matched := false
	for _, n := range choiceLengths(w) {
		if ti+n > len(toks) {
			continue
		}
		phrase := joinLow(toks[ti : ti+n])
		for _, c := range w.Choices {
			if choiceHas(c, phrase) {
				matched = true
				r.matchWords(words, toks, wi+1, ti+n, append(args, c.Value), out)
			}
		}
	}
	if matched {
		return
	}
	tok := toks[ti]
	vals := choicePrefix(w, tok.low)
	if len(vals) == 0 {
		vals = choiceWord(w, tok.low)
	}
	switch {
	case len(vals) == 1:
		r.matchWords(words, toks, wi+1, ti+1, append(args, vals[0]), out)
	case r.lang.filler[tok.low]:
	case len(vals) > 1:
		r.fail(ti, vals, "%q could be %s", tok.raw, orList(vals))
	default:
		all := choiceValues(w)
		r.fail(ti, nearChoices(tok.low, w), "%q is not a %s; %s is one of %s", tok.raw, strings.ToLower(w.Text), w.Text, strings.Join(all, ", "))
	}
}

// matchLobby reads toks as the lobby command lc: filler words, one of
// its words, then its argument.
func (r *reader) matchLobby(lc lobbyCmd, toks []token) []Command {
	var found []Command
	for k := 0; k < len(toks); k++ {
		if r.lang.keywordOf(lc, toks[k].low) {
			if c, ok := r.lobbyArgs(lc, toks, k); ok {
				found = append(found, c)
			}
		}
		if !r.lang.filler[toks[k].low] {
			break
		}
	}
	return found
}

// keywordOf reports whether tok names the lobby command lc.
func (c *compiled) keywordOf(lc lobbyCmd, tok string) bool {
	for _, w := range lc.words {
		if tok == w || (!lc.whole && c.isKeyword(w, tok)) {
			return true
		}
	}
	return false
}

// lobbyArgs reads the argument of a lobby command whose keyword is
// toks[k].
func (r *reader) lobbyArgs(lc lobbyCmd, toks []token, k int) (Command, bool) {
	rest := toks[k+1:]
	progress := k + 1
	words := r.meaningful(rest)
	switch lc.arg {
	case noArg:
		if len(words) > 0 {
			r.fail(progress, nil, "%q takes nothing after it, not %q", lc.Name, joinRaw(words))
			return Command{}, false
		}
		return Command{Lobby: true, Name: lc.Name, Text: lc.Name}, true
	case gameArg:
		switch len(words) {
		case 0:
			return Command{Lobby: true, Name: lc.Name, Text: lc.Name}, true
		case 1:
			g, ok := r.game(words[0], progress)
			if !ok {
				return Command{}, false
			}
			return Command{Lobby: true, Name: lc.Name, Game: g, Args: []string{g}, Text: lc.Name + " " + g}, true
		}
		r.fail(progress, nil, "write %q with at most one game", lc.Usage)
		return Command{}, false
	case inviteArg:
		return r.invite(lc, rest, progress)
	case choiceArg:
		if len(words) != 1 {
			r.fail(progress, nil, "write %q", lc.Usage)
			return Command{}, false
		}
		var hits []string
		for _, c := range lc.choices {
			if c == words[0].low || (len(words[0].low) >= 2 && strings.HasPrefix(c, words[0].low)) {
				hits = append(hits, c)
			}
		}
		if len(hits) != 1 {
			r.fail(progress, nil, "%q is not one of %s: write %q", words[0].orig, strings.Join(lc.choices, ", "), lc.Usage)
			return Command{}, false
		}
		return Command{Lobby: true, Name: lc.Name, Args: hits, Text: lc.Name + " " + hits[0]}, true
	case wordArg:
		if len(rest) != 1 {
			r.fail(progress, nil, "write %q", lc.Usage)
			return Command{}, false
		}
		w := strings.Trim(rest[0].orig, ".,;:!?\"'*_ ")
		return Command{Lobby: true, Name: lc.Name, Args: []string{w}, Text: lc.Name + " " + w}, true
	case textArg:
		// The rest of the line as written, less "is"/"to" and the
		// punctuation around it: "my name is Bob." names Bob.
		for len(rest) > 0 && (rest[0].low == "is" || rest[0].low == "to" || rest[0].low == "as") {
			rest = rest[1:]
		}
		var parts []string
		for _, t := range rest {
			parts = append(parts, t.orig)
		}
		name := strings.Trim(strings.Join(parts, " "), ".,;:!?\"'*_ ")
		if name == "" {
			r.fail(progress, nil, "write the new name after %q: %s", lc.Name, lc.Usage)
			return Command{}, false
		}
		if n := len([]rune(name)); n > maxNameRunes {
			r.fail(progress, nil, "a name has at most %d characters, not %d", maxNameRunes, n)
			return Command{}, false
		}
		return Command{Lobby: true, Name: lc.Name, NewName: name, Args: []string{name}, Text: lc.Name + " " + name}, true
	}
	return Command{}, false
}

// maxNameRunes bounds a player's chosen name.
const maxNameRunes = 40

// meaningful drops filler words.
func (r *reader) meaningful(toks []token) []token {
	var out []token
	for _, t := range toks {
		if !r.lang.filler[t.low] {
			out = append(out, t)
		}
	}
	return out
}

// game resolves a game's name, by unique prefix of two letters or more.
func (r *reader) game(t token, progress int) (string, bool) {
	if len(r.lang.Games) == 0 {
		if isLetters(t.low) {
			return t.low, true
		}
		r.fail(progress, nil, "%q is not a game's name", t.raw)
		return "", false
	}
	var hits []string
	for _, g := range r.lang.Games {
		if g == t.low {
			return g, true
		}
		if len(t.low) >= 2 && strings.HasPrefix(g, t.low) {
			hits = append(hits, g)
		}
	}
	if len(hits) == 1 {
		return hits[0], true
	}
	if len(hits) > 1 {
		r.fail(progress, hits, "%q could be %s", t.raw, orList(hits))
		return "", false
	}
	r.fail(progress, nearWords(t.low, r.lang.Games), "%q is not a game; the games are %s", t.raw, strings.Join(r.lang.Games, ", "))
	return "", false
}

// invite reads "new GAME with ADDRESS...": the game, an optional "with",
// then one or more addresses, bare ("a@x.test") or with a name ("Dave
// <dave@w.test>"), separated by spaces, commas or "and".
func (r *reader) invite(lc lobbyCmd, rest []token, progress int) (Command, bool) {
	words := r.meaningful(rest)
	if len(words) == 0 || strings.Contains(words[0].low, "@") || words[0].low == "with" {
		r.fail(progress, nil, "write the game after %q: %s", lc.Name, lc.Usage)
		return Command{}, false
	}
	g, ok := r.game(words[0], progress)
	if !ok {
		return Command{}, false
	}
	// The addresses are what follows the game's word and "with".
	i := 0
	for rest[i].orig != words[0].orig || rest[i].low != words[0].low {
		i++
	}
	rest = rest[i+1:]
	for len(rest) > 0 && (r.lang.filler[rest[0].low] || r.lang.isKeyword("with", rest[0].low)) {
		rest = rest[1:]
	}
	if len(r.meaningful(rest)) == 0 {
		r.fail(progress+1, nil, "write the players' email addresses: %s", lc.Usage)
		return Command{}, false
	}
	list, bad := addressList(rest)
	if bad != "" {
		r.fail(progress+1, nil, "%q is not an email address: %s", bad, lc.Usage)
		return Command{}, false
	}
	var addrs []string
	seen := map[string]bool{}
	for _, a := range list {
		if !seen[a] {
			seen[a] = true
			addrs = append(addrs, a)
		}
	}
	text := lc.Name + " " + g + " with " + strings.Join(addrs, " ")
	return Command{Lobby: true, Name: lc.Name, Game: g, Addresses: addrs, Args: append([]string{g}, addrs...), Text: text}, true
}

// addressList reads the addresses of an invitation, lower-case. Bare
// addresses may be separated by spaces; named ones need commas or "and".
// bad is the first word that is not part of an address.
func addressList(toks []token) (addrs []string, bad string) {
	bare := true
	for _, t := range toks {
		if t.low == "and" {
			continue
		}
		a, err := mail.ParseAddress(t.raw)
		if err != nil || a.Name != "" {
			bare = false
			break
		}
		addrs = append(addrs, strings.ToLower(a.Address))
	}
	if bare {
		return addrs, ""
	}
	parts := make([]string, len(toks))
	for i, t := range toks {
		parts[i] = t.orig
		if t.low == "and" {
			parts[i] = ","
		}
	}
	list, err := mail.ParseAddressList(strings.TrimRight(strings.Join(parts, " "), ".!?;: "))
	if err == nil {
		addrs = addrs[:0]
		for _, a := range list {
			addrs = append(addrs, strings.ToLower(a.Address))
		}
		return addrs, ""
	}
	for _, t := range toks {
		if t.low == "and" {
			continue
		}
		if a, err := mail.ParseAddress(t.raw); err != nil || a.Name != "" {
			return nil, t.raw
		}
	}
	return nil, joinRaw(toks)
}

// number reads a whole number in digits ("4", "+4") or in words ("four").
func number(s string) (int, bool) {
	if n, ok := numberWords[s]; ok {
		return n, true
	}
	if len(s) == 0 || len(s) > 9 {
		return 0, false
	}
	n, err := strconv.Atoi(strings.TrimPrefix(s, "+"))
	return n, err == nil
}

func describe(w engine.Word) string {
	if w.Kind == engine.Literal {
		return fmt.Sprintf("the word %q", w.Text)
	}
	return w.Text
}

func choiceLengths(w engine.Word) []int {
	seen := map[int]bool{}
	var ls []int
	for _, c := range w.Choices {
		for _, f := range append([]string{c.Value}, c.Aliases...) {
			if n := len(strings.Fields(f)); !seen[n] && n > 0 {
				seen[n] = true
				ls = append(ls, n)
			}
		}
	}
	sort.Sort(sort.Reverse(sort.IntSlice(ls)))
	return ls
}

func choiceHas(c engine.ChoiceVal, phrase string) bool {
	for _, f := range append([]string{c.Value}, c.Aliases...) {
		if strings.Join(strings.Fields(strings.ToLower(f)), " ") == phrase {
			return true
		}
	}
	return false
}

// choicePrefix lists the values with a one-word, letter-led form that
// starts with tok (at least two characters).
func choicePrefix(w engine.Word, tok string) []string {
	if len(tok) < 2 || tok[0] < 'a' || tok[0] > 'z' {
		return nil
	}
	var vals []string
	for _, c := range w.Choices {
		for _, f := range append([]string{c.Value}, c.Aliases...) {
			f = strings.ToLower(f)
			if !strings.Contains(f, " ") && strings.HasPrefix(f, tok) {
				vals = append(vals, c.Value)
				break
			}
		}
	}
	return vals
}

// choiceWord lists the values with a several-word form that has tok as
// one of its words: "dog" is in "large dog" and "small dog".
func choiceWord(w engine.Word, tok string) []string {
	if !isLetters(tok) {
		return nil
	}
	var vals []string
	for _, c := range w.Choices {
		for _, f := range c.Aliases {
			if slices.Contains(strings.Fields(strings.ToLower(f)), tok) {
				vals = append(vals, c.Value)
				break
			}
		}
	}
	return vals
}

func choiceValues(w engine.Word) []string {
	vals := make([]string, len(w.Choices))
	for i, c := range w.Choices {
		vals[i] = c.Value
	}
	return vals
}

// matchName finds the player tok names: exactly (ignoring case) or by a
// unique prefix. It returns the name, or every name tok is a prefix of.
func matchName(players []string, tok string) (string, []string) {
	for _, p := range players {
		if strings.EqualFold(p, tok) {
			return p, nil
		}
	}
	var hits []string
	for _, p := range players {
		if strings.HasPrefix(strings.ToLower(p), tok) {
			hits = append(hits, p)
		}
	}
	if len(hits) == 1 {
		return hits[0], nil
	}
	return "", hits
}

func joinRaw(toks []token) string {
	parts := make([]string, len(toks))
	for i, t := range toks {
		parts[i] = t.raw
	}
	return strings.Join(parts, " ")
}

func joinLow(toks []token) string {
	parts := make([]string, len(toks))
	for i, t := range toks {
		parts[i] = t.low
	}
	return strings.Join(parts, " ")
}

// orList writes "a or b", "a, b or c".
func orList(xs []string) string {
	if len(xs) <= 1 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " or " + xs[len(xs)-1]
}
