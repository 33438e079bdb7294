package admin

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/pbem/pbem/parser"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// actDoc is one row of the admin's command table.
type actDoc struct {
	word    Word
	args    string // what follows the act's word: "PLAYER DURATION", "[REASON]"
	need    int    // how many words of args it must have
	example string // the example's words after GAME ACT: "bob 24h", or ""
	help    string // what the example does
}

// acts is the admin's command language, by mail and on the command line
// alike, in the order Usage lists it: the one table of the acts' words,
// their arguments and their help.
var acts = []actDoc{
	{Extend, templates.Say.ExtendArgs(), 2, "bob 24h", templates.Say.ExtendHelp()},
	{Move, templates.Say.MoveArgs(), 2, "bob pass", templates.Say.MoveHelp()},
	{Replace, templates.Say.ReplaceArgs(), 2, "bob rob@example.org", templates.Say.ReplaceHelp()},
	{Pause, "[REASON]", 0, "", templates.Say.PauseHelp()},
	{Resume, "[REASON]", 0, "", templates.Say.ResumeHelp()},
	{Abort, "[REASON]", 0, "", templates.Say.AbortHelp()},
	{Retry, "", 0, "", templates.Say.RetryHelp()},
	{Undo, "PLAYER", 1, "bob", templates.Say.UndoHelp()},
	{Unrate, "", 0, "", templates.Say.UnrateHelp()},
}

// Usage is the admin's command language, by mail and on the command line
// alike, two lines an act: GAME is the game's number, as in the
// examples. It is shown as written, not through the players' help (which
// would take GAME for a game's name).
func Usage() []string {
	var out []string
	for _, d := range acts {
		out = append(out, strings.TrimSpace("GAME "+d.form()), templates.Say.AdminActExample(strings.TrimSpace(string(d.word)+" "+d.example), d.help))
	}
	return out
}

// form is the act as the admin writes it after the game's number.
func (d actDoc) form() string { return strings.TrimSpace(string(d.word) + " " + d.args) }

// actList names the acts, "extend, move, ... and unrate".
func actList() string {
	var names []string
	for _, d := range acts {
		names = append(names, string(d.word))
	}
	return templates.Say.JoinAnd(names)
}

// Parse reads one admin act: its word, as written, and the words after
// it. A mistake in them is refused (ErrRefused).
func Parse(word string, params []string) (Act, error) {
	w := Word(word)
	for _, d := range acts {
		if d.word == w && len(params) < d.need {
			return nil, refuse(templates.Say.AdminActUsage(d.form()))
		}
	}
	switch w {
	case Extend:
		by := strings.Join(params[1:], " ")
		d, ok := extendBy(by)
		if !ok {
			return nil, refuse(templates.Say.NotADuration(by))
		}
		return ExtendAct{Who: params[0], By: d}, nil
	case Move:
		return MoveAct{Who: params[0], Command: strings.Join(params[1:], " ")}, nil
	case Replace:
		return ReplaceAct{Who: params[0], Address: params[1]}, nil
	case Pause, Resume, Abort:
		return StatusAct{To: w, Reason: strings.Join(params, " ")}, nil
	case Retry:
		return RetryAct{}, nil
	case Undo:
		return UndoAct{Who: params[0]}, nil
	case Unrate:
		return UnrateAct{}, nil
	}
	return nil, refuse(templates.Say.NotAnAdminAct(word, actList()))
}

// extendBy reads an extension's duration as the configuration does: as
// Go writes it ("36h") or as a mail's deadline does ("2 days", "1 day
// and 12 hours", parser.ParseDuration). ExtendAct refuses one that is
// not positive.
func extendBy(s string) (time.Duration, bool) {
	d, err := time.ParseDuration(s)
	if err != nil {
		var ok bool
		if d, ok = parser.ParseDuration(s); !ok {
			return 0, false
		}
	}
	return d, true
}

// ErrNoGame is ReadLine's error for a line that does not start with a
// game's number and an act: the admin's mail is read no further.
var ErrNoGame = errors.New("admin: not GAME ACT")

// Line is one line of an admin's mail, read.
type Line struct {
	Game int64 // the game's number
	Act  Act   // nil for a line that asks nothing: blank, or help
}

// ReadLine reads one line of an admin's mail, "GAME ACT ...", the act's
// word in any case. A line that is not GAME ACT is ErrNoGame; a mistake
// in the act's words is refused (ErrRefused).
func ReadLine(line string) (Line, error) {
	words := strings.Fields(line)
	if len(words) == 0 || Word(strings.ToLower(words[0])) == help {
		return Line{}, nil
	}
	id, err := strconv.ParseInt(strings.TrimPrefix(words[0], "#"), 10, 64)
	if err != nil || len(words) < 2 {
		return Line{}, ErrNoGame
	}
	act, err := Parse(strings.ToLower(words[1]), words[2:])
	if err != nil {
		return Line{Game: id}, err
	}
	return Line{Game: id, Act: act}, nil
}

// Is reports whether the address addr (normalized, as a mail's sender
// is) is one of admins, the configured comma-separated list.
func Is(addr, admins string) bool {
	for _, a := range strings.Split(admins, ",") {
		if a = store.NormalizeAddress(a); a != "" && a == addr {
			return true
		}
	}
	return false
}
