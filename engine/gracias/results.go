package gracias

// ResultKinds are the events that decide a session (engine.Results): its
// scoring, and the game's end and winner.
func (Rules) ResultKinds() []string {
	return []string{"score", "total", "end", "winner"}
}
