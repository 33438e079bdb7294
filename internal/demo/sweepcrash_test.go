package demo

import (
	"context"
	"crypto/sha256"
	"encoding/base32"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pbem/pbem/engine"
	"github.com/pbem/pbem/internal/daemon"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/store/storetest"
)

// The sweep crash run's deadlines: seconds, not days, so that deadlines,
// their reminder steps and autopilot come within a test while the daemon
// is killed. pbem's configuration takes any positive turn time and any
// cron spec; nothing in pbem is changed for the test, and its clock is the
// real one.
const (
	sweepTurn      = 6 * time.Second
	sweepReminders = "50%,80%" // 3 s and 1 s before the deadline
	sweepAutopilot = 3         // missed deadlines in a row
	// maxSweepKills is how many times the test kills the daemon at most.
	maxSweepKills = 60
)

var sweepLeads = []time.Duration{3 * time.Second, time.Second}

// TestCrashSweeps is TestCrashSIGKILL over the deadline sweep: a Felix
// game of four in which dave joins and is never heard of again, with 6
// second deadlines, reminders 3 s and 1 s before them, a sweep every
// second and autopilot after three misses, while the daemon is SIGKILLed at
// random moments and started again. So reminders, default moves and the
// switch to autopilot all happen in sweeps that kills interrupt (the
// others answer at once, but a kill may make them miss a deadline too).
// After checkExactlyOnce (with the moves made at deadlines left out of
// its mail-to-move comparison) it checks, from the store and the outbox:
//
//   - no reminder step was written twice: each outbox reminder is the one
//     mail of its (seat, deadline, step), recovered from its Message-ID;
//   - no default move was made twice for one deadline: each move pbem
//     made because a deadline passed is found, through its mails'
//     Message-IDs, to belong to one (seat, deadline), and no two share
//     one; dave, who never answers, missed exactly three deadlines;
//   - autopilot was announced once per switch: for each seat the
//     announcements and the returns from autopilot alternate, starting
//     with an announcement, and the admin was told once per switch.
func TestCrashSweeps(t *testing.T) {
	ctx := context.Background()
	seed := crashSeed(t)
	t.Logf("seed %d (set PBEM_CRASH_SEED to repeat the players' choices and the kill times)", seed)
	begin := time.Now()
	bin := buildPbem(t)

	w, err := Start(ctx, Options{Seed: seed, NoService: true})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	dir := t.TempDir()
	db := storetest.Database(t)
	admin := w.Player("admin")
	d := newDaemonProc(t, bin, dir, childVars(w, db, map[string]string{
		"PBEM_SERVICE_TURN_TIME":         sweepTurn.String(),
		"PBEM_SERVICE_REMINDERS":         sweepReminders,
		"PBEM_SERVICE_DEADLINE_SCHEDULE": "@every 1s",
		"PBEM_SERVICE_AUTOPILOT_AFTER":   strconv.Itoa(sweepAutopilot),
		"PBEM_SERVICE_ADMINS":            admin,
	}))
	defer d.close()
	players := []string{w.Player("alice"), w.Player("bob"), w.Player("carol"), w.Player("dave")}
	turnQuietHoursOff(t, ctx, db, players)
	d.start()

	// The killer, as in TestCrashSIGKILL, but every other kill is aimed
	// at a sweep: "@every 1s" runs the sweep on the whole second (robfig's
	// ConstantDelaySchedule rounds to it), and its transactions take a
	// few milliseconds when something is due, so those kills fall 0–15 ms
	// after a whole second at least 0.2 s away.
	stopKilling := make(chan struct{})
	var kills, aimed int
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		rng := rand.New(rand.NewPCG(seed, 5))
		// At most maxSweepKills: on a loaded machine a daemon killed
		// every half second without end may never finish the game; the
		// kills it gets are what the test is about, and then it plays
		// to the end in peace.
		for kills < maxSweepKills {
			wait := 200*time.Millisecond + time.Duration(rng.Int64N(int64(700*time.Millisecond)))
			if kills%2 == 1 {
				now := time.Now()
				tick := now.Add(200 * time.Millisecond).Truncate(time.Second).Add(time.Second)
				wait = tick.Sub(now) + time.Duration(rng.Int64N(int64(15*time.Millisecond)))
			}
			select {
			case <-stopKilling:
				return
			case <-time.After(wait):
			}
			if kills%2 == 1 {
				aimed++
			}
			d.kill()
			kills++
			time.Sleep(time.Duration(rng.Int64N(int64(200 * time.Millisecond))))
			d.start()
		}
	}()
	const gone = 3 // dave
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
	g, playErr := w.PlayWithout(playCtx, "felix", players, players[gone], 90*time.Second)
	close(stopKilling)
	wg.Wait()
	t.Logf("the game took %s with %d kills, %d of them aimed at a sweep's start", time.Since(playStart).Round(time.Millisecond), kills, aimed)
	if playErr != nil {
		t.Fatalf("after %d kills: %v\nthe daemon's log ends:\n%s", kills, playErr, d.logTail())
	}
	if kills < 8 {
		t.Fatalf("the game was over after only %d kills; the test wants at least 8 to mean something", kills)
	}
	rep := checkExactlyOnce(t, ctx, w, d, db, players, g, true)
	if rep.resent > resendBound(kills) {
		t.Errorf("%d mails arrived twice with %d kills: more than one batch re-sent per kill (%d)", rep.resent, kills, resendBound(kills))
	}

	st, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	sw := checkSweeps(t, ctx, st, w, rep.game, players, admin, playStart.Add(-time.Minute), time.Now())
	if sw.missed[gone] != sweepAutopilot {
		t.Errorf("dave, who never answered, missed %d deadlines; autopilot should have taken his seat after %d", sw.missed[gone], sweepAutopilot)
	}
	if sw.switches[gone] != 1 {
		t.Errorf("dave's seat was put on autopilot %d times, want once", sw.switches[gone])
	}
	t.Logf("%d kills, %d starts, %d player mails taken once each, %d moves, %d of them pbem's (%d default moves at deadlines, %d autopilot's), %d reminders, %d switches to autopilot, %d of the default moves and reminders delayed past their first sweep by kills, %d outbox mails, %d re-sent after a kill; %s in all",
		kills, d.starts, rep.taken, rep.moves, rep.byDeadline, sw.defaults, sw.autoplay, sw.reminders, sw.totalSwitches(), sw.delayed, rep.outbox, rep.resent, time.Since(begin).Round(time.Millisecond))
	if t.Failed() {
		t.Logf("the daemon's log about the admin, dave and sweeps:\n%s", d.logLines(admin, players[gone], "sweep", "WARN", "ERROR"))
		t.Logf("the daemon's log ends:\n%s", d.logTail())
	}
}

// turnQuietHoursOff gives the players no quiet hours before the daemon
// first starts. Every player has them from 22:00 to 8:00 UTC until he
// changes them, and no deadline of his ends inside them: a run that
// falls in those hours would see dave's 6 second deadline moved to 8:00
// and no sweep with anything to do. The run is about kills, not the
// clock; internal/daemon's quiet-hours tests use a clock of their own.
func turnQuietHoursOff(t *testing.T, ctx context.Context, db string, players []string) {
	t.Helper()
	st, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	err = st.Tx(ctx, func(tx *store.Tx) error {
		for _, p := range players {
			if _, err := tx.UpsertPlayer(ctx, p, ""); err != nil {
				return err
			}
			if err := tx.SetPlayerQuiet(ctx, p, 0, 0); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("turning the players' quiet hours off: %v", err)
	}
}

// sweepReport is what checkSweeps counted.
type sweepReport struct {
	defaults  int         // default moves made because a deadline passed
	reminders int         // reminder mails in the outbox
	missed    map[int]int // default moves by seat
	switches  map[int]int // switches to autopilot by seat
	autoplay  int         // moves autopilot made
	// delayed counts the default moves and reminders written more than
	// a sweep's second after they fell due: the sweeps before were
	// killed, or no daemon was running at their tick.
	delayed int
}

func (r sweepReport) totalSwitches() int {
	n := 0
	for _, v := range r.switches {
		n += v
	}
	return n
}

// pbemMessageID is daemon's messageID: the Message-ID of the n-th mail
// of the work named key. The test recomputes it to find which deadline
// and which step a mail was written for; were the scheme to change, the
// check below fails, saying it found no deadline, rather than passing.
func pbemMessageID(domain, key string, n int) string {
	h := sha256.New()
	fmt.Fprintf(h, "%v\x00%v\x00", key, n)
	sum := h.Sum(nil)
	return "pbem." + strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(sum[:15])) + "@" + domain
}

// checkSweeps checks the sweep's work on game id after a run: no reminder
// step written twice, no deadline given two default moves, autopilot
// announced once per switch. Deadlines lie between from and to.
func checkSweeps(t *testing.T, ctx context.Context, st *store.Store, w *World, id int64, players []string, admin string, from, to time.Time) sweepReport {
	t.Helper()
	seats := len(players)
	rep := sweepReport{missed: map[int]int{}, switches: map[int]int{}}
	_, domain, _ := strings.Cut(w.Address, "@")
	rows, err := st.AllOutgoing(ctx)
	if err != nil {
		t.Fatal(err)
	}
	outbox := map[string]store.Outgoing{}
	for _, o := range rows {
		outbox[o.MessageID] = o
	}
	events, err := st.Events(ctx, id, 0)
	if err != nil {
		t.Fatal(err)
	}
	moves, err := st.Moves(ctx, id, 0)
	if err != nil {
		t.Fatal(err)
	}
	bySeq := map[int64]store.Move{}
	for _, m := range moves {
		bySeq[m.Seq] = m
	}

	// Default moves: each EventDefault to the seat marks one, at its
	// move. Its mails' key names the seat's deadline and the log's length
	// before the move; find the deadline (a second no later than the
	// move) whose key gives the first mail's id.
	deadlines := map[string]int64{} // "seat@deadline" -> the move's seq
	for _, e := range events {
		if e.Kind != string(daemon.EventDefault) || e.To < 0 {
			continue
		}
		m, ok := bySeq[e.Seq]
		if !ok || m.Seat != e.To || m.Source != store.SourceDeadline {
			t.Errorf("a default-move event for seat %d at move %d, which is %+v", e.To, e.Seq, m)
			continue
		}
		rep.defaults++
		rep.missed[m.Seat]++
		found := false
		for at := m.At.Unix(); at >= from.Unix() && !found; at-- {
			key := fmt.Sprintf("deadline:%d:%d:%d:%d", id, m.Seat, at, m.Seq-1)
			if _, ok := outbox[pbemMessageID(domain, key, 0)]; !ok {
				continue
			}
			found = true
			k := fmt.Sprintf("%d@%d", m.Seat, at)
			if prev, dup := deadlines[k]; dup {
				t.Errorf("seat %d's deadline %s was given two default moves: moves %d and %d",
					m.Seat, time.Unix(at, 0).Format("15:04:05"), prev, m.Seq)
			}
			deadlines[k] = m.Seq
			if m.At.After(time.Unix(at, 0).Add(1100 * time.Millisecond)) {
				rep.delayed++ // its first sweeps were killed, or found no daemon
			}
		}
		if !found {
			t.Errorf("no deadline found for the default move %d of seat %d at %s: did the Message-ID scheme change?", m.Seq, m.Seat, m.At.Format("15:04:05.000"))
		}
	}

	// Reminders: a reminder's Message-ID names its seat, deadline and
	// step. Every outbox row is one Message-ID; recover the step of each
	// reminder row from all the steps the run could have had, and no
	// (seat, deadline, step) may have two. Every reminder a player
	// received must be among them (else the scheme changed, and the
	// check would prove nothing).
	type step struct {
		name string
		due  time.Time
	}
	candidates := map[string]step{} // Message-ID -> "seat@deadline/step"
	for at := from.Unix(); at <= to.Unix()+10; at++ {
		for seat := range seats {
			for _, lead := range sweepLeads {
				key := fmt.Sprintf("reminder:%d:%d:%d:%d", id, seat, at, int64(lead/time.Second))
				candidates[pbemMessageID(domain, key, 0)] = step{fmt.Sprintf("%d@%s/%s", seat, time.Unix(at, 0).Format("15:04:05"), lead), time.Unix(at, 0).Add(-lead)}
			}
		}
	}
	steps := map[string]bool{}
	for _, o := range rows {
		c, ok := candidates[o.MessageID]
		if !ok {
			continue
		}
		k := c.name
		rep.reminders++
		if o.NotBefore.After(c.due.Add(1100 * time.Millisecond)) {
			rep.delayed++
		}
		if steps[k] {
			t.Errorf("the reminder step %s (seat@deadline/lead) was written twice", k)
		}
		steps[k] = true
	}
	received := 0
	for _, p := range players {
		mails, err := w.Inbox(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range mails {
			if !strings.HasPrefix(m.Headline, "Reminder") {
				continue
			}
			received++
			if _, ok := candidates[m.MessageID]; !ok {
				t.Errorf("%s's reminder %s names no step of a deadline: did the Message-ID scheme change?", p, m.MessageID)
			}
		}
	}
	if received == 0 {
		t.Errorf("no player received a reminder: the run tested none")
	}

	// Autopilot: per seat, on (to the seat itself) and off (to the
	// others) alternate, starting with on. Every other move pbem made
	// (not a default move at a deadline, nor a move the rules left the
	// seat no choice in, which has a note of its own) is autopilot's,
	// made while the seat was on autopilot, with one note to the seat
	// saying which.
	on := map[int]bool{}
	notes := map[int64]int{}
	forced := map[int64]bool{}
	defaultAt := map[int64]bool{}
	for _, seq := range deadlines {
		defaultAt[seq] = true
	}
	for _, e := range events {
		switch daemon.EventKind(e.Kind) {
		case daemon.EventForced:
			forced[e.Seq] = true
		case daemon.EventAutoplay:
			m := bySeq[e.Seq]
			if m.Seat != e.To || m.Source != store.SourceDeadline || !on[e.To] {
				t.Errorf("an autopilot note to seat %d (on autopilot: %v) at move %+v", e.To, on[e.To], m)
			}
			notes[e.Seq]++
		case daemon.EventAutopilot:
			if e.To < 0 {
				continue // the others' copy of the announcement
			}
			if on[e.To] {
				t.Errorf("seat %d was announced on autopilot twice in a row (event %d)", e.To, e.ID)
			}
			on[e.To] = true
			rep.switches[e.To]++
		case daemon.EventAutopilotOff:
			for seat := range seats {
				if e.To == engine.Others(seat) {
					if !on[seat] {
						t.Errorf("seat %d was taken back from autopilot it was not on (event %d)", seat, e.ID)
					}
					on[seat] = false
				}
			}
		}
	}
	for _, m := range moves {
		if m.Source != store.SourceDeadline || defaultAt[m.Seq] || forced[m.Seq] {
			continue
		}
		rep.autoplay++
		if notes[m.Seq] != 1 {
			t.Errorf("autopilot's move %d for seat %d has %d notes, want 1", m.Seq, m.Seat, notes[m.Seq])
		}
	}
	mails, err := w.Inbox(ctx, admin)
	if err != nil {
		t.Fatal(err)
	}
	notices := map[string]bool{}
	for _, m := range mails {
		if strings.Contains(unwrap(m.Text), "deadlines in a row, so pbem's bot plays the seat") {
			notices[m.MessageID] = true
		}
	}
	if len(notices) != rep.totalSwitches() {
		t.Errorf("the admin was told of %d switches to autopilot; the game has %d", len(notices), rep.totalSwitches())
		for _, o := range rows {
			if o.To == admin {
				t.Logf("outbox to the admin: %s %s %s (%s)", o.MessageID, o.State, o.NotBefore.Format("15:04:05.000"), o.LastError)
			}
		}
		for _, m := range mails {
			t.Logf("the admin received %s: %q", m.MessageID, unwrap(m.Text))
		}
	}
	return rep
}
