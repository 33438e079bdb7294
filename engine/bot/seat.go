package bot

import (
	"strconv"
	"strings"
)

// This file is what a bot seat needs besides a move: a name, a title, a
// seed for each move and the players-line token of a transcript. The
// daemon seats bots with them and engine/transcript reads and writes
// them, so that both agree on every detail without knowing each other.

// seatNames are the bots' player names, in the order seats take them:
// short, friendly, easy to type in a command ("keep red give bea"), and
// none a word of any game's commands, a card or a colour (seat_test.go
// checks every game's words), so that a command naming a bot reads as
// one.
var seatNames = [...]string{"bea", "cid", "dot", "eve", "fin", "gus", "hal", "ivy"}

// SeatNames returns n names for bot seats, in order, from the fixed list
// (bea, cid, dot, ...), skipping every name in taken (compared without
// case). When the list runs out it goes on with numbered names (bea2,
// cid2, ..., bea3, ...), still skipping taken ones, so the names are
// always unique. The same taken names and n give the same names: a
// transcript's players line relies on it to name its bots.
func SeatNames(taken []string, n int) []string {
	used := make(map[string]bool, len(taken)+n)
	for _, t := range taken {
		used[strings.ToLower(t)] = true
	}
	out := make([]string, 0, max(n, 0))
	for round := 1; len(out) < n; round++ {
		for _, base := range seatNames {
			if len(out) == n {
				break
			}
			name := base
			if round > 1 {
				name += strconv.Itoa(round)
			}
			if !used[name] {
				used[name] = true
				out = append(out, name)
			}
		}
	}
	return out
}

// Title is how pbem's messages introduce a bot seat's player: "Bot Bea
// (strong)", so that nobody takes it for a person.
func Title(name string, l Level) string {
	if name != "" {
		name = strings.ToUpper(name[:1]) + name[1:]
	}
	return "Bot " + name + " (" + string(l) + ")"
}

// SeedAt is the seed of the bot move at position ply of a game's move
// lines (0 for the first line, counting every line: humans', bots' and
// undo lines) in a game set up with gameSeed.
//
// A bot's move is a pure function of its knowledge, its level and its
// seed (Move). Deriving the seed from the game's seed and the move's
// place in the log, and from nothing else (no clock, no counter kept
// elsewhere), lets a replay of the transcript recompute every bot move
// and check that the recorded one is what the bot played
// (transcript.CheckBots). The mix is splitmix64's: neighbouring plies and
// neighbouring game seeds give unrelated seeds.
func SeedAt(gameSeed uint64, ply int) uint64 {
	z := gameSeed + uint64(ply+1)*0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// seatWord is the players-line token of a bot seat, before its level.
const seatWord = "bot"

// ParseSeat reads a bot seat as a transcript's players line (and a
// command naming a seat) writes it: "bot", which is a Normal bot, or
// "bot:LEVEL", case aside. ok is false for anything else, an unknown
// level included.
func ParseSeat(s string) (l Level, ok bool) {
	s = strings.ToLower(s)
	if s == seatWord {
		return Normal, true
	}
	rest, found := strings.CutPrefix(s, seatWord+":")
	if !found {
		return "", false
	}
	l, err := ParseLevel(rest)
	return l, err == nil
}

// SeatSpec is the players-line token of a bot seat of level l:
// "bot:normal". It always names the level, so that a transcript does not
// depend on which level "bot" alone stands for.
func SeatSpec(l Level) string { return seatWord + ":" + string(l) }
