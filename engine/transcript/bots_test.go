package transcript_test

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/engine/bot"
	"github.com/pbem/pbem/engine/games"
	"github.com/pbem/pbem/engine/transcript"
)

func TestReadBots(t *testing.T) {
	t.Parallel()
	good := []struct {
		players string
		names   string
		bots    map[int]bot.Level
	}{
		{"alice bob carol", "alice bob carol", nil},
		{"alice bob bot", "alice bob bea", map[int]bot.Level{2: bot.Normal}},
		{"alice bot:easy BOT:Strong", "alice bea cid", map[int]bot.Level{1: bot.Easy, 2: bot.Strong}},
		{"bea bob bot:easy", "bea bob cid", map[int]bot.Level{2: bot.Easy}},
		{"alice bot cid=bot:easy", "alice bea cid", map[int]bot.Level{1: bot.Normal, 2: bot.Easy}},
		{"alice Bea=bot:strong bot bot", "alice bea cid dot", map[int]bot.Level{1: bot.Strong, 2: bot.Normal, 3: bot.Normal}},
		{"bot:normal x bot:easy", "bea x cid", map[int]bot.Level{0: bot.Normal, 2: bot.Easy}},
		{"alice robot=bot:easy bot", "alice robot bea", map[int]bot.Level{1: bot.Easy, 2: bot.Normal}},
	}
	for _, tt := range good {
		in := "game felix\nplayers " + tt.players + "\n"
		tr, err := transcript.Read(strings.NewReader(in), games.Lookup)
		if err != nil {
			t.Errorf("%q: %v", tt.players, err)
			continue
		}
		if got := strings.Join(tr.Setup.Players, " "); got != tt.names || !maps.Equal(tr.Bots, tt.bots) {
			t.Errorf("%q: players %q, bots %v; want %q, %v", tt.players, got, tr.Bots, tt.names, tt.bots)
		}
		if tt.bots == nil && tr.Bots != nil {
			t.Errorf("%q: Bots is %v, want nil", tt.players, tr.Bots)
		}
	}

	bad := []struct{ in, want string }{
		{"players alice bob bot:genius\n", "line 2: bot:genius is not a bot level (easy, normal, strong)"},
		{"players alice bob bot:\n", "line 2: bot: is not a bot level"},
		{"players alice bob 1x=bot:easy\n", `line 2: "1x" is not a valid player name`},
		{"players alice bob =bot\n", `line 2: "" is not a valid player name`},
		{"players alice bob alice=bot:easy\n", "line 2: player alice is named twice"},
		{"players alice bob bea=bot bea\n", "line 2: player bea is named twice"},
		{"players alice bob alice=carol\n", "line 2: alice=carol: only a bot seat is written NAME=..., as alice=bot:normal"},
		{"players alice bob x=bot:genius\n", "line 2: bot:genius is not a bot level"},
		{"players alice bot bot bot bot bot\n", "line 2: felix is for 3 to 5 players, not 6"},
		{"players alice bob bot\nbot: pass\n", "line 3: bot is not a player of this game (players: alice, bob, bea)"},
	}
	for _, tt := range bad {
		_, err := transcript.Read(strings.NewReader("game felix\n"+tt.in), games.Lookup)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: error %v, want %q", tt.in, err, tt.want)
		}
	}

	// A bot's name is a player's name in every other line.
	in := "game felix\nplayers alice bob bot:easy\nstart bea\nremoved bea=rabbit\nbea: play 3\nBEA: undo\n"
	tr, err := transcript.Read(strings.NewReader(in), games.Lookup)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Setup.Start != "bea" || len(tr.Moves) != 2 || tr.Moves[1].Player != "bea" {
		t.Fatalf("set-up %+v, moves %+v", tr.Setup, tr.Moves)
	}
	if _, _, err := tr.Replay(); err != nil {
		t.Fatal(err)
	}
}

// TestWriteReadBotsRoundTrip: whatever the names of the people and the
// bots, and wherever the bots sit, Write writes a players line that Read
// reads back to the same names and bots; a bot named as the standard
// rule names it is written without its name.
func TestWriteReadBotsRoundTrip(t *testing.T) {
	t.Parallel()
	rules, _ := games.Lookup("gracias")
	// Names that collide with the bots' standard names, and others.
	pool := []string{"alice", "bob", "bea", "cid", "dot", "eve", "fin", "gus", "hal", "ivy", "bea2", "cid2", "x", "zed-1", "robot", "bots"}
	rng := rand.New(rand.NewPCG(1, 2))
	plain := 0
	for i := 0; i < 2000; i++ {
		n := rules.MinPlayers() + rng.IntN(rules.MaxPlayers()-rules.MinPlayers()+1)
		bots := map[int]bot.Level{}
		var humans []string
		for seat := 0; seat < n; seat++ {
			if rng.IntN(2) == 0 {
				bots[seat] = bot.Levels()[rng.IntN(3)]
			}
		}
		players := make([]string, n)
		used := map[string]bool{}
		pick := func() string {
			for {
				if name := pool[rng.IntN(len(pool))]; !used[name] {
					used[name] = true
					return name
				}
			}
		}
		for seat := range players {
			if _, isBot := bots[seat]; !isBot {
				players[seat] = pick()
				humans = append(humans, players[seat])
			}
		}
		standard := rng.IntN(2) == 0
		names := bot.SeatNames(humans, len(bots))
		for seat := range players {
			if _, isBot := bots[seat]; !isBot {
				continue
			}
			if standard {
				players[seat], names = names[0], names[1:]
				continue
			}
			players[seat] = pick()
		}
		if len(bots) == 0 {
			bots = nil
		}
		var buf bytes.Buffer
		moves := []transcript.Move{{Player: players[n-1], Command: "take 1"}}
		if err := transcript.Write(&buf, "gracias", engine.Setup{Players: players, Seed: 3}, bots, moves); err != nil {
			t.Fatalf("players %v, bots %v: %v", players, bots, err)
		}
		tr, err := transcript.Read(bytes.NewReader(buf.Bytes()), games.Lookup)
		if err != nil {
			t.Fatalf("players %v, bots %v: %v\n%s", players, bots, err, buf.String())
		}
		if !slices.Equal(tr.Setup.Players, players) || !maps.Equal(tr.Bots, bots) || (bots == nil) != (tr.Bots == nil) {
			t.Fatalf("wrote players %v, bots %v; read %v, %v:\n%s", players, bots, tr.Setup.Players, tr.Bots, buf.String())
		}
		if standard {
			if strings.Contains(buf.String(), "=") {
				t.Fatalf("standard names written with names:\n%s", buf.String())
			}
			plain++
		}
	}
	if plain == 0 {
		t.Fatal("no case with the standard names")
	}
}

func TestWriteBotsErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		players []string
		bots    map[int]bot.Level
		want    string
	}{
		{[]string{"alice", "bot", "carol"}, nil, "a person of that name would read back as a bot seat"},
		{[]string{"alice", "bob", "carol"}, map[int]bot.Level{3: bot.Easy}, "bot seat 3: the game has 3 seats"},
		{[]string{"alice", "bob", "carol"}, map[int]bot.Level{1: "genius"}, "bot seat 1:"},
		{[]string{"alice", "Bea", "carol"}, map[int]bot.Level{1: bot.Easy}, `"Bea" is not a valid player name`},
	}
	for _, tt := range tests {
		err := transcript.Write(&bytes.Buffer{}, "felix", engine.Setup{Players: tt.players}, tt.bots, nil)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v %v: error %v, want %q", tt.players, tt.bots, err, tt.want)
		}
	}
	// A bot may be called bot: it is written with its name.
	var buf bytes.Buffer
	if err := transcript.Write(&buf, "felix", engine.Setup{Players: []string{"alice", "bob", "bot"}}, map[int]bot.Level{2: bot.Easy}, nil); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "players alice bob bot=bot:easy\n") {
		t.Fatalf("players line:\n%s", buf.String())
	}
}

// botGame is a game played the way the service plays one with bots: the
// bots move by bot.Move on the live game and its log, with the seed
// bot.SeedAt(seed, ply), the people at random (now and then taking their
// last command back), as its transcript records it.
type botGame struct {
	text  string            // the transcript
	bots  map[int]bot.Level // the bot seats
	alt   int               // index of a bot's move line that had another legal move; -1 if none
	other string            // that other move
	undos int               // undo lines
	state []byte            // the final state
}

func playBotGame(t *testing.T, game string, n int, seed uint64) botGame {
	t.Helper()
	rules, _ := games.Lookup(game)
	rng := rand.New(rand.NewPCG(seed, uint64(n)))
	bg := botGame{bots: map[int]bot.Level{}, alt: -1}
	// At least one bot and one person; the bots anywhere (the service
	// seats them last, the format allows any seat).
	nb := 1 + rng.IntN(n-1)
	for _, seat := range rng.Perm(n)[:nb] {
		bg.bots[seat] = bot.Easy
	}
	var humans []string
	for seat := 0; seat < n; seat++ {
		if _, isBot := bg.bots[seat]; !isBot {
			humans = append(humans, []string{"alice", "bob", "carol", "dave", "erin", "frank"}[seat])
		}
	}
	names := bot.SeatNames(humans, nb)
	players := make([]string, n)
	for seat, h := 0, 0; seat < n; seat++ {
		if _, isBot := bg.bots[seat]; isBot {
			players[seat], names = names[0], names[1:]
		} else {
			players[seat], h = humans[h], h+1
		}
	}
	setup := engine.Setup{Players: players, Seed: seed}
	l, log, err := engine.NewLog(rules, setup)
	if err != nil {
		t.Fatal(err)
	}
	var moves []transcript.Move
	for ply := 0; !l.Game().Result().Finished; ply++ {
		if ply > 3000 {
			t.Fatalf("no end after %d lines", ply)
		}
		g := l.Game()
		if q := rng.IntN(n); rng.IntN(10) == 0 && bg.bots[q] == "" {
			if _, err := l.Last(q); err == nil {
				taken, err := l.Undo(q)
				if err != nil {
					t.Fatal(err)
				}
				log = append(log, transcript.UndoEvent(players[q], taken))
				moves = append(moves, transcript.Move{Player: players[q], Command: engine.UndoCommand})
				bg.undos++
				continue
			}
		}
		w := g.Waiting()
		p := w[rng.IntN(len(w))]
		var options []string
		for _, o := range g.Options(p) {
			options = append(options, o.Commands...)
		}
		var ev []engine.Event
		var text string
		if level, isBot := bg.bots[p]; isBot {
			c, err := bot.Move(g, p, log, level, bot.SeedAt(seed, ply))
			if err != nil {
				t.Fatalf("line %d: %v", ply, err)
			}
			if ev, err = l.Apply(p, c); err != nil {
				t.Fatalf("line %d: bot %s: %v", ply, players[p], err)
			}
			text = c.Text
			if bg.alt < 0 {
				for _, o := range options {
					if !strings.EqualFold(o, c.Text) {
						bg.alt, bg.other = len(moves), o
						break
					}
				}
			}
		} else {
			text = options[rng.IntN(len(options))]
			if ev, err = l.Do(p, text); err != nil {
				t.Fatalf("line %d: %s: %v", ply, players[p], err)
			}
		}
		log = append(log, ev...)
		moves = append(moves, transcript.Move{Player: players[p], Command: text})
	}
	// What an export writes: the explicit set-up, and the seed, which
	// the bots' seeds come from.
	explicit := l.Game().Setup()
	explicit.Seed = seed
	var buf bytes.Buffer
	if err := transcript.Write(&buf, game, explicit, bg.bots, moves); err != nil {
		t.Fatal(err)
	}
	bg.text = buf.String()
	if bg.state, err = l.Game().MarshalJSON(); err != nil {
		t.Fatal(err)
	}
	return bg
}

// TestCheckBotsWholeGames: the transcript of a game in which bots played
// reads back with its bot seats, replays to the same end, and passes
// CheckBots; a bot line changed to another legal move, a bot's undo
// line or another seed fails it at a line.
func TestCheckBotsWholeGames(t *testing.T) {
	t.Parallel()
	undos := 0
	for _, game := range games.Names() {
		rules, _ := games.Lookup(game)
		for n := rules.MinPlayers(); n <= rules.MaxPlayers(); n++ {
			for _, seed := range []uint64{0, 1, 99} {
				t.Run(fmt.Sprintf("%s/%d/%d", game, n, seed), func(t *testing.T) {
					bg := playBotGame(t, game, n, seed)
					undos += bg.undos
					tr := read(t, bg.text)
					if !maps.Equal(tr.Bots, bg.bots) {
						t.Fatalf("bots %v, want %v", tr.Bots, bg.bots)
					}
					g, _, err := tr.Replay()
					if err != nil {
						t.Fatal(err)
					}
					if state, _ := g.MarshalJSON(); !bytes.Equal(state, bg.state) {
						t.Fatal("the replay ends in another state than the game")
					}
					if err := tr.CheckBots(); err != nil {
						t.Fatalf("%v\n%s", err, bg.text)
					}

					if bg.alt < 0 {
						t.Fatal("no bot move had another legal move")
					}
					m := tr.Moves[bg.alt]
					edited := replaceLine(bg.text, m.Line, m.Player+": "+bg.other)
					wantLineError(t, read(t, edited).CheckBots(), m.Line, fmt.Sprintf("but the line says %q", bg.other))

					undone := replaceLine(bg.text, m.Line, m.Player+": "+m.Command+"\n"+m.Player+": undo")
					wantLineError(t, read(t, undone).CheckBots(), m.Line+1, "a bot takes nothing back")

					// Seed 0 is written as no seed line at all.
					seedLine, other := fmt.Sprintf("\nseed %d\n", seed), "\nseed 12345\n"
					if seed == 0 {
						if strings.Contains(bg.text, "\nseed ") {
							t.Fatalf("seed 0 written:\n%s", bg.text)
						}
						seedLine, other = "\nstart ", "\nseed 12345\nstart "
					}
					reseeded := strings.Replace(bg.text, seedLine, other, 1)
					if reseeded == bg.text {
						t.Fatal("no seed line")
					}
					var le *transcript.LineError
					if err := read(t, reseeded).CheckBots(); !errors.As(err, &le) {
						t.Fatalf("another seed: CheckBots gives %v, want a line", err)
					}
				})
			}
		}
	}
	if undos == 0 {
		t.Error("no game took a move back: the undo event is not tested")
	}
}

func read(t *testing.T, text string) *transcript.Transcript {
	t.Helper()
	tr, err := transcript.Read(strings.NewReader(text), games.Lookup)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// replaceLine replaces line n (from 1) of text.
func replaceLine(text string, n int, with string) string {
	lines := strings.Split(text, "\n")
	lines[n-1] = with
	return strings.Join(lines, "\n")
}

func wantLineError(t *testing.T, err error, line int, want string) {
	t.Helper()
	var le *transcript.LineError
	if !errors.As(err, &le) || le.Line != line || !strings.Contains(err.Error(), want) {
		t.Fatalf("error %v, want one at line %d with %q", err, line, want)
	}
}

// TestCheckBotsWithoutBots: a transcript without bots only replays.
func TestCheckBotsWithoutBots(t *testing.T) {
	t.Parallel()
	if err := read(t, example).CheckBots(); err != nil {
		t.Fatal(err)
	}
	bad := read(t, example+"carol: bid 99\n")
	_, _, want := bad.Replay()
	if err := bad.CheckBots(); err == nil || err.Error() != want.Error() {
		t.Fatalf("CheckBots gives %v, Replay %v", err, want)
	}
}
