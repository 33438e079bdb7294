package parser

import (
	"fmt"
	"slices"
	"strings"

	"github.com/pbem/pbem/engine"
)

// Grammar is what Read understands: the lobby commands, which need no
// game, and inside a game that game's commands.
type Grammar struct {
	// Games are the names `rules` and `new` accept (games.Names()). With
	// none, any single word is taken as a game's name.
	Games []string
	// Specs is the current game's command grammar (Rules.Specs()); nil
	// outside a game.
	Specs []engine.Spec
	// Players are the current game's player names, for Player
	// arguments.
	Players []string
	// Nouns are the current game's nouns (engine.NounsOf): words players
	// write around its commands, skipped like filler ("bid 4 mice").
	Nouns []string
	// Legal, when set, lists the game commands the reader may give now; suggestions are limited to them (nil func: no limit; a func returning none: no game command is legal now).
	//
	// It limits only what a Problem suggests ("did you mean"): Read
	// still reads every command of the grammar, and the game says why
	// one is not allowed. It is called at most once per Read, and only
	// when there is something to suggest.
	Legal func() []engine.Option
	// Lexicon, when set, is NewLexicon(Specs, Nouns), made once and
	// kept by the caller for every read of the same game's commands;
	// nil makes it for each read. A Lexicon of other Specs or Nouns
	// reads other words: the caller keeps one for each grammar.
	Lexicon *Lexicon
}

// Kind is what a command is: a move of the game (KindMove), or one of the
// lobby's commands, which need no game. The daemon dispatches on it, so
// that no command's word is written anywhere but in lobbyCmds.
type Kind int

// The kinds of command, one for each row of lobbyCmds and KindMove for a
// command of the game's own grammar.
const (
	KindMove Kind = iota // a command of the game's Specs: Command.Move holds it
	KindHelp
	KindRules
	KindNew
	KindJoin
	KindDecline
	KindNever
	KindGames
	KindStatus
	KindName
	KindNotify
	KindConfirm
	KindTimezone
	KindQuiet
	KindVacation
	KindBack
	KindAddress
	KindRematch
	KindHistory
	KindStandings
	KindLink
	KindSpectators
	KindSay
	KindPoke
	KindUndo
	KindAgree
	KindRefuse
	KindResign
	KindLanguage
)

// String is the lobby command's name, the word help shows ("help"), or
// "move" for a command of the game.
func (k Kind) String() string {
	if lc, ok := lobbyByKind(k); ok {
		return lc.Name
	}
	if k == KindMove {
		return "move"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// LobbyCommand describes one command that needs no game.
type LobbyCommand struct {
	Kind  Kind
	Name  string // canonical name: the Command's Name
	Usage string // the pattern for help: "new GAME with ADDRESS..."
	Help  string // what help says it does, lower-case, without a full stop
}

type lobbyArg int

const (
	noArg      lobbyArg = iota
	gameArg             // rules [GAME]
	inviteArg           // new GAME with ADDRESS... [and N bots] [deadline 48h] [clock 2d+12h max 5d] [weekends off]
	textArg             // name NAME: the rest of the line, checked by the daemon
	choiceArg           // notify all|turns|off: one of the command's choices
	wordArg             // timezone ZONE: one word, as written
	sayArg              // say TEXT: the rest of the mail, see sayCommand
	awayArg             // vacation 5d | vacation until 2026-12-24
	optArg              // standings [detail]: nothing, or one of the command's choices
	addressArg          // address NEW | address add OTHER: one address, maybe after add
	quietArg            // quiet 23-7 | quiet off
)

type lobbyCmd struct {
	LobbyCommand
	words []string // the words that name it; the first is Name
	arg   lobbyArg
	// whole is set for a command too grave to take from a prefix:
	// "re" must not resign a game.
	whole   bool
	choices []string // for choiceArg: the values it takes
	// hourAfter is the choice that may be followed by an hour of the day
	// ("notify digest 19"); "" for none.
	hourAfter string
}

// lobbyCmds are the lobby's commands, in the order help lists it:
// the one table of the lobby's words, usages and help (templates' help
// mail shows its Help beside each usage).
var lobbyCmds = []lobbyCmd{
	{LobbyCommand{KindHelp, "help", "help", "the commands you can send"}, []string{"help"}, noArg, false, nil, ""},
	{LobbyCommand{KindRules, "rules", "rules [GAME]", "the rules of a game, or of the game you are in"}, []string{"rules"}, gameArg, false, nil, ""},
	{LobbyCommand{KindNew, "new", "new GAME with ADDRESS... [and N bots] [deadline 48h] [clock 2d+12h max 5d] [weekends off]", "start a new game and invite players by address; bots are computer players that move at once and get no mail (a bot, 2 strong bots: easy, normal or strong; at most 5), and bots alone need no address; deadline sets its time for each decision, from 1 hour to 14 days (48h, 36 hours, 2d, 3 days); clock gives each player a time bank instead: 2 days, 12 hours added after each of his moves, at most 5 days (not with deadline); weekends off stops each player's clock on Saturday and Sunday in his time zone"}, []string{"new"}, inviteArg, false, nil, ""},
	{LobbyCommand{KindJoin, "join", "join", "accept an invitation"}, []string{"join"}, noArg, false, nil, ""},
	{LobbyCommand{KindDecline, "decline", "decline", "refuse an invitation"}, []string{"decline"}, noArg, false, nil, ""},
	{LobbyCommand{KindNever, "never", "never", "refuse an invitation, and every invitation to come"}, []string{"never"}, noArg, true, nil, ""},
	{LobbyCommand{KindGames, "games", "games", "list your games"}, []string{"games"}, noArg, false, nil, ""},
	{LobbyCommand{KindStatus, "status", "status", "the table of this game as you may see it now"}, []string{"status"}, noArg, false, nil, ""},
	{LobbyCommand{KindName, "name", "name NAME", "change the name the other players see"}, []string{"name"}, textArg, false, nil, ""},
	{LobbyCommand{KindNotify, "notify", "notify normal|all|turns|digest|off [here]", "which game mails you get. normal (the default): when you must decide, when a round or session is decided, the start and the end, and answers to your mail; all: a mail whenever anything happens; turns: only when you must decide, the start and the end; digest: at most one mail a day, at 8:00 your time or the hour you add (notify digest 19); off: only answers to your own mail, the last reminder before a deadline, pokes, and the end. here, in a game's thread: for that game only (notify off here)"}, []string{"notify"}, choiceArg, false, []string{"normal", "all", "turns", "digest", "off"}, "digest"},
	{LobbyCommand{KindConfirm, "confirm", "confirm on|off", "off (the default): a mail of yours whose moves are all applied is answered only when there is more to say than that; on: every one is answered, in a few lines"}, []string{"confirm"}, choiceArg, false, []string{"on", "off"}, ""},
	{LobbyCommand{KindTimezone, "timezone", "timezone ZONE", "the time zone your deadlines are written in"}, []string{"timezone", "tz"}, wordArg, false, nil, ""},
	{LobbyCommand{KindQuiet, "quiet", "quiet FROM-TO|off", "your quiet hours, in your time zone (22-8 until you change them): no deadline of yours ends inside them, it ends when they end; pbem sends you no reminder and makes no move for you inside them"}, []string{"quiet"}, quietArg, false, nil, ""},
	{LobbyCommand{KindLanguage, "language", "language english|german", "the language pbem writes to you in, in every game: english or german (Deutsch). pbem reads commands in both, whichever you choose"}, []string{"language"}, choiceArg, false, []string{LanguageEnglish, LanguageGerman}, ""},
	{LobbyCommand{KindVacation, "vacation", "vacation DAYS", "be away, for days (5d), weeks (2w) or until the end of a date (vacation until 2026-12-24): your deadlines in all your games wait for you, each keeping the time it had left. A few weeks a year"}, []string{"vacation", "holiday"}, awayArg, true, nil, ""},
	{LobbyCommand{KindBack, "back", "back", "end your vacation early (your deadlines run again with the time they had left, and the days not used are yours again); in a game's thread it also takes your seat back from autopilot"}, []string{"back"}, noArg, true, nil, ""},
	{LobbyCommand{KindAddress, "address", "address NEW | address add OTHER", "move all your games, settings, vacation days and ratings to the address NEW, or add OTHER as a second address of yours, whose mail is read as yours (your mail still goes to one address). Send it in a game's thread; pbem mails the address a confirmation, and nothing changes until it is answered from there within 24 hours"}, []string{"address"}, addressArg, true, nil, ""},
	{LobbyCommand{KindRematch, "rematch", "rematch", "after a game: a new game with the same players"}, []string{"rematch"}, noArg, false, nil, ""},
	{LobbyCommand{KindHistory, "history", "history", "everything that happened in this game so far"}, []string{"history"}, noArg, false, nil, ""},
	{LobbyCommand{KindStandings, "standings", "standings [detail]", "your rating in each game and the standings among the players you have played with; detail adds the skill behind each rating and its uncertainty"}, []string{"standings"}, optArg, false, []string{"detail"}, ""},
	{LobbyCommand{KindLink, "link", "link new", "new addresses for your table's web page and your calendar feed: the old links stop working"}, []string{"link"}, choiceArg, true, []string{"new"}, ""},
	{LobbyCommand{KindSpectators, "spectators", "spectators on|off", "the game's creator opens its public web page to anyone with the link, or closes it"}, []string{"spectators"}, choiceArg, true, []string{"on", "off"}, ""},
	{LobbyCommand{KindSay, "say", "say TEXT", "tell the other players of this game TEXT: the rest of your mail, at most 500 characters"}, []string{"say"}, sayArg, true, nil, ""},
	{LobbyCommand{KindPoke, "poke", "poke", "remind the players this game waits on that the table is waiting (once a day)"}, []string{"poke"}, noArg, true, nil, ""},
	{LobbyCommand{KindUndo, "undo", "undo", "ask to take back your last command: the other people at the table are asked, and it is taken back when all of them answer agree within 24 hours; a refuse, or a move they can see, keeps it (a command nobody else saw anything of is taken back at once)"}, []string{"undo"}, noArg, true, nil, ""},
	{LobbyCommand{KindAgree, "agree", "agree", "let the move another player asked to undo be taken back"}, []string{"agree"}, noArg, true, nil, ""},
	{LobbyCommand{KindRefuse, "refuse", "refuse", "keep the move another player asked to undo: it stands (refusing your own undo withdraws it)"}, []string{"refuse"}, noArg, true, nil, ""},
	{LobbyCommand{KindResign, "resign", "resign", "leave this game for good"}, []string{"resign", "quit"}, noArg, true, nil, ""},
}

// germanWords are the lobby commands' German words, beside lobbyCmds'
// English ones: read whole (never as a prefix, engine.Vocabulary), with
// umlauts or without (engine.Fold), and never written: a command's text
// is English. A German word the same as the English one ("name", "link")
// is not repeated. docs/commands.md lists them.
var germanWords = map[Kind][]string{
	KindHelp:       {"hilfe"},
	KindRules:      {"regeln"},
	KindNew:        {"neu"},
	KindJoin:       {"beitreten", "mitspielen"},
	KindDecline:    {"ablehnen"},
	KindNever:      {"niemals"},
	KindGames:      {"partien"},
	KindStatus:     {"stand"},
	KindNotify:     {"benachrichtigung", "benachrichtigungen"},
	KindConfirm:    {"bestätigen", "bestätigung"},
	KindTimezone:   {"zeitzone"},
	KindQuiet:      {"ruhezeit", "ruhezeiten"},
	KindVacation:   {"urlaub"},
	KindBack:       {"zurück"},
	KindAddress:    {"adresse"},
	KindRematch:    {"revanche"},
	KindHistory:    {"verlauf"},
	KindStandings:  {"rangliste"},
	KindSpectators: {"zuschauer"},
	KindSay:        {"sage", "sag"},
	KindPoke:       {"anstupsen"},
	KindUndo:       {"rückgängig"},
	KindAgree:      {"zustimmen"},
	KindRefuse:     {"widersprechen"},
	KindResign:     {"aufgeben"},
	KindLanguage:   {"sprache"},
}

// GermanWords lists the German words the lobby reads, commands and
// arguments, folded (engine.Fold), sorted: words a player's name must not
// be, like the English ones of Usages.
func GermanWords() []string {
	var out []string
	for _, ws := range germanWords {
		for _, w := range ws {
			out = append(out, engine.Fold(w))
		}
	}
	for _, dict := range []map[string]string{germanArgWords, germanChoiceWords} {
		for w := range dict {
			out = append(out, w)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// isGermanWord reports whether low (a token's folded form) is one of
// the German words of the lobby command k.
func isGermanWord(k Kind, low string) bool {
	for _, w := range germanWords[k] {
		if engine.Fold(w) == low {
			return true
		}
	}
	return false
}

// germanArgWords are the German words of the lobby commands' arguments,
// folded (engine.Fold), and the English word each is read as: "Urlaub bis
// 2026-12-24", "neu felix mit bob@x.test und ein Bot", "Adresse
// hinzufügen b@y.test". They are read only; the command's text is
// English.
var germanArgWords = map[string]string{
	germanWith: "with", "und": "and", germanUntil: "until", "frist": "deadline", "hinzufuegen": "add",
}

// germanChoiceWords are the German words of the lobby commands' choices,
// folded, and the choice each is read as: "bestätigen an", "Ruhezeit
// aus", "Benachrichtigung alle hier". Only after a command that takes a
// choice: elsewhere "an" is an English word.
var germanChoiceWords = map[string]string{
	"an": "on", "aus": "off", "neu": "new", "hier": "here", "alle": "all",
	"zuege": "turns", "zusammenfassung": "digest", "details": "detail",
	"deutsch": LanguageGerman, "englisch": LanguageEnglish,
}

// The choices of `language`: the languages pbem writes in, by their
// English names (`language deutsch` is `language german`).
const (
	LanguageEnglish = "english"
	LanguageGerman  = "german"
)

// inEnglish returns toks with each word of dict (a German word, folded)
// read as the English word it stands for; orig and raw stay as written.
func inEnglish(toks []token, dict map[string]string) []token {
	out := make([]token, len(toks))
	for i, t := range toks {
		if en, ok := dict[t.low]; ok {
			t.low = en
		}
		out[i] = t
	}
	return out
}

// lobbyByKind finds the row of lobbyCmds for k.
func lobbyByKind(k Kind) (lobbyCmd, bool) {
	for _, lc := range lobbyCmds {
		if lc.Kind == k {
			return lc, true
		}
	}
	return lobbyCmd{}, false
}

// LobbyCommands lists the commands that need no game, for help texts.
func LobbyCommands() []LobbyCommand {
	out := make([]LobbyCommand, len(lobbyCmds))
	for i, c := range lobbyCmds {
		out[i] = c.LobbyCommand
	}
	return out
}

// LobbyCommandOf finds the lobby command a usage of Usages is of ("rules
// [GAME]" is rules'), by its first word.
func LobbyCommandOf(usage string) (LobbyCommand, bool) {
	first, _, _ := strings.Cut(usage, " ")
	for _, lc := range lobbyCmds {
		if lc.Name == first {
			return lc.LobbyCommand, true
		}
	}
	return LobbyCommand{}, false
}

// WrittenInFull lists the lobby commands too grave to take from a prefix
// (wholeOnly), in the table's order, for help to name them.
func WrittenInFull() []string {
	var out []string
	for _, lc := range lobbyCmds {
		if lc.whole {
			out = append(out, lc.Name)
		}
	}
	return out
}

// Usages lists every command of the grammar for help and explanations:
// the game's first ("bid N"), then the lobby's ("help").
func (l Grammar) Usages() []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range l.Specs {
		if u := s.Usage(); !seen[u] {
			seen[u] = true
			out = append(out, u)
		}
	}
	for _, c := range lobbyCmds {
		out = append(out, c.Usage)
	}
	return out
}

// fillerWords are words people write around a command that carry no
// meaning of their own: "I bid 4", "play the rabbit", "bid 4 please".
// Read skips them only where the words left still match exactly one
// command. The game's Nouns ("mice", "card") count as filler too, and so
// do the lower-cased argument names of its Specs ("colour", "player"), so
// that "keep colour red" reads without the parser knowing any game.
var fillerWords = map[string]bool{
	"i": true, "i'll": true, "i'd": true, "i'm": true, "will": true, "would": true,
	"like": true, "want": true, "wanna": true, "let's": true, "lets": true, "just": true,
	"to": true, "the": true, "a": true, "an": true, "my": true, "me": true, "it": true,
	"please": true, "pls": true, "plz": true, "now": true, "then": true, "and": true,
	"of": true, "for": true, "is": true, "as": true, "game": true, "one": true,
	"number": true, "nr": true, "player": true,
}

// germanFillerWords are fillerWords in German, folded (engine.Fold): "ich
// biete 4 bitte", "spiele den Hasen".
var germanFillerWords = map[string]bool{
	"ich": true, "bitte": true, "danke": true, "und": true, "dann": true, "jetzt": true,
	"mal": true, "gern": true, "gerne": true, "moechte": true, "moecht": true, "wuerde": true,
	"der": true, "die": true, "das": true, "den": true, "dem": true, "des": true,
	"ein": true, "eine": true, "einen": true, "einem": true, "mein": true, "meine": true,
	"meinen": true, "zum": true, "zur": true, "nummer": true, "spieler": true, "spielerin": true,
}

// wholeWords are words people write for themselves that happen to begin
// a keyword: "Hi," must not read as "history". They never count as a
// keyword's prefix.
var wholeWords = map[string]bool{
	"hi": true, "hey": true, "hello": true, "ok": true, "okay": true, "yes": true,
	"no": true, "so": true, "re": true, "fw": true, "fwd": true, "ps": true, "go": true,
}

// numberWords are the numbers Read takes spelled out.
var numberWords = map[string]int{
	"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
	"seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
	"thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17,
	"eighteen": 18, "nineteen": 19, "twenty": 20,
	// German, folded (engine.Fold): "biete vier", "Urlaub eine Woche".
	"null": 0, "eins": 1, "ein": 1, "eine": 1, "einen": 1, "zwei": 2, "zwo": 2,
	"drei": 3, "vier": 4, "fuenf": 5, "sechs": 6, "sieben": 7, "acht": 8, "neun": 9,
	"zehn": 10, "elf": 11, "zwoelf": 12, "dreizehn": 13, "vierzehn": 14,
	"fuenfzehn": 15, "sechzehn": 16, "siebzehn": 17, "achtzehn": 18,
	"neunzehn": 19, "zwanzig": 20,
}

// compiled is a Grammar prepared for reading.
type compiled struct {
	Grammar
	*Lexicon
	legal *legality // what Legal allows, once asked; see allowed
}

// Lexicon is the words of a grammar, as reading needs them: every
// keyword, the game's and the lobby's, with its other spellings, and the
// words to skip as filler. It is made from a Grammar's Specs and Nouns
// alone (NewLexicon), never changes once made, and may be shared by
// reads on any number of goroutines: a game's commands are read with the
// same words every time, and making them was a command's largest cost in
// the parser (issue 40).
type Lexicon struct {
	words  *engine.Vocabulary // every keyword: the game's and the lobby's
	vocab  []string           // words.Words()
	filler map[string]bool
}

// NewLexicon makes the words of a grammar whose Specs and Nouns are
// specs and nouns, for Grammar.Lexicon.
func NewLexicon(specs []engine.Spec, nouns []string) *Lexicon {
	x := &Lexicon{filler: map[string]bool{}}
	var lobby []string
	for _, lc := range lobbyCmds {
		lobby = append(lobby, lc.words...)
	}
	x.words = engine.NewVocabulary(specs, append(lobby, "with"), wholeWords)
	for k, ws := range germanWords {
		x.words.AddSpellings(k.String(), ws...)
	}
	x.words.AddSpellings("with", germanWith)
	x.vocab = x.words.Words()
	for _, words := range []map[string]bool{fillerWords, germanFillerWords} {
		for w := range words {
			x.filler[w] = true
		}
	}
	for _, w := range nouns {
		x.filler[engine.Fold(strings.ToLower(w))] = true
	}
	for _, s := range specs {
		for _, w := range s.Words {
			name := strings.ToLower(w.Text)
			if w.Kind != engine.Literal && len(name) >= 3 && isLetters(name) && !slices.Contains(x.vocab, name) {
				x.filler[name] = true
			}
		}
	}
	return x
}

func compile(l Grammar) *compiled {
	x := l.Lexicon
	if x == nil {
		x = NewLexicon(l.Specs, l.Nouns)
	}
	return &compiled{Grammar: l, Lexicon: x}
}

// germanWith is `new`'s "with" in German: "neu felix mit bob@x.test";
// germanUntil is vacation's "until": "Urlaub bis 24.12.2026".
const (
	germanWith  = "mit"
	germanUntil = "bis"
)

func isLetters(s string) bool {
	for _, r := range s {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	return s != ""
}

// keywords returns the keywords tok may stand for (engine.Vocabulary).
func (c *compiled) keywords(tok string) []string { return c.words.Keywords(tok) }

// isKeyword reports whether tok stands for exactly the keyword kw.
func (c *compiled) isKeyword(kw, tok string) bool { return c.words.Is(kw, tok) }
