// Package webpage draws a game's web page, which internal/web serves:
// the game's table as one seat, or for a game open to spectators anyone,
// saw it at any public point of the game. The pages are drawn from the move log: the set-up and the moves are
// replayed, and each point's table is the game's View for the page's
// seat, rendered by the game's own templates as in the HTML mail. Who was
// told of a line of the log is what its events say (their To), as for
// the mails: a command's are the engine's, which the replay gives again
// as record stored them; an undo line's are those takeBackMove stored.
// A line is a point of the history when the whole table was told of it,
// and a page shows nothing its seat's mails would not.
package webpage

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/internal/loaded"
	"github.com/pbem/pbem/internal/outgoing"
	"github.com/pbem/pbem/internal/timebank"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// Config is what the pages need of the service's configuration.
type Config struct {
	Service string // the service's name, as its mails sign
	// Authenticated: the receiving server's Authentication-Results are
	// trusted (daemon.Config.TrustAuthServID), so a seat's reply address
	// is no secret a forger could use, and the page may offer one-tap
	// commands.
	Authenticated bool
	// UndoneKind is the stored kind of the events that tell of a command
	// taken back (the daemon's EventUndone).
	UndoneKind string
	// Changes is where the turn loop tells of the games it changed, for
	// the pages' event streams (Watch); nil: Watch waits for nothing.
	Changes *Changes
	// Now is the service's clock, which a time bank's page reads what is
	// left on (internal/timebank); nil is time.Now.
	Now func() time.Time
}

// Pages draws the pages of the games in a store.
type Pages struct {
	cfg    Config
	store  *store.Store
	render *templates.Renderer
	games  func(kind string) (engine.Rules, bool)
	post   *outgoing.Post
	title  func(kind string) string
}

// New makes the pages of st's games: games knows the kinds, post the
// mailboxes and seat addresses, title a kind's title.
func New(cfg Config, st *store.Store, render *templates.Renderer, games func(string) (engine.Rules, bool), post *outgoing.Post, title func(string) string) *Pages {
	return &Pages{cfg: cfg, store: st, render: render, games: games, post: post, title: title}
}

// ErrNoPage is the answer for a link token that leads nowhere; the web
// server answers it as it answers any unknown address.
var ErrNoPage = errors.New("webpage: no such page")

// Page renders the web page of a link token at a point of its game's
// history: at < 0 is now. A token no link has, and a point the game does
// not have, are ErrNoPage.
func (s *Pages) Page(ctx context.Context, token string, at int) (string, error) {
	p, err := s.Data(ctx, token, at)
	if err != nil {
		return "", err
	}
	html, _, err := s.versioned(p)
	return html, err
}

// Version is the version of the present page of a link token: what its
// event stream announces, and what the page itself carries, so that its
// script knows when what it shows is no longer what the page would
// show. It is made from the seat's own page and nothing else.
func (s *Pages) Version(ctx context.Context, token string) (string, error) {
	p, err := s.Data(ctx, token, -1)
	if err != nil {
		return "", err
	}
	_, v, err := s.versioned(p)
	return v, err
}

// versionSlot stands where the page's version goes while the page is
// drawn and hashed: the version is that of the page without it.
const versionSlot = "pbem-version-slot"

// versioned renders p with its version, which is a hash of the page
// rendered with versionSlot in its place.
func (s *Pages) versioned(p templates.Page) (html, version string, err error) {
	p.Version = versionSlot
	html, err = s.render.Page(p)
	if err != nil {
		return "", "", err
	}
	sum := sha256.Sum256([]byte(html))
	version = hex.EncodeToString(sum[:8])
	return strings.Replace(html, versionSlot, version, 1), version, nil
}

// Watch returns a channel that receives when the game of a link token
// may have changed, and the function that stops it; a token no link has
// is ErrNoPage.
func (s *Pages) Watch(ctx context.Context, token string) (<-chan struct{}, func(), error) {
	link, err := s.store.LinkByToken(ctx, token)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil, ErrNoPage
	}
	if err != nil {
		return nil, nil, err
	}
	if s.cfg.Changes == nil {
		return make(chan struct{}), func() {}, nil
	}
	ch, stop := s.cfg.Changes.Subscribe(link.GameID)
	return ch, stop, nil
}

// Data is what Page renders: the game as the link's seat saw it at
// point at, with the seat's own part (deadline, options, standings) and,
// at the last point, who is awaited or how the game ended.
func (s *Pages) Data(ctx context.Context, token string, at int) (templates.Page, error) {
	pg, err := s.loadPageGame(ctx, token)
	if err != nil {
		return templates.Page{}, err
	}
	h := loaded.History{GameID: pg.row.ID, Rules: pg.rules, Setup: pg.setup, Moves: pg.moves, Undone: pg.undone, Seat: pg.seat}
	r, err := h.ToPoint(at)
	if errors.Is(err, loaded.ErrNoPoint) {
		return templates.Page{}, ErrNoPage
	}
	if err != nil {
		return templates.Page{}, err
	}
	p := templates.Page{Public: pg.seat == engine.Public, At: r.At, Live: r.Now && goesOn(pg.row.Status)}
	for _, pt := range r.Points {
		p.Points = append(p.Points, templates.PagePoint{Text: pt.Text, Told: pt.Told})
	}
	m := templates.GameMail{
		Service: s.cfg.Service, GameID: pg.row.ID, Game: pg.rules.Name(), Title: pg.rules.Title(),
		View: r.State.View(pg.seat), ThreadSubject: pg.row.ThreadSubject, Kind: templates.MailStatus,
	}
	for _, pt := range happenedPoints(r, pg) {
		for _, e := range pt.Events {
			if e.VisibleTo(pg.seat) {
				m.Happened = append(m.Happened, e)
			}
		}
	}
	if pg.seat != engine.Public && pg.seat < len(pg.seats) {
		if p.Standings, err = s.fillSeatPart(ctx, &m, pg, r); err != nil {
			return templates.Page{}, err
		}
	}
	if r.Now {
		loaded.StandingOf(pg.row, pg.seats, r.State).Page(&m)
		if m.Clocks, err = timebank.Clocks(ctx, s.store, pg.row, pg.seats, s.now()); err != nil {
			return templates.Page{}, err
		}
	}
	p.GameMail = m
	return p, nil
}

// now is the service's time.
func (s *Pages) now() time.Time {
	if s.cfg.Now != nil {
		return s.cfg.Now()
	}
	return time.Now()
}

// goesOn reports whether a game in status st may still change: its page
// follows it. A game over (finished, aborted, declined) does not.
func goesOn(st store.Status) bool {
	return st != store.StatusFinished && st != store.StatusAborted && st != store.StatusDeclined
}

// happenedPoints are the points whose events the page lists at its top:
// at the present point of a seat's page, every point since the seat's
// own last move (its story since it last acted, as its mails tell it),
// or the last point when nothing happened since; on the public page and
// at a past point, the point shown.
func happenedPoints(r loaded.AtPoint, pg pageGame) []loaded.Point {
	shown := r.Points[r.At : r.At+1]
	if !r.Now || pg.seat == engine.Public {
		return shown
	}
	own := -1 // the index in the log of the seat's last move
	for i, m := range pg.moves {
		if m.Seat == pg.seat && !loaded.IsUndoLine(m.Command) {
			own = i
		}
	}
	from := len(r.Points)
	for i, pt := range r.Points {
		// A point's Moves counts the moves applied up to it: the first
		// point past the seat's own move is the first whose moves
		// include one after it.
		if pt.Moves > own+1 {
			from = i
			break
		}
	}
	if own < 0 {
		from = 0
	}
	if from >= len(r.Points) {
		return shown
	}
	return r.Points[from:]
}

// pageGame is what a page is drawn from: the link's game, as stored, and
// the seat the link shows it as (engine.Public for a spectators' link).
type pageGame struct {
	row   store.Game
	rules engine.Rules
	setup engine.Setup
	moves []store.Move
	seats []store.Seat
	seat  int
	// undone are the events the service stored for each undo line of
	// the log, by the line's seq: whom it told that a command was taken
	// back, in the words it used (takeBackMove). A command only its
	// player knew of is taken back telling him alone.
	undone map[int64][]engine.Event
}

// loadPageGame reads the game of a link token; a token no link has is
// ErrNoPage.
func (s *Pages) loadPageGame(ctx context.Context, token string) (pageGame, error) {
	link, err := s.store.LinkByToken(ctx, token)
	if errors.Is(err, store.ErrNotFound) {
		return pageGame{}, ErrNoPage
	}
	if err != nil {
		return pageGame{}, err
	}
	pg := pageGame{seat: link.Seat}
	if link.Seat == store.PublicLink {
		pg.seat = engine.Public
	}
	if pg.row, err = s.store.Game(ctx, link.GameID); err != nil {
		return pageGame{}, err
	}
	rules, ok := s.games(pg.row.Kind)
	if !ok {
		return pageGame{}, fmt.Errorf("webpage: page of game %d: unknown kind %q", pg.row.ID, pg.row.Kind)
	}
	pg.rules = rules
	if err := json.Unmarshal(pg.row.Setup, &pg.setup); err != nil {
		return pageGame{}, fmt.Errorf("webpage: page of game %d: its set-up does not read: %w", pg.row.ID, err)
	}
	if pg.moves, err = s.store.Moves(ctx, pg.row.ID, 0); err != nil {
		return pageGame{}, err
	}
	if pg.seats, err = s.store.Seats(ctx, pg.row.ID); err != nil {
		return pageGame{}, err
	}
	if pg.undone, err = s.undoneEvents(ctx, pg.row.ID); err != nil {
		return pageGame{}, err
	}
	return pg, nil
}

// undoneEvents are the events of the game that told of a command taken
// back, by the seq of the undo line that caused them.
func (s *Pages) undoneEvents(ctx context.Context, gameID int64) (map[int64][]engine.Event, error) {
	evs, err := s.store.Events(ctx, gameID, 0)
	if err != nil {
		return nil, err
	}
	out := map[int64][]engine.Event{}
	for _, e := range evs {
		if e.Kind == s.cfg.UndoneKind {
			out[e.Seq] = append(out[e.Seq], loaded.EngineEvent(e))
		}
	}
	return out, nil
}

// fillSeatPart adds to m what only the page's seat sees: its name, time
// zone and, now, its deadline and options. It returns the seat's
// standings.
func (s *Pages) fillSeatPart(ctx context.Context, m *templates.GameMail, pg pageGame, r loaded.AtPoint) ([]templates.StandingsTable, error) {
	st := pg.seats[pg.seat]
	m.Reader = st.Name
	if pl, err := s.store.Player(ctx, st.Address); err == nil {
		m.Language = pl.Language // his page is in his language, as his mails
		if loc, err := time.LoadLocation(pl.TimeZone); err == nil {
			m.Location = loc
		}
	}
	standings, err := s.store.Standings(ctx, s.post.MailboxOf(st.Address))
	if err != nil {
		return nil, err
	}
	if r.Now {
		m.Deadline = st.Deadline
		// The seat's reply address is its mail secret: without
		// sender authentication, whoever holds it and forges the
		// player's From plays for him. A page must be able to show,
		// never play (a leaked link, a shared screen), so it offers
		// the one-tap links only where authentication makes the
		// address useless to a forger; elsewhere the options are
		// text to send in reply to a game mail.
		if s.cfg.Authenticated {
			m.ReplyAddress = s.post.SeatAddress(st.Token)
		}
		if pg.row.Status == store.StatusActive && st.Bot == "" && st.State != store.SeatResigned {
			m.Options = r.State.Options(pg.seat)
		}
	}
	return loaded.StandingsTables(standings, s.post.MailboxOf(st.Address), s.title), nil
}
