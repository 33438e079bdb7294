// The sentences of internal/daemon/ratings.go.

package templates

func (e Words) GameNotRated(gameID int64) string {
	return e.f("game %d is not rated: only a finished game among people is", gameID)
}

func (e Words) UnratedGame() string {
	return e.f("took this game out of the ratings.")
}

func (e Words) RatingWithUncertainty(mu float64, sigma float64) string {
	return e.f("%.1f ± %.1f", mu, sigma)
}
