package daemon

import (
	"context"
	"errors"
	"fmt"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/internal/rating"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// Each game kind has a rating among people (internal/rating, OpenSkill's
// Plackett-Luce), from the finishing order of the games that end by the
// rules. A game in which a bot played a seat (a bot's seat, or a
// resigned player's) is not rated: it would rate the bot's play as the
// player's. A player is his address, so a new name keeps his rating.

// rateGame rates a game that has just ended by the rules.
func (s *Service) rateGame(ctx context.Context, tx *store.Tx, tb *table, res engine.Result) error {
	addrs := make([]string, len(tb.seats))
	for i, st := range tb.seats {
		if st.Bot != "" || st.State == store.SeatResigned {
			return nil
		}
		addrs[i] = st.Address
	}
	if len(res.Scores) != len(tb.seats) {
		return nil
	}
	kind := tb.rules.Name()
	old, err := tx.Ratings(ctx, kind, addrs)
	if err != nil {
		return err
	}
	ranks := rating.Ranks(res.Scores, res.Winners)
	g := store.RatedGame{GameID: tb.row.ID, Kind: kind, At: s.now()}
	for i, st := range tb.seats {
		g.Seats = append(g.Seats, store.RatedSeat{Address: st.Address, Name: st.Name, Rank: ranks[i]})
	}
	return tx.RateGame(ctx, g, rateOne(kind, g, old))
}

// rateOne is the players' ratings after game g, from their ratings
// before it (a player absent from before is new).
func rateOne(kind string, g store.RatedGame, before map[string]store.PlayerRating) []store.PlayerRating {
	teams := make([][]rating.Rating, len(g.Seats))
	ranks := make([]int, len(g.Seats))
	for i, st := range g.Seats {
		r := rating.New()
		if p, ok := before[store.NormalizeAddress(st.Address)]; ok {
			r = rating.Rating{Mu: p.Mu, Sigma: p.Sigma}
		}
		teams[i] = []rating.Rating{r}
		ranks[i] = st.Rank
	}
	after := rating.Rate(teams, ranks)
	out := make([]store.PlayerRating, len(g.Seats))
	for i, st := range g.Seats {
		a := store.NormalizeAddress(st.Address)
		out[i] = store.PlayerRating{Kind: kind, Address: a, Mu: after[i][0].Mu, Sigma: after[i][0].Sigma, Games: before[a].Games + 1}
	}
	return out
}

// unrateAct takes a game out of the ratings and computes its kind's
// ratings again from the kind's other games, in the order they were
// rated: as if the game had never been rated.
func (s *Service) unrateAct(ctx context.Context, gameID int64) adminFunc {
	return func(tx *store.Tx, tb *table) (string, bool, error) {
		kind, games, err := tx.UnrateGame(ctx, gameID)
		if errors.Is(err, store.ErrNotFound) {
			return "", false, adminErr("game %d is not rated: only a finished game among people is", gameID)
		}
		if err != nil {
			return "", false, err
		}
		now := map[string]store.PlayerRating{}
		for _, g := range games {
			for _, p := range rateOne(kind, g, now) {
				now[p.Address] = p
			}
		}
		all := make([]store.PlayerRating, 0, len(now))
		for _, p := range now {
			all = append(all, p)
		}
		if err := tx.ResetRatings(ctx, kind, all); err != nil {
			return "", false, err
		}
		return "took this game out of the ratings.", false, nil
	}
}

// standingsTables are a player's standings: for each game kind he has
// played rated games of, the players he played them with, best first,
// by name, with the places of equal ratings shared.
func (s *Service) standingsTables(ctx context.Context, st []store.PlayerRating, address string) []templates.StandingsTable {
	me := store.NormalizeAddress(address)
	var out []templates.StandingsTable
	for _, p := range st {
		if n := len(out); n == 0 || out[n-1].Title != s.gameTitle(p.Kind) {
			out = append(out, templates.StandingsTable{Title: s.gameTitle(p.Kind)})
		}
		t := &out[len(out)-1]
		r := rating.Rating{Mu: p.Mu, Sigma: p.Sigma}
		row := templates.StandingsRow{Place: len(t.Rows) + 1, Name: p.Name, You: p.Address == me, Games: p.Games,
			Rating: fmt.Sprintf("%.1f", r.Ordinal()), Skill: fmt.Sprintf("%.1f ± %.1f", p.Mu, p.Sigma)}
		if n := len(t.Rows); n > 0 && t.Rows[n-1].Rating == row.Rating {
			row.Place = t.Rows[n-1].Place
		}
		t.Rows = append(t.Rows, row)
	}
	return out
}

// standings answers `standings` with the player's standings, in the
// game's thread when asked there (seat not nil).
func (s *Service) standings(ctx context.Context, tx *store.Tx, t *turn, seat *store.Seat) error {
	st, err := tx.Standings(ctx, t.from)
	if err != nil {
		return err
	}
	n := templates.Notice{Kind: templates.NoticeStandings, Standings: s.standingsTables(ctx, st, t.from)}
	if seat != nil {
		return s.seatNotice(ctx, tx, t, *seat, n)
	}
	return s.notice(t, t.from, "", n)
}
