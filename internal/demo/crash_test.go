package demo

import (
	"context"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pbem/pbem/store/storetest"
)

// TestCrashSIGKILL plays a whole Felix game while the daemon, the real
// pbem binary running as a child process against embedded mail servers
// in this process, is killed with SIGKILL at random moments and started
// again. The players keep mailing all the while. Afterwards
// (checkExactlyOnce, shared with the fault tests):
//
//   - the game is finished and its export replays to the stored state and
//     event log (checkReplay);
//   - every mail a player sent is recorded in the inbound table exactly
//     once, and there is no other inbound record;
//   - the moves, in order, are exactly the commands of the mails recorded
//     as applied, in the order they were recorded, each by its sender's
//     seat: every player mail carries one command, so each applied mail
//     made exactly one move: none lost, none applied twice;
//   - every mail in a player's inbox is an outbox row addressed to him,
//     every row marked sent is there, and the only repeated Message-IDs
//     are re-sends of mails whose SMTP delivery a kill interrupted, at
//     most one batch per kill (resendBound).
//
// The child is the binary `go build` makes of ./cmd/pbem, configured only
// through PBEM_* variables, so the test exercises what an operator runs:
// configuration, store, inbox, sender and daemon, with nothing shared in
// memory with the test. It is built without -race even when the test
// runs with it: the race detector slows the daemon's start and work so
// much that most lives would end before the first mail; the daemon's own
// tests run with -race.
func TestCrashSIGKILL(t *testing.T) {
	ctx := context.Background()
	seed := crashSeed(t)
	t.Logf("seed %d (set PBEM_CRASH_SEED to repeat the players' choices and the kill times)", seed)
	begin := time.Now()
	bin := buildPbem(t)
	t.Logf("built the pbem binary in %s", time.Since(begin).Round(time.Millisecond))

	w, err := Start(ctx, Options{Seed: seed, NoService: true})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	dir := t.TempDir()
	db := storetest.Database(t)
	d := newDaemonProc(t, bin, dir, childVars(w, db, nil))
	defer d.close()
	d.start()

	// The killer: SIGKILL every 0.2 to 0.9 s, then start again at once or
	// after a short pause, until the game is over. A game takes about 10 s
	// with its restarts: about 18 kills, so that the check for at least 8
	// below does not fail by chance (0.3 to 1.2 s gave 8 in 5 of 62 runs).
	stopKilling := make(chan struct{})
	var kills int
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		rng := rand.New(rand.NewPCG(seed, 5))
		for {
			select {
			case <-stopKilling:
				return
			case <-time.After(200*time.Millisecond + time.Duration(rng.Int64N(int64(700*time.Millisecond)))):
			}
			d.kill()
			kills++
			time.Sleep(time.Duration(rng.Int64N(int64(200 * time.Millisecond))))
			d.start()
		}
	}()
	players := []string{w.Player("alice"), w.Player("bob"), w.Player("carol"), w.Player("dave")}
	playStart := time.Now()
	playCtx, cancelPlay := context.WithCancel(ctx)
	defer cancelPlay()
	go func() {
		select {
		case <-d.dead:
			cancelPlay()
		case <-playCtx.Done():
		}
	}()
	g, playErr := w.Play(playCtx, "felix", players, 4*time.Minute)
	close(stopKilling)
	wg.Wait()
	t.Logf("the game took %s with %d kills", time.Since(playStart).Round(time.Millisecond), kills)
	if playErr != nil {
		t.Fatalf("after %d kills: %v\nthe daemon's log ends:\n%s", kills, playErr, d.logTail())
	}
	if kills < 8 {
		t.Fatalf("the game was over after only %d kills; the test wants at least 8 to mean something", kills)
	}

	// Let the last daemon send what is left, stop it gracefully, and
	// check that every command was taken once and every mail delivered.
	rep := checkExactlyOnce(t, ctx, w, d, db, players, g, false)
	if rep.resent > resendBound(kills) {
		t.Errorf("%d mails arrived twice with %d kills: more than one batch re-sent per kill (%d)", rep.resent, kills, resendBound(kills))
	}
	t.Logf("%d kills, %d starts, %d player mails taken once each, %d moves, %d outbox mails, %d re-sent after a kill; %s in all",
		kills, d.starts, rep.taken, rep.moves, rep.outbox, rep.resent, time.Since(begin).Round(time.Millisecond))
	if t.Failed() {
		t.Logf("the daemon's log ends:\n%s", d.logTail())
	}
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return strings.TrimSpace(l)
}
