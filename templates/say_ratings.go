// The sentences of internal/daemon/ratings.go.

package templates

func (e English) GameNotRated(gameID int64) string {
	return e.f("game %d is not rated: only a finished game among people is", gameID)
}

func (e English) UnratedGame() string {
	return e.f("took this game out of the ratings.")
}

func (e English) RatingWithUncertainty(mu float64, sigma float64) string {
	return e.f("%.1f ± %.1f", mu, sigma)
}
