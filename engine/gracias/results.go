package gracias

// ResultKinds are the events that decide a session (engine.Results): its
// scoring, and the game's end and winner.
func (Rules) ResultKinds() []string {
	return []string{"score", "total", "end", "winner"}
}

// RevealKinds are the events that bring hidden information to light
// (engine.Reveals): a triplet's face-down card seen by its taker, the
// face-down cards turned up at a session's end, and the new cards of a
// session's deal or a round's triplets. A command that caused one cannot
// be taken back.
func (Rules) RevealKinds() []string {
	return []string{"peek", "reveal", "session", "round"}
}
