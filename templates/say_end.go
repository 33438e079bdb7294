// The sentences of a game's end: places, and the reader's rating.

package templates

import (
	"sort"

	"golang.org/x/text/feature/plural"
)

// Ordinal writes a place: "1st", "2nd", "3rd", "11th", "22nd". The
// language's ordinal rules choose the message (English's by the last
// digits: one, two, few, other); a language that writes every ordinal
// alike ("2.") gives the four the same form.
func (e Words) Ordinal(n int) string {
	switch plural.Ordinal.MatchPlural(e.language(), n, 0, 0, 0, 0) {
	case plural.One:
		return e.f("%dst", n)
	case plural.Two:
		return e.f("%dnd", n)
	case plural.Few:
		return e.f("%drd", n)
	}
	return e.f("%dth", n)
}

// Place is a player's place in a game's final order: "2nd", or
// "shared 2nd" when others have it too.
func (e Words) Place(n int, shared bool) string {
	if shared {
		return e.f("shared %s", e.Ordinal(n))
	}
	return e.Ordinal(n)
}

// RatingChanged tells the reader of an end mail what the game did to his
// rating: "Your rating: +1.4, now 6.2, 2nd of 5 among the players you
// have played Felix with."
func (e Words) RatingChanged(c RatingChange, title string) string {
	if c.Of <= 1 {
		return e.f("Your rating: %+.1f, now %.1f, the only rated player you have played %s with.", c.After-c.Before, c.After, title)
	}
	return e.f("Your rating: %+.1f, now %.1f, %s of %d among the players you have played %s with.", c.After-c.Before, c.After, e.Place(c.Place, c.Shared), c.Of, title)
}

// RematchOf heads the invitations to a rematch, and its creator's own
// mail: "A rematch of game #12: alice asks bob and carol to play again."
func (e Words) RematchOf(gameID int64, by string, others []string) string {
	return e.f("A rematch of game #%d: %s asks %s to play again.", gameID, by, e.joinAnd(others))
}

// FinishedGame is what `games` says of a finished game: "finished:
// alice won; scores alice 42, bob 38, carol 30", the scores from the
// highest.
func (e Words) FinishedGame(winners []string, scores []Score) string {
	sorted := append([]Score(nil), scores...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Score > sorted[j].Score })
	parts := make([]string, len(sorted))
	for i, s := range sorted {
		parts[i] = e.f("%s %d", s.Name, s.Score)
	}
	switch len(winners) {
	case 0:
		return e.f("finished: nobody won; scores %s", e.joinComma(parts))
	case 1:
		return e.f("finished: %s won; scores %s", winners[0], e.joinComma(parts))
	}
	return e.f("finished: %s shared the win; scores %s", e.joinAnd(winners), e.joinComma(parts))
}
