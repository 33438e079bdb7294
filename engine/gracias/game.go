package gracias

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/pbem/pbem/engine"
)

// Rules is Gracias's engine.Rules. The zero value is ready to use.
type Rules struct{}

var _ engine.Rules = Rules{}

func (Rules) Name() string        { return "gracias" }
func (Rules) Title() string       { return "Gracias" }
func (Rules) MinPlayers() int     { return minPlayers }
func (Rules) MaxPlayers() int     { return maxPlayers }
func (Rules) SetupKeys() []string { return []string{"deck"} }

// Specs is Gracias's command language: a turn is take then keep, or
// both in one line. Each keyword also has its German words, read only:
// "nimm 2 behalte rot gib bob".
func (Rules) Specs() []engine.Spec {
	colour := engine.ChoiceArg("COLOUR", colourChoices()...)
	take := engine.Kw("take", "nimm", "nehme", "nehmen")
	keep := engine.Kw("keep", "behalte", "behalten")
	give := engine.Kw("give", "gib", "gebe", "geben")
	return []engine.Spec{
		{Name: "take", Words: []engine.Word{take, engine.NumArg("T")},
			Help: "take triplet T and look at its face-down card; then say what you keep and give"},
		{Name: "keep", Words: []engine.Word{keep, colour, give, engine.PlayerArg("PLAYER")},
			Help: "keep the face-up card of COLOUR from the triplet you took and give the other to PLAYER"},
		{Name: "take-keep", Words: []engine.Word{take, engine.NumArg("T"), keep, colour, give, engine.PlayerArg("PLAYER")},
			Help: "take triplet T, keep its face-up card of COLOUR and give the other to PLAYER, without looking first"},
	}
}

func spec(name string) engine.Spec {
	s, _ := engine.FindSpec(commandSpecs(), name) // made once: Options asks for a spec per option
	return s
}

// Game is a Gracias game: the players' names and the State.
type Game struct {
	names []string
	S     State
}

var _ engine.Game = (*Game)(nil)

// New sets up a game. Chance is resolved here, in a fixed order: the
// holder of both start cards in session 1, then the decks of sessions 1, 2
// and 3, each a fresh shuffle of all 108 cards. Then the set-up's start
// and deck lines replace what they fix.
func (r Rules) New(setup engine.Setup) (engine.Game, []engine.Event, error) {
	n := len(setup.Players)
	if err := engine.CheckPlayers("gracias", minPlayers, maxPlayers, setup.Players); err != nil {
		return nil, nil, err
	}
	rng := engine.SeededRand(setup.Seed)
	first := rng.IntN(n)
	var decks [sessions][deckSize]Colour
	for si := range decks {
		Shuffle(&decks[si], rng.IntN)
	}

	names := append([]string(nil), setup.Players...)
	if setup.Start != "" {
		first = indexOf(names, setup.Start)
		if first < 0 {
			return nil, nil, fmt.Errorf("start: %q is not a player", setup.Start)
		}
	}
	var given [sessions]bool
	for _, l := range setup.Lines {
		if l.Key != "deck" {
			return nil, nil, fmt.Errorf("gracias has no set-up line %q", l.Key)
		}
		si, deck, err := parseDeck(l.Args)
		if err != nil {
			return nil, nil, err
		}
		if given[si] {
			return nil, nil, fmt.Errorf("deck %d is given twice", si+1)
		}
		given[si] = true
		decks[si] = deck
	}

	g := &Game{names: names}
	rec := &engine.Recorder{Names: names}
	rec.Public("setup", "Gracias for %s: three sessions of four rounds. %s holds both start cards.", engine.And(anys(names)...), names[first])
	g.S.reset(n, first, &decks, rec)
	return g, rec.Events, nil
}

// Shuffle fills deck with all 108 cards in a random order. intN returns a
// number in [0, n), as rand.Rand.IntN does.
func Shuffle(deck *[deckSize]Colour, intN func(n int) int) {
	for i := range deck {
		deck[i] = Colour(i / perColour)
	}
	for i := deckSize - 1; i > 0; i-- {
		j := intN(i + 1)
		deck[i], deck[j] = deck[j], deck[i]
	}
}

// parseDeck reads "S c1 ... c108": session S's deck, top first.
func parseDeck(args []string) (int, [deckSize]Colour, error) {
	var deck [deckSize]Colour
	if len(args) == 0 {
		return 0, deck, errors.New("deck: the session (1, 2 or 3) and its 108 colours are missing")
	}
	si, err := strconv.Atoi(args[0])
	if err != nil || si < 1 || si > sessions {
		return 0, deck, fmt.Errorf("deck: the first word must be the session, 1, 2 or 3, not %q", args[0])
	}
	cards := args[1:]
	if len(cards) != deckSize {
		return 0, deck, fmt.Errorf("deck %d: %s given, not %d", si, engine.Plural(len(cards), "colour", "colours"), deckSize)
	}
	var count [numColours]int
	for i, a := range cards {
		c, ok := ParseColour(a)
		if !ok {
			return 0, deck, fmt.Errorf("deck %d: card %d, %q, is not a colour (colours: %s)", si, i+1, a, strings.Join(colourNames[:], ", "))
		}
		deck[i] = c
		count[c]++
	}
	for c := Colour(0); c < numColours; c++ {
		if count[c] != perColour {
			return 0, deck, fmt.Errorf("deck %d: %d %s cards, not %d (each colour has %d)", si, count[c], c, perColour, perColour)
		}
	}
	return si - 1, deck, nil
}

func indexOf(names []string, name string) int {
	for i, n := range names {
		if strings.EqualFold(n, name) {
			return i
		}
	}
	return -1
}

func (g *Game) Rules() engine.Rules { return Rules{} }
func (g *Game) Players() []string   { return append([]string(nil), g.names...) }

// Setup writes out every choice chance made: the first start player and
// the three session decks.
func (g *Game) Setup() engine.Setup {
	st := engine.Setup{Players: g.Players(), Start: g.names[g.S.First]}
	for si := range g.S.Deck {
		l := engine.SetupLine{Key: "deck", Args: make([]string, 0, deckSize+1)}
		l.Args = append(l.Args, strconv.Itoa(si+1))
		for _, c := range g.S.Deck[si] {
			l.Args = append(l.Args, c.String())
		}
		st.Lines = append(st.Lines, l)
	}
	return st
}

func (g *Game) Waiting() []int {
	if g.S.Phase == Over {
		return nil
	}
	return []int{int(g.S.Turn)}
}

// Options lists what seat may do now: take a triplet (alone or with the
// keep decision), or keep and give after a take.
func (g *Game) Options(seat int) []engine.Option {
	s := &g.S
	if s.Phase == Over || seat != int(s.Turn) {
		return nil
	}
	var moves []Move
	moves = s.Legal(seat, moves)
	var opts []engine.Option
	add := func(specName, text string, op Op) {
		o := engine.Option{Spec: specName, Text: text}
		for _, m := range moves {
			if m.Op == op {
				o.Commands = append(o.Commands, g.command(m).Text)
			}
		}
		opts = append(opts, o)
	}
	var give []string
	for q, name := range g.names {
		if q != seat {
			give = append(give, name)
		}
	}
	gives := strings.Join(give, "|")
	if s.Phase == Keeping {
		a, b := s.pair(int(s.Pending))
		keep := a.String()
		if b != a {
			keep += "|" + b.String()
		}
		add("keep", spec("keep").Format(keep, gives), OpKeep)
		return opts
	}
	var ts []string
	for t := 0; t < int(s.N); t++ {
		if s.Trip[t].Taker < 0 {
			ts = append(ts, strconv.Itoa(t+1))
		}
	}
	add("take", spec("take").Format(strings.Join(ts, "|")), OpTake)
	add("take-keep", spec("take-keep").Format(strings.Join(ts, "|"), "COLOUR", gives), OpTakeKeep)
	return opts
}

// command writes a move as a command.
func (g *Game) command(m Move) engine.Command {
	t := strconv.Itoa(int(m.T) + 1)
	switch m.Op {
	case OpTake:
		return spec("take").Make(t)
	case OpKeep:
		return spec("keep").Make(m.Keep.String(), g.names[m.Give])
	default:
		return spec("take-keep").Make(t, m.Keep.String(), g.names[m.Give])
	}
}

// toMove reads a command into a Move.
func (g *Game) toMove(c engine.Command) (Move, error) {
	want := map[string]int{"take": 1, "keep": 2, "take-keep": 3}
	k, ok := want[c.Name]
	if !ok {
		return Move{}, fmt.Errorf("gracias has no command %q", c.Name)
	}
	if len(c.Args) != k {
		return Move{}, fmt.Errorf("%s takes %d arguments, not %d", c.Name, k, len(c.Args))
	}
	var m Move
	args := c.Args
	if c.Name != "keep" {
		t, err := strconv.Atoi(args[0])
		if err != nil {
			return Move{}, fmt.Errorf("%q is not a triplet number", args[0])
		}
		if t < 1 || t > len(g.names) {
			return Move{}, fmt.Errorf("there is no triplet %d: the triplets are numbered 1 to %d", t, len(g.names))
		}
		m.T = int8(t - 1)
		args = args[1:]
		m.Op = OpTake
	}
	if c.Name == "take" {
		return m, nil
	}
	col, ok := ParseColour(args[0])
	if !ok {
		return Move{}, fmt.Errorf("%q is not a colour (colours: %s)", args[0], strings.Join(colourNames[:], ", "))
	}
	q := indexOf(g.names, args[1])
	if q < 0 {
		return Move{}, fmt.Errorf("%q is not a player (players: %s)", args[1], strings.Join(g.names, ", "))
	}
	m.Keep, m.Give = col, int8(q)
	m.Op = OpKeep
	if c.Name == "take-keep" {
		m.Op = OpTakeKeep
	}
	return m, nil
}

func (g *Game) Apply(seat int, c engine.Command) ([]engine.Event, error) {
	player := "?"
	if seat >= 0 && seat < len(g.names) {
		player = g.names[seat]
	}
	text := c.Text
	if text == "" {
		text = c.Name
	}
	m, err := g.toMove(c)
	if err != nil {
		return nil, &engine.IllegalError{Player: player, Command: text, Reason: err.Error(), Options: g.Options(seat)}
	}
	if why := g.S.check(seat, m, g.names); why != "" {
		return nil, &engine.IllegalError{Player: player, Command: text, Reason: why, Options: g.Options(seat)}
	}
	rec := &engine.Recorder{Names: g.names}
	g.S.step(seat, m, rec)
	if g.S.Phase == Over {
		g.finalEvents(rec)
	}
	return rec.Events, nil
}

func (g *Game) finalEvents(rec *engine.Recorder) {
	s := &g.S
	totals := s.Totals()
	parts := make([]any, len(g.names))
	for p, name := range g.names {
		parts[p] = engine.W("%s %d (%d + %d + %d)", name, totals[p], s.Points[0][p], s.Points[1][p], s.Points[2][p])
	}
	rec.Public("total", "Final totals: %s.", engine.Join(", ", parts...))
	w := s.Winners()
	names := make([]any, len(w))
	for i, p := range w {
		names[i] = g.names[p]
	}
	points := engine.W(pointsKey, totals[w[0]])
	top := 0
	for p := range totals {
		if totals[p] == totals[w[0]] {
			top++
		}
	}
	switch {
	case len(w) > 1 && top > len(w):
		rec.Public("winner", shareEqualKey, engine.And(names...))
	case len(w) > 1:
		rec.Public("winner", shareWithKey, engine.And(names...), points)
	case top > 1:
		rec.Public("winner", "%s wins: several players have %s, and %s is ahead on the best, then the second-best session.", names[0], points, names[0])
	default:
		rec.Public("winner", "%s wins with %s.", names[0], points)
	}
}

// anys are names as a list's items.
func anys(names []string) []any {
	out := make([]any, len(names))
	for i, n := range names {
		out[i] = n
	}
	return out
}

// Default is the deadline's move (see docs/gracias.md): the lowest-numbered
// triplet still there, or the one already taken; keep the colour of which
// the player has fewer face-up cards, the triplet's first face-up card on
// a tie; give the other to the next player clockwise.
func (g *Game) Default(seat int) (engine.Command, bool) {
	m, ok := g.S.DefaultMove(seat)
	if !ok {
		return engine.Command{}, false
	}
	return g.command(m), true
}

func (g *Game) Result() engine.Result {
	return engine.Result{Finished: g.S.Phase == Over, Scores: g.S.Totals(), Winners: g.S.Winners()}
}

func (g *Game) Clone() engine.Game {
	c := *g
	c.names = append([]string(nil), g.names...)
	return &c
}

type saved struct {
	Players []string `json:"players"`
	State   State    `json:"state"`
}

func (g *Game) MarshalJSON() ([]byte, error) {
	return json.Marshal(saved{Players: g.names, State: g.S})
}

// Unmarshal restores a game saved with MarshalJSON.
func (Rules) Unmarshal(data []byte) (engine.Game, error) {
	var sv saved
	if err := json.Unmarshal(data, &sv); err != nil {
		return nil, fmt.Errorf("gracias: restore: %w", err)
	}
	if int(sv.State.N) != len(sv.Players) {
		return nil, errors.New("gracias: restore: player count does not match the state")
	}
	if err := engine.CheckNames(sv.Players); err != nil {
		return nil, fmt.Errorf("gracias: restore: %w", err)
	}
	if err := sv.State.validate(); err != nil {
		return nil, err
	}
	return &Game{names: sv.Players, S: sv.State}, nil
}
