package gracias

// AreaLine is one player's line of the areas' table in the HTML part,
// holding exactly what the line shows, so that the renderer renders it
// once for every reader whose mail shows the same line (issue 40: the
// template "gracias.area.fresh" is a fragment, kept by its data). An
// area is public; the line holds only whether it is the reader's own,
// which it says.
type AreaLine struct {
	Name     string
	You      bool   // the reader's own area
	FaceUp   Counts // face-up cards by colour
	FaceDown int    // how many face-down cards
}

// areaLine is p's line of the areas' table in reader's mail.
func areaLine(p PlayerView, reader string) AreaLine {
	return AreaLine{Name: p.Name, You: p.Name == reader, FaceUp: p.FaceUp, FaceDown: p.FaceDown}
}
