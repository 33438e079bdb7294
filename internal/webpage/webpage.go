// Package webpage draws a game's web page, which internal/web serves:
// the game's table as one seat, or for a game open to spectators anyone,
// saw it at any public point of the game. The pages are drawn from the move log: the set-up and the moves are
// replayed, and each point's table is the game's View for the page's
// seat, rendered by the game's own templates as in the HTML mail. Who was
// told of a line of the log is what its events say (their To), as for
// the mails: a command's are the engine's, which the replay gives again
// as record stored them; an undo line's are those takeBackMove stored.
// A line is a point of the history when the whole table was told of it,
// and a page shows nothing its seat's mails would not. What was drawn is
// kept (cache.go): each game's replay while its log stands where it
// stood, each page while what it was drawn from is unchanged.
package webpage

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
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
	// CacheBytes bounds the pages kept drawn (cache), in bytes of their
	// HTML; 0 is DefaultCacheBytes. CacheGames bounds the games whose
	// replay is kept; 0 is DefaultCacheGames. Either negative keeps
	// nothing: every page is drawn afresh.
	CacheBytes int64
	CacheGames int64
}

// Pages draws the pages of the games in a store, and keeps what it
// drew (cache): a page asked for again costs the reads that say it is
// still the page, not its drawing.
type Pages struct {
	cfg    Config
	store  *store.Store
	render *templates.Renderer
	games  func(kind string) (engine.Rules, bool)
	post   *outgoing.Post
	title  func(kind string) string
	cache  *cache
}

// New makes the pages of st's games: games knows the kinds, post the
// mailboxes and seat addresses, title a kind's title.
func New(cfg Config, st *store.Store, render *templates.Renderer, games func(string) (engine.Rules, bool), post *outgoing.Post, title func(string) string) *Pages {
	return &Pages{cfg: cfg, store: st, render: render, games: games, post: post, title: title, cache: newCache(cfg)}
}

// ErrNoPage is the answer for a link token that leads nowhere; the web
// server answers it as it answers any unknown address.
var ErrNoPage = errors.New("webpage: no such page")

// Page renders the web page of a link token at a point of its game's
// history: at < 0 is now. A token no link has, and a point the game does
// not have, are ErrNoPage.
func (s *Pages) Page(ctx context.Context, token string, at int) (string, error) {
	d, err := s.draw(ctx, token, at)
	return d.html, err
}

// VersionedPage is Page with the page's version (Version's, for the
// point asked for), which the web server sends as its ETag.
func (s *Pages) VersionedPage(ctx context.Context, token string, at int) (html, version string, err error) {
	d, err := s.draw(ctx, token, at)
	return d.html, d.version, err
}

// Version is the version of the present page of a link token: what its
// event stream announces, and what the page itself carries, so that its
// script knows when what it shows is no longer what the page would
// show. It is made from the seat's own page and nothing else. The
// streams of many readers of one page cost one drawing of it per change
// (cache).
func (s *Pages) Version(ctx context.Context, token string) (string, error) {
	d, err := s.draw(ctx, token, -1)
	return d.version, err
}

// draw is the page of a link token at point at, with its version: the
// one kept, if it was drawn from what it would be drawn from now, else
// drawn afresh and kept.
func (s *Pages) draw(ctx context.Context, token string, at int) (drawn, error) {
	in, err := s.readInputs(ctx, token)
	if err != nil {
		return drawn{}, err
	}
	rp, err := s.replayOf(ctx, in)
	if err != nil {
		return drawn{}, err
	}
	at, now, err := rp.point(at)
	if errors.Is(err, loaded.ErrNoPoint) {
		return drawn{}, ErrNoPage
	}
	var clocks []templates.SeatClock
	if now {
		if clocks, err = s.clocks(ctx, in); err != nil {
			return drawn{}, err
		}
	}
	key, sum := pageKey{game: in.row.ID, seat: in.seat, at: at}, in.sum(now, clocks)
	if d, ok := s.cache.page(key, sum); ok {
		return d, nil
	}
	r, err := rp.toPoint(in.seat, at)
	if err != nil {
		return drawn{}, err
	}
	p, err := s.assemble(in, rp, r, clocks)
	if err != nil {
		return drawn{}, err
	}
	d := drawn{sum: sum}
	if d.html, d.version, err = s.versioned(p); err != nil {
		return drawn{}, err
	}
	s.cache.keepPage(key, d)
	return d, nil
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
	in, err := s.readInputs(ctx, token)
	if err != nil {
		return templates.Page{}, err
	}
	rp, err := s.replayOf(ctx, in)
	if err != nil {
		return templates.Page{}, err
	}
	r, clocks, err := s.atPoint(ctx, in, rp, at)
	if err != nil {
		return templates.Page{}, err
	}
	return s.assemble(in, rp, r, clocks)
}

// atPoint is the replay at point at for the link's seat, and, now, the
// clocks at this moment: the one part of a page that the clock changes.
func (s *Pages) atPoint(ctx context.Context, in pageInputs, rp *replay, at int) (loaded.AtPoint, []templates.SeatClock, error) {
	r, err := rp.toPoint(in.seat, at)
	if errors.Is(err, loaded.ErrNoPoint) {
		return loaded.AtPoint{}, nil, ErrNoPage
	}
	if err != nil || !r.Now {
		return r, nil, err
	}
	clocks, err := s.clocks(ctx, in)
	return r, clocks, err
}

// clocks are the game's time banks at this moment, for its present page.
func (s *Pages) clocks(ctx context.Context, in pageInputs) ([]templates.SeatClock, error) {
	return timebank.Clocks(ctx, s.store, in.row, in.seats, s.now())
}

// assemble is the page's data: the replay at r for the link's seat, with
// its inputs and clocks. It reads the replay's game, under its lock.
func (s *Pages) assemble(in pageInputs, rp *replay, r loaded.AtPoint, clocks []templates.SeatClock) (templates.Page, error) {
	rp.mu.Lock()
	defer rp.mu.Unlock()
	p := templates.Page{Public: in.seat == engine.Public, At: r.At, Live: r.Now && goesOn(in.row.Status)}
	for _, pt := range r.Points {
		p.Points = append(p.Points, templates.PagePoint{Text: pt.Text, Told: pt.Told})
	}
	m := templates.GameMail{
		Service: s.cfg.Service, GameID: in.row.ID, Game: in.rules.Name(), Title: in.rules.Title(),
		View: r.State.View(in.seat), ThreadSubject: in.row.ThreadSubject, Kind: templates.MailStatus,
	}
	for _, pt := range happenedPoints(r, rp.moves, in.seat) {
		for _, e := range pt.Events {
			if e.VisibleTo(in.seat) {
				m.Happened = append(m.Happened, e)
			}
		}
	}
	if in.seat != engine.Public && in.seat < len(in.seats) {
		p.Standings = s.fillSeatPart(&m, in, r)
	}
	if r.Now {
		loaded.StandingOf(in.row, in.seats, r.State).Page(&m)
		m.Clocks = clocks
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
func happenedPoints(r loaded.AtPoint, moves []store.Move, seat int) []loaded.Point {
	shown := r.Points[r.At : r.At+1]
	if !r.Now || seat == engine.Public {
		return shown
	}
	own := -1 // the index in the log of the seat's last move
	for i, m := range moves {
		if m.Seat == seat && !loaded.IsUndoLine(m.Command) {
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
