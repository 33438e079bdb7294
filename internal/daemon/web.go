package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// The web pages (internal/web) show a game's table as one seat, or for a
// game open to spectators anyone, saw it at any public point of the game.
// They are drawn from the move log: the set-up and the moves are
// replayed, and each point's table is the game's View for the page's
// seat, rendered by the game's own templates as in the HTML mail. Who was
// told of a line of the log is what its events say (their To), as for
// the mails: a command's are the engine's, which the replay gives again
// as record stored them; an undo line's are those takeBackMove stored.
// A line is a point of the history when the whole table was told of it,
// and a page shows nothing its seat's mails would not.

// ErrNoPage is the answer for a link token that leads nowhere; the web
// server answers it as it answers any unknown address.
var ErrNoPage = errors.New("daemon: no such page")

// pageURL is the address of the page of a web link token, "" when pbem
// serves no pages.
func (s *Service) pageURL(token string) string {
	if s.cfg.WebURL == "" || token == "" {
		return ""
	}
	return strings.TrimRight(s.cfg.WebURL, "/") + "/s/" + token
}

// seatPageURL is the seat's page address for its mails, making the seat's
// link the first time; "" when pbem serves no pages or the seat is a
// bot's.
func (w *work) seatPageURL(st store.Seat) (string, error) {
	if w.cfg.WebURL == "" || st.Bot != "" {
		return "", nil
	}
	tok, err := w.tx.EnsureLink(w.ctx, st.GameID, st.Seat)
	if err != nil {
		return "", err
	}
	return w.pageURL(tok), nil
}

// point is one public moment of a game's replay: the moves applied so
// far, what the whole table saw happen, and the events since the
// previous point by the seat they were addressed to.
type point struct {
	moves  int
	text   string
	events []engine.Event
}

// Page renders the web page of a link token at a point of its game's
// history: at < 0 is now. A token no link has, and a point the game does
// not have, are ErrNoPage.
func (s *Service) Page(ctx context.Context, token string, at int) (string, error) {
	p, err := s.pageData(ctx, token, at)
	if err != nil {
		return "", err
	}
	return s.render.Page(p)
}

// pageData is what Page renders: the game as the link's seat saw it at
// point at, with the seat's own part (deadline, options, standings) and,
// at the last point, who is awaited or how the game ended.
func (s *Service) pageData(ctx context.Context, token string, at int) (templates.Page, error) {
	pg, err := s.loadPageGame(ctx, token)
	if err != nil {
		return templates.Page{}, err
	}
	r, err := replayToPoint(pg, at)
	if err != nil {
		return templates.Page{}, err
	}
	p := templates.Page{Public: pg.seat == engine.Public, At: r.at}
	for _, pt := range r.points {
		p.Points = append(p.Points, templates.PagePoint{Text: pt.text})
	}
	m := templates.GameMail{
		Service: s.cfg.Name, GameID: pg.row.ID, Game: pg.rules.Name(), Title: pg.rules.Title(),
		View: r.game.View(pg.seat), ThreadSubject: pg.row.ThreadSubject, Kind: templates.MailStatus,
	}
	for _, e := range r.points[r.at].events {
		if e.VisibleTo(pg.seat) {
			m.Happened = append(m.Happened, e)
		}
	}
	if pg.seat != engine.Public && pg.seat < len(pg.seats) {
		if p.Standings, err = s.fillSeatPart(ctx, &m, pg, r); err != nil {
			return templates.Page{}, err
		}
	}
	if r.now {
		fillOutcome(&m, pg, r.game)
	}
	p.GameMail = m
	return p, nil
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
func (s *Service) loadPageGame(ctx context.Context, token string) (pageGame, error) {
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
		return pageGame{}, fmt.Errorf("daemon: page of game %d: unknown kind %q", pg.row.ID, pg.row.Kind)
	}
	pg.rules = rules
	if err := json.Unmarshal(pg.row.Setup, &pg.setup); err != nil {
		return pageGame{}, fmt.Errorf("daemon: page of game %d: its set-up does not read: %w", pg.row.ID, err)
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
func (s *Service) undoneEvents(ctx context.Context, gameID int64) (map[int64][]engine.Event, error) {
	evs, err := s.store.Events(ctx, gameID, 0)
	if err != nil {
		return nil, err
	}
	out := map[int64][]engine.Event{}
	for _, e := range evs {
		if EventKind(e.Kind) == EventUndone {
			out[e.Seq] = append(out[e.Seq], engine.Event{To: e.To, Kind: e.Kind, Text: e.Text})
		}
	}
	return out, nil
}

// replay is a game replayed for a page: its public points, the game at
// the point shown, and whether that point is now (the last one).
type replay struct {
	points []point
	game   engine.Game
	at     int
	now    bool
}

// replayToPoint replays the game's moves and keeps the game at point at
// (at < 0 is now); a point the game does not have is ErrNoPage.
func replayToPoint(pg pageGame, at int) (replay, error) {
	l, opening, err := engine.NewLog(pg.rules, pg.setup)
	if err != nil {
		return replay{}, fmt.Errorf("daemon: page of game %d: %w", pg.row.ID, err)
	}
	points := []point{{moves: 0, text: templates.Say.GameBegins(), events: opening}}
	game := l.Game().Clone()
	var since []engine.Event
	for i, m := range pg.moves {
		evs, err := l.Do(m.Seat, m.Command)
		if err != nil {
			return replay{}, fmt.Errorf("daemon: page of game %d: move %d does not replay", pg.row.ID, m.Seq)
		}
		if isUndoLine(m.Command) {
			evs = pg.undone[m.Seq]
		}
		since = append(since, evs...)
		text, public := pointText(evs, pg.seat)
		if !public {
			continue
		}
		points = append(points, point{moves: i + 1, text: text, events: since})
		since = nil
		if at == len(points)-1 {
			game = l.Game().Clone()
		}
	}
	// Now is the last public point, with the moves no one else saw since
	// (the seat's own, told to it alone): the page does not show that a
	// private move was made, not even by a point more.
	last := len(points) - 1
	if at < 0 {
		at = last
	}
	if at > last {
		return replay{}, ErrNoPage
	}
	if at == last {
		game = l.Game()
		points[last].events = append(points[last].events, since...)
	}
	return replay{points: points, game: game, at: at, now: at == last}, nil
}

// fillSeatPart adds to m what only the page's seat sees: its name, time
// zone and, now, its deadline and options. It returns the seat's
// standings.
func (s *Service) fillSeatPart(ctx context.Context, m *templates.GameMail, pg pageGame, r replay) ([]templates.StandingsTable, error) {
	st := pg.seats[pg.seat]
	m.Reader = st.Name
	if pl, err := s.store.Player(ctx, st.Address); err == nil {
		if loc, err := time.LoadLocation(pl.TimeZone); err == nil {
			m.Location = loc
		}
	}
	standings, err := s.store.Standings(ctx, s.post.MailboxOf(st.Address))
	if err != nil {
		return nil, err
	}
	if r.now {
		m.Deadline = st.Deadline
		// The seat's reply address is its mail secret: without
		// sender authentication, whoever holds it and forges the
		// player's From plays for him. A page must be able to show,
		// never play (a leaked link, a shared screen), so it offers
		// the one-tap links only where authentication makes the
		// address useless to a forger; elsewhere the options are
		// text to send in reply to a game mail.
		if s.fromAuthenticated() {
			m.ReplyAddress = s.post.SeatAddress(st.Token)
		}
		if pg.row.Status == store.StatusActive && st.Bot == "" && st.State != store.SeatResigned {
			m.Options = r.game.Options(pg.seat)
		}
	}
	return s.standingsTables(ctx, standings, st.Address), nil
}

// fillOutcome adds to m, at the game's last point, who is awaited or how
// the game ended.
func fillOutcome(m *templates.GameMail, pg pageGame, game engine.Game) {
	names := make([]string, len(pg.seats))
	for i, st := range pg.seats {
		names[i] = st.Name
	}
	if pg.row.Status == store.StatusActive || pg.row.Status == store.StatusPaused {
		for _, seatNo := range game.Waiting() {
			m.Waiting = append(m.Waiting, names[seatNo])
		}
	}
	res := game.Result()
	if !res.Finished {
		return
	}
	m.Finished = true
	for i, sc := range res.Scores {
		m.Scores = append(m.Scores, templates.Score{Name: names[i], Score: sc})
	}
	for _, seatNo := range res.Winners {
		m.Winners = append(m.Winners, names[seatNo])
	}
}

// isUndoLine reports whether a line of the move log takes its seat's
// last command back (engine.Log.Do reads it so).
func isUndoLine(command string) bool {
	return strings.EqualFold(strings.TrimSpace(command), engine.UndoCommand)
}

// pointText is what seat was told of a line of the log, evs being the
// events it caused, in the words it was told (its own, for its own act),
// and whether the whole table was told of it: only such a line is a
// point of the history, so that the points tell no one of a move he did
// not see. That holds for an undo as for a command: a command its player
// alone knew of (a standing order) is taken back telling him alone, and
// is no point of anyone's history, nor is its undo.
func pointText(evs []engine.Event, seat int) (string, bool) {
	public := false
	var parts []string
	for _, e := range evs {
		public = public || e.VisibleTo(engine.Public)
		if e.VisibleTo(seat) {
			parts = append(parts, e.Text)
		}
	}
	return strings.Join(parts, " "), public
}

// newLink gives the seat's page a new address (`link new`): the old link,
// which may have been passed on, leads nowhere from now on. It returns
// the sentence that tells the player.
func (w *work) newLink(tb *table, seat store.Seat) (string, error) {
	if w.cfg.WebURL == "" {
		return templates.Say.PbemServesNoWeb(), nil
	}
	if _, err := w.tx.NewLink(w.ctx, tb.row.ID, seat.Seat); err != nil {
		return "", err
	}
	return templates.Say.TableWebPageNew(), nil
}

// spectators opens the game's public page (on) or closes it: only the
// game's creator may. The public page shows what the whole table sees.
func (w *work) spectators(tb *table, seat store.Seat, on bool) (string, error) {
	switch {
	case w.cfg.WebURL == "":
		return templates.Say.PbemServesNoWebPages(), nil
	case store.NormalizeAddress(seat.Address) != store.NormalizeAddress(tb.row.Creator):
		return templates.Say.OnlyPlayerWhoStarted(), nil
	case !on:
		if err := w.tx.DropLink(w.ctx, tb.row.ID, store.PublicLink); err != nil {
			return "", err
		}
		return templates.Say.GameClosedSpectatorsPublic(), nil
	}
	tok, err := w.tx.EnsureLink(w.ctx, tb.row.ID, store.PublicLink)
	if err != nil {
		return "", err
	}
	return templates.Say.GameOpenSpectatorsAnyone(w.pageURL(tok)), nil
}
