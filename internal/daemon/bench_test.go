package daemon

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/pbem/pbem/internal/mailer"
	"github.com/pbem/pbem/internal/store"
	"github.com/pbem/pbem/internal/store/storetest"
)

// BenchmarkCommandMail measures one player's command mail through the
// whole turn loop: extract the text, read the command, load the game from
// its snapshot, apply it, record it, render and compose every player's
// mail (text and HTML) and queue them, in one durable transaction. Sending
// is not included: the mail system's own rate is the ceiling there.
//
// Beside ns/op it reports cpu-ms/op, the process's CPU time (user and
// system, every thread: the garbage collector's too) spent in HandleMail
// per command, which is what issue 15 budgets: wall time alone hides the
// work done on other cores, and the fsync of the commit is wall time but
// hardly CPU.
func BenchmarkCommandMail(b *testing.B) {
	w := newWorld(b)
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test", "dave@x.test"}
	rng := rand.New(rand.NewPCG(1, 2))
	reply, id := w.startGame("felix", players...)
	var cpu time.Duration
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		tb := w.table(id)
		if tb.game.Result().Finished {
			reply, id = w.startGame("felix", players...)
			tb = w.table(id)
		}
		p := tb.game.Waiting()[0]
		var cmds []string
		for _, o := range tb.game.Options(p) {
			cmds = append(cmds, o.Commands...)
		}
		w.uid++
		// Labelled as every mail program labels its text.
		raw := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: Re: Felix\r\nMessage-ID: <b%d@x.test>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n\r\n> quoted mail\r\n", players[p], reply[players[p]], w.uid, cmds[rng.IntN(len(cmds))])
		before := processCPU(b)
		b.StartTimer()
		if err := w.svc.HandleMail(context.Background(), mailer.Message{Mailbox: "INBOX", UIDValidity: 1, UID: w.uid, Raw: []byte(raw)}); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		cpu += processCPU(b) - before
		b.StartTimer()
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "commands/s")
	b.ReportMetric(float64(cpu)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
}

// processCPU is the CPU time the process has used so far, user and
// system, in all its threads.
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatalf("getrusage: %v", err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkSweep measures one pass of the deadline sweep
// (SweepDeadlines) in a store of 1,000 and of 100,000 games, to show
// that its time depends on the work due, not on the number of games
// (issue 14; internal/store/sweepplan_test.go checks the plans that make
// it so).
//
// Each store holds sweepDue real Felix games made through the mail loop,
// and the other games written straight into the database
// (storetest.Fill): active, paused, finished and broken games whose
// deadlines, reminder steps, digests and vacations all come years later.
// Two kinds of pass are timed on each:
//
//   - due=0: nothing is due, the sweep's every-minute case; it is the
//     statements that find due work and nothing else.
//   - due=10: before each pass (off the timer) the clock moves on by the
//     turn time, so each of the real games' waiting seats has missed its
//     deadline: the pass makes their default moves (more than ten when a
//     game waits on several seats at once; moves/op says how many), writes
//     the mails, and sets the next deadlines, which the next pass finds
//     again. A game that ends is replaced off the timer.
//
// Autopilot is off, so that every pass makes the same moves rather than
// playing seats on autopilot to the end of their game.
func BenchmarkSweep(b *testing.B) {
	for _, games := range []int{1000, 100_000} {
		b.Run(fmt.Sprintf("games=%d", games), func(b *testing.B) {
			w := newSweepBench(b, games)
			b.Run("due=0", func(b *testing.B) {
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					made, err := w.svc.SweepDeadlines(context.Background())
					if err != nil || made != 0 {
						b.Fatalf("idle sweep made %d moves, err %v", made, err)
					}
				}
			})
			b.Run(fmt.Sprintf("due=%d", sweepDue), func(b *testing.B) {
				moves := 0
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					b.StopTimer()
					w.replaceEnded() // before the clock moves: a new game's deadline must pass too
					w.clock = w.clock.Add(w.svc.cfg.TurnTime + time.Minute)
					b.StartTimer()
					made, err := w.svc.SweepDeadlines(context.Background())
					if err != nil {
						b.Fatal(err)
					}
					if made < sweepDue {
						b.Fatalf("sweep made %d default moves, want at least %d", made, sweepDue)
					}
					moves += made
				}
				b.ReportMetric(float64(moves)/float64(b.N), "moves/op")
			})
		})
	}
}

// sweepDue is how many real games BenchmarkSweep's store holds, each
// with one seat whose deadline a pass finds passed.
const sweepDue = 10

// sweepBench is BenchmarkSweep's world: sweepDue real Felix games among
// filler games.
type sweepBench struct {
	*world
	real    []int64 // the real games, each one still being played
	started int     // real games started, for their players' names
}

// newSweepBench makes a sweepBench of games games in all.
func newSweepBench(b *testing.B, games int) *sweepBench {
	b.Helper()
	path := filepath.Join(b.TempDir(), "pbem.db")
	w := &sweepBench{world: newWorldAt(b, path, func(c *Config) {
		c.Limits = unlimited
		c.AutopilotAfter = 0
	})}
	for range sweepDue {
		w.real = append(w.real, w.startReal())
	}
	// The filler's every date is long after anything the benchmark's
	// clock reaches.
	quiet := w.clock.AddDate(20, 0, 0)
	if err := storetest.FillFile(context.Background(), path, games-sweepDue, w.clock, quiet); err != nil {
		b.Fatal(err)
	}
	return w
}

// startReal starts a real game among four players of its own.
func (w *sweepBench) startReal() int64 {
	w.t.Helper()
	var players []string
	for p := range 4 {
		players = append(players, fmt.Sprintf("s%d.%d@x.test", w.started, p))
	}
	w.started++
	_, id := w.startGame("felix", players...)
	return id
}

// replaceEnded starts a new real game for each that has ended, so that
// every pass finds sweepDue games waiting.
func (w *sweepBench) replaceEnded() {
	w.t.Helper()
	for i, id := range w.real {
		g, err := w.st.Game(context.Background(), id)
		if err != nil {
			w.t.Fatal(err)
		}
		if g.Status != store.StatusActive {
			w.real[i] = w.startReal()
		}
	}
}
