package parser

import (
	"strconv"
	"strings"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/bot"
)

// MaxBots is the most bot seats one `new` asks for: more makes a table
// where the people who started it hardly play, and every bot's move costs
// the host CPU.
const MaxBots = 5

// botWord is the canonical word of a bot seat in `new`: "bot:strong".
const botWord = "bot"

// botText writes a bot seat as `new` reads it back: "bot:normal".
func botText(l bot.Level) string { return botWord + ":" + string(l) }

// levelNames lists the bots' levels for a refusal: "easy, normal, strong".
func levelNames() string {
	var names []string
	for _, l := range bot.Levels() {
		names = append(names, string(l))
	}
	return strings.Join(names, ", ")
}

// botsOf takes the bot seats out of the words of an invitation (what
// follows "with", before "deadline"): "bot", "a bot", "2 bots", "two
// strong bots", "bot:easy". It returns the levels asked for, in order,
// and the words left for the addresses, with a separator ("and") where
// each phrase stood so that the addresses around it stay apart. why says
// what is wrong with a phrase, or is zero.
//
// Each phrase is found by its "bot"/"bots" word and read backwards: an
// optional level, then an optional count ("a", "one", "2"). A word right
// before that is neither a count nor a word that may stand between
// addresses ("and", a filler, an address) was meant as a level: "a genius
// bot" is refused rather than read as "genius", "a bot".
func (r *reader) botsOf(toks []token) (levels []bot.Level, rest []token, why engine.Message) {
	// The work is linear in the words (a line holds at most maxTokens),
	// and a count is checked before it is used, so that no phrase can
	// ask for more than MaxBots seats or overflow an int.
	end, total := len(toks), 0
	var phrases [][]bot.Level // as found, from the end
	for i := len(toks) - 1; i >= 0; i-- {
		t := toks[i]
		start := i
		var phrase []bot.Level
		if lv, ok := strings.CutPrefix(t.low, botWord+":"); ok {
			l, err := bot.ParseLevel(lv)
			if err != nil {
				return nil, nil, engine.Msg("%q is not a bot level; the levels are %s", lv, levelNames())
			}
			phrase = []bot.Level{l}
		} else {
			if (t.low != "bot" && t.low != "bots") || inDisplayName(toks, i) {
				continue
			}
			level := bot.Normal
			count, counted := 1, false
			if j := start - 1; j >= 0 {
				if l, err := bot.ParseLevel(toks[j].low); err == nil {
					level, start = l, j
				}
			}
			if j := start - 1; j >= 0 {
				n, ok, bad := botCount(toks[j].low)
				switch {
				case !bad.IsZero():
					return nil, nil, bad
				case ok:
					count, counted, start = n, true, j
				case start == i && !r.between(toks[j]):
					return nil, nil, engine.Msg("%q is not a bot level; the levels are %s", toks[j].raw, levelNames())
				}
			}
			if t.low == "bots" && !counted {
				return nil, nil, engine.Msg(`write how many bots, such as "2 bots" or "a bot"`)
			}
			phrase = make([]bot.Level, count)
			for k := range phrase {
				phrase[k] = level
			}
		}
		if total += len(phrase); total > MaxBots {
			return nil, nil, engine.Msg("a game has at most %d bots, not %d", MaxBots, total)
		}
		phrases = append(phrases, phrase)
		rest = joinTokens([]token{separator}, toks[i+1:end], rest)
		end, i = start, start
	}
	for k := len(phrases) - 1; k >= 0; k-- {
		levels = append(levels, phrases[k]...)
	}
	return levels, joinTokens(toks[:end], rest), engine.Message{}
}

// separator stands where a bot phrase was taken out of the addresses:
// addressList reads "and" as a comma between them, so that "Bob
// <b@x.test> a bot Carol <c@y.test>" keeps two addresses.
var separator = token{orig: "and", raw: "and", low: "and"}

// joinTokens returns the parts one after the other, in a fresh slice.
func joinTokens(parts ...[]token) []token {
	var out []token
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// botCount reads the count before "bot(s)": a number, in digits or
// words, or "a"/"an". ok is false for a word that is no count; bad says
// why a count is refused (below 1, above MaxBots), however many digits
// it has.
func botCount(w string) (n int, ok bool, bad engine.Message) {
	tooFew := engine.Msg("write 1 to %d bots, not %s", MaxBots, w)
	tooMany := engine.Msg("a game has at most %d bots, not %s", MaxBots, w)
	none := engine.Message{}
	v, spelled := numberWords[w]
	switch {
	case w == "a" || w == "an":
		return 1, true, none
	case spelled:
		n = v
	default:
		digits := strings.TrimPrefix(strings.TrimPrefix(w, "-"), "+")
		if digits == "" || strings.Trim(digits, "0123456789") != "" {
			return 0, false, none
		}
		digits = strings.TrimLeft(digits, "0")
		switch {
		case strings.HasPrefix(w, "-") && digits != "":
			return 0, false, tooFew
		case len(digits) > 2:
			// Not read as an int at all: it may not fit one.
			return 0, false, tooMany
		}
		n, _ = strconv.Atoi("0" + digits)
	}
	switch {
	case n < 1:
		return 0, false, tooFew
	case n > MaxBots:
		return 0, false, tooMany
	}
	return n, true, none
}

// between reports whether a word may stand right before a bot phrase
// without being part of it: "and", "with", a filler word, the end of a
// clause, an address ("bob@x.test bot", "Bob <bob@x.test> and a bot"),
// or the end of another bot phrase ("bot:easy bot", "bot bot").
func (r *reader) between(t token) bool {
	return t.low == "and" || t.low == "with" || r.grammar.filler[t.low] || t.end || strings.Contains(t.low, "@") ||
		t.low == "bot" || t.low == "bots" || strings.HasPrefix(t.low, botWord+":")
}

// inDisplayName reports whether the "bot" word toks[i] is part of the
// name of an address rather than a bot seat: "Robo Bot <robo@x.test>",
// "\"Bot\" <b@x.test>".
func inDisplayName(toks []token, i int) bool {
	if strings.ContainsAny(toks[i].orig, "\"<>") {
		return true
	}
	if i+1 < len(toks) {
		next := toks[i+1].orig
		return strings.HasPrefix(next, "<") || (strings.HasSuffix(next, "\"") && !strings.HasPrefix(next, "\""))
	}
	return false
}
