package felix

// ResultKinds are the events that decide an auction (engine.Results): who
// won the row and what he keeps, a row bought or sent to the box, and the
// game's end.
func (Rules) ResultKinds() []string {
	return []string{"win", "won", "dogs", "buy", "void", "end"}
}
