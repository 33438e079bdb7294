// The sentences of internal/daemon/ratings.go.

package templates

import (
	"fmt"
)

func (English) GameNotRated(gameID int64) string {
	return fmt.Sprintf("game %d is not rated: only a finished game among people is", gameID)
}

func (English) UnratedGame() string {
	return "took this game out of the ratings."
}

func (English) RatingWithUncertainty(mu float64, sigma float64) string {
	return fmt.Sprintf("%.1f ± %.1f", mu, sigma)
}
