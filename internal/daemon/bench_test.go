package daemon

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pbem/pbem/engine/games"
	"github.com/pbem/pbem/templates"

	"github.com/pbem/pbem/mailer"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/store/storetest"
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
//
// statements/op is how many statements the store ran per command
// (store.Counts), and on PostgreSQL round-trips/op how many round trips
// to the server they took: issue 40's measure of what a command costs the
// database, which TestStatementsPerCommand pins.
func BenchmarkCommandMail(b *testing.B) {
	w := newWorld(b)
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test", "dave@x.test"}
	rng := rand.New(rand.NewPCG(1, 2))
	reply, id := w.startGame("felix", players...)
	server := newServerMeter(w.st)
	var cpu, srv time.Duration
	var stmts, trips int64 // the store's statements and round trips (store.Counts)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		tb := w.loaded(id)
		if tb.State.Result().Finished {
			reply, id = w.startGame("felix", players...)
			tb = w.loaded(id)
		}
		p := tb.State.Waiting()[0]
		var cmds []string
		for _, o := range tb.State.Options(p) {
			cmds = append(cmds, o.Commands...)
		}
		w.uid++
		// Labelled as every mail program labels its text.
		raw := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: Re: Felix\r\nMessage-ID: <b%d@x.test>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n\r\n> quoted mail\r\n", players[p], reply[players[p]], w.uid, cmds[rng.IntN(len(cmds))])
		srvBefore := server.cpu(b)
		before, counts := processCPU(b), w.st.Counts()
		b.StartTimer()
		if err := w.svc.HandleMail(context.Background(), mailer.Message{Mailbox: "INBOX", UIDValidity: 1, UID: w.uid, Raw: []byte(raw)}); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		cpu += processCPU(b) - before
		srv += server.cpu(b) - srvBefore
		after := w.st.Counts()
		stmts += after.Statements - counts.Statements
		trips += after.RoundTrips - counts.RoundTrips
		b.StartTimer()
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "commands/s")
	b.ReportMetric(float64(cpu)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(stmts)/float64(b.N), "statements/op")
	if w.st.Engine() == store.PostgreSQL {
		b.ReportMetric(float64(trips)/float64(b.N), "round-trips/op")
		if srv > 0 {
			b.ReportMetric(float64(srv)/float64(time.Millisecond)/float64(b.N), "server-cpu-ms/op")
		}
	}
}

// serverMeter reads the CPU time the PostgreSQL servers on this
// machine have used so far: each postmaster's and its children's
// schedstat (nanoseconds, where /proc's stat counts ticks of 10 ms).
// Issue 40 weighs pbem and its server together, and a command run alone,
// one after the other, gives a figure of the server's work that the
// load's changing batches do not blur. It reads nothing on SQLite, or
// where no server is visible (one on another machine).
type serverMeter struct {
	postmasters []string // their pids, found once
}

func newServerMeter(st *store.Store) *serverMeter {
	m := &serverMeter{}
	if st.Engine() != store.PostgreSQL {
		return m
	}
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		if procComm(d.Name()) != "postgres" {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", d.Name(), "stat"))
		if err != nil {
			continue
		}
		// The parent's pid is the second field after the command's
		// closing parenthesis.
		f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		if len(f) > 1 && procComm(f[1]) != "postgres" {
			m.postmasters = append(m.postmasters, d.Name())
		}
	}
	return m
}

// procComm is the command name of process pid, or "" when it is gone.
func procComm(pid string) string {
	if pid == "" || pid[0] < '0' || pid[0] > '9' {
		return ""
	}
	comm, err := os.ReadFile(filepath.Join("/proc", pid, "comm"))
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(comm))
}

// cpu is the servers' CPU time so far, 0 when there are none.
func (m *serverMeter) cpu(b *testing.B) time.Duration {
	var sum time.Duration
	for _, pm := range m.postmasters {
		children, _ := os.ReadFile(filepath.Join("/proc", pm, "task", pm, "children"))
		for _, pid := range append(strings.Fields(string(children)), pm) {
			stat, err := os.ReadFile(filepath.Join("/proc", pid, "schedstat"))
			if err != nil {
				continue // ended: a backend that disconnected
			}
			f := strings.Fields(string(stat))
			if len(f) == 0 {
				continue
			}
			ns, err := strconv.ParseInt(f[0], 10, 64)
			if err != nil {
				b.Fatalf("schedstat of %s: %q", pid, stat)
			}
			sum += time.Duration(ns)
		}
	}
	return sum
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
// (sweeps.Sweeper.SweepDeadlines) in a store of 1,000 and of 100,000 games, to show
// that its time depends on the work due, not on the number of games
// (issue 14; store/sweepplan_test.go checks the plans that make
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
			b.Run("due=0", w.benchIdleSweep)
			b.Run(fmt.Sprintf("due=%d", sweepDue), w.benchDueSweep)
		})
	}
}

// benchIdleSweep times passes of the sweep with nothing due.
func (w *sweepBench) benchIdleSweep(b *testing.B) {
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		made, err := w.svc.Sweeper().SweepDeadlines(context.Background())
		if err != nil || made != 0 {
			b.Fatalf("idle sweep made %d moves, err %v", made, err)
		}
	}
}

// benchDueSweep times passes of the sweep that each find every real
// game's waiting seats past their deadlines.
func (w *sweepBench) benchDueSweep(b *testing.B) {
	moves := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		w.replaceEnded() // before the clock moves: a new game's deadline must pass too
		w.clock = w.clock.Add(w.svc.cfg.TurnTime + time.Minute)
		b.StartTimer()
		made, err := w.svc.Sweeper().SweepDeadlines(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		if made < sweepDue {
			b.Fatalf("sweep made %d default moves, want at least %d", made, sweepDue)
		}
		moves += made
	}
	b.ReportMetric(float64(moves)/float64(b.N), "moves/op")
}

// sweepDue is how many real games BenchmarkSweep's store holds, each
// with one seat whose deadline a pass finds passed.
const sweepDue = 10

// sweepBench is BenchmarkSweep's world: sweepDue real Felix games among
// filler games.
type sweepBench struct {
	*world
	path    string
	real    []int64 // the real games, each one still being played
	started int     // real games started, for their players' names
	// players and replies of each real game: its players' addresses
	// in seat order, and the address each of them replies to.
	players map[int64][]string
	replies map[int64]map[string]string
}

// newSweepBench makes a sweepBench of games games in all.
func newSweepBench(b *testing.B, games int) *sweepBench {
	b.Helper()
	path := filepath.Join(b.TempDir(), "pbem.db")
	w := &sweepBench{world: newWorldAt(b, path, func(c *Config) {
		c.Limits = unlimited
		c.AutopilotAfter = 0
		// The fixed default move, as when BENCHMARKS.md's "Sweep"
		// figures were taken: this measures the sweep, and
		// BenchmarkBotSeat measures what pbem's bot costs a move.
		c.DefaultPlayer = DefaultPlayerSimple
	}), path: path, players: map[int64][]string{}, replies: map[int64]map[string]string{}}
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
	reply, id := w.startGame("felix", players...)
	w.players[id], w.replies[id] = players, reply
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

// BenchmarkScale measures, in stores of 1,000, 10,000 and 100,000 games,
// what issue 15 asks to stay flat as the games add up: one command mail,
// the idle sweep, a sweep with sweepDue games due, and start-up. Each
// store is a sweepBench (sweepDue real Felix games played through the
// mail loop among filler games with their history, storetest.Fill),
// built once per size, off the timer. The 1,000 figures are the
// baseline; the target is the command and the sweeps at 100,000 within
// 1.5 times of it.
//
// Besides the times, startup reports the growth of the process's
// resident memory over start-up and a hundred commands (rss-growth-MB)
// and the database's size per game (bytes/game); the size of a real
// finished game is BenchmarkRetention's.
//
// It fills 111,000 games, which takes minutes: run it on its own, with a
// small -benchtime (BENCHMARKS.md).
func BenchmarkScale(b *testing.B) {
	for _, n := range []int{1000, 10_000, 100_000} {
		b.Run(fmt.Sprintf("games=%d", n), func(b *testing.B) {
			w := newSweepBench(b, n)
			b.Run("command", w.benchCommand)
			b.Run("sweep-idle", w.benchIdleSweep)
			b.Run(fmt.Sprintf("sweep-due=%d", sweepDue), w.benchDueSweep)
			b.Run("startup", func(b *testing.B) { w.benchStartup(b, n) })
		})
	}
}

// benchCommand times one legal command mail of a player of a real game
// through HandleMail: the whole turn loop, to the durable commit of the
// move and its mails.
func (w *sweepBench) benchCommand(b *testing.B) {
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		m := w.nextCommand()
		b.StartTimer()
		if err := w.svc.HandleMail(ctx, m); err != nil {
			b.Fatal(err)
		}
	}
}

// benchStartup times what `pbem serve` does with the database before it
// takes mail (cmd/pbem/serve.go): open the store (checking its schema),
// make the service, and the first passes of what Run starts at once
// (a retention pass; the deadline sweep, here run at once rather than
// at the next minute). A second store on the same file, as a restarted
// process would open it, beside the world's.
func (w *sweepBench) benchStartup(b *testing.B, n int) {
	ctx := context.Background()
	r, err := templates.New(games.All())
	if err != nil {
		b.Fatal(err)
	}
	runtime.GC()
	rssBefore := rssBytes(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		st, err := store.Open(ctx, w.path)
		if err != nil {
			b.Fatal(err)
		}
		cfg := w.svc.cfg
		svc, err := New(cfg, st, r, games.Lookup, games.Names(), WithClock(func() time.Time { return w.clock }),
			WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := svc.Sweeper().Retain(ctx, cfg.RetainMail); err != nil {
			b.Fatal(err)
		}
		if _, err := svc.Sweeper().SweepDeadlines(ctx); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if err := st.Close(); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	b.StopTimer()

	// Memory: start-up once more, then a hundred commands on it, as
	// serving begins; the growth is the process's resident memory
	// beyond what it held before (the world's own store included).
	for range 100 {
		if err := w.svc.HandleMail(ctx, w.nextCommand()); err != nil {
			b.Fatal(err)
		}
	}
	runtime.GC()
	b.ReportMetric(float64(rssBytes(b)-rssBefore)/(1<<20), "rss-growth-MB")

	size, err := w.st.FileBytes(ctx)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(size)/float64(n), "bytes/game")
}

// nextCommand is the mail of a legal command of the next real game's
// waiting player, in turn.
func (w *sweepBench) nextCommand() mailer.Message {
	w.t.Helper()
	w.replaceEnded()
	id := w.real[int(w.uid)%len(w.real)]
	p := w.loaded(id).State.Waiting()[0]
	from := w.players[id][p]
	w.uid++
	raw := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: Re: Felix\r\nMessage-ID: <scale%d@x.test>\r\n\r\n%s\r\n",
		from, w.replies[id][from], w.uid, w.legal(id, p))
	return mailer.Message{Mailbox: "INBOX", UIDValidity: 1, UID: w.uid, Raw: []byte(raw)}
}

// rssBytes is the process's resident memory, from /proc/self/status.
func rssBytes(b *testing.B) int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		b.Skipf("no /proc: %v", err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				b.Fatal(err)
			}
			return kb << 10
		}
	}
	b.Fatal("no VmRSS in /proc/self/status")
	return 0
}

// BenchmarkCommandBatch measures group commit: one legal command mail in
// each of 16 games, handed over as the inbox hands mail that arrived
// together (HandleBatch, one transaction and one fsync for all 16), and,
// as the baseline measured in the same run, the same mails one at a time
// (HandleMail, a transaction each). commands/s and cpu-ms per command
// compare the two.
//
// As BenchmarkCommandMail, it reports the store's statements per
// command and, on PostgreSQL, its round trips and the server's CPU per
// command (serverMeter): a batch of several games' mail is what a load
// hands pbem, and what a command costs the server there is issue 40's
// measure of PostgreSQL against SQLite, which this shows without the
// load's noise (docs/profiles.md, twentieth sitting).
func BenchmarkCommandBatch(b *testing.B) {
	const games = 16
	for _, mode := range []string{"one-by-one", fmt.Sprintf("batch=%d", games)} {
		b.Run(mode, func(b *testing.B) {
			w := newWorld(b)
			type table struct {
				id      int64
				players []string
				reply   map[string]string
			}
			var tables []table
			newTable := func(i int) table {
				ps := []string{fmt.Sprintf("a%d@x.test", i), fmt.Sprintf("b%d@y.test", i), fmt.Sprintf("c%d@z.test", i), fmt.Sprintf("d%d@x.test", i)}
				reply, id := w.startGame("felix", ps...)
				return table{id, ps, reply}
			}
			for i := range games {
				tables = append(tables, newTable(i))
			}
			server := newServerMeter(w.st)
			var cpu, srv time.Duration
			var stmts, trips int64
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				msgs := make([]mailer.Message, 0, games)
				for k := range tables {
					if w.loaded(tables[k].id).State.Result().Finished {
						tables[k] = newTable(k)
					}
					tb := tables[k]
					p := w.loaded(tb.id).State.Waiting()[0]
					w.uid++
					raw := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: Re: Felix\r\nMessage-ID: <batch%d@x.test>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n",
						tb.players[p], tb.reply[tb.players[p]], w.uid, w.legal(tb.id, p))
					msgs = append(msgs, mailer.Message{Mailbox: "INBOX", UIDValidity: 1, UID: w.uid, Raw: []byte(raw)})
				}
				srvBefore := server.cpu(b)
				before, counts := processCPU(b), w.st.Counts()
				b.StartTimer()
				if mode == "one-by-one" {
					for _, m := range msgs {
						if err := w.svc.HandleMail(context.Background(), m); err != nil {
							b.Fatal(err)
						}
					}
				} else if n, err := w.svc.HandleBatch(context.Background(), msgs); err != nil || n != len(msgs) {
					b.Fatalf("HandleBatch took %d of %d: %v", n, len(msgs), err)
				}
				b.StopTimer()
				cpu += processCPU(b) - before
				srv += server.cpu(b) - srvBefore
				after := w.st.Counts()
				stmts += after.Statements - counts.Statements
				trips += after.RoundTrips - counts.RoundTrips
				w.flush()
				b.StartTimer()
			}
			commands := float64(b.N * games)
			b.ReportMetric(commands/b.Elapsed().Seconds(), "commands/s")
			b.ReportMetric(float64(cpu)/float64(time.Millisecond)/commands, "cpu-ms/command")
			b.ReportMetric(float64(stmts)/commands, "statements/command")
			if w.st.Engine() == store.PostgreSQL {
				b.ReportMetric(float64(trips)/commands, "round-trips/command")
				if srv > 0 {
					b.ReportMetric(float64(srv)/float64(time.Millisecond)/commands, "server-cpu-ms/command")
				}
			}
		})
	}
}

// BenchmarkBotSeat measures a person's command mail in a Felix game of
// two people and a bot, through the whole turn loop as
// BenchmarkCommandMail does: the bot's moves that the command brings on
// are made in the same transaction, so they are part of the op. The
// baseline, in the same run, is the same command in a game of three
// people ("people"), where nothing moves but the sender's command.
// cpu-ms/op is the process's CPU time per person's command; bot-moves/op
// how many bot moves each command brought on.
func BenchmarkBotSeat(b *testing.B) {
	for _, with := range []string{"people", "a normal bot", "a strong bot"} {
		b.Run(strings.ReplaceAll(with, " ", "-"), func(b *testing.B) {
			w := newWorldConfig(b, func(c *Config) { c.Limits = unlimited })
			people := []string{"alice@x.test", "bob@y.test"}
			start := func() (map[string]string, int64) {
				if with == "people" {
					return w.startGame("felix", append(people, "carol@z.test")...)
				}
				return w.botGame("felix", people[1]+" and "+with, people...)
			}
			all := append(people, "carol@z.test")
			reply, id := start()
			rng := rand.New(rand.NewPCG(1, 2))
			var cpu time.Duration
			botMoves := 0
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				tb := w.loaded(id)
				if tb.State.Result().Finished {
					reply, id = start()
					tb = w.loaded(id)
				}
				p := tb.State.Waiting()[0]
				var cmds []string
				for _, o := range tb.State.Options(p) {
					cmds = append(cmds, o.Commands...)
				}
				before := tb.Row.LastSeq
				w.uid++
				raw := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: Re: Felix\r\nMessage-ID: <bot%d@x.test>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n", all[p], reply[all[p]], w.uid, cmds[rng.IntN(len(cmds))])
				cpuBefore := processCPU(b)
				b.StartTimer()
				if err := w.svc.HandleMail(context.Background(), mailer.Message{Mailbox: "INBOX", UIDValidity: 1, UID: w.uid, Raw: []byte(raw)}); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				cpu += processCPU(b) - cpuBefore
				if with != "people" {
					botMoves += int(w.loaded(id).Row.LastSeq-before) - 1
				}
				b.StartTimer()
			}
			b.ReportMetric(float64(cpu)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
			b.ReportMetric(float64(botMoves)/float64(b.N), "bot-moves/op")
		})
	}
}
