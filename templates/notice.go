package templates

import (
	"fmt"
	htmltemplate "html/template"
	"regexp"
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
	words       Words                   // the reader's language's
	usageGames  map[string]engine.Rules // each game usage's game
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

// OptionsHTML are the reader's options in the HTML part, as a game
// mail's (Words.optionsHTML).
func (d *noticeData) OptionsHTML() htmltemplate.HTML { return d.words.optionsHTML(d.OptionLines, d) }

// LinkAs is Link for prefix+" "+value on a button that shows the value,
// as a game mail's (gameData.LinkAs).
func (d *noticeData) LinkAs(prefix, value string) link {
	l := d.Link(prefix + " " + value)
	l.Label = value
	return l
}

// Ref names the game the notice is about, as headlines do: "Felix #12",
// "Game #12" for a game of no known name, else the service.
func (d *noticeData) Ref() string {
	switch {
	case d.GameID != 0 && d.Name != "":
		return fmt.Sprintf("%s #%d", d.Name, d.GameID)
	case d.GameID != 0:
		return d.words.f("Game #%d", d.GameID)
	}
	return d.Service
}

// GameCommands and OtherCommands split Commands for help.
func (d *noticeData) GameCommands() []command  { return d.filter(true) }
func (d *noticeData) OtherCommands() []command { return d.filter(false) }

// UsageLine lists the commands of Usages in one line, for an answer
// that must stay short: "help · rules [GAME] · games".
func (d *noticeData) UsageLine() string {
	out := make([]string, len(d.Usages))
	for i, u := range d.Usages {
		out[i] = withoutOptions(d.words.usage(d.gameOf(u), u))
	}
	return strings.Join(out, " · ")
}

// optionalPart is a usage's optional part, "[deadline 48h]", and the
// space before it.
var optionalPart = regexp.MustCompile(` ?\[[^\]]*\]`)

// withoutOptions is a usage without its optional parts, for the one
// line that names the commands (help explains them): "new GAME with
// ADDRESS...", "standings".
func withoutOptions(u string) string { return optionalPart.ReplaceAllString(u, "") }

// gameOf is the game whose usage u is, among the notice's game's and
// every game's; nil for a lobby command's.
func (d *noticeData) gameOf(u string) engine.Rules { return d.usageGames[u] }

// ListsNotify reports whether help's list of commands explains notify
// already, so that its prose does not explain it a second time.
func (d *noticeData) ListsNotify() bool {
	for _, c := range d.Commands {
		if strings.HasPrefix(c.english, "notify ") {
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
	Usage string // "bid N": the English syntax, which every reader may write
	// Alias is a lobby command's own word in the reader's language, shown
	// beside Usage ("help / Hilfe"); "" when it is the English one.
	Alias   string
	Example string // "bid 5", or "" when the usage has no argument; in the reader's language
	Help    string // what it does, or "": in the reader's language
	InGame  bool   // a command of a game's own language
	english string // Usage in English, what the command is known by
}

// newNoticeData prepares a notice for the templates; games are every
// game the renderer knows, in order of name.
func newNoticeData(n Notice, games []engine.Rules, w Words) *noticeData {
	d := &noticeData{Notice: n, words: w}
	d.Title = w.title(n.Title)
	d.Standings = w.standingsTitles(n.Standings)
	d.Games = w.gameLineTitles(n.Games)
	if len(games) > 0 {
		d.ExampleGame = games[0].Name()
	}
	d.InFull = parser.WrittenInFull()
	// N is new's number of bots: "and a bot" (see exampleArgs).
	lobbyArgs := map[string]string{"GAME": d.ExampleGame, "[GAME]": d.ExampleGame, "N": "a"}
	if n.Game != "" {
		d.Name = shortName(n.Game, n.Title)
	}
	help := map[string]string{}
	gameArgs := map[string]map[string]string{} // a game's usage -> the game's example arguments
	gameOf := map[string]engine.Rules{}        // a game's usage -> the game
	for _, rules := range games {
		var args map[string]string
		if p, ok := rules.(engine.Presenter); ok {
			args = p.Examples()
		}
		for _, s := range rules.Specs() {
			help[s.Usage()] = s.Help
			gameArgs[s.Usage()] = args
			gameOf[s.Usage()] = rules
			if rules.Name() == n.Game {
				d.Specs = append(d.Specs, w.explain(s.Usage(), s.Help, args, rules))
			}
		}
		if rules.Name() == n.Game {
			d.OptionLines = w.optionLines(rules, rules.Specs(), n.Options)
		}
	}
	d.usageGames = gameOf
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
		c := w.explain(u, h, args, gameOf[u])
		c.InGame = inGame
		d.Commands = append(d.Commands, c)
	}
	return d
}

// explain is a usage as help shows it, in the words' language: its help
// text looked up in the catalogs (the English text is the key: the
// parser's table for a lobby command, the game's Spec.Help, whose other
// languages the game's catalogs give), its example written as the reader
// may send it. gameArgs are the example arguments of the game whose usage
// it is, and game that game; nil for a lobby command.
func (e Words) explain(usage, help string, gameArgs map[string]string, game engine.Rules) command {
	c := command{Usage: e.usage(game, usage), Help: upperFirst(e.helpText(help)), english: usage}
	if ex := example(usage, gameArgs); ex != usage {
		c.Example = ex
		if game == nil {
			c.Example = e.Command(ex)
		} else {
			c.Example = e.move(game, ex)
		}
	}
	if game == nil && c.Usage == usage {
		c.Alias = e.commandAlias(usage) // a usage the catalogs lack: its word beside it
	}
	return c
}

// helpText is a command's help in the words' language: the catalogs'
// form of the English text, which is its key (a help text holds no
// verb: TestHelpTextsAreKeys).
func (e Words) helpText(help string) string {
	if help == "" {
		return ""
	}
	return e.f(help)
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
