package parser

import (
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/bot"
)

// Command is one command read from a mail, in canonical form.
type Command struct {
	// Lobby is set for the commands that need no game (help, new, join,
	// ...); otherwise it is a command of the game's Specs and Move holds
	// it for Game.Apply.
	Lobby bool
	// Kind is the lobby command (KindNew, KindResign), or KindMove for
	// a command of the game: what the daemon dispatches on.
	Kind Kind
	// Name is the lobby command's name ("new", "resign") or the game
	// Spec's name ("bid").
	Name string
	// Args are the canonical arguments: the game command's (as in
	// Move.Args); for `rules` the game, for `new` the game, the
	// addresses, a "bot:LEVEL" for each bot (and "deadline", "48h", or
	// "clock", "2d+12h", "max", "5d", when given), for `name` the new
	// name.
	Args []string
	// Text is the canonical text: "bid 4", "take 2 keep red give bob",
	// "new felix with a@x.test b@y.test bot:normal", "resign".
	Text string
	// Lobby arguments, spelt out.
	Game      string   // rules, new: the game named ("" for plain `rules`)
	Addresses []string // new: the invited addresses, lower-case, in order; address: the one address
	// AddAddress is set for `address add OTHER`: OTHER is added to the
	// player's address, not moved to.
	AddAddress bool
	// ThisGame is set for `notify SETTING here`: the setting is the
	// game's own, for the game of the thread, not the player's.
	ThisGame bool
	NewName  string // name: the new name as written
	// Bots are new's bot seats, in the order asked ("a strong bot",
	// "2 bots", "bot:easy"; normal when no level is given), at most
	// MaxBots; nil when none. With bots, Addresses may be empty.
	Bots []bot.Level
	// Deadline is new's time for each decision ("deadline 48h"), between
	// MinDeadline and MaxDeadline; zero when not given (the service's).
	Deadline time.Duration
	// Clock is new's time bank ("clock 2d+12h max 5d"); off (Clock.On)
	// when not given. A game has a Deadline or a Clock, never both.
	Clock Clock
	// WeekendsOff is new's "weekends off": the game's clocks stop on
	// Saturday and Sunday.
	WeekendsOff bool
	// Said is what `say` tells the table: the player's words,
	// sanitized (SanitizeText) and at most MaxSayRunes long. It is
	// never in Text, which logs may show.
	Said string
	// Move is a game command, ready for Game.Apply.
	Move engine.Command
	// Line is the line of the text read (1-based) and Source the words
	// the player wrote there for this command.
	Line   int
	Source string
}

func (c Command) String() string { return c.Text }

// Problem explains why Read stopped before the end of the text, or found
// no command at all.
type Problem struct {
	// Kind is what kind of problem it is, in words that hold nothing of
	// the player's: what is logged and stored.
	Kind ProblemKind
	// Line is the line (1-based) of the text that was not understood; 0
	// when the text held no command at all.
	Line int
	// Text is what was not understood, as the player wrote it.
	Text string
	// Reason says why in plain words, in English (ToldMessage holds it
	// for a player who reads another language).
	Reason string
	// DidYouMean lists the commands (canonical, ready to copy) or words
	// the player probably meant.
	DidYouMean []string
	// Usages lists every command of the language: "bid N", "help".
	Usages []string
	// NotNow, when set, is what the player is told instead of Reason:
	// why the line is not a command he may give now, worded with what
	// Grammar.Legal allows ("neither "play large-dog" nor "play
	// small-dog" is possible now"). It speaks of his hidden state (his
	// hand), so it is for his answer only: Error, which logs and stored
	// details use, never holds it.
	NotNow string
	// Read is how many commands were read before the problem. They are
	// valid: the daemon applies them and tells the player the rest was
	// ignored.
	Read int
	// says and notNow are Reason and NotNow as messages, for a player
	// who reads another language (ToldMessage).
	says, notNow engine.Message
}

// Error is the problem as pbem logs and stores it: its kind and line,
// never the player's words, the options or the suggestions (see
// ProblemKind). Explain is what the player is told.
func (p *Problem) Error() string {
	kind := p.Kind
	if kind == "" {
		kind = ProblemUnknown
	}
	if p.Line == 0 {
		return string(kind)
	}
	return fmt.Sprintf("line %d: %s", p.Line, kind)
}

// Told is the reason as the player is told it: NotNow when set, else
// Reason.
func (p *Problem) Told() string {
	if p.NotNow != "" {
		return p.NotNow
	}
	return p.Reason
}

// ToldMessage is Told as a message, for a player who reads another
// language than English (issue 39): its String is Told. ok is false
// when the problem has none that prints Told (a Problem made, or
// changed, outside this package): Told is all there is to say.
func (p *Problem) ToldMessage() (m engine.Message, ok bool) {
	m = p.says
	if p.NotNow != "" {
		m = p.notNow
	}
	if m.IsZero() || m.String() != p.Told() {
		return engine.Message{}, false
	}
	return m, true
}

// setReason sets the problem's Reason to the message m.
func (p *Problem) setReason(m engine.Message) {
	p.says, p.Reason = m, m.String()
}

// setNotNow sets the problem's NotNow to the message m, or clears it
// when m is zero.
func (p *Problem) setNotNow(m engine.Message) {
	p.notNow, p.NotNow = m, m.String()
}

// problem is a Problem of kind at line lineNo (0: none) about text,
// for the reason m.
func problem(kind ProblemKind, lineNo int, text string, m engine.Message) *Problem {
	p := &Problem{Kind: kind, Line: lineNo, Text: text}
	p.setReason(m)
	return p
}

// Explain is the problem as pbem tells it to the player.
func (p *Problem) Explain() string {
	var b strings.Builder
	switch {
	case p.Line == 0:
		b.WriteString("pbem found no command in your message. ")
		b.WriteString("Write each command on its own line at the top of your reply, above the quoted text")
		if len(p.Usages) > 0 {
			fmt.Fprintf(&b, ", for example %q", p.Usages[0])
		}
		b.WriteString(".\n")
	case p.Read > 0:
		fmt.Fprintf(&b, "pbem read the first %s of your message and stopped at line %d, which it did not understand:\n", engine.Plural(p.Read, "command", "commands"), p.Line)
		fmt.Fprintf(&b, "    %s\n%s.", p.Text, capitalize(p.Told()))
		if len(p.DidYouMean) > 0 {
			fmt.Fprintf(&b, " Did you mean %s?", quotedOr(p.DidYouMean))
		}
		b.WriteString("\nThe rest of your message was ignored.\n")
	default:
		fmt.Fprintf(&b, "pbem did not understand line %d of your message:\n", p.Line)
		fmt.Fprintf(&b, "    %s\n%s.", p.Text, capitalize(p.Told()))
		if len(p.DidYouMean) > 0 {
			fmt.Fprintf(&b, " Did you mean %s?", quotedOr(p.DidYouMean))
		}
		b.WriteString("\nNothing was done.\n")
	}
	if len(p.Usages) > 0 {
		fmt.Fprintf(&b, "Commands: %s.\n", strings.Join(p.Usages, ", "))
	}
	b.WriteString(`Send "help" for every command with examples.` + "\n")
	return b.String()
}

// Limits that keep reading cheap whatever a message holds.
const (
	// MaxCommands is the most commands Read takes from one text.
	MaxCommands = 50
	// maxLineBytes and maxTokens: a longer line is prose, not a command.
	maxLineBytes = 400
	maxTokens    = 30
	// maxClauseSpan is the most clauses one command may span when a line
	// is split at commas: "take 2, keep red, give bob".
	maxClauseSpan = 4
)

// Read reads the commands in a player's text (Message.Text), top down:
//
//   - Blank lines are skipped. Each line holds one command; a line may
//     hold several separated by ";", ",", a sentence end, "and" or
//     "then" ("play rabbit, bid 4"), read greedily so that a command
//     written with commas ("take 2, keep red, give bob") stays one.
//   - Case does not matter; keywords, card names and game names may be
//     shortened to a unique prefix of two letters or more, player names
//     to any unique prefix. Filler words (see fillerWords) are skipped
//     where the rest still reads as exactly one command.
//   - A first line that is a short greeting ("Hi all,", "Hello bob!")
//     is skipped. A sign-off ("Thanks!", "Cheers, Alice", "S
//     pozdravem") or a line that names a phone or a mail app ("Отправлено
//     с iPhone") ends the commands quietly where no command follows it
//     within maxSignatureLines; a command right below it is read, and
//     one further down is reported, not lost unseen (afterSignoff).
//   - Reading stops at the first text that is not a command. The
//     commands read before it are returned with a Problem saying what
//     was not understood; with no command read at all, the Problem
//     explains, with "did you mean" and the valid commands.
//
// The Problem is nil only when the whole text was read and held at least
// one command.
func Read(text string, grammar Grammar) ([]Command, *Problem) {
	return compile(grammar).read(text, nil)
}

// read reads text after the commands already read (those of the
// Subject, for ReadMessage): they count towards MaxCommands and Read.
func (c *compiled) read(text string, cmds []Command) ([]Command, *Problem) {
	grammar := c.Grammar
	seenContent := false
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		t := withoutListMarker(strings.TrimSpace(line))
		if _, ok := firstToken(t); !ok {
			continue
		}
		first := !seenContent
		seenContent = true
		if isSay(t) {
			// say takes the rest of the mail, which may run over many
			// lines that read as no command: reading ends with it.
			said := strings.Join(append([]string{sayRest(t)}, lines[i+1:]...), "\n")
			cmd, prob := sayCommand(said, i+1)
			if prob != nil {
				prob.Read = len(cmds)
				prob.Usages = grammar.Usages()
				return cmds, prob
			}
			cmds = append(cmds, cmd)
			if len(cmds) > MaxCommands {
				return cmds[:MaxCommands], tooMany(i+1, clip(t), grammar)
			}
			return cmds, nil
		}
		got, prob := c.readLine(t, i+1)
		cmds = append(cmds, got...)
		if len(cmds) > MaxCommands {
			return cmds[:MaxCommands], tooMany(i+1, t, grammar)
		}
		if prob == nil {
			continue
		}
		if isSignoff(prob.Text) || isDeviceFooter(prob.Text) {
			effect := c.afterSignoff(lines[i+1:])
			if effect == signoffCloses {
				break
			}
			if effect == signoffSkipped {
				continue
			}
		}
		if first && len(got) == 0 && c.isGreeting(t) {
			continue
		}
		prob.Read = len(cmds)
		prob.Usages = grammar.Usages()
		return cmds, prob
	}
	if len(cmds) == 0 {
		p := problem(ProblemNoCommand, 0, "", engine.Msg("no command found in the message"))
		p.Usages = grammar.Usages()
		return nil, p
	}
	return cmds, nil
}

// tooMany is the problem of a text with more than MaxCommands commands,
// at line lineNo.
func tooMany(lineNo int, text string, grammar Grammar) *Problem {
	p := problem(ProblemTooMany, lineNo, text, engine.Msg("pbem reads at most %d commands from one message", MaxCommands))
	p.Read, p.Usages = MaxCommands, grammar.Usages()
	return p
}

// firstToken returns the first word of a line that tokenize keeps, and
// false when there is none. It tokenizes one field at a time and stops
// at that word: tokenizing all of a 1 MB line to see whether it is blank
// or starts with say made 122 MB of tokens.
func firstToken(line string) (token, bool) {
	for line != "" {
		line = strings.TrimLeftFunc(line, unicode.IsSpace)
		end := strings.IndexFunc(line, unicode.IsSpace)
		if end < 0 {
			end = len(line)
		}
		if toks := tokenize(line[:end]); len(toks) > 0 {
			return toks[0], true
		}
		line = line[end:]
	}
	return token{}, false
}

// readLine reads one non-blank line: one command, or several separated
// by clause ends. It returns the commands read and, if it stopped early,
// a Problem about the rest of the line.
func (c *compiled) readLine(line string, lineNo int) ([]Command, *Problem) {
	if len(line) > maxLineBytes {
		// Before tokenizing it: a line of 1 MB made 122 MB of tokens.
		return nil, problem(ProblemTooLong, lineNo, clip(line), engine.Msg("this is too long to be a command"))
	}
	toks := tokenize(line)
	if len(toks) > maxTokens {
		return nil, problem(ProblemTooLong, lineNo, clip(line), engine.Msg("this is too long to be a command"))
	}
	r := &reader{grammar: c, budget: maxSteps}
	found := r.matchAll(toks)
	switch {
	case len(found) == 1:
		return []Command{at(found[0], lineNo, line)}, nil
	case len(found) > 1:
		return nil, c.ambiguous(found, lineNo, line)
	}
	pieces := clauses(toks)
	if len(pieces) < 2 {
		return nil, c.diagnose(r, toks, lineNo, line)
	}
	var cmds []Command
	for i := 0; i < len(pieces); {
		j := min(len(pieces), i+maxClauseSpan)
		for ; j > i; j-- {
			seg := concat(pieces[i:j])
			sr := &reader{grammar: c, budget: maxSteps}
			f := sr.matchAll(seg)
			// An invitation or a name runs to the end of its line:
			// half an address list must not start a game.
			if len(f) == 1 && (j == len(pieces) || !takesRest(f[0])) {
				cmds = append(cmds, at(f[0], lineNo, joinOrig(seg)))
				break
			}
		}
		if j == i {
			rest := concat(pieces[i:])
			if len(cmds) == 0 {
				// Nothing of the line reads: explain the whole line.
				return nil, c.diagnose(r, toks, lineNo, line)
			}
			rr := &reader{grammar: c, budget: maxSteps}
			if f := rr.matchAll(rest); len(f) > 1 {
				return cmds, c.ambiguous(f, lineNo, joinOrig(rest))
			}
			return cmds, c.diagnose(rr, rest, lineNo, joinOrig(rest))
		}
		i = j
	}
	return cmds, nil
}

// takesRest reports whether a command's argument is the rest of its line.
func takesRest(c Command) bool {
	return c.Kind == KindNew || c.Kind == KindName || c.Kind == KindSay
}

func at(c Command, line int, source string) Command {
	c.Line = line
	c.Source = source
	return c
}

// ambiguous explains a line that reads as several commands. The reason
// names them all; only those allowed now are suggested.
func (c *compiled) ambiguous(found []Command, lineNo int, text string) *Problem {
	texts := make([]string, len(found))
	var ok []string
	for i, f := range found {
		texts[i] = f.Text
		if c.allowed(f) {
			ok = append(ok, f.Text)
		}
	}
	p := problem(ProblemAmbiguous, lineNo, text, engine.Msg("this could mean %s", quotedOrList(texts)))
	p.DidYouMean = ok
	return p
}

// clauses splits a line's words where a clause ends: after ",", ";" or a
// sentence end, and at "and", "then" and "&" (German "und", "dann").
func clauses(toks []token) [][]token {
	var out [][]token
	var cur []token
	for _, t := range toks {
		if t.low == "and" || t.low == "then" || t.low == "und" || t.low == "dann" {
			if len(cur) > 0 {
				out = append(out, cur)
				cur = nil
			}
			continue
		}
		cur = append(cur, t)
		if t.end {
			out = append(out, cur)
			cur = nil
		}
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

func concat(pieces [][]token) []token {
	var out []token
	for _, p := range pieces {
		out = append(out, p...)
	}
	return out
}

func joinOrig(toks []token) string {
	parts := make([]string, len(toks))
	for i, t := range toks {
		parts[i] = t.orig
	}
	return strings.Join(parts, " ")
}

// diagnose explains why toks is not a command, using the deepest failure
// the matcher met and looking for what the player probably meant.
func (c *compiled) diagnose(r *reader, toks []token, lineNo int, text string) *Problem {
	p := &Problem{Kind: ProblemUnknown, Line: lineNo, Text: clip(text)}
	k := 0
	for k < len(toks) && c.filler[toks[k].low] {
		k++
	}
	if k == len(toks) {
		p.setReason(notACommand)
		return p
	}
	word := toks[k]
	kws := c.keywords(word.low)
	switch {
	case len(kws) > 1:
		p.Kind = ProblemAmbiguousWord
		p.setReason(engine.Msg("%q could be %s", word.raw, engine.OrList(kws)))
		p.DidYouMean = c.allowedWords(kws)
	case len(kws) == 1 && kws[0] != word.low && strings.HasPrefix(kws[0], word.low) && c.wholeOnly(kws[0]):
		// A prefix: "resig". Not the command's word in German
		// ("Urlaub"), which is written in full.
		p.Kind = ProblemAbbreviated
		p.setReason(engine.Msg("write %q in full", kws[0]))
		p.DidYouMean = kws
	case len(kws) == 1 && !c.starts(kws[0]):
		uses := c.usesOf(kws[0])
		p.Kind = ProblemMisplaced
		p.setReason(engine.Msg("%q only comes inside %s", word.raw, quotedOrList(uses)))
		p.DidYouMean = uses
	case len(kws) == 1:
		if r.best.says.IsZero() {
			p.setReason(notACommand)
		} else {
			p.setReason(r.best.says)
			p.Kind = r.best.kind
		}
		p.DidYouMean = c.retry(toks, r.best.progress, r.best.near)
		if r.best.ambiguous && len(p.DidYouMean) == 0 {
			p.setNotNow(c.noneLegal(toks, r.best.progress, r.best.near))
		}
		if !r.best.notNow.IsZero() && c.legality() != nil {
			// Not every card of the game: the answer lists what he
			// may choose now, and no card out of his hand.
			p.setNotNow(r.best.notNow)
		}
	default:
		p.setReason(engine.Msg("%q is not a command", word.raw))
		p.DidYouMean = c.guess(toks, k)
	}
	return p
}

// starts reports whether some command begins with the keyword kw.
func (c *compiled) starts(kw string) bool {
	for _, s := range c.Specs {
		if len(s.Words) > 0 && s.Words[0].Kind == engine.Literal && strings.EqualFold(s.Words[0].Text, kw) {
			return true
		}
	}
	for _, lc := range lobbyCmds {
		for _, w := range lc.words {
			if w == kw {
				return true
			}
		}
	}
	return false
}

// wholeOnly reports whether kw names a lobby command taken only in full.
func (c *compiled) wholeOnly(kw string) bool {
	for _, lc := range lobbyCmds {
		if lc.whole && slices.Contains(lc.words, kw) {
			return true
		}
	}
	return false
}

// usesOf lists the usages of the commands that contain keyword kw and
// may be suggested now.
func (c *compiled) usesOf(kw string) []string {
	var out []string
	for _, s := range c.Specs {
		if !c.allowedSpec(s) {
			continue
		}
		for _, w := range s.Words {
			if w.Kind == engine.Literal && strings.EqualFold(w.Text, kw) {
				out = append(out, s.Usage())
				break
			}
		}
	}
	if kw == "with" {
		lc, _ := lobbyByKind(KindNew)
		out = append(out, lc.Usage)
	}
	return out
}

// retry turns the near words of a failure into whole commands: the line
// with the failing word replaced by each, where that reads.
func (c *compiled) retry(toks []token, at int, near []string) []string {
	var out []string
	for _, n := range near {
		if at >= len(toks) {
			break
		}
		alt := append([]token(nil), toks...)
		alt[at] = token{orig: n, raw: n, low: strings.ToLower(n)}
		r := &reader{grammar: c, budget: maxSteps}
		if f := r.matchAll(alt); len(f) == 1 {
			if c.allowed(f[0]) {
				out = append(out, f[0].Text)
			}
		} else if c.allowedWord(n) {
			out = append(out, n)
		}
	}
	return out
}

// noneLegal words an ambiguous word none of whose readings is legal now:
// "play dog" when neither dog may be played is not "could be large-dog
// or small-dog", as if both were possible, but `neither "play large-dog"
// nor "play small-dog" is possible now`. It returns no message when
// legality is not known, or the readings are not whole commands.
func (c *compiled) noneLegal(toks []token, at int, near []string) engine.Message {
	if c.legality() == nil || at >= len(toks) || len(near) < 2 {
		return engine.Message{}
	}
	var readings []string
	for _, n := range near {
		alt := append([]token(nil), toks...)
		alt[at] = token{orig: n, raw: n, low: strings.ToLower(n)}
		r := &reader{grammar: c, budget: maxSteps}
		f := r.matchAll(alt)
		if len(f) != 1 || c.allowed(f[0]) {
			return engine.Message{}
		}
		readings = append(readings, fmt.Sprintf("%q", f[0].Text))
	}
	if len(readings) == 2 {
		return engine.Msg("neither %s nor %s is possible now", readings[0], readings[1])
	}
	return engine.Msg("none of %s is possible now", engine.OrList(readings))
}

// guess finds what a line starting with an unknown word toks[k] probably
// meant: the word as a misspelt keyword ("bif 4": "bid 4"), or the line
// as a game command's argument without its keyword ("rabbit": "play
// rabbit", "4": "bid 4").
func (c *compiled) guess(toks []token, k int) []string {
	var out []string
	seen := map[string]bool{}
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, kw := range nearWords(toks[k].low, c.vocab) {
		alt := append([]token(nil), toks...)
		alt[k] = token{orig: kw, raw: kw, low: kw}
		r := &reader{grammar: c, budget: maxSteps}
		if f := r.matchAll(alt); len(f) == 1 {
			if c.allowed(f[0]) {
				add(f[0].Text)
			}
		} else if c.starts(kw) && c.allowedWord(kw) {
			add(kw)
		}
	}
	for _, s := range c.Specs {
		if len(s.Words) < 2 || s.Words[0].Kind != engine.Literal {
			continue
		}
		kw := strings.ToLower(s.Words[0].Text)
		alt := append([]token{{orig: kw, raw: kw, low: kw}}, toks[k:]...)
		r := &reader{grammar: c, budget: maxSteps}
		if f := r.matchSpecs([]engine.Spec{s}, alt); len(f) == 1 {
			if c.allowed(Command{Name: f[0].Name, Text: f[0].Text}) {
				add(f[0].Text)
			}
		}
	}
	return out
}

func quotedOr(xs []string) string { return quotedOrList(xs).String() }

// quotedOrList is xs quoted, as alternatives: `"a", "b" or "c"`.
func quotedOrList(xs []string) engine.OrList {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = fmt.Sprintf("%q", x)
	}
	return engine.OrList(q)
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	if s[0] >= 'a' && s[0] <= 'z' {
		return string(s[0]-'a'+'A') + s[1:]
	}
	return s
}

// clip shortens a long text for a message.
func clip(s string) string {
	const max = 80
	if len(s) <= max {
		return s
	}
	r := []rune(s)
	if len(r) <= max {
		return s
	}
	return string(r[:max]) + "..."
}
