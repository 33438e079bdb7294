package loaded

import (
	"fmt"

	"github.com/pbem/pbem/internal/rating"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// StandingsTables are a player's standings as a mail or a page shows
// them: for each game kind he has played rated games of, the players he
// played them with, best first, by name, with the places of equal
// ratings shared. me is his mailbox (outgoing.Post.MailboxOf), title a
// game kind's title.
//
// The rows carry no skill: the rating alone is what a player reads,
// unless he asks for the detail (StandingsDetail).
func StandingsTables(st []store.PlayerRating, me string, title func(kind string) string) []templates.StandingsTable {
	return standingsTables(st, me, title, false)
}

// StandingsDetail are StandingsTables with each rating's skill and its
// uncertainty ("26.6 ± 8.2"), for `standings detail`.
func StandingsDetail(st []store.PlayerRating, me string, title func(kind string) string) []templates.StandingsTable {
	return standingsTables(st, me, title, true)
}

func standingsTables(st []store.PlayerRating, me string, title func(kind string) string, detail bool) []templates.StandingsTable {
	var out []templates.StandingsTable
	for _, p := range st {
		if n := len(out); n == 0 || out[n-1].Title != title(p.Kind) {
			out = append(out, templates.StandingsTable{Title: title(p.Kind)})
		}
		t := &out[len(out)-1]
		r := rating.Rating{Mu: p.Mu, Sigma: p.Sigma}
		row := templates.StandingsRow{Place: len(t.Rows) + 1, Name: p.Name, You: p.Mailbox == me, Games: p.Games,
			Rating: fmt.Sprintf("%.1f", r.Ordinal())}
		if detail {
			row.Skill = templates.Say.RatingWithUncertainty(p.Mu, p.Sigma)
		}
		if n := len(t.Rows); n > 0 && t.Rows[n-1].Rating == row.Rating {
			row.Place = t.Rows[n-1].Place
		}
		t.Rows = append(t.Rows, row)
	}
	return out
}
