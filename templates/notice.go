package templates

import (
	"strings"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/parser"
)

// noticeData is what the notice templates see.
type noticeData struct {
	Notice
	Name     string    // the game's short name, "Felix", or ""
	Commands []command // Usages explained, for help and error
	Specs    []command // the named game's commands, for rules
	Rules    string    // rules: the game's rendered summary
	Subject  string    // the subject, for the HTML part's title
	Headline string    // the headline, first in the HTML part; "" outside a game's thread
	// ExampleGame is the game help's examples name ("rules felix"): the
	// first the renderer was given, by name, so that no example names a
	// game this pbem does not host.
	ExampleGame string
	// InFull are the commands that are never taken from a prefix.
	InFull []string
	// DigestGames are Digest's games as the digest shows them.
	DigestGames []digestGame
	// OptionLines are Options as the game mail shows them.
	OptionLines []optionLine
	words       Words // the reader's language's
}

// Link is the one-tap link that answers the notice with cmd, as a game
// mail's (gameData.Link); without a reply address, the command alone.
func (d *noticeData) Link(cmd string) link {
	if d.ReplyAddress == "" {
		return link{Command: cmd, Label: cmd}
	}
	subject := d.Subject
	if d.ThreadSubject != "" {
		subject = tidySubject(d.ThreadSubject)
	}
	return link{Command: cmd, Label: cmd, URL: mailto(d.ReplyAddress, replySubject(subject), d.MessageID, cmd, d.RefLine)}
}

// LinkAs is Link for prefix+" "+value on a button that shows the value,
// as a game mail's (gameData.LinkAs).
func (d *noticeData) LinkAs(prefix, value string) link {
	l := d.Link(prefix + " " + value)
	l.Label = value
	return l
}

// GameCommands and OtherCommands split Commands for help.
func (d *noticeData) GameCommands() []command  { return d.filter(true) }
func (d *noticeData) OtherCommands() []command { return d.filter(false) }

// UsageLine lists the commands of Usages in one line, for an answer
// that must stay short: "help · rules [GAME] · games".
func (d *noticeData) UsageLine() string { return strings.Join(d.Usages, " · ") }

// ListsNotify reports whether help's list of commands explains notify
// already, so that its prose does not explain it a second time.
func (d *noticeData) ListsNotify() bool {
	for _, c := range d.Commands {
		if strings.HasPrefix(c.Usage, "notify ") {
			return true
		}
	}
	return false
}

func (d *noticeData) filter(inGame bool) []command {
	var out []command
	for _, c := range d.Commands {
		if c.InGame == inGame {
			out = append(out, c)
		}
	}
	return out
}

// command is one command of the language as help shows it.
type command struct {
	Usage   string // "bid N"
	Example string // "bid 5", or "" when the usage has no argument
	Help    string // what it does, or ""
	InGame  bool   // a command of a game's own language
}

// newNoticeData prepares a notice for the templates; games are every
// game the renderer knows, in order of name.
func newNoticeData(n Notice, games []engine.Rules, w Words) *noticeData {
	d := &noticeData{Notice: n, InFull: parser.WrittenInFull(), words: w}
	if len(games) > 0 {
		d.ExampleGame = games[0].Name()
	}
	// N is new's number of bots: "and a bot" (see exampleArgs).
	lobbyArgs := map[string]string{"GAME": d.ExampleGame, "[GAME]": d.ExampleGame, "N": "a"}
	if n.Game != "" {
		d.Name = shortName(n.Game, n.Title)
	}
	help := map[string]string{}
	gameArgs := map[string]map[string]string{} // a game's usage -> the game's example arguments
	for _, rules := range games {
		var args map[string]string
		if p, ok := rules.(engine.Presenter); ok {
			args = p.Examples()
		}
		for _, s := range rules.Specs() {
			help[s.Usage()] = s.Help
			gameArgs[s.Usage()] = args
			if rules.Name() == n.Game {
				d.Specs = append(d.Specs, explain(s.Usage(), s.Help, args))
			}
		}
		if rules.Name() == n.Game {
			d.OptionLines = optionLines(rules.Specs(), n.Options)
		}
	}
	for _, u := range n.Usages {
		h, ok := help[u]
		if lc, lobby := parser.LobbyCommandOf(u); !ok && lobby {
			// The parser's table is the one place a lobby command's
			// words and help are written.
			h = lc.Help
		}
		args, inGame := gameArgs[u]
		if !inGame {
			args = lobbyArgs
		}
		c := explain(u, h, args)
		c.InGame = inGame
		d.Commands = append(d.Commands, c)
	}
	return d
}

// explain is a usage as help shows it; gameArgs are the example
// arguments of the game whose usage it is, or nil.
func explain(usage, help string, gameArgs map[string]string) command {
	c := command{Usage: usage, Help: upperFirst(help)}
	if ex := example(usage, gameArgs); ex != usage {
		c.Example = ex
	}
	return c
}

// exampleArgs are values for the argument names of the commands that
// need no game, word by word; an empty value drops the word. A game
// gives those of its own commands (engine.Presenter's Examples), and
// GAME is the example game (noticeData.ExampleGame).
var exampleArgs = map[string]string{
	"ADDRESS...": "bob@example.org carol@example.org",
	// new's optional bots and deadline: the example shows them ("N" is
	// in newNoticeData's lobbyArgs, as games have an N of their own).
	"[and":      "and",
	"bots]":     "bot",
	"[deadline": "deadline",
	"48h]":      "48h",
	// A game has a deadline or a clock, never both (new refuses the
	// two): the example shows the deadline and drops the clock's words.
	"[clock": "", "2d+12h": "", "max": "", "5d]": "",
	"[weekends": "weekends",
	"off]":      "off",
	// quiet's default is 22-8: the example shows another night.
	"FROM-TO|off": "23-7",
	"NAME":        "robert",
	"ZONE":        "Europe/Berlin",
	"DAYS":        "5d",
	// notify's default is normal: the example shows a choice that
	// changes something.
	"normal|all|turns|digest|off": "digest",
	// confirm's and spectators' defaults are off: the example turns
	// them on.
	"on|off": "on",
}

// example turns a usage into a command one could send: "bid N" becomes
// "bid 5". gameArgs, if not nil, are the example arguments of the game
// whose usage it is.
func example(usage string, gameArgs map[string]string) string {
	var out []string
	for _, w := range strings.Fields(usage) {
		if v, ok := gameArgs[w]; ok {
			w = v
		} else if v, ok := exampleArgs[w]; ok {
			w = v
		} else if strings.Contains(w, "|") {
			w = strings.Split(w, "|")[0]
		}
		if w != "" {
			out = append(out, w)
		}
	}
	return strings.Join(out, " ")
}
