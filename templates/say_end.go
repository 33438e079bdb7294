// The sentences of a game's end: places, and the reader's rating.

package templates

import (
	"fmt"
	"sort"
	"strings"
)

// Ordinal writes a place: "1st", "2nd", "3rd", "11th", "22nd".
func (English) Ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return fmt.Sprintf("%d%s", n, suffix)
}

// Place is a player's place in a game's final order: "2nd", or
// "shared 2nd" when others have it too.
func (e English) Place(n int, shared bool) string {
	if shared {
		return "shared " + e.Ordinal(n)
	}
	return e.Ordinal(n)
}

// RatingChanged tells the reader of an end mail what the game did to his
// rating: "Your rating: +1.4, now 6.2, 2nd of 5 among the players you
// have played Felix with."
func (e English) RatingChanged(c RatingChange, title string) string {
	among := fmt.Sprintf("%s of %d among the players you have played %s with", e.Place(c.Place, c.Shared), c.Of, title)
	if c.Of <= 1 {
		among = "the only rated player you have played " + title + " with"
	}
	return fmt.Sprintf("Your rating: %+.1f, now %.1f, %s.", c.After-c.Before, c.After, among)
}

// RematchOf heads the invitations to a rematch, and its creator's own
// mail: "A rematch of game #12: alice asks bob and carol to play again."
func (English) RematchOf(gameID int64, by string, others []string) string {
	return fmt.Sprintf("A rematch of game #%d: %s asks %s to play again.", gameID, by, andList(others))
}

// FinishedGame is what `games` says of a finished game: "finished:
// alice won; scores alice 42, bob 38, carol 30", the scores from the
// highest.
func (English) FinishedGame(winners []string, scores []Score) string {
	won := "nobody won"
	switch len(winners) {
	case 0:
	case 1:
		won = winners[0] + " won"
	default:
		won = andList(winners) + " shared the win"
	}
	sorted := append([]Score(nil), scores...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Score > sorted[j].Score })
	parts := make([]string, len(sorted))
	for i, s := range sorted {
		parts[i] = fmt.Sprintf("%s %d", s.Name, s.Score)
	}
	return "finished: " + won + "; scores " + strings.Join(parts, ", ")
}
