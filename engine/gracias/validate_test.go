package gracias

import (
	"strings"
	"testing"
)

// TestValidateNamesWhatIsWrong: a restored state with any one field out
// of range is refused, with the field named; a state the rules reached is
// accepted.
func TestValidateNamesWhatIsWrong(t *testing.T) {
	t.Parallel()
	g, _ := botGame(t, 7, 4, 5)
	if err := g.S.validate(); err != nil {
		t.Fatalf("a reached state is refused: %v", err)
	}
	cases := []struct {
		want    string
		corrupt func(s *State)
	}{
		{"number of players", func(s *State) { s.N = 2 }},
		{"phase", func(s *State) { s.Phase = 99 }},
		{"session or round", func(s *State) { s.Round = rounds + 1 }},
		{"start player or turn", func(s *State) { s.Small = 4 }},
		{"deal", func(s *State) { s.Pos = int8(deckSize + 1) }},
		{"pending triplet", func(s *State) { s.Phase, s.Pending = Keeping, -1 }},
		{"triplet", func(s *State) { s.Trip[3].Taker = 4 }},
		{"face-down cards", func(s *State) { s.NDown[2] = rounds + 1 }},
		{"face-down card", func(s *State) { s.NDown[1], s.Down[1][0] = 1, int8(deckSize) }},
		{"face-up cards", func(s *State) { s.Up[3][1] = -1 }},
		{"scored cards", func(s *State) { s.Cards[2][1][0] = -1 }},
		{"deck colour", func(s *State) { s.Deck[1][5] = numColours }},
	}
	for _, c := range cases {
		s := g.S
		c.corrupt(&s)
		err := s.validate()
		if err == nil || !strings.HasSuffix(err.Error(), ": "+c.want+" out of range") {
			t.Errorf("%s: validate says %v", c.want, err)
		}
	}
}
