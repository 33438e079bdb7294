package gracias

// Nouns are the words Gracias's players write around its commands ("take
// triplet 3", "keep the red card", "keep colour red", "nimm Drilling 3"):
// a reader of their mail skips them (engine.Nouns). The German ones are
// the words its German mails use (locales/de).
func (Rules) Nouns() []string {
	return []string{"triplet", "card", "cards", "colour", "color", "drilling", "karte", "karten", "farbe"}
}
