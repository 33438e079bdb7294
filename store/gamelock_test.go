package store

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pbem/pbem/store/storetest"
)

// TestWriteScopesComplete keeps the classification of Tx's write methods
// whole (gamelock.go): every exported method of Tx that is not a read
// has a scope, and every method of scopeGame or scopeShared checks it
// first thing (writesGame, writesShared). A new write method fails here
// until it is classified, so it cannot slip into a game's transaction
// unchecked.
func TestWriteScopesComplete(t *testing.T) {
	reads := map[string]bool{}
	rt := reflect.TypeOf(reader{})
	for i := range rt.NumMethod() {
		reads[rt.Method(i).Name] = true
	}
	txt := reflect.TypeOf(&Tx{})
	var own []string
	for i := range txt.NumMethod() {
		name := txt.Method(i).Name
		if reads[name] {
			continue
		}
		own = append(own, name)
		if _, ok := writeScopes[name]; !ok {
			t.Errorf("Tx.%s has no scope in writeScopes (gamelock.go): say what it writes", name)
		}
	}
	for name := range writeScopes {
		if !slices.Contains(own, name) {
			t.Errorf("writeScopes names %s, which is not a write method of Tx", name)
		}
	}

	// Each checked method calls its check in its first statement.
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	checked := map[string]string{} // method → the check its first statement calls
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range file.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || fn.Body == nil || len(fn.Body.List) == 0 {
				continue
			}
			if star, ok := fn.Recv.List[0].Type.(*ast.StarExpr); !ok || fmt.Sprint(star.X) != "Tx" {
				continue
			}
			ast.Inspect(fn.Body.List[0], func(n ast.Node) bool {
				if sel, ok := n.(*ast.SelectorExpr); ok && (sel.Sel.Name == "writesGame" || sel.Sel.Name == "writesShared") {
					checked[fn.Name.Name] = sel.Sel.Name
				}
				return true
			})
		}
	}
	for name, sc := range writeScopes {
		want := map[writeScope]string{scopeGame: "writesGame", scopeShared: "writesShared"}[sc]
		if checked[name] != want {
			t.Errorf("Tx.%s is classified %v but its first statement calls %q, not %q", name, sc, checked[name], want)
		}
	}
}

// TestGameTxEscalates: a game's transaction that makes a write of wider
// scope (a player's setting; another game's row) is run again under
// Store.Tx, and its effects are applied once.
func TestGameTxEscalates(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t)
	a := newGame(t, s, "ann@example.org", "bob@example.org")
	b := newGame(t, s, "cid@example.org", "dan@example.org")
	for _, tc := range []struct {
		name  string
		wider func(tx *Tx) error
	}{
		{"a player's setting", func(tx *Tx) error { return tx.SetPlayerName(ctx, "ann@example.org", "Ann") }},
		{"another game", func(tx *Tx) error { return tx.SetSeatMissed(ctx, b, 0, 1) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := len(mustMoves(t, s, a))
			var runs, scoped int
			err := s.GameTx(ctx, a, func(tx *Tx) error {
				runs++
				if tx.game != 0 {
					scoped++
				}
				if _, err := tx.AppendMove(ctx, a, Move{Seat: 0, Command: "pass", Source: "mail", At: t0}); err != nil {
					return err
				}
				return tc.wider(tx)
			})
			if err != nil {
				t.Fatalf("GameTx: %v", err)
			}
			if runs != 2 || scoped != 1 {
				t.Errorf("fn ran %d times, %d of them scoped to the game; want twice, once scoped (then escalated)", runs, scoped)
			}
			if got := len(mustMoves(t, s, a)) - before; got != 1 {
				t.Errorf("%d moves appended, want 1: the scoped attempt must leave nothing", got)
			}
		})
	}

	// A write of the game's own rows, and what commutes, stay scoped.
	runs := 0
	err := s.GameTx(ctx, a, func(tx *Tx) error {
		runs++
		if _, err := tx.Spend(ctx, "bob@example.org", "test", t0, time.Hour, 5); err != nil {
			return err
		}
		if _, err := tx.UpsertPlayer(ctx, "eve@example.org", ""); err != nil {
			return err
		}
		return tx.SetSeatMissed(ctx, a, 1, 1)
	})
	if err != nil || runs != 1 {
		t.Errorf("GameTx of the game's own writes: err %v, ran %d times; want nil, once", err, runs)
	}

	// A game that does not exist is left to Store.Tx.
	err = s.GameTx(ctx, 1_000_000, func(tx *Tx) error { return tx.writesShared() })
	if err != nil {
		t.Errorf("GameTx of a game that does not exist: %v", err)
	}
}

func mustMoves(t *testing.T, s *Store, game int64) []Move {
	t.Helper()
	m, err := s.Moves(context.Background(), game, 0)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// waitFor waits until ch is closed, failing the test if that takes
// longer than a generous bound: the event did not happen, because
// something blocks it.
func waitFor(t *testing.T, ch <-chan struct{}, what string) bool {
	t.Helper()
	select {
	case <-ch:
		return true
	case <-time.After(10 * time.Second):
		t.Errorf("%s did not happen", what)
		return false
	}
}

// TestGameTxGamesAtOnce: the transactions of two games run at once on
// PostgreSQL: each waits, inside, for the other to be inside too, which
// under one exclusive lock never happens.
func TestGameTxGamesAtOnce(t *testing.T) {
	postgresOnly(t)
	ctx := context.Background()
	s, _ := newStore(t)
	games := []int64{newGame(t, s, "ann@example.org"), newGame(t, s, "bob@example.org")}
	inside := []chan struct{}{make(chan struct{}), make(chan struct{})}
	var wg sync.WaitGroup
	for i, g := range games {
		wg.Add(1)
		go func() {
			defer wg.Done()
			first := true
			err := s.GameTx(ctx, g, func(tx *Tx) error {
				if first {
					first = false
					close(inside[i])
					waitFor(t, inside[1-i], fmt.Sprintf("game %d's transaction beside game %d's", games[1-i], g))
				}
				_, err := tx.AppendMove(ctx, g, Move{Seat: 0, Command: "pass", Source: "mail", At: t0})
				return err
			})
			if err != nil {
				t.Errorf("GameTx %d: %v", g, err)
			}
		}()
	}
	wg.Wait()
}

// TestGameTxOneGameInOrder: the transactions of one game run one after
// the other, in the order they asked for the game. (On SQLite they wait
// for the one write connection, which database/sql does not promise to
// hand out in order; the daemon hands them over in order itself.)
func TestGameTxOneGameInOrder(t *testing.T) {
	postgresOnly(t)
	ctx := context.Background()
	s, _ := newStore(t)
	g := newGame(t, s, "ann@example.org")
	const n = 4
	var (
		mu      sync.Mutex
		order   []int
		busy    atomic.Int32
		overlap atomic.Bool
		holder  int32 // the server process of transaction 0
	)
	hold := make(chan struct{})
	release := sync.OnceFunc(func() { close(hold) })
	defer release() // a failing test lets the first transaction end too
	entered := make(chan struct{})
	var wg sync.WaitGroup
	run := func(i int) {
		defer wg.Done()
		err := s.GameTx(ctx, g, func(tx *Tx) error {
			if busy.Add(1) > 1 {
				overlap.Store(true)
			}
			defer busy.Add(-1)
			if i == 0 {
				if err := tx.q.QueryRowContext(ctx, `SELECT pg_backend_pid()`).Scan(&holder); err != nil {
					return err
				}
				close(entered)
				<-hold
			}
			mu.Lock()
			order = append(order, i)
			mu.Unlock()
			_, err := tx.AppendMove(ctx, g, Move{Seat: 0, Command: fmt.Sprint("pass ", i), Source: "mail", At: t0})
			return err
		})
		if err != nil {
			t.Errorf("GameTx %d: %v", i, err)
		}
	}
	wg.Add(1)
	go run(0)
	waitFor(t, entered, "the first transaction")
	for i := 1; i < n; i++ {
		wg.Add(1)
		go run(i)
		// The next asks only once this one waits for the game.
		waitWaiting(t, s, holder, i)
	}
	release()
	wg.Wait()
	if overlap.Load() {
		t.Error("two transactions of one game ran at once")
	}
	if !slices.Equal(order, []int{0, 1, 2, 3}) {
		t.Errorf("transactions ran in the order %v, want the order they asked: 0 1 2 3", order)
	}
}

// waitWaiting waits until n transactions wait, directly or behind
// another, for the one of the server process holder, as PostgreSQL's
// pg_blocking_pids shows them (tests of other packages may wait for
// locks of their own on the same server meanwhile).
func waitWaiting(t *testing.T, s *Store, holder int32, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		rows, err := s.r.QueryContext(context.Background(),
			`SELECT pid, array_to_string(pg_blocking_pids(pid), ' ') FROM pg_stat_activity WHERE wait_event_type = 'Lock'`)
		if err != nil {
			t.Fatal(err)
		}
		blockers := map[int32][]int32{}
		for rows.Next() {
			var pid int32
			var list string
			if err := rows.Scan(&pid, &list); err != nil {
				t.Fatal(err)
			}
			for _, f := range strings.Fields(list) {
				var b int32
				fmt.Sscan(f, &b)
				blockers[pid] = append(blockers[pid], b)
			}
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		rows.Close()
		behind := map[int32]bool{holder: true}
		for grew := true; grew; {
			grew = false
			for pid, by := range blockers {
				if !behind[pid] && slices.ContainsFunc(by, func(b int32) bool { return behind[b] }) {
					behind[pid], grew = true, true
				}
			}
		}
		if len(behind)-1 >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d transactions wait for the game, want %d", len(behind)-1, n)
		}
		time.Sleep(time.Millisecond) // polling the server's own state: there is no event to wait for
	}
}

// TestGameTxBudget: game transactions of different games that all mail
// one address, at once, never take more than its budget.
func TestGameTxBudget(t *testing.T) {
	postgresOnly(t)
	ctx := context.Background()
	s, _ := newStore(t)
	const n, budget = 6, 2
	var games []int64
	for i := range n {
		games = append(games, newGame(t, s, fmt.Sprintf("p%d@example.org", i)))
	}
	var (
		wg      sync.WaitGroup
		arrived sync.WaitGroup
		spent   atomic.Int32
	)
	all := make(chan struct{})
	arrived.Add(n)
	go func() { arrived.Wait(); close(all) }()
	for _, g := range games {
		wg.Add(1)
		go func() {
			defer wg.Done()
			first := true
			var ok bool
			err := s.GameTx(ctx, g, func(tx *Tx) error {
				if first {
					// Every transaction is inside before any counts.
					first = false
					arrived.Done()
					waitFor(t, all, "every game's transaction inside at once")
				}
				var err error
				ok, err = tx.Spend(ctx, "bob@example.org", "out", t0, time.Hour, budget)
				return err
			})
			if err != nil {
				t.Errorf("GameTx %d: %v", g, err)
			}
			if ok {
				spent.Add(1)
			}
		}()
	}
	wg.Wait()
	if got := spent.Load(); got != budget {
		t.Errorf("%d units spent from a budget of %d", got, budget)
	}
	if got := count(t, s, "budget"); got != budget {
		t.Errorf("%d budget rows, want %d", got, budget)
	}
}

// TestGameTxDeadlockRetried: two game transactions that take two
// addresses' locks in opposite orders deadlock; PostgreSQL ends one,
// and GameTx runs it again: both commit.
func TestGameTxDeadlockRetried(t *testing.T) {
	postgresOnly(t)
	ctx := context.Background()
	s, _ := newStore(t)
	games := []int64{newGame(t, s, "ann@example.org"), newGame(t, s, "bob@example.org")}
	addrs := []string{"x@example.org", "y@example.org"}
	var wg, locked sync.WaitGroup
	both := make(chan struct{})
	locked.Add(2)
	go func() { locked.Wait(); close(both) }()
	var runs atomic.Int32
	for i, g := range games {
		wg.Add(1)
		go func() {
			defer wg.Done()
			first := true
			err := s.GameTx(ctx, g, func(tx *Tx) error {
				runs.Add(1)
				if _, err := tx.Spend(ctx, addrs[i], "out", t0, time.Hour, 10); err != nil {
					return err
				}
				if first {
					first = false
					locked.Done()
					waitFor(t, both, "both transactions holding their first address")
				}
				_, err := tx.Spend(ctx, addrs[1-i], "out", t0, time.Hour, 10)
				return err
			})
			if err != nil {
				t.Errorf("GameTx %d: %v", g, err)
			}
		}()
	}
	wg.Wait()
	if got := runs.Load(); got != 3 {
		t.Errorf("the functions ran %d times, want 3: one of the two again after the deadlock", got)
	}
	if got := count(t, s, "budget"); got != 4 {
		t.Errorf("%d budget rows, want 4", got)
	}
}

// TestGameTxUnlessBusy: a sweep's transaction skips a game another
// transaction holds, without running, and runs once it is free.
func TestGameTxUnlessBusy(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t)
	g := newGame(t, s, "ann@example.org")
	if s.Engine() == PostgreSQL {
		inside, done, ended := make(chan struct{}), make(chan struct{}), make(chan struct{})
		go func() {
			defer close(ended)
			s.GameTx(ctx, g, func(tx *Tx) error {
				close(inside)
				<-done
				return nil
			})
		}()
		waitFor(t, inside, "the holding transaction")
		ran, err := s.GameTxUnlessBusy(ctx, g, func(tx *Tx) error {
			t.Error("fn ran while the game was held")
			return nil
		})
		close(done)
		if ran || err != nil {
			t.Errorf("GameTxUnlessBusy of a held game: ran %v, err %v; want false, nil", ran, err)
		}
		waitFor(t, ended, "the holding transaction's end")
	}
	runs := 0
	ran, err := s.GameTxUnlessBusy(ctx, g, func(tx *Tx) error {
		runs++
		return tx.SetSeatMissed(ctx, g, 0, 2)
	})
	if !ran || err != nil || runs != 1 {
		t.Errorf("GameTxUnlessBusy of a free game: ran %v (%d times), err %v", ran, runs, err)
	}
	// A wider write escalates as in GameTx.
	ran, err = s.GameTxUnlessBusy(ctx, g, func(tx *Tx) error { return tx.SetPlayerName(ctx, "ann@example.org", "Ann") })
	if !ran || err != nil {
		t.Errorf("GameTxUnlessBusy escalated: ran %v, err %v", ran, err)
	}
	if p, _ := s.Player(ctx, "ann@example.org"); p.Name != "Ann" {
		t.Errorf("the escalated write was not applied: name %q", p.Name)
	}
}

func postgresOnly(t *testing.T) {
	t.Helper()
	if !storetest.OnPostgres() {
		t.Skip("runs on PostgreSQL: set " + storetest.PostgresEnv)
	}
}

// TestCommuteTxBesideGame: the outbox's transaction (CommuteTx) runs
// while a game's transaction is open, on PostgreSQL; under Store.Tx,
// which takes pbem's lock exclusive, it would wait for the game's to end
// and this test would time out.
func TestCommuteTxBesideGame(t *testing.T) {
	postgresOnly(t)
	ctx := context.Background()
	s, _ := newStore(t)
	g := newGame(t, s, "ann@example.org")
	gameIn, commuted := make(chan struct{}), make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		first := true
		err := s.GameTx(ctx, g, func(tx *Tx) error {
			if first {
				first = false
				close(gameIn)
				waitFor(t, commuted, "the outbox's transaction to commit beside the game's")
			}
			_, err := tx.AppendMove(ctx, g, Move{Seat: 0, Command: "pass", Source: "mail", At: t0})
			return err
		})
		if err != nil {
			t.Errorf("GameTx: %v", err)
		}
	}()
	waitFor(t, gameIn, "the game's transaction to begin")
	err := s.CommuteTx(ctx, func(tx *Tx) error {
		_, _, err := tx.Enqueue(ctx, Outgoing{MessageID: "<beside@pbem>", To: "ann@example.org", Raw: []byte("x"), NotBefore: t0, Seat: -1})
		return err
	})
	if err != nil {
		t.Errorf("CommuteTx: %v", err)
	}
	close(commuted)
	wg.Wait()
}

// TestCommuteTxEscalates: a write of a game's rows or of shared state in
// a CommuteTx runs the function again under Store.Tx, and its effect is
// applied once; a write that commutes stays in the CommuteTx. On either
// engine.
func TestCommuteTxEscalates(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t)
	g := newGame(t, s, "ann@example.org")
	for _, tc := range []struct {
		name     string
		write    func(tx *Tx) error
		wantRuns int
	}{
		{"the outbox", func(tx *Tx) error {
			_, _, err := tx.Enqueue(ctx, Outgoing{MessageID: "<commute@pbem>", To: "ann@example.org", Raw: []byte("x"), NotBefore: t0, Seat: -1})
			return err
		}, 1},
		{"a game's rows", func(tx *Tx) error {
			_, err := tx.AppendMove(ctx, g, Move{Seat: 0, Command: "pass", Source: "mail", At: t0})
			return err
		}, 2},
		{"a player's setting", func(tx *Tx) error {
			_, err := tx.AppendMove(ctx, g, Move{Seat: 0, Command: "pass", Source: "mail", At: t0})
			if err != nil {
				return err
			}
			return tx.SetPlayerName(ctx, "ann@example.org", "Ann")
		}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := len(mustMoves(t, s, g))
			var runs, scoped int
			err := s.CommuteTx(ctx, func(tx *Tx) error {
				runs++
				if tx.LockedGame() == noGame {
					scoped++
				}
				return tc.write(tx)
			})
			if err != nil {
				t.Fatalf("CommuteTx: %v", err)
			}
			if runs != tc.wantRuns || scoped != 1 {
				t.Errorf("fn ran %d times, %d of them in the outbox's scope; want %d, once scoped", runs, scoped, tc.wantRuns)
			}
			want := 0
			if tc.wantRuns == 2 {
				want = 1
			}
			if got := len(mustMoves(t, s, g)) - before; got != want {
				t.Errorf("%d moves appended, want %d: the scoped attempt must leave nothing", got, want)
			}
		})
	}
}
