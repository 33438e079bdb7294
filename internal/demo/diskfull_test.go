//go:build faults

package demo

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The disk-full test fills a real disk under the real binary: pbem's
// database lives on a small tmpfs, which a game's outbox (whole mails of
// some 20 kB, four or five per move) fills part way through. It needs
// root to mount, so it is a fault test (-tags faults, docs/faults.md),
// not part of `go test ./...`.

// diskFullSize is the tmpfs's size while the game fills it. Measured: a
// Felix game of four players leaves some 12 MB on the tmpfs, database and
// WAL together (about 400 outbox mails); the WAL alone grows to some 4 MB
// between checkpoints, so 2 or 3 MB fill within the first 15 player
// mails. 6 MB fills after about 30 of the game's 110 or so player mails
// and 95 of its 390 or so sent: the outage meets mail coming in and mail
// going out, with most of the game still to play after it.
// PBEM_DISKFULL_SIZE overrides it (mount's size= syntax: 3m, 4096k).
const diskFullSize = "6m"

// diskGrownSize is the tmpfs's size once the outage is over: room enough
// for the rest of the game.
const diskGrownSize = "64m"

// failedTries is how many failed tries to write (of the outbox, which
// backs off from one second, doubling, or of the inbox, every 10 s) the
// test waits for while the disk is full. Which loop meets the full disk
// depends on the game: when every player waits for an answer the inbox
// cannot record, the outbox has nothing to send and never fails.
const failedTries = 4

// diskFullLog is what SQLite says when a write finds no room; the
// daemon's log carries it in every failed try.
const diskFullLog = "database or disk is full"

// TestDiskFull plays a Felix game through the real pbem binary (as
// TestCrashSIGKILL does) with its database on a tmpfs so small that the
// disk fills during the game. It keeps the disk full until pbem has
// failed to write failedTries times, then grows the tmpfs and lets the game
// finish. Afterwards every command must have been taken exactly once and
// every mail delivered (checkExactlyOnce), no inbound mail may have been
// set aside as failed (the daemon never counts a database outage against
// a mail), and no mail may have been sent twice: the outbox sends nothing
// it could not mark.
//
// "killed while full" also SIGKILLs the daemon while the disk is full and
// starts it again on the full disk: the mark the first daemon owed in
// memory is lost with it, so one mail may arrive twice — at most one, for
// the one outage.
func TestDiskFull(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to mount a tmpfs for the database")
	}
	probe := t.TempDir()
	if err := mountTmpfs(probe, "1m"); err != nil {
		t.Skipf("cannot mount a tmpfs here: %v", err)
	}
	if err := syscall.Unmount(probe, 0); err != nil {
		t.Fatal(err)
	}
	size := diskFullSize
	if s := os.Getenv("PBEM_DISKFULL_SIZE"); s != "" {
		size = s
	}
	seed := crashSeed(t)
	t.Logf("seed %d (set PBEM_CRASH_SEED to repeat the players' choices), tmpfs of %s", seed, size)
	bin := buildPbem(t)
	t.Run("outage", func(t *testing.T) { diskFull(t, bin, size, seed, false) })
	t.Run("killed while full", func(t *testing.T) { diskFull(t, bin, size, seed+1, true) })
}

func diskFull(t *testing.T, bin, size string, seed uint64, killWhileFull bool) {
	ctx := context.Background()
	begin := time.Now()
	dir := t.TempDir()
	// The log stays off the tmpfs: it must tell what happened while the
	// database's disk is full.
	mnt := filepath.Join(dir, "db")
	if err := os.Mkdir(mnt, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := mountTmpfs(mnt, size); err != nil {
		t.Fatal(err)
	}
	// Registered after t.TempDir, so it runs before the folder is removed;
	// the deferred closes below run before it, so nothing holds the
	// database open by then.
	t.Cleanup(func() {
		if err := syscall.Unmount(mnt, 0); err != nil {
			t.Errorf("unmount %s: %v", mnt, err)
		}
	})

	w, err := Start(ctx, Options{Seed: seed, NoService: true})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	db := filepath.Join(mnt, "pbem.db")
	d := newDaemonProc(t, bin, dir, childVars(w, db, nil))
	defer d.close()
	d.start()

	players := []string{w.Player("alice"), w.Player("bob"), w.Player("carol"), w.Player("dave")}
	playCtx, cancelPlay := context.WithCancel(ctx)
	defer cancelPlay()
	go func() {
		select {
		case <-d.dead:
			cancelPlay()
		case <-playCtx.Done():
		}
	}()
	type played struct {
		g   Game
		err error
	}
	done := make(chan played, 1)
	go func() {
		g, err := w.Play(playCtx, "felix", players, 5*time.Minute)
		done <- played{g, err}
	}()
	var result *played
	// await polls the daemon's log until cond holds. The game ending or
	// the daemon dying first fails the test; the deadline is a guard
	// against a hang, far beyond what any step takes.
	await := func(what string, cond func(log string) bool) {
		t.Helper()
		deadline := time.Now().Add(3 * time.Minute)
		for {
			log := readLog(t, d)
			if cond(log) {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("waited 3 minutes for %s (%s used)\nthe daemon's log ends:\n%s", what, used(mnt), d.logTail())
			}
			select {
			case p := <-done:
				result = &p
				t.Fatalf("the game ended (err %v) before %s, with %s of the tmpfs used: a smaller PBEM_DISKFULL_SIZE would fill it", p.err, what, used(mnt))
			case <-d.dead:
				t.Fatalf("pbem serve died while waiting for %s\nthe daemon's log ends:\n%s", what, d.logTail())
			case <-time.After(50 * time.Millisecond):
			}
		}
	}

	// The disk fills: the store fails, and says why.
	await("the disk to fill", func(log string) bool { return strings.Contains(log, diskFullLog) })
	full := time.Now()
	t.Logf("the disk filled after %s, %s: %s used", full.Sub(begin).Round(time.Millisecond), progress(readLog(t, d)), used(mnt))

	// Keep it full until the daemon has failed to write failedTries
	// times: it stopped, and backed off.
	await(fmt.Sprintf("%d failed tries to write", failedTries), func(log string) bool {
		return storeFailures(log) >= failedTries
	})
	if killWhileFull {
		d.kill()
		d.start()
		// The new daemon finds the disk full too: wait until it has
		// failed to write as well, after its own start.
		starts := d.starts
		await("the restarted daemon to find the disk full", func(log string) bool {
			_, after, _ := strings.Cut(log, fmt.Sprintf("=== start %d at", starts))
			return strings.Contains(after, diskFullLog) && storeFailures(after) >= 1
		})
	}
	log := readLog(t, d)
	t.Logf("the disk was full for %s: the outbox failed %d times, the inbox's mail failed %d times, %d log lines name the full disk",
		time.Since(full).Round(time.Millisecond), outboxFailures(log), strings.Count(log, "the database cannot take it now"), strings.Count(log, diskFullLog))

	// The disk recovers: the game must go on to its end.
	if err := syscall.Mount("tmpfs", mnt, "tmpfs", syscall.MS_REMOUNT, "size="+diskGrownSize); err != nil {
		t.Fatalf("grow the tmpfs: %v", err)
	}
	grown := time.Now()
	var p played
	if result != nil {
		p = *result
	} else {
		p = <-done
	}
	if p.err != nil {
		t.Fatalf("the game did not finish after the disk recovered: %v\nthe daemon's log ends:\n%s", p.err, d.logTail())
	}
	t.Logf("the game finished %s after the disk recovered; %s used", time.Since(grown).Round(time.Millisecond), used(mnt))

	rep := checkExactlyOnce(t, ctx, w, d, db, players, p.g, false)
	for _, f := range rep.failed {
		t.Errorf("inbound mail set aside as failed during a database outage: %s", f)
	}
	// An outage costs one extra copy of one batch, and only when pbem is
	// stopped before the disk recovers (internal/outbox/outbox.go, Outbox.Run).
	allowed := 0
	if killWhileFull {
		allowed = resendBound(1)
	}
	if rep.resent > allowed {
		t.Errorf("%d mails arrived twice for one outage (killed while full: %v); at most %d may", rep.resent, killWhileFull, allowed)
	}
	kills := 0
	if killWhileFull {
		kills = 1
	}
	t.Logf("%d kills, 1 outage, %d player mails taken once each, %d moves, %d outbox mails, %d re-sent, %d set aside; %s in all",
		kills, rep.taken, rep.moves, rep.outbox, rep.resent, len(rep.failed), time.Since(begin).Round(time.Millisecond))
	if t.Failed() {
		t.Logf("the daemon's log ends:\n%s", d.logTail())
	}
}

// mountTmpfs mounts a tmpfs of size (mount's syntax: 2m) on dir.
func mountTmpfs(dir, size string) error {
	return syscall.Mount("tmpfs", dir, "tmpfs", 0, "size="+size+",mode=0700")
}

// outboxFailures counts the outbox's failed tries in the daemon's log.
func outboxFailures(log string) int {
	return strings.Count(log, "outbox: cannot go on")
}

// storeFailures counts the failed tries to write, of the outbox and of
// the inbox's mail, in the daemon's log.
func storeFailures(log string) int {
	return outboxFailures(log) + strings.Count(log, "the database cannot take it now")
}

// progress tells how far the daemon's log says the game went.
func progress(log string) string {
	return fmt.Sprintf("%d player mails taken and %d mails sent", strings.Count(log, "msg=inbound "), strings.Count(log, "msg=sent "))
}

// used tells how much of the file system at dir is taken, as df would.
func used(dir string) string {
	var s syscall.Statfs_t
	if err := syscall.Statfs(dir, &s); err != nil {
		return err.Error()
	}
	total := s.Blocks * uint64(s.Bsize)
	taken := (s.Blocks - s.Bfree) * uint64(s.Bsize)
	return fmt.Sprintf("%d of %d kB", taken/1024, total/1024)
}
