package felix

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/pbem/pbem/engine"
)

// Rules is Felix's engine.Rules. The zero value is ready to use.
type Rules struct{}

var _ engine.Rules = Rules{}

func (Rules) Name() string        { return "felix" }
func (Rules) Title() string       { return "Felix: The Cat in the Sack" }
func (Rules) MinPlayers() int     { return minPlayers }
func (Rules) MaxPlayers() int     { return maxPlayers }
func (Rules) SetupKeys() []string { return []string{"removed", "dummy"} }

// Specs is Felix's command language. Each keyword also has its German
// words, from the German edition (Filou – Die Katze im Sack): "spiele
// Hase", "biete 4", "biete bis 9", "passe", "kaufe". They are read only;
// commands are written in English.
func (Rules) Specs() []engine.Spec {
	bid := engine.Kw("bid", "biete", "bieten")
	return []engine.Spec{
		{Name: "play", Words: []engine.Word{engine.Kw("play", "spiele", "spiel", "spielen"), engine.ChoiceArg("CARD", cardChoices()...)},
			Help: "put CARD from your hand face down into the row"},
		{Name: "bid", Words: []engine.Word{bid, engine.NumArg("N")},
			Help: "raise your total stake for this auction to N mice"},
		{Name: "proxy", Words: []engine.Word{bid, engine.Kw("up"), engine.Kw("to"), engine.NumArg("N")},
			Help: "let pbem bid for you up to a total stake of N: whenever the auction comes to you, it bids the highest stake plus 1 while that is at most N, else passes; you may send it before your turn",
			// German: "biete bis 9", "biete bis zu 9".
			Also: [][]engine.Word{
				{bid, engine.Kw("bis"), engine.NumArg("N")},
				{bid, engine.Kw("bis"), engine.Kw("zu"), engine.NumArg("N")},
			}},
		{Name: "pass", Words: []engine.Word{engine.Kw("pass", "passe", "passen")},
			Help: "leave this auction: take back your stake and the lowest mouse card still in the row"},
		{Name: "buy", Words: []engine.Word{engine.Kw("buy", "kaufe", "kaufen")},
			Help: "when everyone else passed without a bid: buy the whole row for 1 mouse"},
	}
}

func spec(name string) engine.Spec {
	s, _ := engine.FindSpec(commandSpecs(), name) // made once: Options asks for a spec per option
	return s
}

// Game is a Felix game: the players' names and the State.
type Game struct {
	names []string
	S     State
}

var _ engine.Game = (*Game)(nil)

// New sets up a game: see docs/felix.md, "Set-up". Random choices are made in a
// fixed order (start player, each seat's removed card, the dummy pile) and
// then replaced by whatever the set-up fixes.
func (r Rules) New(setup engine.Setup) (engine.Game, []engine.Event, error) {
	n := len(setup.Players)
	if err := engine.CheckPlayers("felix", minPlayers, maxPlayers, setup.Players); err != nil {
		return nil, nil, err
	}
	rng := engine.SeededRand(setup.Seed)
	g := &Game{names: append([]string(nil), setup.Players...)}
	s := &g.S
	s.N = int8(n)
	s.FirstStart = int8(rng.IntN(n))
	for p := 0; p < n; p++ {
		s.Removed[p] = Kind(rng.IntN(int(numKinds)))
	}
	pile := rng.Perm(int(numKinds))
	for i := 0; i < rounds; i++ {
		s.Dummy[i] = Kind(pile[i])
	}
	s.Removed[dummyColour] = Kind(pile[rounds])

	if setup.Start != "" {
		p := indexOf(g.names, setup.Start)
		if p < 0 {
			return nil, nil, fmt.Errorf("start: %q is not a player", setup.Start)
		}
		s.FirstStart = int8(p)
	}
	for _, l := range setup.Lines {
		var err error
		switch l.Key {
		case "removed":
			err = g.setRemoved(l.Args)
		case "dummy":
			err = g.setDummy(l.Args)
		default:
			err = fmt.Errorf("felix has no set-up line %q", l.Key)
		}
		if err != nil {
			return nil, nil, err
		}
	}

	if n != 3 {
		// Only three players use the dummy: keep the state canonical so
		// that equal games have equal states.
		s.Dummy = [rounds]Kind{}
		s.Removed[dummyColour] = 0
	}
	s.Start = s.FirstStart
	s.Round = 1
	s.Bank = bankFor(n)
	for i, v := range mouseCardsFor(n) {
		s.MouseValue[i] = v
		s.Mice[i] = v
		s.Bank -= int16(v)
		s.NMouse++
	}
	for p := 0; p < n; p++ {
		s.Hand[p] = allKinds &^ (1 << uint(s.Removed[p]))
		s.Box |= mkCard(p, s.Removed[p]).bit()
		s.Money[p] = startMoney
	}
	if n == 3 {
		s.Box |= mkCard(dummyColour, s.Removed[dummyColour]).bit()
	}
	rec := &engine.Recorder{Names: g.names}
	rec.Public("setup", "Felix: The Cat in the Sack for %s. Everyone starts with %d mice; the mouse cards (%s) hold their mice and %d remain in the bank. One card of each set was set aside unseen.",
		engine.Join(", ", anys(g.names)...), startMoney, mouseList(s), s.Bank)
	if n == 3 {
		rec.Public("setup", "With three players a dummy set joins: each round its top card comes first in the row and is turned up when the auction begins.")
	}
	for p := 0; p < n; p++ {
		rec.Private(p, "setaside", "The card set aside from your set is your %s: nobody else knows it.", logCard(s.Removed[p]))
	}
	s.openRound(rec)
	return g, rec.Events, nil
}

// mouseList lists the mouse cards' values: "2, 4, 6".
func mouseList(s *State) engine.Phrase {
	values := make([]any, s.NMouse)
	for i := range values {
		values[i] = int(s.MouseValue[i])
	}
	return engine.Join(", ", values...)
}

// anys are names as a list's items.
func anys(names []string) []any {
	out := make([]any, len(names))
	for i, n := range names {
		out[i] = n
	}
	return out
}

func indexOf(names []string, name string) int {
	for i, n := range names {
		if n == name {
			return i
		}
	}
	return -1
}

// setRemoved reads "alice=-8 bob=large-dog ...".
func (g *Game) setRemoved(args []string) error {
	seen := map[int]bool{}
	for _, a := range args {
		name, card, ok := strings.Cut(a, "=")
		if !ok {
			return fmt.Errorf("removed: %q is not PLAYER=CARD", a)
		}
		p := indexOf(g.names, name)
		if p < 0 {
			return fmt.Errorf("removed: %q is not a player", name)
		}
		if seen[p] {
			return fmt.Errorf("removed: %s is named twice", name)
		}
		seen[p] = true
		k, ok := ParseKind(card)
		if !ok {
			return fmt.Errorf("removed: %q is not a card", card)
		}
		g.S.Removed[p] = k
	}
	return nil
}

// setDummy reads the dummy pile: nine different cards, top first.
func (g *Game) setDummy(args []string) error {
	if g.S.N != 3 {
		return errors.New("dummy: only a 3-player game has a dummy")
	}
	if len(args) != rounds {
		return fmt.Errorf("dummy: the pile has %d cards, not %d", rounds, len(args))
	}
	var seen uint16
	for i, a := range args {
		k, ok := ParseKind(a)
		if !ok {
			return fmt.Errorf("dummy: %q is not a card", a)
		}
		if seen&(1<<uint(k)) != 0 {
			return fmt.Errorf("dummy: %s appears twice", k)
		}
		seen |= 1 << uint(k)
		g.S.Dummy[i] = k
	}
	for k := Kind(0); k < numKinds; k++ {
		if seen&(1<<uint(k)) == 0 {
			g.S.Removed[dummyColour] = k
		}
	}
	return nil
}

func (g *Game) Rules() engine.Rules { return Rules{} }
func (g *Game) Players() []string   { return append([]string(nil), g.names...) }

// Setup writes out every choice chance made.
func (g *Game) Setup() engine.Setup {
	s := &g.S
	removed := engine.SetupLine{Key: "removed"}
	for p, name := range g.names {
		removed.Args = append(removed.Args, name+"="+s.Removed[p].String())
	}
	st := engine.Setup{Players: g.Players(), Start: g.names[s.FirstStart], Lines: []engine.SetupLine{removed}}
	if s.N == 3 {
		d := engine.SetupLine{Key: "dummy"}
		for _, k := range s.Dummy {
			d.Args = append(d.Args, k.String())
		}
		st.Lines = append(st.Lines, d)
	}
	return st
}

func (g *Game) Waiting() []int {
	m := g.S.WaitingMask()
	var out []int
	for p := 0; p < int(g.S.N); p++ {
		if m&(1<<uint(p)) != 0 {
			out = append(out, p)
		}
	}
	return out
}

func (g *Game) Options(seat int) []engine.Option {
	s := &g.S
	if seat < 0 || seat >= int(s.N) || s.WaitingMask()&(1<<uint(seat)) == 0 {
		return nil
	}
	switch s.Phase {
	case Placing:
		o := engine.Option{Spec: "play"}
		var cards []string
		for _, k := range kindsOf(uint64(s.Hand[seat]) << uint(seat*int(numKinds))) {
			cards = append(cards, k.String())
			o.Commands = append(o.Commands, spec("play").Make(k.String()).Text)
		}
		o.Text = spec("play").Format(strings.Join(cards, "|"))
		return []engine.Option{o}
	case Bidding:
		var opts []engine.Option
		lo, hi := s.High+1, s.owned(seat)
		if lo <= hi {
			o := engine.Option{Spec: "bid"}
			if lo == hi {
				o.Text = spec("bid").Format(strconv.Itoa(int(lo)))
			} else {
				o.Text = spec("bid").Format(fmt.Sprintf("%d..%d", lo, hi))
			}
			for n := lo; n <= hi; n++ {
				o.Commands = append(o.Commands, spec("bid").Make(strconv.Itoa(int(n))).Text)
			}
			opts = append(opts, o)
		}
		opts = append(opts, engine.Option{Spec: "pass", Text: "pass", Commands: []string{"pass"}})
		if lo <= hi {
			opts = append(opts, proxyOption(lo, hi))
		}
		return opts
	case Buying:
		var opts []engine.Option
		if s.Money[seat] >= 1 {
			opts = append(opts, engine.Option{Spec: "buy", Text: "buy", Commands: []string{"buy"}})
		}
		return append(opts, engine.Option{Spec: "pass", Text: "pass", Commands: []string{"pass"}})
	}
	return nil
}

// proxyOption offers "bid up to N" to a seat whose bids run from lo to
// hi. It lists one command, an example halfway up his range, rather than
// every limit: the bids above already list the numbers, and a second
// list as long would bury the rest of the mail. The text gives the range.
func proxyOption(lo, hi int16) engine.Option {
	ex := strconv.Itoa(int(lo + (hi-lo)/2))
	o := engine.Option{Spec: "proxy", Commands: []string{spec("proxy").Make(ex).Text}}
	if lo == hi {
		o.Text = spec("proxy").Format(strconv.Itoa(int(lo)))
	} else {
		o.Text = spec("proxy").Format(fmt.Sprintf("%d..%d", lo, hi))
	}
	return o
}

// toMove reads a command into a Move.
func toMove(c engine.Command) (Move, error) {
	arg := func() (string, error) {
		if len(c.Args) != 1 {
			return "", fmt.Errorf("%s takes one argument", c.Name)
		}
		return c.Args[0], nil
	}
	switch c.Name {
	case "play":
		a, err := arg()
		if err != nil {
			return Move{}, err
		}
		k, ok := ParseKind(a)
		if !ok {
			return Move{}, fmt.Errorf("%q is not a card", a)
		}
		return Move{OpPlay, int16(k)}, nil
	case "bid":
		a, err := arg()
		if err != nil {
			return Move{}, err
		}
		n, err := strconv.Atoi(a)
		if err != nil || n > 10000 || n < -10000 {
			return Move{}, fmt.Errorf("%q is not a bid", a)
		}
		return Move{OpBid, int16(n)}, nil
	case "proxy":
		a, err := arg()
		if err != nil {
			return Move{}, err
		}
		n, err := strconv.Atoi(a)
		if err != nil || n > 10000 || n < -10000 {
			return Move{}, fmt.Errorf("%q is not a limit", a)
		}
		return Move{OpProxy, int16(n)}, nil
	case "pass":
		return Move{Op: OpPass}, nil
	case "buy":
		return Move{Op: OpBuy}, nil
	}
	return Move{}, fmt.Errorf("felix has no command %q", c.Name)
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
	m, err := toMove(c)
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
	g.revealSetAside(rec)
	scores := s.Scores()
	for p, name := range g.names {
		rec.Public("score", "%s: cats %d (%s) + %s = %d.", name, catTotal(s.Won[p]), wonWords(s.Won[p]), logMice(int(s.Money[p])), scores[p])
	}
	w := s.Winners()
	names := make([]any, len(w))
	for i, p := range w {
		names[i] = g.names[p]
	}
	if len(w) == 1 {
		rec.Public("winner", "%s wins.", names[0])
	} else {
		rec.Public("winner", "%s share the win.", engine.Join(" and ", names...))
	}
}

// revealSetAside tells everyone, once the game is over, which card was
// set aside unseen from each set at the start (the dummy's too). The
// decision: each player saw only his own until now ("nobody else until
// the game ends", docs/felix.md); at the end nothing is left to hide, and
// the whole table can check the game, as the final views show everyone's
// money. It changes no score.
func (g *Game) revealSetAside(rec *engine.Recorder) {
	s := &g.S
	parts := make([]any, 0, len(g.names)+1)
	for p, name := range g.names {
		// "alice rabbit": a key of its own, not "%s %s", which the
		// catalogs translate as two words side by side.
		parts = append(parts, engine.W("%[1]s %[2]s", name, logCard(s.Removed[p])))
	}
	if s.N == 3 {
		parts = append(parts, engine.W("the dummy %s", logCard(s.Removed[dummyColour])))
	}
	rec.Public("setaside", "Set aside at the start: %s.", engine.Join(", ", parts...))
}

// wonWords lists the cards of mask for the final score: "3, 8", or
// "none".
func wonWords(mask uint64) engine.Phrase {
	ks := kindsOf(mask)
	if len(ks) == 0 {
		return engine.W("none")
	}
	return logCards(ks)
}

// Default is the deadline's move: pass in an auction; when placing, the
// first card the player holds in defaultOrder.
func (g *Game) Default(seat int) (engine.Command, bool) {
	m, ok := g.S.DefaultMove(seat)
	if !ok {
		return engine.Command{}, false
	}
	return command(m), true
}

// command writes a move as a command.
func command(m Move) engine.Command {
	n := strconv.Itoa(int(m.N))
	switch m.Op {
	case OpPlay:
		return spec("play").Make(Kind(m.N).String())
	case OpBid:
		return spec("bid").Make(n)
	case OpProxy:
		return spec("proxy").Make(n)
	case OpBuy:
		return spec("buy").Make()
	}
	return spec("pass").Make()
}

func (g *Game) Result() engine.Result {
	r := engine.Result{Finished: g.S.Phase == Over, Scores: g.S.Scores()}
	r.Winners = g.S.Winners()
	return r
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
		return nil, fmt.Errorf("felix: restore: %w", err)
	}
	if int(sv.State.N) != len(sv.Players) || sv.State.N < minPlayers || sv.State.N > maxPlayers {
		return nil, errors.New("felix: restore: player count does not match the state")
	}
	return &Game{names: sv.Players, S: sv.State}, nil
}
