package daemon

import (
	"context"
	"fmt"
	"github.com/pbem/pbem/parser"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/internal/loaded"
	"github.com/pbem/pbem/internal/rating"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// Each game kind has a rating among people (internal/rating, OpenSkill's
// Plackett-Luce), from the finishing order of the games that end by the
// rules (a game an admin aborts is not rated). A rated player is a
// mailbox (internal/mailbox), not an address as written: alice@x.test
// and Alice+2@x.test are one player, and a new name keeps his rating.
// The rules that make a rating mean something (docs/security.md,
// "Ratings"):
//   - A player who resigned ranks last, below everyone who finished,
//     whatever pbem's stand-in scored for his seat; several resigned tie
//     (rating.ResignedLast). The game is rated for everyone, so
//     resigning a lost game costs what losing it would, and does not
//     take the others' win away.
//   - A game in which a bot holds a seat at the end is not rated: it
//     would rate the bot's play as someone's. A seat on autopilot is
//     rated as it finished: the player let his time run out.
//   - A game whose seats share a mailbox is not rated: one person would
//     be rating himself against himself. Its creator is told when it
//     starts.
//   - A game in which everyone resigned is not rated: nobody finished.

// unrated says why a game is not rated; "" for a rated one.
type unrated string

const (
	ratedGame     unrated = ""
	unratedBot    unrated = "bot"      // a bot holds a seat
	unratedShared unrated = "shared"   // two seats reach one mailbox
	unratedNobody unrated = "resigned" // every player resigned
)

// whyUnrated says why the game of these seats is not rated, if it is
// not.
func (s *Service) whyUnrated(seats []store.Seat) unrated {
	addrs := make([]string, len(seats))
	finished := 0
	for i, st := range seats {
		if st.Bot != "" {
			return unratedBot
		}
		if st.State != store.SeatResigned {
			finished++
		}
		addrs[i] = st.Address
	}
	if _, _, shared := s.cfg.Limits.Mailbox.Shared(addrs); shared {
		return unratedShared
	}
	if finished == 0 {
		return unratedNobody
	}
	return ratedGame
}

// rateGame rates a game that has just ended by the rules.
func (w *work) rateGame(lg *loaded.Game, res engine.Result) error {
	if w.whyUnrated(lg.Seats) != ratedGame || len(res.Scores) != len(lg.Seats) {
		return nil // (every game of pbem's scores every seat)
	}
	resigned := make([]bool, len(lg.Seats))
	boxes := make([]string, len(lg.Seats))
	for i, st := range lg.Seats {
		resigned[i] = st.State == store.SeatResigned
		boxes[i] = w.post.MailboxOf(st.Address)
	}
	kind := lg.Rules.Name()
	old, err := w.tx.Ratings(w.ctx, kind, boxes)
	if err != nil {
		return err
	}
	ranks := rating.ResignedLast(rating.Ranks(res.Scores, res.Winners), resigned)
	g := store.RatedGame{GameID: lg.Row.ID, Kind: kind, At: w.now()}
	for i, st := range lg.Seats {
		g.Seats = append(g.Seats, store.RatedSeat{Address: st.Address, Mailbox: boxes[i], Name: st.Name, Rank: ranks[i]})
	}
	after := rateOne(kind, g, old)
	if err := w.tx.RateGame(w.ctx, g, after); err != nil {
		return err
	}
	return w.noteRatingChanges(lg, boxes, old, after)
}

// noteRatingChanges keeps on lg what the game did to each seat's rating,
// for its end mail: the rating shown before and after, and his place
// after it among the players he has played the kind with, as
// `standings` lists them. before are the ratings by mailbox before the
// game (a first game's player has none), after the seats' new ones.
func (w *work) noteRatingChanges(lg *loaded.Game, boxes []string, before map[string]store.PlayerRating, after []store.PlayerRating) error {
	lg.RatingChanges = make(map[int]templates.RatingChange, len(boxes))
	// The seats' standings are read together, after the game's ratings
	// are written: one statement.
	standings, err := w.tx.StandingsEach(w.ctx, boxes)
	if err != nil {
		return err
	}
	for i, box := range boxes {
		was := rating.New()
		if p, ok := before[box]; ok {
			was = rating.Rating{Mu: p.Mu, Sigma: p.Sigma}
		}
		now := rating.Rating{Mu: after[i].Mu, Sigma: after[i].Sigma}
		c := templates.RatingChange{Before: was.Ordinal(), After: now.Ordinal()}
		for _, t := range loaded.StandingsTables(standings[store.NormalizeAddress(box)], box, func(kind string) string { return kind }) {
			if t.Title != after[i].Kind {
				continue
			}
			c.Of = len(t.Rows)
			for _, r := range t.Rows {
				if r.You {
					c.Place = r.Place
				}
			}
			for _, r := range t.Rows {
				if !r.You && r.Place == c.Place {
					c.Shared = true
				}
			}
		}
		lg.RatingChanges[i] = c
	}
	return nil
}

// sharedMailboxFor is what the start mail to seat st says of seats
// that share a mailbox: for the game's creator, the names of the first
// two seats whose addresses reach one mailbox, when that is why the
// game is not rated (templates.GameMail.SharedMailbox); nil for anyone
// else, for another mail, and for a game that is rated or is not for
// another reason (a bot's seat, which the start mail tells of anyway).
func (w *work) sharedMailboxFor(lg *loaded.Game, st store.Seat, kind templates.MailKind) []string {
	if kind != templates.MailStart || store.NormalizeAddress(st.Address) != store.NormalizeAddress(lg.Row.Creator) {
		return nil
	}
	if w.whyUnrated(lg.Seats) != unratedShared {
		return nil
	}
	addrs := make([]string, len(lg.Seats))
	for i, o := range lg.Seats {
		addrs[i] = o.Address
	}
	i, j, _ := w.cfg.Limits.Mailbox.Shared(addrs)
	return []string{lg.Names[i], lg.Names[j]}
}

// rateOne is the players' ratings after game g, from their ratings
// before it, by mailbox (a mailbox absent from before is new).
func rateOne(kind string, g store.RatedGame, before map[string]store.PlayerRating) []store.PlayerRating {
	teams := make([][]rating.Rating, len(g.Seats))
	ranks := make([]int, len(g.Seats))
	for i, st := range g.Seats {
		r := rating.New()
		if p, ok := before[st.Mailbox]; ok {
			r = rating.Rating{Mu: p.Mu, Sigma: p.Sigma}
		}
		teams[i] = []rating.Rating{r}
		ranks[i] = st.Rank
	}
	after := rating.Rate(teams, ranks)
	out := make([]store.PlayerRating, len(g.Seats))
	for i, st := range g.Seats {
		a := st.Mailbox
		out[i] = store.PlayerRating{Kind: kind, Mailbox: a, Mu: after[i][0].Mu, Sigma: after[i][0].Sigma, Games: before[a].Games + 1}
	}
	return out
}

// unrate takes a game out of the ratings and computes its kind's
// ratings again from the kind's other games, in the order they were
// rated: as if the game had never been rated (admin.UnrateAct).
// store.ErrNotFound when it was not rated.
func (w *work) unrate(gameID int64) error {
	kind, games, err := w.tx.UnrateGame(w.ctx, gameID)
	if err != nil {
		return err
	}
	return w.tx.ResetRatings(w.ctx, kind, rateAll(kind, games))
}

// rateAll is kind's ratings from its rated games, in the order they
// were rated.
func rateAll(kind string, games []store.RatedGame) []store.PlayerRating {
	now := map[string]store.PlayerRating{}
	for _, g := range games {
		for _, p := range rateOne(kind, g, now) {
			now[p.Mailbox] = p
		}
	}
	all := make([]store.PlayerRating, 0, len(now))
	for _, p := range now {
		all = append(all, p)
	}
	return all
}

// keyRatingsByMailbox runs rekeyRatings in a transaction of its own.
func (s *Service) keyRatingsByMailbox(ctx context.Context) error {
	err := s.store.Tx(ctx, func(tx *store.Tx) error { return s.workIn(ctx, tx).rekeyRatings() })
	if err != nil {
		return fmt.Errorf("daemon: key the ratings by mailbox: %w", err)
	}
	return nil
}

// rekeyRatings keys every rated seat by the mailbox its address reaches
// under the service's rule, as pbem serve starts: the seats rated before
// ratings were a mailbox's (migration 00021), or under another
// limits.subaddress_separators. In each kind it changed, a game whose
// seats now share a mailbox is taken out of the ratings, and the kind's
// ratings are computed again from its games, in the order they were
// rated.
func (w *work) rekeyRatings() error {
	kinds, err := w.tx.RekeyRatedSeats(w.ctx, w.post.MailboxOf)
	if err != nil {
		return err
	}
	for _, kind := range kinds {
		games, err := w.tx.RatedGames(w.ctx, kind)
		if err != nil {
			return err
		}
		kept := games[:0]
		for _, g := range games {
			if !seatsShareMailbox(g.Seats) {
				kept = append(kept, g)
				continue
			}
			if _, _, err := w.tx.UnrateGame(w.ctx, g.GameID); err != nil {
				return fmt.Errorf("daemon: unrate game %d, whose seats share a mailbox: %w", g.GameID, err)
			}
		}
		if err := w.tx.ResetRatings(w.ctx, kind, rateAll(kind, kept)); err != nil {
			return err
		}
	}
	return nil
}

// seatsShareMailbox reports whether two of a rated game's seats are one
// mailbox.
func seatsShareMailbox(seats []store.RatedSeat) bool {
	seen := map[string]bool{}
	for _, st := range seats {
		if seen[st.Mailbox] {
			return true
		}
		seen[st.Mailbox] = true
	}
	return false
}

// standings answers `standings` with the player's standings, in the
// game's thread when asked there (seat not nil).
func (w *work) standings(seat *store.Seat, c parser.Command) error {
	st, err := w.tx.Standings(w.ctx, w.post.MailboxOf(w.from))
	if err != nil {
		return err
	}
	tables := loaded.StandingsTables
	detail := len(c.Args) > 0 // `standings detail`, its one choice
	if detail {
		tables = loaded.StandingsDetail
	}
	n := templates.Notice{Kind: templates.NoticeStandings, Standings: tables(st, w.post.MailboxOf(w.from), w.gameTitle), Detail: detail}
	if seat != nil {
		return w.seatNotice(*seat, n)
	}
	return w.notice(w.from, "", n)
}
