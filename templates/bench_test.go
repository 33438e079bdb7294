package templates

import (
	"testing"

	"github.com/pbem/pbem/engine"
)

// BenchmarkGameMail measures rendering one game mail, its text and its
// HTML part, as the daemon renders them after a command (issue 40): the
// mails of one position go to every seat in turn, then the game moves
// on. A table is replayed from a transcript, and each op renders the
// next mail of a round robin over benchPositions positions of the game,
// each for every seat, so that what one reader's mail shares with the
// others' is rendered as often as a command would render it.
//
//	go test -run '^$' -bench BenchmarkGameMail -benchmem ./templates/
func BenchmarkGameMail(b *testing.B) {
	cases := []struct {
		name, file, lang string
		from             int // the first position: moves replayed
	}{
		{"felix-4p", "engine/felix/testdata/basics-4p.txt", "", 4},
		{"felix-4p-de", "engine/felix/testdata/basics-4p.txt", "de", 4},
		{"gracias-3p", "examples/gracias-3p.txt", "", 1},
	}
	r := newRenderer(b)
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			mails := benchMails(b, c.file, c.lang, c.from)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := r.Game(mails[i%len(mails)]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// benchPositions is how many positions of a game BenchmarkGameMail
// renders the mails of.
const benchPositions = 8

// benchMails are the turn mails of every seat at benchPositions
// positions of the transcript's game from the position after from
// moves on, seat by seat within a position, in the language lang.
func benchMails(b testing.TB, file, lang string, from int) []GameMail {
	b.Helper()
	_, _, all := play(b, file, -1)
	var out []GameMail
	for n := from; n < from+benchPositions && n <= len(all); n++ {
		g, opening, steps := play(b, file, n)
		for seat := range g.Players() {
			m := mailFor(b, g, seat, MailTurn, benchHappened(seat, opening, steps))
			m.Language = lang
			m.Intro = []string{"Applied: pass."}
			out = append(out, m)
		}
	}
	return out
}

// benchHappened is what happened since seat's last move, as the daemon
// gives it.
func benchHappened(seat int, opening []engine.Event, steps []step) []engine.Event {
	return sinceLastMove(seat, opening, steps)
}
