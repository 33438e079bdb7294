package webpage

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/internal/loaded"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// pageInputs is what a page is drawn from besides its game's log: the
// link's game, as stored, the seat the link shows it as (engine.Public
// for a spectators' link), where the log stands, and the seat's reader.
// Each request reads it afresh: small rows, whose sum says whether a
// page kept is still the page (cache).
type pageInputs struct {
	row   store.Game
	rules engine.Rules
	stamp store.LogStamp
	seats []store.Seat
	seat  int
	// The seat's player, for a seat's page: his language and time zone
	// (hasPlayer false when he has no row), and his standings.
	hasPlayer bool
	player    store.Player
	standings []store.PlayerRating
}

// readInputs reads the inputs of a link token's page; a token no link
// has is ErrNoPage.
func (s *Pages) readInputs(ctx context.Context, token string) (pageInputs, error) {
	link, err := s.store.LinkByToken(ctx, token)
	if errors.Is(err, store.ErrNotFound) {
		return pageInputs{}, ErrNoPage
	}
	if err != nil {
		return pageInputs{}, err
	}
	in := pageInputs{seat: link.Seat}
	if link.Seat == store.PublicLink {
		in.seat = engine.Public
	}
	if in.row, err = s.store.Game(ctx, link.GameID); err != nil {
		return pageInputs{}, err
	}
	rules, ok := s.games(in.row.Kind)
	if !ok {
		return pageInputs{}, fmt.Errorf("webpage: page of game %d: unknown kind %q", in.row.ID, in.row.Kind)
	}
	in.rules = rules
	if in.stamp, err = s.store.LogStamp(ctx, in.row.ID); err != nil {
		return pageInputs{}, err
	}
	if in.seats, err = s.store.Seats(ctx, in.row.ID); err != nil {
		return pageInputs{}, err
	}
	if in.seat == engine.Public || in.seat >= len(in.seats) {
		return in, nil
	}
	st := in.seats[in.seat]
	if pl, err := s.store.Player(ctx, st.Address); err == nil {
		in.hasPlayer, in.player = true, pl
	}
	if in.standings, err = s.store.Standings(ctx, s.post.MailboxOf(st.Address)); err != nil {
		return pageInputs{}, err
	}
	return in, nil
}

// replayOf is the replay of the log in.stamp names: the one kept, or
// the log read and replayed, and kept if it is still that log once read.
func (s *Pages) replayOf(ctx context.Context, in pageInputs) (*replay, error) {
	if rp, ok := s.cache.replay(in.row.ID, in.stamp); ok {
		return rp, nil
	}
	h := loaded.History{GameID: in.row.ID, Rules: in.rules, Seat: in.seat}
	if err := json.Unmarshal(in.stamp.Setup, &h.Setup); err != nil {
		return nil, fmt.Errorf("webpage: page of game %d: its set-up does not read: %w", in.row.ID, err)
	}
	var err error
	if h.Moves, err = s.store.Moves(ctx, in.row.ID, 0); err != nil {
		return nil, err
	}
	evs, err := s.store.Events(ctx, in.row.ID, 0)
	if err != nil {
		return nil, err
	}
	h.Undone = s.undoneEvents(evs)
	rp, err := newReplay(h)
	if err != nil {
		return nil, err
	}
	rp.stamp = logStamp(in.stamp)
	// The stamp, the moves and the events were read in statements of
	// their own: a commit between them would leave a replay of another
	// log than the stamp names. It is kept only when the log read ends
	// where the stamp says, and the stamp has not moved since.
	if lastSeq(h.Moves) == in.stamp.LastSeq && lastEventID(evs) == in.stamp.LastEventID {
		if now, err := s.store.LogStamp(ctx, in.row.ID); err == nil && rp.stamp.sameAs(now) {
			s.cache.keepReplay(rp)
		}
	}
	return rp, nil
}

// lastSeq is the seq of the last of moves; 0 for none.
func lastSeq(moves []store.Move) int64 {
	if len(moves) == 0 {
		return 0
	}
	return moves[len(moves)-1].Seq
}

// lastEventID is the id of the last of evs, which Events returns in
// order; 0 for none.
func lastEventID(evs []store.Event) int64 {
	if len(evs) == 0 {
		return 0
	}
	return evs[len(evs)-1].ID
}

// undoneEvents are the events of the game that told of a command taken
// back, by the seq of the undo line that caused them: whom it told that
// a command was taken back, in the words it used (takeBackMove). A
// command only its player knew of is taken back telling him alone.
func (s *Pages) undoneEvents(evs []store.Event) map[int64][]engine.Event {
	out := map[int64][]engine.Event{}
	for _, e := range evs {
		if e.Kind == s.cfg.UndoneKind {
			out[e.Seq] = append(out[e.Seq], loaded.EngineEvent(e))
		}
	}
	return out
}

// fillSeatPart adds to m what only the page's seat sees: its name, time
// zone and, now, its deadline and options. It returns the seat's
// standings.
func (s *Pages) fillSeatPart(m *templates.GameMail, in pageInputs, r loaded.AtPoint) []templates.StandingsTable {
	st := in.seats[in.seat]
	m.Reader = st.Name
	if in.hasPlayer {
		m.Language = in.player.Language // his page is in his language, as his mails
		if loc, err := time.LoadLocation(in.player.TimeZone); err == nil {
			m.Location = loc
		}
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
		if in.row.Status == store.StatusActive && st.Bot == "" && st.State != store.SeatResigned {
			m.Options = r.State.Options(in.seat)
		}
	}
	return loaded.StandingsTables(in.standings, s.post.MailboxOf(st.Address), s.title)
}
