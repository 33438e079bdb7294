package templates

import (
	"fmt"
	"net/url"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/parser"
)

// gameData is what the game templates see, the page's and the game's
// own (engine.Presenter): the mail as the daemon gave it, the reader's
// view as .View, and what the templates would find awkward to work out.
//
// The mail's fields are gameData's own, copied (mailData), not an
// embedded GameMail: text/template finds a promoted field only through
// reflect's search of the embedded structs, which allocates each time,
// and the templates read these fields hundreds of times a mail (issue
// 40). TestGameDataHoldsTheMail checks that none is missing.
type gameData struct {
	Language      string
	Service       string
	Marker        string
	GameID        int64
	Game          string
	Title         string
	Reader        string
	Intro         []string
	Happened      []engine.Event
	View          any
	Options       []engine.Option
	Waiting       []string
	Autopilot     []string
	AutopilotBy   string
	WaitingSince  map[string]time.Time
	Deadline      time.Time
	Location      *time.Location
	Finished      bool
	Scores        []Score
	Winners       []string
	Clocks        []SeatClock
	Aborted       bool
	Rating        *RatingChange
	Kind          MailKind
	ThreadSubject string
	WholeHistory  bool
	ReplyAddress  string
	MessageID     string
	PageURL       string
	CalendarURL   string
	RefLine       string
	SharedMailbox []string

	Name         string       // the game's short name: "Felix"
	YourTurn     bool         // the reader has something to do now
	ReaderWaits  bool         // the game waits on the reader, whether or not he was given options
	Others       []string     // whom else the game waits on
	OptionLines  []optionLine // the reader's options, one line per kind of move
	DeadlineText string       // the deadline in the reader's zone, or ""
	Table        string       // the rendered table (or the final result)
	Teach        string       // the game's short rules, in the first mail; else ""
	// Recent are the events at the top: all that happened since the
	// reader's last mail, in order, told once, so that no effect stands
	// above its cause. Earlier is the whole game so far, for a mail that
	// asks for it (`history`), shown below the table: it is read, not
	// acted on.
	Recent, Earlier []engine.Event
	Subject         string // the subject, for the HTML part's title and the links
	Headline        string // the headline, first in the HTML part
	// Tappable says that the HTML part offers at least one command as a
	// link, so that it may say "tap".
	Tappable bool
	replyTo  string       // the subject the links' mails answer: the thread's, never a reminder's
	links    replyLinks   // the links' URLs but for their commands, for replyTo
	game     *gameSet     // the game's templates, for its parts of the frame (game_html.go, game_text.go) and Draw
	words    Words        // the reader's language's
	rules    engine.Rules // the game's
}

// optionLine is one kind of move as a mail offers it, on one line: a
// command ("pass"); the words its commands share and the values that
// differ ("play" with "-8", "3", "rabbit"), each value a command of its
// own; or, when there are too many to list, the command's pattern with a
// real example beside it ("take T keep COLOUR give PLAYER, e.g. take 4
// keep red give bob"). Nothing offered is a pattern to be filled in
// without an example that can be sent as it stands.
type optionLine struct {
	Prefix   string   // the words the commands share: "play", "keep red give"; "" for one command alone
	Values   []string // what follows Prefix in each command: "-8", "3"
	Commands []string // the whole commands, one a value (or the one command, or the example)
	Usage    string   // the pattern, when it stands for commands not listed: "bid up to N"
	Text     string   // the line as the text part writes it
}

// maxGroups is how many lines one option may take before the mail shows
// its pattern and an example instead.
const maxGroups = 3

// optionLines lays out the reader's options, one line per kind of move,
// in English, each command as the game gives it.
func optionLines(specs []engine.Spec, opts []engine.Option) []optionLine {
	return Say.optionLines(nil, specs, opts)
}

// optionLines lays out the reader's options, one line per kind of move,
// in the words' language: each command as the game writes it in that
// language (move), so that a button sends what the reader could write.
func (e Words) optionLines(rules engine.Rules, specs []engine.Spec, opts []engine.Option) []optionLine {
	var out []optionLine
	for _, o := range opts {
		if len(o.Commands) == 0 {
			continue
		}
		usage := o.Text
		if s, ok := engine.FindSpec(specs, o.Spec); ok {
			usage = s.Usage()
		}
		groups := groupCommands(o.Commands)
		// An option whose commands are an example of many (o.Text says
		// "bid up to 2..17", the one command "bid up to 9"), or that
		// would take more lines than a kind of move deserves, shows its
		// pattern and one real command.
		if (len(o.Commands) == 1 && o.Text != o.Commands[0] && usage != o.Commands[0]) || len(groups) > maxGroups {
			ex, shown := e.move(rules, o.Commands[0]), e.usage(rules, usage)
			out = append(out, optionLine{Commands: []string{ex}, Usage: shown, Text: e.f("%s, e.g. %s", shown, ex)})
			continue
		}
		for _, g := range groups {
			out = append(out, e.translatedLine(rules, g)...)
		}
	}
	return out
}

// translatedLine is a line of groupCommands with its commands in the
// words' language: the words the translated commands share are its
// prefix, what follows them its values ("spiele" with "-8", "großer
// Hund"). Commands that share no words in the language are a line each.
func (e Words) translatedLine(rules engine.Rules, l optionLine) []optionLine {
	cmds := make([]string, len(l.Commands))
	same := true
	for i, c := range l.Commands {
		cmds[i] = e.move(rules, c)
		same = same && cmds[i] == c
	}
	if same {
		return []optionLine{l}
	}
	if len(cmds) == 1 {
		return []optionLine{{Commands: cmds, Text: cmds[0]}}
	}
	prefix := sharedWords(cmds)
	if prefix == "" {
		out := make([]optionLine, len(cmds))
		for i, c := range cmds {
			out[i] = optionLine{Commands: []string{c}, Text: c}
		}
		return out
	}
	values := make([]string, len(cmds))
	for i, c := range cmds {
		values[i] = strings.TrimPrefix(c, prefix+" ")
	}
	return []optionLine{{Prefix: prefix, Values: values, Commands: cmds, Text: lineText(prefix, values)}}
}

// sharedWords are the leading words every command has in common, with
// at least one word of each left after them; "" for none.
func sharedWords(cmds []string) string {
	first := strings.Fields(cmds[0])
	n := len(first) - 1
	for _, c := range cmds[1:] {
		w := strings.Fields(c)
		if len(w)-1 < n {
			n = len(w) - 1
		}
		for i := 0; i < n; i++ {
			if w[i] != first[i] {
				n = i
				break
			}
		}
	}
	if n <= 0 {
		return ""
	}
	prefix := strings.Join(first[:n], " ")
	for _, c := range cmds {
		if !strings.HasPrefix(c, prefix+" ") {
			return "" // spaced otherwise than Fields reads it
		}
	}
	return prefix
}

// lineText is a line of commands with a shared prefix as the text part
// writes it: "play -8 · 3 · rabbit".
func lineText(prefix string, values []string) string {
	return prefix + " " + strings.Join(compactRange(values), " · ")
}

// groupCommands puts commands that differ only in their last word on one
// line, in the order they come.
func groupCommands(cmds []string) []optionLine {
	var out []optionLine
	at := map[string]int{}
	for _, c := range cmds {
		prefix, value := "", c
		if i := strings.LastIndexByte(c, ' '); i > 0 {
			prefix, value = c[:i], c[i+1:]
		}
		i, ok := at[prefix]
		if !ok {
			i = len(out)
			at[prefix] = i
			out = append(out, optionLine{Prefix: prefix})
		}
		out[i].Values = append(out[i].Values, value)
		out[i].Commands = append(out[i].Commands, c)
	}
	for i, l := range out {
		if len(l.Commands) == 1 {
			out[i] = optionLine{Commands: l.Commands, Text: l.Commands[0]}
			continue
		}
		out[i].Text = lineText(l.Prefix, l.Values)
	}
	return out
}

// minRange is the shortest run of whole numbers the text part writes as
// "2 · 3 · 4 · … · 17".
const minRange = 8

// compactRange shortens a run of consecutive whole numbers: the first
// three, "…", the last. Anything else stays as it is.
func compactRange(vals []string) []string {
	if len(vals) < minRange {
		return vals
	}
	prev := 0
	for i, v := range vals {
		n, err := strconv.Atoi(v)
		if err != nil || (i > 0 && n != prev+1) {
			return vals
		}
		prev = n
	}
	return []string{vals[0], vals[1], vals[2], "…", vals[len(vals)-1]}
}

// newGameData prepares a game mail for the templates; specs are the
// game's commands, whose help explains the options.
func newGameData(m GameMail, rules engine.Rules, w Words) *gameData {
	var specs []engine.Spec // the options' patterns: made only for a mail that has options
	if len(m.Options) > 0 {
		specs = rules.Specs()
	}
	m.Happened = w.events(addressed(m.Happened, m.Reader, rules))
	d := mailData(m)
	d.Name, d.words, d.rules = shortName(m.Game, m.Title), w, rules
	d.Title = w.title(m.Title)
	d.YourTurn = len(m.Options) > 0 && !m.Finished && !m.Aborted
	for _, w := range m.Waiting {
		if m.Aborted {
			break // an ended game waits on nobody
		}
		if w != m.Reader {
			d.Others = append(d.Others, w)
		} else {
			d.ReaderWaits = !m.Finished
		}
	}
	d.OptionLines = w.optionLines(rules, specs, m.Options)
	d.Tappable = m.ReplyAddress != "" && len(d.OptionLines) > 0
	d.DeadlineText = w.deadlineText(m.Deadline, m.Location)
	d.Recent, d.Earlier = splitEvents(shownEvents(m, rules), m.WholeHistory)
	return d
}

// mailData is the game data of m's fields as the daemon gave them,
// before anything is worked out from them.
func mailData(m GameMail) *gameData {
	return &gameData{
		Language: m.Language, Service: m.Service, Marker: m.Marker, GameID: m.GameID, Game: m.Game, Title: m.Title,
		Reader: m.Reader, Intro: m.Intro, Happened: m.Happened, View: m.View, Options: m.Options, Waiting: m.Waiting,
		Autopilot: m.Autopilot, AutopilotBy: m.AutopilotBy, WaitingSince: m.WaitingSince, Deadline: m.Deadline,
		Location: m.Location, Finished: m.Finished, Scores: m.Scores, Winners: m.Winners, Clocks: m.Clocks,
		Aborted: m.Aborted, Rating: m.Rating, Kind: m.Kind, ThreadSubject: m.ThreadSubject, WholeHistory: m.WholeHistory,
		ReplyAddress: m.ReplyAddress, MessageID: m.MessageID, PageURL: m.PageURL, CalendarURL: m.CalendarURL,
		RefLine: m.RefLine, SharedMailbox: m.SharedMailbox,
	}
}

// addressed are the events as the player named reader reads them: his
// own acts in the second person, when the game writes them so
// (engine.Addresser). A page or mail for nobody's seat (reader "") keeps
// them as they are.
func addressed(evs []engine.Event, reader string, rules engine.Rules) []engine.Event {
	a, ok := rules.(engine.Addresser)
	if !ok || reader == "" || len(evs) == 0 {
		return evs
	}
	out := make([]engine.Event, len(evs))
	for i, e := range evs {
		out[i] = a.Address(e, reader)
	}
	return out
}

// resultKinds are the kinds of the events that state a game's result
// (each player's score, the totals, the winner): a finished mail's table
// says all of it, so its events leave them out, to say each thing once.
var resultKinds = []string{"score", "total", "winner"}

// turnKind is the kind of the events that only say whose turn it is
// ("bob chooses next."): once something follows, they are stale.
const turnKind = "turn"

// shownEvents are the events a mail lists: what happened, without what
// a later event or the mail's table says anyway.
func shownEvents(m GameMail, rules engine.Rules) []engine.Event {
	evs := m.Happened
	if c, ok := rules.(engine.Condenser); ok && !m.WholeHistory {
		evs = c.Condense(evs)
	}
	var out []engine.Event
	for i, e := range evs {
		switch {
		case m.Finished && slices.Contains(resultKinds, e.Kind):
		case e.Kind == turnKind && i < len(evs)-1:
		default:
			out = append(out, e)
		}
	}
	return out
}

// shortName is the game's name for subjects: the title up to a colon.
func shortName(game, title string) string {
	if i := strings.IndexByte(title, ':'); i > 0 {
		return title[:i]
	}
	if title != "" {
		return title
	}
	return upperFirst(game)
}

// WaitingNames names whom the game waits on for the reader: himself as
// "you", first, so that no mail tells its reader the game waits for him
// by his name. The names follow "waiting for": German writes the reader
// "dich".
func (d *gameData) WaitingNames() []string {
	if !d.ReaderWaits {
		return d.Others
	}
	return append([]string{d.words.f("you|whom the game waits for")}, d.Others...)
}

// waitedFor are the players the game waits on, by their names: the
// reader, when it waits on him, first.
func (d *gameData) waitedFor() []string {
	if !d.ReaderWaits {
		return d.Others
	}
	return append([]string{d.Reader}, d.Others...)
}

// WaitingText names whom the game waits on, short enough for a subject,
// after "waiting for".
func (d *gameData) WaitingText() string {
	names := d.WaitingNames()
	switch {
	case len(names) == 0:
		return d.words.f("the others")
	case len(names) <= 2:
		return d.words.joinAnd(names)
	case d.ReaderWaits:
		return d.words.f("you and %d others", len(names)-1)
	}
	return d.words.f("%d players", len(names))
}

// WinnersText says who won: "alice wins", "alice and carol share the win".
func (d *gameData) WinnersText() string {
	return d.words.winnersText(d.Winners, d.words.f("no winner"))
}

// winnersText says who won, or none when nobody did.
func (e Words) winnersText(winners []string, none string) string {
	switch len(winners) {
	case 0:
		return none
	case 1:
		return e.f("%s wins", winners[0])
	}
	return e.f("%s share the win", e.joinAnd(winners))
}

// IsWinner reports whether name is among the winners.
func (d *gameData) IsWinner(name string) bool {
	for _, w := range d.Winners {
		if w == name {
			return true
		}
	}
	return false
}

// ScoreOf is a player's final score from Scores.
func (d *gameData) ScoreOf(name string) int {
	for _, s := range d.Scores {
		if s.Name == name {
			return s.Score
		}
	}
	return 0
}

// ScoreMap is Scores by name, for a game's templates.
func (d *gameData) ScoreMap() map[string]int {
	m := make(map[string]int, len(d.Scores))
	for _, s := range d.Scores {
		m[s.Name] = s.Score
	}
	return m
}

// link is a command offered as a one-tap link.
type link struct {
	Command string
	Label   string // what the button shows: the command, or the value that sets it apart ("3" for "play 3")
	URL     string // mailto:, or "" when the mail has no reply address
}

// Link makes the one-tap link that writes a reply with cmd: a mailto:
// URL (RFC 6068) to the seat's address, with the thread's subject, the
// mail's id as In-Reply-To, and cmd as the body, followed by the mail's
// reference line. Nothing else goes into it: no tracking, no redirect.
func (d *gameData) Link(cmd string) link {
	if d.ReplyAddress == "" {
		return link{Command: cmd, Label: cmd}
	}
	if d.links.subject != d.replyTo || d.links.head == "" {
		d.links = newReplyLinks(d.ReplyAddress, d.replyTo, d.MessageID, d.RefLine)
	}
	return link{Command: cmd, Label: cmd, URL: d.links.url(cmd)}
}

// Move is one of the game's commands ("pass", "bid up to 9") in the
// reader's language, as the game writes it (engine.CommandTranslator):
// for a game's templates, which name their commands themselves
// ({{$.Link ($.Move "pass")}}). The options need none: they come
// written so.
func (d *gameData) Move(cmd string) string { return d.words.move(d.rules, cmd) }

// LinkAs is Link for the command prefix+" "+value, on a button that
// shows the value alone: "play" then buttons "-8", "3", "rabbit".
func (d *gameData) LinkAs(prefix, value string) link {
	l := d.Link(prefix + " " + value)
	l.Label = value
	return l
}

// replySubject is the subject of a reply to a mail with this one.
func replySubject(subject string) string {
	if len(subject) >= 3 && strings.EqualFold(subject[:3], "re:") {
		return subject
	}
	return "Re: " + subject
}

// mailto builds an RFC 6068 URL. Every value is percent-encoded, its
// spaces as %20 (a "+" would stay a "+" in mailto:), the body's line
// breaks as %0D%0A. The address's "+" is encoded too: it is what the
// seat's token hangs on, and a mail program that decoded the URL as a
// form would read a literal one as a space.
func mailto(addr, subject, inReplyTo, command, refLine string) string {
	return newReplyLinks(addr, subject, inReplyTo, refLine).url(command)
}

// replyLinks makes the mailto: links of one mail (mailto), which differ
// only in their command: the part before it and the part after it are
// encoded once a mail, not once a button (issue 40). Percent-encoding
// goes byte by byte, so the parts encoded apart are the whole encoded
// at once.
type replyLinks struct {
	subject    string // the subject the links answer, before replySubject
	head, tail string // the URL up to the body, and the body after the command
}

// newReplyLinks are the links that answer the thread subject: a mail to
// addr with Re: subject, inReplyTo as In-Reply-To, and a body of the
// command then the mail's reference line.
func newReplyLinks(addr, subject, inReplyTo, refLine string) replyLinks {
	local, domain, _ := strings.Cut(addr, "@")
	var b strings.Builder
	b.WriteString("mailto:" + escape(local) + "@" + escape(domain))
	b.WriteString("?subject=" + escape(replySubject(subject)))
	if inReplyTo != "" {
		b.WriteString("&In-Reply-To=" + escape("<"+inReplyTo+">"))
	}
	b.WriteString("&body=")
	l := replyLinks{subject: subject, head: b.String()}
	if refLine != "" {
		l.tail = escape("\r\n\r\n" + refLine)
	}
	return l
}

// url is the link that writes a reply with command.
func (l replyLinks) url(command string) string { return l.head + escape(command) + l.tail }

// escape percent-encodes everything but RFC 3986's unreserved
// characters.
func escape(s string) string { return strings.ReplaceAll(url.QueryEscape(s), "+", "%20") }

// splitEvents puts what happened since the reader's last mail at the
// top, all of it and in order: the story is told once, and a cause is
// never below its effect. The whole history (`history`) goes below the
// table: it is read, not acted on.
func splitEvents(evs []engine.Event, whole bool) (recent, earlier []engine.Event) {
	if whole {
		return nil, evs
	}
	return evs, nil
}

// Told says that what happened since the reader's last mail includes an
// event of kind, so that a game's table need not say it again.
func (d *gameData) Told(kind string) bool {
	for _, e := range d.Happened {
		if e.Kind == kind {
			return true
		}
	}
	return false
}

// EarlierHeading heads the events shown below the table: the whole
// game so far, the only story told there.
func (d *gameData) EarlierHeading() string { return d.words.f("The whole game so far") }

// WaitingLine says whom the game waits on and since when, once: "Waiting
// for bob and carol (since Tue 24 Nov 18:00 CET)". When they have waited
// from different times it gives the longest wait.
func (d *gameData) WaitingLine() string {
	names := d.WaitingNames()
	if len(names) == 0 {
		return ""
	}
	var first time.Time
	same := true
	for _, n := range d.waitedFor() {
		since := d.WaitingSince[n]
		switch {
		case since.IsZero():
		case first.IsZero():
			first = since
		case !since.Equal(first):
			same = false
			if since.Before(first) {
				first = since
			}
		}
	}
	list := d.words.joinAnd(names)
	switch {
	case first.IsZero():
		return d.words.f("Waiting for %s.", list)
	case same:
		return d.words.f("Waiting for %s (since %s).", list, d.words.deadlineText(first, d.Location))
	}
	return d.words.f("Waiting for %s (the longest since %s).", list, d.words.deadlineText(first, d.Location))
}

// FooterLine is the footer's commands as the text part writes them:
// "help · status · history · rules · notify digest".
func (d *gameData) FooterLine() string {
	var cmds []string
	for _, c := range append(footerWords[:len(footerWords):len(footerWords)], footerSetting) {
		cmds = append(cmds, d.words.Command(c))
	}
	return strings.Join(cmds, " · ")
}

// footerSetting is the setting the footer names beside its commands,
// the one most asked for.
var footerSetting = parser.KindNotify.String() + " digest"

// footerWords are the commands of a game mail's footer: each may be sent
// at any time, and each is answered with a mail.
var footerWords = kindNames(parser.KindHelp, parser.KindStatus, parser.KindHistory, parser.KindRules)

// kindNames are the words of the lobby commands kinds, as the parser's
// table writes them.
func kindNames(kinds ...parser.Kind) []string {
	out := make([]string, len(kinds))
	for i, k := range kinds {
		out[i] = k.String()
	}
	return out
}

// EndedByHost says, in a mail of a game the host ended, that it is over.
func (d *gameData) EndedByHost() string { return d.words.EndedByHost() }

// RatingChange is what a rated game did to one player's rating in its
// kind: the rating shown (internal/rating's Ordinal) before and after,
// and his place after it among the players he has played that kind
// with, as `standings` lists them.
type RatingChange struct {
	Before, After float64
	Place, Of     int  // his place (1 for the best) among Of players
	Shared        bool // another has the same rating, so the same place
}

// RatingText is the end mail's line on the reader's rating, or "".
func (d *gameData) RatingText() string {
	if d.Rating == nil {
		return ""
	}
	return d.words.RatingChanged(*d.Rating, d.Name)
}

// placeOf is each player's place in the final order, by name: the
// winners first, sharing 1st when several share the win, then the
// others by score, highest first, equal scores sharing a place. It is
// the order the ratings rate (internal/rating.Ranks).
func (d *gameData) placeOf() map[string]int {
	won := map[string]bool{}
	for _, w := range d.Winners {
		won[w] = true
	}
	place := make(map[string]int, len(d.Scores))
	for _, s := range d.Scores {
		if won[s.Name] {
			place[s.Name] = 1
			continue
		}
		p := 1 + len(d.Winners)
		for _, o := range d.Scores {
			if !won[o.Name] && o.Score > s.Score {
				p++
			}
		}
		place[s.Name] = p
	}
	return place
}

// Place is a player's place in the final order: "1st", "shared 2nd".
func (d *gameData) Place(name string) string {
	place := d.placeOf()
	shared := false
	for n, p := range place {
		if n != name && p == place[name] {
			shared = true
		}
	}
	return d.words.Place(place[name], shared)
}

// ByRank orders a game's players (a slice of its view's structs, each
// with a Name) by their place in the final order; players of one place
// stay in seat order. A game's end table ranges over it.
func (d *gameData) ByRank(players any) (any, error) {
	v := reflect.ValueOf(players)
	if v.Kind() != reflect.Slice {
		return nil, fmt.Errorf("templates: ByRank of %T, not a slice", players)
	}
	place := d.placeOf()
	out := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
	reflect.Copy(out, v)
	name := func(i int) string {
		e := reflect.Indirect(out.Index(i))
		if e.Kind() != reflect.Struct {
			return ""
		}
		f := e.FieldByName("Name")
		if !f.IsValid() || f.Kind() != reflect.String {
			return ""
		}
		return f.String()
	}
	sort.SliceStable(out.Interface(), func(i, j int) bool { return place[name(i)] < place[name(j)] })
	return out.Interface(), nil
}
