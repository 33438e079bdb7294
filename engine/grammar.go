package engine

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// This file is pbem's one command grammar: the matcher that reads words
// as commands of a []Spec. ParseCommand is its strict configuration (the
// zero MatchOptions), for transcripts, replay and canonical text; the
// parser reads players' mail with the same matcher and looser options.

// Token is one word of a text to read: Text as written, for messages,
// and Low, in lower case, for matching.
type Token struct {
	Text string
	Low  string
}

// Tokens splits text at white space.
func Tokens(text string) []Token {
	fs := strings.Fields(text)
	toks := make([]Token, len(fs))
	for i, f := range fs {
		toks[i] = Token{Text: f, Low: strings.ToLower(f)}
	}
	return toks
}

// MatchOptions say how loosely Match reads. The zero value is the strict
// grammar of transcripts: digits only, no word skipped, no budget.
type MatchOptions struct {
	// Filler are lower-case words to skip wherever the words left still
	// match: "I bid 4 mice please".
	Filler map[string]bool
	// NumberWords are numbers written as words ("four"); digits always
	// read.
	NumberWords map[string]int
	// AliasWords lets a lone word of a multi-word alias stand for its
	// value when no value starts with the word: "dog" for "large dog".
	AliasWords bool
	// Steps bounds the matching work of one Match; 0 is no bound.
	Steps int
	// Vocabulary is every keyword a word might abbreviate; nil: the
	// specs' own keywords.
	Vocabulary *Vocabulary
	// Mail words failures for a player's mail: the words as written and
	// lists as "a, b or c".
	Mail bool
}

// FailureKind says how a text failed to match.
type FailureKind int

const (
	NoFailure     FailureKind = iota
	FailExtra                 // words are left after a whole command (Rest)
	FailMissing               // the text ends where Word is expected
	FailKeyword               // Token is not the keyword Word
	FailNumber                // Token is not a number
	FailPlayer                // Token names no player
	FailChoice                // Token is no value of the Choice Word
	FailAmbiguous             // Token could be any of Hits (players or values)
)

// Failure is the deepest reason a text is not a command: the one that
// explains best what the writer meant. Only commands whose first keyword
// was read explain.
type Failure struct {
	Kind   FailureKind
	At     int      // how many tokens were read before it
	Word   Word     // the pattern word it failed at (FailExtra: none)
	Token  Token    // the token it failed at (FailMissing: none)
	Rest   []Token  // FailExtra: the tokens left, from Token on
	Hits   []string // FailAmbiguous: what Token could be
	Reason string   // in plain words
	// Says is Reason as a message, for a reader in another language:
	// Reason == Says.String().
	Says Message
}

// Message is a sentence to show a reader, kept as its English format and
// arguments (issue 39), so that it can be printed in his language: the
// translation of Format, keyed by it in a catalog, with the same Args.
// String prints it in English: fmt.Sprintf(Format, Args...).
//
// An argument that is itself a Message is a nested sentence (or a noun,
// a Message without arguments: "card"), and an OrList is a list of
// alternatives: a translation prints both in its own language. Every
// other argument is printed as it is: the reader's own words, a
// command's syntax ("bid N"), a number.
type Message struct {
	Format string
	Args   []any
}

// Msg is the message format prints with args.
func Msg(format string, args ...any) Message { return Message{Format: format, Args: args} }

// String is the message in English.
func (m Message) String() string { return fmt.Sprintf(m.Format, m.Args...) }

// IsZero reports whether m is no message at all.
func (m Message) IsZero() bool { return m.Format == "" && len(m.Args) == 0 }

// OrList is a list of alternatives, written "a", "a or b", "a, b or c"
// (JoinOr): a Message's argument, which a translation writes with its
// own "or".
type OrList []string

// String is the list in English.
func (l OrList) String() string { return JoinOr(l) }

// The formats of the reasons Match gives for a player's mail
// (MatchOptions.Mail). A reader in another language needs each
// translated, and the nouns FailChoice names (Noun: "card", "colour").
const (
	formatExtra       = "%q at the end is not part of the command"
	formatMissingWord = "the word %q is missing"
	formatMissing     = "%s is missing"
	formatKeyword     = "expected %q, not %q"
	formatNumber      = "%s must be a whole number, not %q"
	formatPlayer      = "%q is not a player; the players are %s"
	formatChoice      = "%q is not a %s; %s is one of %s"
	formatAmbiguous   = "%q could be %s"
)

// MailFormats lists the formats of the reasons Match gives for a
// player's mail, for the tests that check every one is translated.
func MailFormats() []string {
	return []string{formatExtra, formatMissingWord, formatMissing, formatKeyword, formatNumber, formatPlayer, formatChoice, formatAmbiguous}
}

// Noun is the noun a reason names a Choice word by: its name in help,
// lower-cased ("CARD" is "card"), as a Message to translate.
func Noun(w Word) any {
	noun := strings.ToLower(w.Text)
	if strings.Contains(noun, "%") {
		return noun // not a format: printed as it is
	}
	return Message{Format: noun}
}

// Vocabulary is the keywords of a grammar, for reading abbreviations:
// a keyword may be shortened to a prefix of at least two letters that no
// other keyword shares. A keyword's spellings in other languages
// (Word.Also, Spec.Also, AddSpellings) are read only whole: they never
// make a prefix ambiguous, so that they change no reading of an
// abbreviation, and a word written whole is read as what it is whole
// ("stand" is status's German word, not standings' prefix).
type Vocabulary struct {
	words []string
	whole map[string]bool
	// also maps each other spelling, folded, to its keyword.
	also map[string]string
}

// NewVocabulary holds the keywords of specs and the extra ones (other
// commands sharing the prefixes). The whole words never count as a
// prefix: "re" must not read as "resign".
func NewVocabulary(specs []Spec, extra []string, whole map[string]bool) *Vocabulary {
	v := &Vocabulary{whole: whole, also: map[string]string{}}
	seen := map[string]bool{}
	add := func(w string) {
		if !seen[w] {
			seen[w] = true
			v.words = append(v.words, w)
		}
	}
	for _, s := range specs {
		for _, w := range s.Words {
			if w.Kind == Literal {
				kw := strings.ToLower(w.Text)
				add(kw)
				v.AddSpellings(kw, w.Also...)
			}
		}
		for _, seq := range s.Also {
			for _, w := range seq {
				if w.Kind == Literal {
					kw := strings.ToLower(w.Text)
					v.AddSpellings(kw, append([]string{kw}, w.Also...)...)
				}
			}
		}
	}
	for _, w := range extra {
		add(w)
	}
	sort.Strings(v.words)
	return v
}

// AddSpellings adds other spellings of the keyword kw, read only whole.
func (v *Vocabulary) AddSpellings(kw string, spellings ...string) {
	for _, s := range spellings {
		v.also[Fold(strings.ToLower(s))] = kw
	}
}

// Words lists the keywords, sorted.
func (v *Vocabulary) Words() []string { return v.words }

// Keywords returns the keywords tok may stand for: itself if it is one,
// the keyword it spells whole in another language, else every keyword it
// is a prefix of when it has at least two letters.
func (v *Vocabulary) Keywords(tok string) []string {
	tok = Fold(tok)
	if kw, ok := v.also[tok]; ok && !slices.Contains(v.words, tok) {
		return []string{kw}
	}
	var hits []string
	for _, kw := range v.words {
		if kw == tok {
			return []string{kw}
		}
		if len(tok) >= 2 && !v.whole[tok] && strings.HasPrefix(kw, tok) {
			hits = append(hits, kw)
		}
	}
	return hits
}

// Is reports whether tok stands for exactly the keyword kw.
func (v *Vocabulary) Is(kw, tok string) bool {
	hits := v.Keywords(tok)
	return len(hits) == 1 && hits[0] == kw
}

// Match reads toks as commands of specs: every distinct reading, in the
// specs' order, and the deepest failure met on the way. players are the
// game's player names, for Player arguments.
func Match(specs []Spec, players []string, toks []Token, opt MatchOptions) ([]Command, Failure) {
	m := &matcher{players: players, toks: toks, opt: opt, steps: opt.Steps, vocab: opt.Vocabulary}
	if m.vocab == nil {
		m.vocab = NewVocabulary(specs, nil, nil)
	}
	var found []Command
	seen := map[string]bool{}
	for _, s := range specs {
		var results [][]string
		for _, words := range append([][]Word{s.Words}, s.Also...) {
			m.explains = len(words) > 0 && words[0].Kind == Literal
			m.match(words, 0, 0, nil, &results)
		}
		for _, args := range results {
			c := s.Make(args...)
			if k := c.Name + "\x00" + c.Text; !seen[k] {
				seen[k] = true
				found = append(found, c)
			}
		}
	}
	if m.best.Kind != NoFailure {
		m.best.Says = m.reason(m.best)
		m.best.Reason = m.best.Says.String()
	}
	return found, m.best
}

type matcher struct {
	players  []string
	toks     []Token
	opt      MatchOptions
	vocab    *Vocabulary
	steps    int
	explains bool // the current spec starts with a keyword
	best     Failure
}

func (m *matcher) filler(t Token) bool { return m.opt.Filler[t.Low] }

// fail keeps f if it is the deepest failure yet. A failure before the
// spec's first keyword was read says nothing of what the writer meant.
func (m *matcher) fail(wi int, f Failure) {
	if !m.explains || wi == 0 {
		return
	}
	if m.best.Kind == NoFailure || f.At > m.best.At {
		m.best = f
	}
}

// match matches words from wi against the tokens from ti, skipping
// filler words, and appends each complete reading's arguments to out.
func (m *matcher) match(words []Word, wi, ti int, args []string, out *[][]string) {
	if m.opt.Steps > 0 {
		if m.steps--; m.steps < 0 {
			return
		}
	}
	toks := m.toks
	if wi == len(words) {
		for j := ti; j < len(toks); j++ {
			if !m.filler(toks[j]) {
				m.fail(wi, Failure{Kind: FailExtra, At: j, Token: toks[j], Rest: toks[j:]})
				return
			}
		}
		*out = append(*out, append([]string(nil), args...))
		return
	}
	w := words[wi]
	if ti == len(toks) {
		m.fail(wi, Failure{Kind: FailMissing, At: ti, Word: w})
		return
	}
	tok := toks[ti]
	if m.filler(tok) {
		m.match(words, wi, ti+1, args, out)
	}
	f := Failure{At: ti, Word: w, Token: tok}
	switch w.Kind {
	case Literal:
		if m.vocab.Is(strings.ToLower(w.Text), tok.Low) {
			m.match(words, wi+1, ti+1, args, out)
		} else if !m.filler(tok) {
			f.Kind = FailKeyword
			m.fail(wi, f)
		}
	case Number:
		if n, ok := m.number(tok.Low); ok {
			m.match(words, wi+1, ti+1, append(args, strconv.Itoa(n)), out)
		} else if !m.filler(tok) {
			f.Kind = FailNumber
			m.fail(wi, f)
		}
	case Player:
		m.one(words, wi, ti, args, out, playerNames(m.players, tok.Low), FailPlayer)
	case Choice:
		m.choice(words, wi, ti, args, out)
	}
}

// choice matches a Choice argument: an exact value or alias of one or
// more words (longest first, so "large dog" is read as one), else a
// unique prefix of a one-word form, else (with AliasWords) a word of a
// several-word alias.
func (m *matcher) choice(words []Word, wi, ti int, args []string, out *[][]string) {
	w := words[wi]
	matched := false
	for _, n := range choiceLengths(w) {
		if ti+n > len(m.toks) {
			continue
		}
		phrase := joinTokens(m.toks[ti:ti+n], true)
		for _, c := range w.Choices {
			if choiceHas(c, phrase) {
				matched = true
				m.match(words, wi+1, ti+n, append(args, c.Value), out)
			}
		}
	}
	if matched {
		return
	}
	tok := m.toks[ti]
	vals := choicePrefix(w, tok.Low)
	if len(vals) == 0 && m.opt.AliasWords {
		vals = choiceWord(w, tok.Low)
	}
	m.one(words, wi, ti, args, out, vals, FailChoice)
}

// one goes on with the one value the token at ti stands for, or fails:
// ambiguous with several, none with none (a filler word is just skipped).
func (m *matcher) one(words []Word, wi, ti int, args []string, out *[][]string, vals []string, none FailureKind) {
	tok := m.toks[ti]
	switch {
	case len(vals) == 1:
		m.match(words, wi+1, ti+1, append(args, vals[0]), out)
	case m.filler(tok):
	case len(vals) > 1:
		m.fail(wi, Failure{Kind: FailAmbiguous, At: ti, Word: words[wi], Token: tok, Hits: vals})
	default:
		m.fail(wi, Failure{Kind: none, At: ti, Word: words[wi], Token: tok})
	}
}

// number reads a whole number in digits ("4", "+4") or, with
// NumberWords, in words ("four").
func (m *matcher) number(s string) (int, bool) {
	if n, ok := m.opt.NumberWords[s]; ok {
		return n, true
	}
	if len(s) == 0 || len(s) > 9 {
		return 0, false
	}
	n, err := strconv.Atoi(strings.TrimPrefix(s, "+"))
	return n, err == nil
}

// reason words a failure: for a transcript, or for a player's mail
// (the formats of MailFormats).
func (m *matcher) reason(f Failure) Message {
	mail := m.opt.Mail
	switch f.Kind {
	case FailExtra:
		if mail {
			return Msg(formatExtra, joinTokens(f.Rest, false))
		}
		return Msg("unexpected %q at the end", joinTokens(f.Rest, false))
	case FailMissing:
		if f.Word.Kind == Literal {
			return Msg(formatMissingWord, f.Word.Text)
		}
		return Msg(formatMissing, f.Word.Text)
	case FailKeyword:
		return Msg(formatKeyword, f.Word.Text, f.Token.Text)
	case FailNumber:
		return Msg(formatNumber, f.Word.Text, f.Token.Text)
	case FailPlayer:
		if mail {
			return Msg(formatPlayer, f.Token.Text, strings.Join(m.players, ", "))
		}
		return Msg("%q is not a player; players are: %s", f.Token.Text, strings.Join(m.players, ", "))
	case FailChoice:
		values := strings.Join(ChoiceValues(f.Word), ", ")
		if mail {
			return Msg(formatChoice, f.Token.Text, Noun(f.Word), f.Word.Text, values)
		}
		return Msg("%q is not a %s; %s is one of: %s", f.Token.Text, strings.ToLower(f.Word.Text), f.Word.Text, values)
	case FailAmbiguous:
		if mail {
			return Msg(formatAmbiguous, f.Token.Text, OrList(f.Hits))
		}
		return Msg(formatAmbiguous, f.Token.Text, strings.Join(f.Hits, " or "))
	}
	return Message{}
}

// JoinOr joins alternatives: "a", "a or b", "a, b or c".
func JoinOr(xs []string) string {
	if len(xs) <= 1 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " or " + xs[len(xs)-1]
}

// joinTokens joins the tokens as written, or in lower case.
func joinTokens(toks []Token, low bool) string {
	parts := make([]string, len(toks))
	for i, t := range toks {
		parts[i] = t.Text
		if low {
			parts[i] = t.Low
		}
	}
	return strings.Join(parts, " ")
}

// choiceLengths lists the numbers of words of w's forms, longest first.
func choiceLengths(w Word) []int {
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

// choiceHas reports whether phrase (lower case, single spaces) is a form
// of c.
func choiceHas(c ChoiceVal, phrase string) bool {
	phrase = Fold(phrase)
	for _, f := range append([]string{c.Value}, c.Aliases...) {
		if Fold(strings.Join(strings.Fields(strings.ToLower(f)), " ")) == phrase {
			return true
		}
	}
	return false
}

// choicePrefix lists the values with a one-word, letter-led form that
// starts with tok (at least two characters).
func choicePrefix(w Word, tok string) []string {
	tok = Fold(tok)
	if len(tok) < 2 || tok[0] < 'a' || tok[0] > 'z' {
		return nil
	}
	var vals []string
	for _, c := range w.Choices {
		for _, f := range append([]string{c.Value}, c.Aliases...) {
			f = Fold(strings.ToLower(f))
			if !strings.Contains(f, " ") && strings.HasPrefix(f, tok) {
				vals = append(vals, c.Value)
				break
			}
		}
	}
	return vals
}

// choiceWord lists the values with a several-word alias that has tok as
// one of its words: "dog" is in "large dog" and "small dog".
func choiceWord(w Word, tok string) []string {
	tok = Fold(tok)
	if tok == "" || strings.IndexFunc(tok, func(r rune) bool { return r < 'a' || r > 'z' }) >= 0 {
		return nil
	}
	var vals []string
	for _, c := range w.Choices {
		for _, f := range c.Aliases {
			if slices.Contains(strings.Fields(Fold(strings.ToLower(f))), tok) {
				vals = append(vals, c.Value)
				break
			}
		}
	}
	return vals
}

// ChoiceValues lists the canonical values of a Choice word.
func ChoiceValues(w Word) []string {
	vals := make([]string, len(w.Choices))
	for i, c := range w.Choices {
		vals[i] = c.Value
	}
	return vals
}

// playerNames lists the players tok may name: the one it names exactly
// (ignoring case), else every one whose name it begins.
func playerNames(players []string, tok string) []string {
	tok = Fold(tok)
	var hits []string
	for _, p := range players {
		low := Fold(strings.ToLower(p))
		if low == tok {
			return []string{p}
		}
		if strings.HasPrefix(low, tok) {
			hits = append(hits, p)
		}
	}
	return hits
}

// Nouns is implemented by a game whose players name its things around
// its commands: "bid 4 mice", "keep the red card". A reader of players'
// mail skips these words like filler; ParseCommand does not.
type Nouns interface {
	Nouns() []string // lower case
}

// NounsOf returns the nouns of a game, or nil when it has none.
func NounsOf(r Rules) []string {
	if n, ok := r.(Nouns); ok {
		return n.Nouns()
	}
	return nil
}
