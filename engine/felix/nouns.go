package felix

// Nouns are the words Felix's players write around its commands ("bid 4
// mice", "play the rabbit card", "put it into the row"): a reader of their
// mail skips them (engine.Nouns).
func (Rules) Nouns() []string {
	return []string{"mice", "mouse", "card", "cards", "row", "mäuse", "maus", "karte", "karten", "reihe"}
}
