package gracias

// Nouns are the words Gracias's players write around its commands ("take
// triplet 3", "keep the red card", "keep colour red"): a reader of their
// mail skips them (engine.Nouns).
func (Rules) Nouns() []string {
	return []string{"triplet", "card", "cards", "colour", "color", "karte", "karten", "farbe"}
}
