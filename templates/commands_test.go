package templates

import (
	"html"
	"io/fs"
	"net/url"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"text/template/parse"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/games"
	"github.com/pbem/pbem/parser"
)

// offeredLobbyCommands are the lobby commands the templates and their
// data offer, in English: every {{cmd "..."}} of the templates, the
// footer's, the examples help shows (the lobby's usages, and the ones the
// templates build: "rules felix", "new felix with ... and a bot").
func offeredLobbyCommands(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, pattern := range []string{"text/*.tmpl", "html/*.tmpl"} {
		names, err := fs.Glob(files, pattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range names {
			data, err := fs.ReadFile(files, name)
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range funcCalls(t, name, string(data), "cmd") {
				if s, ok := n.Args[1].(*parse.StringNode); ok {
					out = append(out, s.Text)
				}
			}
		}
	}
	out = append(out, footerWords...)
	out = append(out, footerSetting)
	lobbyArgs := map[string]string{"GAME": "felix", "[GAME]": "felix", "N": "a"}
	for _, lc := range parser.LobbyCommands() {
		out = append(out, example(lc.Usage, lobbyArgs))
	}
	out = append(out, "rules felix", "new felix with bob@example.org carol@example.org and a bot")
	slices.Sort(out)
	return slices.Compact(out)
}

// TestOfferedCommandsReadBack: every lobby command a mail offers, as a
// German reader's mail writes it (Words.Command), reads back through the
// parser as the same command as the English.
func TestOfferedCommandsReadBack(t *testing.T) {
	de := For("de")
	g := parser.Grammar{Games: []string{"felix", "gracias"}}
	cmds := offeredLobbyCommands(t)
	if len(cmds) < 20 {
		t.Fatalf("only %d commands offered: %q", len(cmds), cmds)
	}
	for _, en := range cmds {
		if knownUnsendableExamples[en] {
			continue
		}
		if lc, ok := parser.LobbyCommandOf(en); ok && en == lc.Name {
			// A command's word alone, as a sentence names it ("`new`").
			if german := de.Command(en); german != en && !slices.Contains(parser.GermanWordsOf(lc.Kind), german) {
				t.Errorf("%q, German for %q, is none of its German words", german, en)
			}
			continue
		}
		want, prob := parser.Read(en, g)
		if prob != nil || len(want) != 1 {
			t.Errorf("%q (English) does not read: %v", en, prob)
			continue
		}
		german := de.Command(en)
		got, prob := parser.Read(german, g)
		if prob != nil || len(got) != 1 {
			t.Errorf("%q, German for %q, does not read: %v", german, en, prob)
			continue
		}
		if got[0].Kind != want[0].Kind || got[0].Text != want[0].Text {
			t.Errorf("%q reads as %s %q; %q, its English, as %s %q", german, got[0].Kind, got[0].Text, en, want[0].Kind, want[0].Text)
		}
		if german == en && len(parser.GermanWordsOf(want[0].Kind)) > 0 {
			t.Errorf("%q is written in English to a German reader", en)
		}
		if Say.Command(en) != en {
			t.Errorf("English writes %q as %q", en, Say.Command(en))
		}
	}
}

// knownUnsendableExamples are examples help shows that are no command
// one could send, in English too: the usages' patterns "[here]" and
// "NEW | address add OTHER" have no example arguments (exampleArgs).
// Their English is pinned by the goldens; the lead decides.
var knownUnsendableExamples = map[string]bool{
	"notify digest [here]":          true,
	"address NEW address add OTHER": true,
}

var (
	backticked = regexp.MustCompile("`([^`]+)`")
	codeBox    = regexp.MustCompile(`<code[^>]*>([^<]*)</code>`)
	// placeholder is a word of a usage's pattern, not of a command one
	// sends ("ADRESSE...", "CARD", "N", "[here]"), or a list of
	// commands ("bid 4 · 5 · 6").
	placeholder = regexp.MustCompile(`\b[A-Z]{1,}\b|\.\.\.|\[|·`)
)

// mailtoBody finds the bodies of an HTML part's one-tap links, each
// decoded as a mail program does (RFC 6068).
var mailtoBody = regexp.MustCompile(`href="mailto:[^"]*[?&amp;;]body=([^"&]*)`)

// commandWord reports whether s is a command's word alone, as a sentence
// names a command ("`neu`", "`vacation`", "`pass`"), in the grammar's
// English or German.
func commandWord(s string, g parser.Grammar) bool {
	if strings.Contains(s, " ") {
		return false
	}
	for _, lc := range parser.LobbyCommands() {
		if strings.EqualFold(s, lc.Name) || slices.ContainsFunc(parser.GermanWordsOf(lc.Kind), func(w string) bool { return strings.EqualFold(w, s) }) {
			return true
		}
	}
	cmds, _ := parser.Read(s, g)
	return len(cmds) == 1
}

// TestGermanMailsOfferCommandsThatRead: every command a German mail
// shows to copy (in backticks, in a code box) or sends from a button
// reads through the parser, in the grammar of its game: the German
// words the catalogs write around them (`Benachrichtigung Züge`) as
// well as those the code writes. A command's word alone ("`neu`", in a
// sentence about it) is a command's word; a value shown beside its
// command's words ("play" then "-8") reads with them.
func TestGermanMailsOfferCommandsThatRead(t *testing.T) {
	r := newRenderer(t)
	all := games.All()
	check := func(t *testing.T, game string, m Mail) {
		t.Helper()
		rules, ok := all[game]
		if !ok {
			rules = all["felix"] // help's examples are Felix's: `pa` for `pass`
		}
		g := parser.Grammar{Games: []string{"felix", "gracias"}, Specs: rules.Specs(), Nouns: engine.NounsOf(rules),
			Players: []string{"alice", "bob", "carol", "dave"}}
		var offered []string
		for _, s := range backticked.FindAllStringSubmatch(m.Text, -1) {
			offered = append(offered, s[1])
		}
		for _, s := range codeBox.FindAllStringSubmatch(m.HTML, -1) {
			offered = append(offered, html.UnescapeString(s[1]))
		}
		for _, s := range mailtoBody.FindAllStringSubmatch(m.HTML, -1) {
			body, err := url.PathUnescape(s[1])
			if err != nil {
				t.Fatalf("a link's body %q: %v", s[1], err)
			}
			first, _, _ := strings.Cut(body, "\r\n")
			offered = append(offered, first)
		}
		if len(offered) == 0 {
			t.Fatal("the mail offers no command")
		}
		for _, c := range offered {
			c = strings.Join(strings.Fields(c), " ")
			if placeholder.MatchString(c) || commandWord(c, g) {
				continue
			}
			if cmds, prob := parser.Read(c, g); prob != nil || len(cmds) != 1 {
				asValue := false
				for _, s := range g.Specs {
					if len(s.Words) > 0 && s.Words[0].Kind == engine.Literal {
						cmds, prob := parser.Read(s.Words[0].Text+" "+c, g)
						asValue = asValue || (prob == nil && len(cmds) == 1)
					}
				}
				if !asValue {
					t.Errorf("%q does not read as one command: %v", c, prob)
				}
			}
		}
	}
	for name, n := range noticeCases() {
		t.Run(name, func(t *testing.T) {
			n.Language = "de"
			m, err := r.Notice(n)
			if err != nil {
				t.Fatal(err)
			}
			game := n.Game
			if n.Kind == NoticeDigest {
				game = "felix" // its games' commands are listed as text, not offered to copy
			}
			check(t, game, m)
		})
	}
	for _, c := range germanGameCases {
		t.Run(c.name, func(t *testing.T) {
			m := germanGameMail(t, c)
			check(t, m.Game, render(t, r, m))
		})
	}
}

// germanFelix is Felix with a translator of its commands, as a game
// gives one (engine.CommandTranslator): enough of it for the test below.
type germanFelix struct{ engine.Rules }

func (germanFelix) CommandIn(cmd string, say engine.Say) string {
	return strings.NewReplacer("play ", "spiele ", "rabbit", "Hase", "large-dog", "großer Hund", "bid up to", "biete bis", "pass", "passe").Replace(cmd)
}

// TestMovesInTheReadersLanguage: a game that translates its commands
// has them written in the reader's language in the option lines, their
// buttons and its templates' Move, grouped by the words the translated
// commands share; English, and a game that translates none, keep them
// as the game gives them.
func TestMovesInTheReadersLanguage(t *testing.T) {
	felix := games.All()["felix"]
	de := germanFelix{felix}
	opts := []engine.Option{
		{Spec: "play", Text: "play -8|3|rabbit|large-dog", Commands: []string{"play -8", "play 3", "play rabbit", "play large-dog"}},
		{Spec: "bid up to", Text: "bid up to 2..17", Commands: []string{"bid up to 9"}},
		{Spec: "pass", Text: "pass", Commands: []string{"pass"}},
	}
	got := For("de").optionLines(de, felix.Specs(), opts)
	want := []optionLine{
		{Prefix: "spiele", Values: []string{"-8", "3", "Hase", "großer Hund"}, Commands: []string{"spiele -8", "spiele 3", "spiele Hase", "spiele großer Hund"}, Text: "spiele -8 · 3 · Hase · großer Hund"},
		{Commands: []string{"biete bis 9"}, Usage: "biete bis 2..17", Text: "biete bis 2..17, z. B. biete bis 9"},
		{Commands: []string{"passe"}, Text: "passe"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("German option lines:\n%+v\nwant\n%+v", got, want)
	}
	for _, w := range []Words{Say, For("de")} {
		plain := w.optionLines(felix, felix.Specs(), opts)
		if plain[0].Prefix != "play" || plain[0].Commands[3] != "play large-dog" || plain[2].Text != "pass" {
			t.Errorf("a game without a translator: %+v", plain)
		}
	}
	if english := Say.optionLines(de, felix.Specs(), opts); english[0].Commands[2] != "play rabbit" {
		t.Errorf("English translated the commands: %+v", english)
	}
	d := &gameData{words: For("de"), rules: de}
	if got := d.Move("pass"); got != "passe" {
		t.Errorf("Move(pass) = %q", got)
	}
	// Commands that share no word in the language are a line each.
	odd := germanFelixOdd{felix}
	lines := For("de").optionLines(odd, felix.Specs(), opts[:1])
	if len(lines) != 4 || lines[2].Text != "Hase spielen" || lines[2].Prefix != "" {
		t.Errorf("commands sharing no word: %+v", lines)
	}
}

// germanFelixOdd writes its commands with the verb last.
type germanFelixOdd struct{ engine.Rules }

func (germanFelixOdd) CommandIn(cmd string, say engine.Say) string {
	card, _ := strings.CutPrefix(cmd, "play ")
	return strings.NewReplacer("rabbit", "Hase", "large-dog", "großer Hund").Replace(card) + " spielen"
}
