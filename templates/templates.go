package templates

import (
	"embed"
	"fmt"
	htmltemplate "html/template"
	"sort"
	"strings"
	"text/template"
	"time"

	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/message/catalog"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/parser"
)

//go:embed text/*.tmpl html/*.tmpl
var files embed.FS

// Renderer renders pbem's mails from embedded template files: the plain
// text from text/template files (templates/text/*.tmpl), the HTML part
// from html/template files (templates/html/*.tmpl). A game's own part of
// its mails (headline, table, final result, rules) comes from the game
// itself, through engine.Presenter: the renderer knows no game by name.
//
// Every mail is written in its reader's language (GameMail.Language,
// Notice.Language, Page.Language): the templates are parsed once for
// each language of the catalog, their "T" function bound to that
// language's words, so that a template writes {{T "Your move"}} and a
// language is a catalog, not a copy of the templates. Safe for
// concurrent use.
type Renderer struct {
	sets  map[language.Tag]*langSet // by language; English always
	named map[string]*langSet       // by each language's own tag ("de"), which most readers' records hold: no parsing, no matching
	tags  []language.Tag            // the keys of sets, English first, for matching
	rules []engine.Rules            // every game, by name, for help
	buf   *scratch                  // the buffers the templates are executed into
}

// langSet is the templates parsed for one language.
type langSet struct {
	words Words
	t     *template.Template     // the page and the notices, text
	h     *htmltemplate.Template // the page and the notices, HTML
	games map[string]*gameSet
}

// gameSet is one game's templates: the renderer's own with the game's
// added, and the game's functions.
type gameSet struct {
	rules engine.Rules
	t     *template.Template
	h     *htmltemplate.Template
	frag  *fragments             // h's tiles and footer, rendered once
	faces map[string]engine.Tile // the game's tiles (engine.Presenter's Tiles)
}

// New parses the embedded templates and those of every game in games
// (keyed by name), each of which must implement engine.Presenter, for
// every language of the catalogs: the package's (locales/) and the
// games' (engine.Presenter's Locales).
func New(games map[string]engine.Rules) (*Renderer, error) {
	return build(games, nil)
}

// build is New with more catalog entries, which the tests use to
// add a pseudo-locale.
func build(games map[string]engine.Rules, more func(*catalog.Builder) error) (*Renderer, error) {
	names := make([]string, 0, len(games))
	for name := range games {
		names = append(names, name)
	}
	sort.Strings(names)
	cat, err := rendererCatalog(games, names, more)
	if err != nil {
		return nil, err
	}
	r := &Renderer{sets: map[language.Tag]*langSet{}, buf: &scratch{}}
	for _, name := range names {
		r.rules = append(r.rules, games[name])
	}
	r.tags = append(r.tags, language.English)
	for _, tag := range cat.Languages() {
		if tag != language.English {
			r.tags = append(r.tags, tag)
		}
	}
	for _, tag := range r.tags {
		w := Words{p: message.NewPrinter(tag, message.Catalog(cat)), tag: tag, kept: &sentences{}}
		set, err := newLangSet(w, games, names)
		if err != nil {
			return nil, fmt.Errorf("templates: %s: %w", tag, err)
		}
		r.sets[tag] = set
	}
	r.named = map[string]*langSet{}
	for _, tag := range r.tags {
		r.named[tag.String()] = r.matchSet(tag.String())
	}
	return r, nil
}

// newLangSet parses every template in the language of w.
func newLangSet(w Words, games map[string]engine.Rules, names []string) (*langSet, error) {
	t, err := template.New("pbem").Option("missingkey=error").Funcs(funcs(w)).ParseFS(files, "text/*.tmpl")
	if err != nil {
		return nil, fmt.Errorf("templates: %w", err)
	}
	h, err := htmltemplate.New("pbem").Option("missingkey=error").Funcs(htmlFuncs(w)).ParseFS(files, "html/*.tmpl")
	if err != nil {
		return nil, fmt.Errorf("templates: %w", err)
	}
	set := &langSet{words: w, t: t, h: h, games: map[string]*gameSet{}}
	for _, name := range names {
		g, err := newGameSet(t, h, name, games[name], w.f)
		if err != nil {
			return nil, err
		}
		set.games[name] = g
	}
	// Last: the games' sets are clones of h, and html/template clones
	// no set once it has been executed.
	if _, err := newFragments(h); err != nil {
		return nil, err
	}
	return set, nil
}

// set is the templates in the language tag names (a player's record's
// BCP 47 tag): the closest the catalogs have, or English.
func (r *Renderer) set(tag string) *langSet {
	if s, ok := r.named[tag]; ok {
		return s
	}
	return r.matchSet(tag)
}

// matchSet is set, for a tag that is not a language's own.
func (r *Renderer) matchSet(tag string) *langSet {
	if tag == "" {
		return r.sets[language.English]
	}
	t, err := language.Parse(tag)
	if err != nil {
		return r.sets[language.English]
	}
	if s, ok := r.sets[t]; ok {
		return s
	}
	_, i, conf := language.NewMatcher(r.tags).Match(t)
	if conf == language.No {
		return r.sets[language.English]
	}
	return r.sets[r.tags[i]]
}

// marker is a mail's marker line in the set's language: the catalog's
// form of parser.ReplyMarker, which starts "--- pbem" in every language
// so that the parser cuts a reply at it; a marker the catalog lacks as
// it is.
func (set *langSet) marker(m string) string {
	if m == "" || set.words.p == nil {
		return m
	}
	if m == markerKey {
		return set.words.f(markerKey)
	}
	return m
}

// markerKey is the marker line's key in the catalogs.
const markerKey = parser.ReplyMarker

// Languages are the languages the renderer writes, English first, as
// BCP 47 tags.
func (r *Renderer) Languages() []string {
	out := make([]string, len(r.tags))
	for i, t := range r.tags {
		out[i] = t.String()
	}
	return out
}

// Words are pbem's words in the language tag names, with the games'
// words in their catalogs: for what the daemon writes about a game.
func (r *Renderer) Words(tag string) Words { return r.set(tag).words }

// newGameSet adds a game's templates to clones of the renderer's.
func newGameSet(t *template.Template, h *htmltemplate.Template, name string, rules engine.Rules, say engine.Say) (*gameSet, error) {
	p, ok := rules.(engine.Presenter)
	if !ok {
		return nil, fmt.Errorf("templates: game %q does not present itself (engine.Presenter)", name)
	}
	gt, err := t.Clone()
	if err != nil {
		return nil, fmt.Errorf("templates: %s: %w", name, err)
	}
	if _, err := gt.Funcs(p.Funcs(say)).ParseFS(p.Templates(), name+".text.tmpl", name+"-rules.tmpl"); err != nil {
		return nil, fmt.Errorf("templates: %s: %w", name, err)
	}
	gh, err := h.Clone()
	if err != nil {
		return nil, fmt.Errorf("templates: %s: %w", name, err)
	}
	faces := p.Tiles()
	if _, err := gh.Funcs(tileFuncs(faces)).Funcs(p.Funcs(say)).ParseFS(p.Templates(), name+".html.tmpl"); err != nil {
		return nil, fmt.Errorf("templates: %s: %w", name, err)
	}
	for _, part := range []string{"game.headline", "game.table", "game.end", "game.rules", "game.teach"} {
		if gt.Lookup(part) == nil {
			return nil, fmt.Errorf("templates: %s: %s.text.tmpl or %s-rules.tmpl defines no %q", name, name, name, part)
		}
	}
	for _, part := range []string{"game.table", "game.end"} {
		if gh.Lookup(part) == nil {
			return nil, fmt.Errorf("templates: %s: %s.html.tmpl defines no %q", name, name, part)
		}
	}
	frag, err := newFragments(gh)
	if err != nil {
		return nil, fmt.Errorf("templates: %s: %w", name, err)
	}
	return &gameSet{rules: rules, t: gt, h: gh, frag: frag, faces: faces}, nil
}

// Mail is one rendered mail.
type Mail struct {
	// Subject is the game's thread subject for a mail of a game's
	// thread (GameMail.ThreadSubject, Notice.ThreadSubject), the same for
	// every mail of the game to its reader; else it is the Headline.
	Subject string
	// Headline says what the mail is about now: "Felix #12: your turn to
	// bid (round 4)". In a mail of a game's thread it is the first line
	// of the text and the first visible text of the HTML part, which
	// mail clients show as the preview.
	Headline string
	Text     string // the plain-text body, complete on its own
	HTML     string // the HTML part: the same content, cards drawn as tiles
}

// GameMail is a player's personal mail about one game.
type GameMail struct {
	// Language is the reader's language, a BCP 47 tag ("de"); "" and a
	// language pbem does not have are English.
	Language string
	Service  string          // the service's name, e.g. "pbem"
	Marker   string          // a line to put first in the body (the parser cuts replies at it); may be ""
	GameID   int64           //
	Game     string          // the game's name, "felix": chooses the game's templates
	Title    string          // "Felix: The Cat in the Sack"
	Reader   string          // the reader's name in the game
	Intro    []string        // lines for the top, e.g. "Applied: bid 4." or an error the reader's mail met
	Happened []engine.Event  // what happened since the reader's last mail, only entries he may see, in order
	View     any             // the reader's view, of the game's own view type (felix.View)
	Options  []engine.Option // what the reader can do now; empty when it is not his turn
	Waiting  []string        // whom the game waits on (names)
	// Autopilot names the players whose seats pbem plays until they send
	// a command (public: everyone was told), and AutopilotBy says who
	// plays them, as a phrase: "pbem's bot plays for them". Empty
	// AutopilotBy reads "pbem makes the default moves for them".
	Autopilot   []string
	AutopilotBy string
	// WaitingSince is when the game began to wait on each of Waiting, by
	// name; public, as the waiting is. A name without one is shown
	// without "since".
	WaitingSince map[string]time.Time
	Deadline     time.Time      // the reader's deadline; zero for none
	Location     *time.Location // the reader's time zone; nil means UTC
	Finished     bool           //
	Scores       []Score        // when Finished: every player's final score, in seat order
	Winners      []string       //
	// Clocks are the time banks of a game played with a clock (`new …
	// clock 2d+12h max 5d`), one per seat in seat order; nil in a game
	// with the classic time per decision, or one that is over. A bank
	// is public: every seat's mail and page, and the public page, show
	// them all.
	Clocks []SeatClock
	// Aborted says the host ended the game before its end: the mail says
	// it is over, and waits on nobody.
	Aborted bool
	// Rating is what the game did to the reader's rating, in the mail
	// that ends a rated game; nil otherwise.
	Rating *RatingChange
	// Kind says why the mail is written; a reminder renders exactly as a
	// status mail but for a Headline that starts with "Reminder: ".
	Kind MailKind
	// ThreadSubject is the Subject of every mail of the game to the
	// reader, fixed when the game was made; empty makes the Headline the
	// Subject.
	ThreadSubject string
	// WholeHistory says that Happened is the whole game so far (the
	// answer to `history`), not what happened since the reader's last
	// mail: it heads the events "The whole game so far".
	WholeHistory bool
	// ReplyAddress is the seat's own address, the mail's Reply-To. When
	// set, every command the HTML part offers (a move, rematch, the
	// footer's) is a one-tap link (mailto:, RFC 6068) that writes a mail
	// to it with the command; "" shows the commands without links.
	ReplyAddress string
	// MessageID is the Message-ID the mail will carry, without angle
	// brackets: the links ask for it as In-Reply-To, which some mail
	// programs honour.
	MessageID string
	// PageURL is the seat's web page (internal/web), shown as a link in
	// the text and the HTML part; "" when pbem serves no pages.
	PageURL string
	// CalendarURL is the reader's calendar feed (internal/web's
	// /c/TOKEN.ics): the deadlines of all his games, shown below
	// PageURL; "" when pbem serves no pages, or in a game that is over.
	CalendarURL string
	// RefLine is a line each link's body carries below its command
	// (parser.RefLine): it tells pbem which mail the tap came from when
	// the mail program writes no In-Reply-To, so that the stale-reply
	// rule applies to a tap as to a reply. "" for none.
	RefLine string
	// SharedMailbox, in the start mail to the game's creator, names two
	// players whose addresses reach one mailbox (internal/mailbox): the
	// mail says the game is not rated, and why. Empty for every other
	// mail.
	SharedMailbox []string
}

// SeatClock is one player's time bank as a mail or page shows it.
type SeatClock struct {
	Name      string        // the player's name in the game
	Left      time.Duration // what his bank holds now
	Running   bool          // the game waits on him: his bank runs down now (outside his quiet hours and days off)
	Autopilot bool          // his bank ran out: pbem moves for him until he writes again
}

// Score is one player's final score.
type Score struct {
	Name  string
	Score int
}

// Notice is a mail about no game in particular, or about a game but not a
// turn: help, rules, invitations, refusals, lists of games, errors.
type Notice struct {
	// Language is the reader's language, as GameMail's.
	Language   string
	Service    string
	Marker     string
	Kind       NoticeKind // which notice
	To         string     // the reader's address or name
	Game       string     // for rules/invite/joined/declined: the game's name
	Title      string     // the game's title
	GameID     int64      //
	Players    []string   // invite: every player, counted and never shown (only From is); joined: who has joined; created: every address, creator first
	Waiting    []string   // joined: who has not answered yet; created: the invited addresses (not the creator)
	From       string     // invite: who invites; declined: the seat name of who declined
	Reason     string     // refusal, error, invalid: why, in plain words
	DidYouMean []string   // error, invalid: suggestions
	Usages     []string   // help, error, invalid: the commands of the language ("bid N", "help", ...)
	// Seated is set for an error answering a player in his seat's
	// thread: instead of every command (Usages), it lists what he can
	// do now, Options (the game's Options for his seat; none: no
	// decision of his is due), as the game mail does.
	Seated  bool
	Options []engine.Option
	Games   []GameLine // games: the reader's games
	Lines   []string   // extra lines the daemon wants shown (e.g. "Applied: pass.")
	// Digest is the digest's games, in the order shown; Location is the
	// reader's time zone, for their deadlines (nil means UTC).
	Digest   []DigestGame
	Location *time.Location
	// ThreadSubject, when not empty, puts the notice in a game's thread
	// (an invitation, an answer to a mail sent there): it is the Subject,
	// and the notice's own subject becomes the Headline, the text's
	// first line. Empty for a notice about no game's thread, whose own
	// subject is its Subject.
	ThreadSubject string
	// Standings, for the standings notice: the reader's rating in each
	// game kind and the players he has played rated games with.
	Standings []StandingsTable
	// Detail says that the standings were asked for with their detail
	// (`standings detail`): each rating's skill and its uncertainty.
	Detail bool
	// ReplyAddress, MessageID and RefLine are a threaded notice's as a
	// game mail's (GameMail): with ReplyAddress set, the commands the
	// notice offers (join, decline, rules) are one-tap links.
	ReplyAddress, MessageID, RefLine string
	// ThreadRef names the thread's game as headlines do ("Felix #12"); a
	// threaded notice's Headline starts with it, so that a copy of the
	// mail in a reply is known for pbem's own words (the daemon's
	// parser.ExtractOptions.OwnMarkers). Set with ThreadSubject.
	ThreadRef string
	// Button is a link to a page of pbem's web server that the notice
	// offers, a button in the HTML part and written out in the text:
	// the address confirmation's (address NEW). Empty: none.
	Button WebButton
}

// WebButton is a notice's link to a page of pbem's web server: its
// address and what the button says.
type WebButton struct {
	URL, Label string
}

// DigestGame is one of the reader's games in his daily digest: what
// happened since his last mail about it, whom it waits on, and where to
// write.
type DigestGame struct {
	GameID int64
	Game   string // the game's name, "felix": whose commands Options are
	Title  string
	Reader string // the reader's name in this game
	// Address is the seat's own address: mail to it is the reader's mail
	// about this game.
	Address  string
	Happened []engine.Event  // since his last mail about the game, only what he may see
	Options  []engine.Option // what he can do now; empty unless the game waits on him
	YourTurn bool            // the game waits on the reader
	Waiting  []string        // the others the game waits on (never the reader)
	Deadline time.Time       // the reader's deadline; zero for none
	State    DigestState
	Winners  []string // DigestOver: who won
}

// DigestState is where a game of a digest stands.
type DigestState string

const (
	DigestRunning DigestState = "running" // being played
	DigestPaused  DigestState = "paused"  // stopped by an admin: no deadline passes
	DigestRepair  DigestState = "repair"  // set aside as broken until the admins repair it
	DigestOver    DigestState = "over"    // ended by the rules since the reader's last mail about it
	DigestAborted DigestState = "aborted" // ended by an admin since the reader's last mail about it: no rematch
)

// GameLine is one game in a list of the reader's games.
type GameLine struct {
	ID                                     int64
	Game, Title, Status, Players, YourTurn string
}

// MailKind says why a game mail is written. Each kind is one the daemon
// sends: a kind nothing sends has no template, golden or doc to keep.
type MailKind string

const (
	MailStart    MailKind = "start"    // everyone has joined: the first table
	MailTurn     MailKind = "turn"     // something happened
	MailStatus   MailKind = "status"   // the table on request, or with an answer
	MailReminder MailKind = "reminder" // a deadline is near: the status mail, headline "Reminder: "
	MailEnd      MailKind = "end"      // the game is over
)

// NoticeKind says which notice a Notice is: each has KIND.subject and
// KIND.body text templates and a KIND.html part. KIND.subject is the
// Subject of a notice about no game's thread, and the Headline of one in
// a game's thread.
type NoticeKind string

const (
	NoticeHelp     NoticeKind = "help"     // the commands
	NoticeRules    NoticeKind = "rules"    // a game's rules summary
	NoticeInvite   NoticeKind = "invite"   // an invitation to a game
	NoticeJoined   NoticeKind = "joined"   // who has joined, who not yet
	NoticeDeclined NoticeKind = "declined" // a game that will not start
	NoticeGames    NoticeKind = "games"    // the reader's games
	NoticeRefusal  NoticeKind = "refusal"  // a mail not read, to a stranger
	NoticeError    NoticeKind = "error"    // a mail that could not be read
	NoticeInvalid  NoticeKind = "invalid"  // a request that cannot be done
	NoticeTooLarge NoticeKind = "toolarge" // a mail too large to read
	NoticeCreated  NoticeKind = "created"  // the creator's game is created
	NoticeUnknown  NoticeKind = "unknown"  // a game command sent to the bare address
	NoticeAdmin    NoticeKind = "admin"    // to the admins
	// NoticeRepair is the notice about a game set aside as broken: to
	// its players when it is set aside, and to whoever mails it while it
	// waits.
	NoticeRepair NoticeKind = "repair"
	// NoticeDigest is a player's daily digest of his games (notify
	// digest): every game in one mail, in place of the game mails.
	NoticeDigest NoticeKind = "digest"
	// NoticeApplied is the short answer to a player's move that asks
	// nothing more of him: what was applied, what followed, and whom the
	// game waits for now. It has no table: his next game mail does.
	NoticeApplied NoticeKind = "applied"
	// NoticeHeld tells a sender, once, that the loop breaker holds
	// pbem's answers to his mails at one address for a while: Reason
	// is the headline, Lines say why and what still works.
	NoticeHeld NoticeKind = "held"
	// NoticeStandings answers `standings`: the reader's ratings and the
	// players he has played with (templates/*/standings.tmpl).
	NoticeStandings NoticeKind = "standings"
	// NoticeAddress is about a player's address (address NEW, address
	// add OTHER): the confirmation mailed to the new address, and what
	// was done, to the old one and the new. Reason is the headline and
	// Lines the sentences (templates.Say's Address*); it names no game.
	NoticeAddress NoticeKind = "address"
)

// StandingsTable is one game kind's standings among the players the
// reader has played rated games of it with, best first.
type StandingsTable struct {
	Title string         // the game's title
	Rows  []StandingsRow //
}

// StandingsRow is one player of a StandingsTable: by his name, never his
// address.
type StandingsRow struct {
	Place  int // 1 for the best; equal ratings share a place
	Name   string
	You    bool   // the reader
	Rating string // the rating shown: "3.2", skill - 3 × uncertainty
	Skill  string // "26.0 ± 7.0"
	Games  int    // rated games of the kind
}

// noticeKinds lists the notice kinds Notice renders.
var noticeKinds = []NoticeKind{
	NoticeHelp, NoticeRules, NoticeInvite, NoticeJoined, NoticeDeclined, NoticeGames,
	NoticeRefusal, NoticeError, NoticeInvalid, NoticeTooLarge, NoticeCreated, NoticeUnknown, NoticeAdmin,
	NoticeRepair, NoticeDigest, NoticeApplied, NoticeHeld, NoticeStandings, NoticeAddress,
}

// NoticeKinds returns the kinds of Notice the renderer knows.
func NoticeKinds() []NoticeKind { return append([]NoticeKind(nil), noticeKinds...) }

// Game renders a player's personal mail about one game.
func (r *Renderer) Game(m GameMail) (Mail, error) {
	if m.Location == nil {
		m.Location = time.UTC
	}
	if m.Game == "" {
		return Mail{}, fmt.Errorf("templates: game mail without a game")
	}
	// A reminder is the status mail again, with a headline that says
	// why it came.
	reminder := m.Kind == MailReminder
	if reminder {
		m.Kind = MailStatus
	}
	set := r.set(m.Language)
	m.Marker = set.marker(m.Marker)
	g, ok := set.games[m.Game]
	if !ok {
		return Mail{}, fmt.Errorf("templates: no templates for game %q", m.Game)
	}
	d := newGameData(m, g.rules, set.words)
	d.game = g
	var err error
	if d.Table, err = r.tableText(d); err != nil {
		return Mail{}, err
	}
	d.Table = strings.TrimLeft(d.Table, "\n")
	if m.Kind == MailStart && !m.Finished {
		// The first mail teaches the game: how to win and score.
		if d.Teach, err = r.buf.text(g.t, "game.teach", d); err != nil {
			return Mail{}, err
		}
	}
	headline, err := r.headlineText(d)
	if err != nil {
		return Mail{}, err
	}
	if m.Aborted && !m.Finished {
		headline = set.words.EndedByHostHeadline(d.Name, m.GameID)
	}
	body, err := r.gameText(d)
	if err != nil {
		return Mail{}, err
	}
	d.Headline = tidySubject(headline)
	// A tap on a link answers in the game's thread: its subject is the
	// thread's, or the headline without a reminder's "Reminder: ".
	d.replyTo = d.Headline
	if reminder {
		d.Headline = set.words.f("Reminder: %s", d.Headline)
	}
	d.Subject = d.Headline
	if m.ThreadSubject != "" {
		d.Subject = tidySubject(m.ThreadSubject)
		d.replyTo = d.Subject
	}
	html, err := r.gameHTML(d)
	if err != nil {
		return Mail{}, err
	}
	return Mail{Subject: d.Subject, Headline: d.Headline, Text: tidyBody(d.Headline, m.Marker, body), HTML: html}, nil
}

// Notice renders a mail about no game in particular.
func (r *Renderer) Notice(n Notice) (Mail, error) {
	known := false
	for _, k := range noticeKinds {
		known = known || k == n.Kind
	}
	if !known {
		return Mail{}, fmt.Errorf("templates: unknown notice kind %q", n.Kind)
	}
	set := r.set(n.Language)
	n.Marker = set.marker(n.Marker)
	d := newNoticeData(n, r.rules, set.words)
	if n.Kind == NoticeDigest {
		if err := set.digestData(d); err != nil {
			return Mail{}, err
		}
	}
	if n.Kind == NoticeRules {
		g, ok := set.games[n.Game]
		if n.Game == "" || !ok {
			return Mail{}, fmt.Errorf("templates: no rules for game %q", n.Game)
		}
		var err error
		if d.Rules, err = r.buf.text(g.t, "game.rules", d); err != nil {
			return Mail{}, err
		}
	}
	subject, err := r.buf.text(set.t, string(n.Kind)+".subject", d)
	if err != nil {
		return Mail{}, err
	}
	body, err := r.buf.text(set.t, string(n.Kind)+".body", d)
	if err != nil {
		return Mail{}, err
	}
	headline := tidySubject(subject)
	d.Subject = headline
	if n.ThreadSubject != "" {
		// In a game's thread the notice's own subject is its first line,
		// and starts with the game's reference like every headline there.
		if ref := tidySubject(n.ThreadRef); ref != "" && !strings.HasPrefix(headline, ref) {
			if set.words.isEnglish() {
				// German keeps its capitals: most of its first words are nouns.
				headline = lowerFirstWord(headline)
			}
			headline = ref + ": " + headline
		}
		d.Headline = headline
		d.Subject = tidySubject(n.ThreadSubject)
	}
	html, err := r.buf.html(set.h, "notice.html", d)
	if err != nil {
		return Mail{}, err
	}
	return Mail{Subject: d.Subject, Headline: headline, Text: tidyBody(d.Headline, n.Marker, body), HTML: html}, nil
}

// tidySubject makes one line of a rendered subject.
func tidySubject(s string) string { return strings.Join(strings.Fields(s), " ") }

// sigSep is the signature separator: "-- " with its trailing space (RFC
// 3676, section 4.3), so that mail clients recognise what follows as a
// signature, grey it out and leave it out of replies.
const sigSep = "-- "

// lowerFirstWord lowers the first letter of s when its first word is an
// ordinary word ("The rules of …"), so that it reads on after a prefix;
// a name or an address keeps its case.
func lowerFirstWord(s string) string {
	word, _, _ := strings.Cut(s, " ")
	if word == "" || strings.ContainsAny(word, "@#.") || strings.ToLower(word[1:]) != word[1:] {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

// tidyBody turns a template's output into the mail's text: the headline
// (when not empty) and the marker first, lines trimmed on the right and wrapped at lineWidth, at most one
// blank line in a row, and one newline at the end. Templates can thus be
// written for the reader of the template, not for the whitespace. The
// one line that keeps a trailing space is the signature separator, which
// templates write as "--"; the footer's line below it is never wrapped,
// in any language: a copy of pbem's mail in a reply ends with it
// (parser.EndsOwnMail), and German's is longer than lineWidth.
func tidyBody(headline, marker, s string) string {
	var b strings.Builder
	// The body's own length, and a little for the lines it wraps.
	b.Grow(len(headline) + len(marker) + len(s) + len(s)/16 + 8)
	if headline != "" {
		// Above the marker: what clients show as the preview. A reply
		// that copies it without quoting is cut there all the same
		// (parser.ExtractOptions.OwnMarkers).
		// Wrapped like every line; its first line starts with what the
		// parser's markers match, which cuts the rest of a copy with it.
		for _, l := range wrapLine(headline, lineWidth) {
			b.WriteString(l)
			b.WriteString("\n")
		}
		b.WriteString("\n")
	}
	if marker != "" {
		b.WriteString(marker)
		b.WriteString("\n\n")
	}
	blank := true   // no blank lines at the top
	footer := false // the line is the first below the signature separator
	for rest, more := s, true; more; {
		var line string
		line, rest, more = strings.Cut(rest, "\n")
		line = strings.TrimRight(line, " \t\r")
		wasSig := line == strings.TrimSpace(sigSep)
		if wasSig {
			line = sigSep
		}
		if line == "" {
			if !blank {
				b.WriteString("\n")
			}
			blank = true
			continue
		}
		blank = false
		width := lineWidth
		if footer {
			width = len(line)
		}
		footer = wasSig
		writeWrapped(&b, line, width)
	}
	// One newline at the end, without copying the body to trim it.
	out := b.String()
	for strings.HasSuffix(out, "\n\n") {
		out = out[:len(out)-1]
	}
	if !strings.HasSuffix(out, "\n") {
		out += "\n"
	}
	return out
}
