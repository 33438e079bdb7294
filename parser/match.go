package parser

import (
	"errors"
	"fmt"
	"net/mail"
	"strconv"
	"strings"
	"time"

	"github.com/pbem/pbem/engine"
)

// token is one word of a command as written.
type token struct {
	orig string // as written, punctuation included
	raw  string // without surrounding punctuation, case kept
	low  string // raw in lower case, folded (engine.Fold: "zurück" is "zurueck")
	// end is set when the word ended a clause (",", ";" or a sentence
	// end after it): a place where a line may hold the next command.
	end bool
	// plus is set when a lone "+" followed the word, dropped as a word:
	// `clock 2d + 12h` reads it (clockWords), where 2d 12h would be one
	// time.
	plus bool
}

// tokenize splits a line into words, peeling off the punctuation people
// put around them ("Pass.", "bid 4!", "*play* rabbit", "<a@x.test>,").
// Signs and inner hyphens stay: "-8", "+3", "large-dog".
func tokenize(line string) []token {
	var toks []token
	for _, f := range strings.Fields(line) {
		// Emoji around a word ("pass 👍", "pass👍") are decoration, like
		// punctuation; a word of emoji alone is dropped.
		if f = strings.TrimFunc(f, isDecoration); f == "" {
			continue
		}
		raw := strings.TrimLeft(f, "\"'([{*_<#")
		trimmed := strings.TrimRight(raw, ".,;!?:\"')]}*_>")
		clause := strings.ContainsAny(raw[len(trimmed):], ",;.!?")
		if trimmed == "" || trimmed == "-" || trimmed == "+" {
			// A lone dash separates like a comma: "pass - sorry".
			if (clause || trimmed == "-") && len(toks) > 0 {
				toks[len(toks)-1].end = true
			}
			if trimmed == "+" && len(toks) > 0 {
				toks[len(toks)-1].plus = true
			}
			continue
		}
		if trimmed == "&" {
			trimmed = "and"
		}
		toks = append(toks, token{orig: f, raw: trimmed, low: engine.Fold(strings.ToLower(trimmed)), end: clause})
	}
	return toks
}

// failure is why a command did not match, and how far it got: the
// deepest failure is the one that explains best what the player meant.
type failure struct {
	kind     ProblemKind
	says     engine.Message // the reason; zero: no failure yet
	progress int            // tokens consumed before failing
	near     []string
	// ambiguous: the word at progress could be any of near.
	ambiguous bool
	// notNow is the reason without the list of every value of the
	// game, for a player whose legal choices his answer lists anyway
	// (Problem.NotNow): "elefant" is not a card you can choose now.
	notNow engine.Message
}

type reader struct {
	grammar *compiled
	budget  int // match steps left; bounds pathological input
	best    failure
}

// maxSteps bounds the matching work per line, however the fillers and
// aliases combine.
const maxSteps = 20000

// fail keeps the failure of a lobby command's argument at progress,
// for the reason format prints with args, if it is the deepest yet.
func (r *reader) fail(progress int, near []string, format string, args ...any) {
	r.failWith(progress, near, engine.Msg(format, args...))
}

// failWith is fail for the reason m.
func (r *reader) failWith(progress int, near []string, m engine.Message) {
	if r.best.says.IsZero() || progress > r.best.progress {
		r.best = failure{kind: ProblemBadArgument, says: m, progress: progress, near: near}
	}
}

// matchAll returns every distinct command toks can be read as: the
// game's, read by the engine's grammar with the options of mail, then the
// lobby's.
func (r *reader) matchAll(toks []token) []Command {
	found := r.matchEvery(toks)
	if len(found) > 0 {
		return found
	}
	// "I'll bid 7 this time": read again without the filler phrases at
	// the ends. The failure kept is the one of the words as written.
	core, ok := r.grammar.withoutEdgeFiller(toks)
	if !ok {
		return nil
	}
	cr := &reader{grammar: r.grammar, budget: r.budget}
	found = cr.matchEvery(core)
	r.budget = cr.budget
	return found
}

// matchEvery is matchAll of the words as they are.
func (r *reader) matchEvery(toks []token) []Command {
	var found []Command
	seen := map[string]bool{}
	add := func(c Command) {
		if !seen[c.Text] {
			seen[c.Text] = true
			found = append(found, c)
		}
	}
	for _, mv := range r.matchSpecs(r.grammar.Specs, toks) {
		add(Command{Name: mv.Name, Args: mv.Args, Text: mv.Text, Move: mv})
	}
	for _, lc := range lobbyCmds {
		for _, c := range r.matchLobby(lc, toks) {
			add(c)
		}
	}
	return found
}

// matchSpecs reads toks as commands of specs with the engine's matcher,
// in the mail's configuration (filler words, number words, a lone word of
// an alias, the step budget), and keeps its failure if it is the deepest.
func (r *reader) matchSpecs(specs []engine.Spec, toks []token) []engine.Command {
	words := make([]engine.Token, len(toks))
	for i, t := range toks {
		words[i] = engine.Token{Text: t.raw, Low: t.low}
	}
	if r.budget <= 0 {
		return nil
	}
	opt := engine.MatchOptions{Filler: r.grammar.filler, NumberWords: numberWords, AliasWords: true,
		Steps: r.budget, Vocabulary: r.grammar.words, Mail: true}
	found, f := engine.Match(specs, r.grammar.Players, words, opt)
	if f.Kind != engine.NoFailure && (r.best.says.IsZero() || f.At > r.best.progress) {
		r.best = failure{kind: failureKind(f.Kind), says: f.Says, progress: f.At, near: r.near(f), ambiguous: f.Kind == engine.FailAmbiguous}
		if f.Kind == engine.FailChoice {
			r.best.notNow = engine.Msg("%q is not a %s you can choose now", f.Token.Text, engine.Noun(f.Word))
		}
	}
	return found
}

// near lists what the player probably meant where a failure stands: the
// players or values a word could be, or those it is a typo of.
func (r *reader) near(f engine.Failure) []string {
	switch f.Kind {
	case engine.FailAmbiguous:
		return f.Hits
	case engine.FailPlayer:
		return nearWords(f.Token.Low, r.grammar.Players)
	case engine.FailChoice:
		return nearChoices(f.Token.Low, f.Word)
	}
	return nil
}

// ReadMove reads text as one command of the game in a player's words
// ("bid four mice"), as Read reads a line of mail: what an admin's move
// for a player takes.
func ReadMove(text string, grammar Grammar) (engine.Command, error) {
	line := strings.Join(strings.Fields(text), " ")
	cmds, prob := compile(grammar).readLine(line, 1)
	switch {
	case prob != nil:
		msg := fmt.Sprintf("%q: %s", prob.Text, prob.Reason)
		if len(prob.DidYouMean) > 0 {
			msg += "; did you mean " + quotedOr(prob.DidYouMean) + "?"
		}
		return engine.Command{}, errors.New(msg)
	case len(cmds) != 1:
		return engine.Command{}, fmt.Errorf("%q holds %d commands, not one", line, len(cmds))
	case cmds[0].Lobby:
		return engine.Command{}, fmt.Errorf("%q is not a command of the game", line)
	}
	return cmds[0].Move, nil
}

// matchLobby reads toks as the lobby command lc: filler words, one of
// its words, then its argument.
func (r *reader) matchLobby(lc lobbyCmd, toks []token) []Command {
	var found []Command
	for k := 0; k < len(toks); k++ {
		if r.grammar.keywordOf(lc, toks[k].low) {
			if c, ok := r.lobbyArgs(lc, toks, k); ok {
				found = append(found, c)
			}
		}
		if !r.grammar.filler[toks[k].low] {
			break
		}
	}
	return found
}

// keywordOf reports whether tok names the lobby command lc: one of its
// words, or a unique prefix of one, or one of its German words whole.
func (c *compiled) keywordOf(lc lobbyCmd, tok string) bool {
	for _, w := range lc.words {
		if tok == w || (!lc.whole && c.isKeyword(w, tok)) {
			return true
		}
	}
	return isGermanWord(lc.Kind, tok)
}

// lobbyArgs reads the argument of a lobby command whose keyword is
// toks[k].
func (r *reader) lobbyArgs(lc lobbyCmd, toks []token, k int) (Command, bool) {
	rest := toks[k+1:]
	switch lc.arg {
	case choiceArg, optArg, quietArg:
		rest = inEnglish(rest, germanChoiceWords)
	case inviteArg, awayArg, addressArg:
		rest = inEnglish(rest, germanArgWords)
	}
	progress := k + 1
	words := r.meaningful(rest)
	switch lc.arg {
	case noArg:
		if len(words) > 0 {
			r.fail(progress, nil, "%q takes nothing after it, not %q", lc.Name, joinRaw(words))
			return Command{}, false
		}
		return Command{Lobby: true, Kind: lc.Kind, Name: lc.Name, Text: lc.Name}, true
	case gameArg:
		switch len(words) {
		case 0:
			return Command{Lobby: true, Kind: lc.Kind, Name: lc.Name, Text: lc.Name}, true
		case 1:
			g, ok := r.game(words[0], progress)
			if !ok {
				return Command{}, false
			}
			return Command{Lobby: true, Kind: lc.Kind, Name: lc.Name, Game: g, Args: []string{g}, Text: lc.Name + " " + g}, true
		}
		r.fail(progress, nil, "write %q with at most one game", lc.Usage)
		return Command{}, false
	case inviteArg:
		return r.invite(lc, rest, progress)
	case choiceArg:
		return r.choice(lc, words, progress)
	case optArg:
		if len(words) == 0 {
			return Command{Lobby: true, Kind: lc.Kind, Name: lc.Name, Text: lc.Name}, true
		}
		return r.choice(lc, words, progress)
	case wordArg:
		if len(rest) != 1 {
			r.fail(progress, nil, "write %q", lc.Usage)
			return Command{}, false
		}
		w := strings.Trim(rest[0].orig, ".,;:!?\"'*_ ")
		return Command{Lobby: true, Kind: lc.Kind, Name: lc.Name, Args: []string{w}, Text: lc.Name + " " + w}, true
	case sayArg:
		// In a Subject, or after another command on its line: the rest
		// of the line (Read gives a say that begins a line the rest of
		// the mail).
		parts := make([]string, len(rest))
		for i, t := range rest {
			parts[i] = t.orig
		}
		c, prob := sayCommand(strings.Join(parts, " "), 0)
		if prob != nil {
			r.failWith(progress, nil, prob.says)
			return Command{}, false
		}
		c.Line = 0
		return c, true
	case awayArg:
		// A number word that is filler too counts: "Urlaub eine Woche",
		// "vacation one week".
		return r.away(lc, r.meaningfulOrNumber(rest), progress)
	case textArg:
		return r.newName(lc, rest, progress)
	case addressArg:
		return r.address(lc, words, progress)
	case quietArg:
		return r.quiet(lc, words, progress)
	}
	return Command{}, false
}

// addWord is the word of `address add OTHER`: OTHER is added to the
// player's address, not moved to.
const addWord = "add"

// address reads `address NEW` and `address add OTHER` (a "to" before the
// address is read as nothing: "address to new@x.test"): one bare mail
// address, lower-case.
func (r *reader) address(lc lobbyCmd, words []token, progress int) (Command, bool) {
	add := len(words) > 0 && words[0].low == addWord
	if add {
		words = words[1:]
	}
	if len(words) > 1 && words[0].low == "to" {
		words = words[1:]
	}
	if len(words) != 1 {
		r.fail(progress, nil, "write one address after %q: %s", lc.Name, lc.Usage)
		return Command{}, false
	}
	addrs, bad := addressList(words)
	if bad != "" || len(addrs) != 1 || strings.HasPrefix(addrs[0], "@") {
		r.fail(progress, nil, "%q is not a mail address: %s", words[0].orig, lc.Usage)
		return Command{}, false
	}
	c := Command{Lobby: true, Kind: lc.Kind, Name: lc.Name, Addresses: addrs, AddAddress: add}
	if add {
		c.Args = []string{addWord, addrs[0]}
	} else {
		c.Args = addrs
	}
	c.Text = lc.Name + " " + strings.Join(c.Args, " ")
	return c, true
}

// choice reads the argument of a command that takes one of lc.choices
// (a prefix of two letters or more will do), and for lc.hourAfter an
// hour of the day after it.
func (r *reader) choice(lc lobbyCmd, words []token, progress int) (Command, bool) {
	here := lc.Kind == KindNotify && len(words) > 1 && words[len(words)-1].low == HereWord
	if here {
		words = words[:len(words)-1]
	}
	c, ok := r.choiceOf(lc, words, progress)
	if !ok || !here {
		return c, ok
	}
	if c.Args[0] == lc.hourAfter {
		r.fail(progress, nil, "%q covers all your games at once: write %q without %q", lc.Name+" "+c.Args[0], lc.Name+" "+c.Args[0], HereWord)
		return Command{}, false
	}
	c.ThisGame = true
	c.Args = append(c.Args, HereWord)
	c.Text += " " + HereWord
	return c, true
}

// HereWord ends `notify SETTING here`: the setting is the game's own,
// for the game of the thread the mail answers (outgoing's
// UnsubscribeCommand writes it).
const HereWord = "here"

// choiceOf reads a choice as choice does, without a trailing here.
func (r *reader) choiceOf(lc lobbyCmd, words []token, progress int) (Command, bool) {
	if len(words) == 0 || len(words) > 2 {
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
	if len(words) == 2 {
		if hits[0] != lc.hourAfter {
			r.fail(progress, nil, "write %q", lc.Usage)
			return Command{}, false
		}
		h, ok := hourOfDay(words[1].low)
		if !ok {
			r.fail(progress+1, nil, "%q is not an hour of the day: write it as 0 to 23, such as %s 19", words[1].orig, lc.Name+" "+hits[0])
			return Command{}, false
		}
		hour := strconv.Itoa(h)
		return Command{Lobby: true, Kind: lc.Kind, Name: lc.Name, Args: []string{hits[0], hour}, Text: lc.Name + " " + hits[0] + " " + hour}, true
	}
	return Command{Lobby: true, Kind: lc.Kind, Name: lc.Name, Args: hits, Text: lc.Name + " " + hits[0]}, true
}

// newName reads the new name a command such as "my name is Bob." gives.
func (r *reader) newName(lc lobbyCmd, rest []token, progress int) (Command, bool) {
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
	return Command{Lobby: true, Kind: lc.Kind, Name: lc.Name, NewName: name, Args: []string{name}, Text: lc.Name + " " + name}, true
}

// hourOfDay reads an hour of the day as people write it: "19", "7",
// "07:00", "19h", "7am", "7pm", "12am" (midnight). Minutes other than
// ":00" are refused: a digest goes out on the hour.
func hourOfDay(w string) (int, bool) {
	w = strings.TrimSuffix(strings.TrimSuffix(w, "."), "h")
	offset, twelve := 0, false
	switch {
	case strings.HasSuffix(w, "am"):
		w, twelve = strings.TrimSuffix(w, "am"), true
	case strings.HasSuffix(w, "pm"):
		w, twelve, offset = strings.TrimSuffix(w, "pm"), true, 12
	}
	w = strings.TrimSuffix(w, ":00")
	if w == "" || len(w) > 2 {
		return 0, false
	}
	h, err := strconv.Atoi(w)
	if err != nil || h < 0 || h > 23 {
		return 0, false
	}
	if twelve {
		if h < 1 || h > 12 {
			return 0, false
		}
		return h%12 + offset, true
	}
	return h, true
}

// maxNameRunes bounds a player's chosen name.
const maxNameRunes = 40

// meaningful drops filler words.
func (r *reader) meaningful(toks []token) []token {
	var out []token
	for _, t := range toks {
		if !r.grammar.filler[t.low] {
			out = append(out, t)
		}
	}
	return out
}

// vacationDate reads the date of `vacation until DATE` as YEAR-MONTH-DAY
// (2026-12-24), and after the German "bis" also as German mail writes
// it, DAY.MONTH.YEAR (24.12.2026); it writes it as YEAR-MONTH-DAY. In
// English a date such as 12.06.2026 may be either way round.
func vacationDate(w string, german bool) (string, bool) {
	layouts := []string{time.DateOnly}
	if german {
		layouts = append(layouts, "2.1.2006")
	}
	for _, layout := range layouts {
		if d, err := time.Parse(layout, w); err == nil {
			return d.Format(time.DateOnly), true
		}
	}
	return "", false
}

// meaningfulOrNumber drops filler words but for numbers ("one", "eine").
func (r *reader) meaningfulOrNumber(toks []token) []token {
	var out []token
	for _, t := range toks {
		if _, number := numberWords[t.low]; number || !r.grammar.filler[t.low] {
			out = append(out, t)
		}
	}
	return out
}

// game resolves a game's name, by unique prefix of two letters or more.
func (r *reader) game(t token, progress int) (string, bool) {
	if len(r.grammar.Games) == 0 {
		if isLetters(t.low) {
			return t.low, true
		}
		r.fail(progress, nil, "%q is not a game's name", t.raw)
		return "", false
	}
	var hits []string
	for _, g := range r.grammar.Games {
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
		r.fail(progress, hits, "%q could be %s", t.raw, engine.OrList(hits))
		return "", false
	}
	r.fail(progress, nearWords(t.low, r.grammar.Games), "%q is not a game; the games are %s", t.raw, strings.Join(r.grammar.Games, ", "))
	return "", false
}

// invite reads "new GAME with ADDRESS...": the game, an optional "with",
// then one or more addresses, bare ("a@x.test") or with a name ("Dave
// <dave@w.test>"), separated by spaces, commas or "and", and bot seats
// among them (botsOf); bots alone need no address.
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
	for len(rest) > 0 && (r.grammar.filler[rest[0].low] || r.grammar.isKeyword("with", rest[0].low)) {
		rest = rest[1:]
	}
	weekends, rest := weekendsOff(rest)
	// "deadline 48h" or "clock 2d+12h max 5d" after the addresses sets
	// the game's time; no address is either word, so neither can be one.
	deadline, clock, rest, badTime := timeOption(rest)
	if !badTime.IsZero() {
		r.fail(progress+1, nil, "%s: %s", badTime, lc.Usage)
		return Command{}, false
	}
	// The bot seats may stand anywhere among the addresses: "bob@x.test
	// and a strong bot", "2 bots, carol@y.test".
	bots, rest, why := r.botsOf(rest)
	if !why.IsZero() {
		r.fail(progress+1, nil, "%s: %s", why, lc.Usage)
		return Command{}, false
	}
	var list []string
	if len(r.meaningful(rest)) == 0 {
		// Bots alone are a game: the sender plays against them.
		if len(bots) == 0 {
			r.fail(progress+1, nil, "write the players' email addresses: %s", lc.Usage)
			return Command{}, false
		}
	} else {
		var bad string
		if list, bad = addressList(rest); bad != "" {
			r.fail(progress+1, nil, "%q is not an email address: %s", bad, lc.Usage)
			return Command{}, false
		}
	}
	var addrs []string
	seen := map[string]bool{}
	for _, a := range list {
		if !seen[a] {
			seen[a] = true
			addrs = append(addrs, a)
		}
	}
	// Canonical: the addresses, then the bots in the order asked.
	seats := append([]string(nil), addrs...)
	for _, b := range bots {
		seats = append(seats, botText(b))
	}
	text := lc.Name + " " + g + " with " + strings.Join(seats, " ")
	args := append([]string{g}, seats...)
	if deadline > 0 {
		text += " " + deadlineWord + " " + DeadlineText(deadline)
		args = append(args, deadlineWord, DeadlineText(deadline))
	}
	if clock.On() {
		text += " " + clockWord + " " + ClockText(clock)
		args = append(append(args, clockWord), strings.Fields(ClockText(clock))...)
	}
	if weekends {
		text += " " + weekendsWord + " " + offWord
		args = append(args, weekendsWord, offWord)
	}
	return Command{Lobby: true, Kind: lc.Kind, Name: lc.Name, Game: g, Addresses: addrs, Bots: bots, Deadline: deadline, Clock: clock, WeekendsOff: weekends, Args: args, Text: text}, true
}

// deadlineWord introduces a game's own time per decision in `new`.
const deadlineWord = "deadline"

// The range of a game's own time per decision: less than an hour is no
// time to read a mail, and more than two weeks keeps the other players
// waiting on one who left.
const (
	MinDeadline = time.Hour
	MaxDeadline = 14 * 24 * time.Hour
)

// readDeadline reads the words after "deadline": one or more whole
// numbers, each with its unit, joined ("36h") or not ("2 days 12
// hours"). why says what is wrong, or is zero.
func readDeadline(toks []token) (d time.Duration, why engine.Message) {
	form := engine.Msg("write the time for each decision after \"deadline\", between 1 hour and 14 days, such as 48h, 36 hours, 2d or 3 days")
	var words []string
	for _, t := range toks {
		if t.low != "" && t.low != "and" {
			words = append(words, t.low)
		}
	}
	if len(words) == 0 {
		return 0, form
	}
	d, ok := sumDurationWords(words)
	if !ok {
		return 0, form
	}
	if d < MinDeadline || d > MaxDeadline {
		return 0, engine.Msg("a game's deadline is between 1 hour and 14 days, not %s", joinRaw(toks))
	}
	return d, engine.Message{}
}

// DeadlineText writes a time per decision as `new` reads it back: "48h",
// "90m", and "168h 1m" where the minutes alone would be a number too
// large to read back (maxDurationNumber).
func DeadlineText(d time.Duration) string {
	hours := strconv.FormatInt(int64(d/time.Hour), 10) + "h"
	minutes := strconv.FormatInt(int64(d%time.Hour/time.Minute), 10) + "m"
	switch {
	case d%time.Hour == 0:
		return hours
	case d/time.Minute <= maxDurationNumber:
		return strconv.FormatInt(int64(d/time.Minute), 10) + "m"
	}
	return hours + " " + minutes
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
		a, err := mail.ParseAddress(peelAddress(t.orig))
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

// peelAddress takes off what people write around a bare address ("<a@x.test>,",
// "(a@x.test).", "*a@x.test*"), but not the characters an address may begin
// with: tokenize's raw form peels "#", "_", "*" and "'" from the front of any
// word, which would turn "_bob@x.test" into bob@x.test, another address
// altogether. A pair ("*...*", "'...'") is peeled as a pair; "<", "(", "[" and
// a double quote never begin a bare address, and an address ends with its
// domain, which none of the trailing marks ends.
func peelAddress(w string) string {
	const sentence = ".,;!?:"
	const opens, closes = "<\"([{*_'", ">\")]}*_'"
	w = strings.TrimRight(w, sentence)
	for len(w) >= 2 {
		i := strings.IndexByte(opens, w[0])
		if i < 0 || w[len(w)-1] != closes[i] {
			break
		}
		w = strings.TrimRight(w[1:len(w)-1], sentence)
	}
	w = strings.TrimLeft(w, "<\"([")
	return strings.TrimRight(w, closes+sentence)
}

func joinRaw(toks []token) string {
	parts := make([]string, len(toks))
	for i, t := range toks {
		parts[i] = t.raw
	}
	return strings.Join(parts, " ")
}

// maxAwayDays bounds what `vacation N` reads; the daemon holds each
// player to the service's allowance, which is far less.
const maxAwayDays = 366

// away reads the argument of `vacation`: a number of days ("5d", "5
// days", "5"), of weeks ("2w", "2 weeks"), or "until" and a date
// (YYYY-MM-DD). The Command's Args are {"days", N} or {"until", DATE}.
func (r *reader) away(lc lobbyCmd, words []token, progress int) (Command, bool) {
	if len(words) == 2 && (words[0].low == "until" || words[0].low == "till") {
		german := strings.EqualFold(words[0].raw, germanUntil)
		date, ok := vacationDate(strings.TrimSuffix(words[1].low, "."), german)
		if !ok {
			r.fail(progress+1, nil, "%q is not a date: write it as YEAR-MONTH-DAY, such as vacation until 2026-12-24", words[1].orig)
			return Command{}, false
		}
		return Command{Lobby: true, Kind: lc.Kind, Name: lc.Name, Args: []string{"until", date}, Text: lc.Name + " until " + date}, true
	}
	var num, unit string
	switch len(words) {
	case 1:
		w := strings.TrimSuffix(words[0].low, ".")
		i := strings.IndexFunc(w, func(c rune) bool { return c < '0' || c > '9' })
		if i < 0 {
			i = len(w)
		}
		num, unit = w[:i], w[i:]
	case 2:
		num, unit = words[0].low, strings.TrimSuffix(words[1].low, ".")
	}
	n, err := strconv.Atoi(num)
	if v, ok := numberWords[num]; ok {
		n, err = v, nil
	}
	per := 0
	switch unit {
	case "", "d", "day", "days", "tag", "tage", "tagen":
		per = 1
	case "w", "week", "weeks", "woche", "wochen":
		per = 7
	}
	if err != nil || per == 0 {
		r.fail(progress, nil, "write %q, such as vacation 5d, vacation 2w or vacation until 2026-12-24", lc.Usage)
		return Command{}, false
	}
	days := n * per
	if days < 1 || days > maxAwayDays {
		r.fail(progress, nil, "a vacation is 1 to %d days, not %d", maxAwayDays, days)
		return Command{}, false
	}
	d := strconv.Itoa(days)
	return Command{Lobby: true, Kind: lc.Kind, Name: lc.Name, Args: []string{"days", d}, Text: lc.Name + " " + d + "d"}, true
}
