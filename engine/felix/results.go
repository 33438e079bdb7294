package felix

// ResultKinds are the events that decide an auction (engine.Results): who
// won the row and what he keeps, a row bought or sent to the box, and the
// game's end.
func (Rules) ResultKinds() []string {
	return []string{"win", "won", "dogs", "buy", "void", "end"}
}

// RevealKinds are the events that bring hidden information to light
// (engine.Reveals): a card of the row turned up, and a new round, which
// lays out a new row. A command that caused one cannot be taken back.
func (Rules) RevealKinds() []string {
	return []string{"reveal", "round"}
}
