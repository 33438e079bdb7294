// Package webpagetest plays whole games through the real turn loop, by
// mail, for the tests and benchmarks of the web pages (internal/webpage,
// internal/web): a page is only worth measuring or checking on a game
// the service itself recorded, events, undos and all.
package webpagetest

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/games"
	"github.com/pbem/pbem/internal/config"
	"github.com/pbem/pbem/internal/daemon"
	"github.com/pbem/pbem/internal/loaded"
	"github.com/pbem/pbem/internal/mailbox"
	"github.com/pbem/pbem/internal/outgoing"
	"github.com/pbem/pbem/internal/webpage"
	"github.com/pbem/pbem/internal/wiring"
	"github.com/pbem/pbem/mailer"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/store/storetest"
	"github.com/pbem/pbem/templates"
)

// ServiceAddress is the service's address in the worlds this package
// makes; a seat's reply address is its mail token at it.
const ServiceAddress = "pbem@example.test"

// World is a service and its store, with a clock the test moves.
type World struct {
	T      testing.TB
	Store  *store.Store
	Render *templates.Renderer
	Svc    *daemon.Service

	// node tells this world's mails from another's at the same store
	// (the Message-IDs, the UIDVALIDITY), which would be seen as the
	// same mails.
	node uint32

	mu    sync.Mutex
	clock time.Time
	uid   uint32
}

// Open makes a world on a new database: a SQLite file in a temporary
// directory, or a schema of its own on PostgreSQL when the tests run
// there (storetest.OnPostgres).
func Open(t testing.TB) *World {
	t.Helper()
	return OpenAt(t, Database(t))
}

// Database is where Open makes its world.
func Database(t testing.TB) string {
	t.Helper()
	if storetest.OnPostgres() {
		return storetest.Database(t)
	}
	return filepath.Join(t.TempDir(), "pbem.db")
}

// OpenAt makes a world on the database at path; a second world at the
// same path is another node of the same store.
func OpenAt(t testing.TB, path string) *World {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	r, err := templates.New(games.All())
	if err != nil {
		t.Fatal(err)
	}
	w := &World{T: t, Store: st, Render: r, clock: time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC), node: rand.Uint32()}
	cfg := wiring.ConfigFrom(config.Default())
	cfg.Address = ServiceAddress
	cfg.WebURL = "https://web.pbem.test"
	cfg.Limits = daemon.Limits{AnswersPerDay: 1 << 30, LobbyPerHour: 1 << 30, LoopPerMinute: 1 << 30}
	cfg.Invitations = daemon.InviteLimits{PerWeek: 1 << 30, PerInviter: 1 << 30, PerDay: 1 << 30}
	seeds := rand.New(rand.NewPCG(1, 2))
	w.Svc, err = daemon.New(cfg, st, r, games.Lookup, games.Names(),
		daemon.WithClock(w.Now), daemon.WithSeeds(seeds.Uint64), daemon.WithLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// Now is the world's clock.
func (w *World) Now() time.Time {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.clock
}

// Advance moves the world's clock on by d.
func (w *World) Advance(d time.Duration) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.clock = w.clock.Add(d)
}

// Send hands the service a mail from a player to one of its addresses.
func (w *World) Send(from, to, body string) {
	w.T.Helper()
	w.mu.Lock()
	w.uid++
	uid := w.uid
	w.mu.Unlock()
	raw := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: Re: pbem\r\nMessage-ID: <m%d.%d.%s>\r\nDate: Sat, 21 Nov 2026 10:00:00 +0000\r\n\r\n%s\r\n",
		from, to, w.node, uid, from, body)
	if err := w.Svc.HandleMail(context.Background(), mailer.Message{Mailbox: "INBOX", UIDValidity: w.node, UID: uid, Raw: []byte(raw)}); err != nil {
		w.T.Fatalf("mail from %s: %v", from, err)
	}
}

// Game is a game of a world: its id and its players' addresses, in
// seat order.
type Game struct {
	ID      int64
	Players []string
}

// Start has players[0] start a game of kind with the others, who join,
// and opens it to spectators.
func (w *World) Start(kind string, players ...string) Game {
	w.T.Helper()
	return w.StartWith(kind, "", players...)
}

// StartWith is Start with the game's options after the players ("clock
// 2d+12h max 5d").
func (w *World) StartWith(kind, options string, players ...string) Game {
	w.T.Helper()
	ctx := context.Background()
	w.Send(players[0], ServiceAddress, strings.TrimSpace("new "+kind+" with "+strings.Join(players[1:], " ")+" "+options))
	gs, err := w.Store.GamesOf(ctx, players[0])
	if err != nil || len(gs) == 0 {
		w.T.Fatalf("no game of %s: %v", players[0], err)
	}
	g := Game{ID: gs[len(gs)-1].ID}
	for _, st := range w.seats(g.ID) {
		g.Players = append(g.Players, st.Address)
	}
	for seat := 1; seat < len(g.Players); seat++ {
		w.Send(g.Players[seat], w.ReplyAddress(g.ID, seat), "join")
	}
	w.Send(g.Players[0], w.ReplyAddress(g.ID, 0), "spectators on")
	return g
}

// seats reads a game's seats.
func (w *World) seats(id int64) []store.Seat {
	w.T.Helper()
	seats, err := w.Store.Seats(context.Background(), id)
	if err != nil {
		w.T.Fatal(err)
	}
	return seats
}

// ReplyAddress is the address a seat's player replies to.
func (w *World) ReplyAddress(id int64, seat int) string {
	w.T.Helper()
	return "pbem+" + w.seats(id)[seat].Token + "@example.test"
}

// Loaded reads a game as the engine holds it.
func (w *World) Loaded(id int64) *loaded.Game {
	w.T.Helper()
	g, err := loaded.Load(context.Background(), w.Store, games.Lookup, id)
	if err != nil {
		w.T.Fatal(err)
	}
	return g
}

// Step has the first seat the game waits on mail a command the engine
// offers it, picked by rng; it reports false when the game is over.
func (w *World) Step(g Game, rng *rand.Rand) bool {
	w.T.Helper()
	state := w.Loaded(g.ID).State
	if state.Result().Finished {
		return false
	}
	waiting := state.Waiting()
	if len(waiting) == 0 {
		w.T.Fatalf("game %d waits on nobody and is not over", g.ID)
	}
	seat := waiting[0]
	opts := state.Options(seat)
	if len(opts) == 0 {
		w.T.Fatalf("seat %d of game %d has nothing to do", seat, g.ID)
	}
	o := opts[rng.IntN(len(opts))]
	w.Send(g.Players[seat], w.ReplyAddress(g.ID, seat), o.Commands[rng.IntN(len(o.Commands))])
	return true
}

// PlayOut plays g to its end.
func (w *World) PlayOut(g Game, rng *rand.Rand) {
	w.T.Helper()
	for steps := 0; w.Step(g, rng); steps++ {
		if steps > 1000 {
			w.T.Fatalf("game %d does not end", g.ID)
		}
	}
}

// Token is the page link of a seat (engine.Public: the spectators').
func (w *World) Token(id int64, seat int) string {
	w.T.Helper()
	if seat == engine.Public {
		seat = store.PublicLink
	}
	tok, err := w.Store.LinkToken(context.Background(), id, seat)
	if err != nil {
		w.T.Fatalf("the link of seat %d of game %d: %v", seat, id, err)
	}
	return tok
}

// Pages are the world's pages as the service draws them
// (daemon.Service.Pages), keeping at most cacheBytes of drawn pages and
// cacheGames replays (webpage.Config; negative: none, every page drawn
// afresh).
func (w *World) Pages(cacheBytes, cacheGames int64) *webpage.Pages {
	cfg := webpage.Config{Service: "pbem", UndoneKind: string(daemon.EventUndone), Now: w.Now,
		CacheBytes: cacheBytes, CacheGames: cacheGames}
	def := config.Default()
	post := outgoing.New(outgoing.Config{Address: ServiceAddress, Separator: def.Service.Separator,
		Mailbox: mailbox.Rule{Separators: def.Limits.SubaddressSeparators}}, w.Render, games.Lookup, slog.New(slog.DiscardHandler), w.Now)
	return webpage.New(cfg, w.Store, w.Render, games.Lookup, post, func(kind string) string {
		if r, ok := games.Lookup(kind); ok {
			return r.Title()
		}
		return kind
	})
}
