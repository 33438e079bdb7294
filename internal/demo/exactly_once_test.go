package demo

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pbem/pbem/internal/config"
	"github.com/pbem/pbem/internal/daemon"
	"github.com/pbem/pbem/internal/testlib"
	"github.com/pbem/pbem/store"
)

// onceReport is what checkExactlyOnce counted, for the caller's own
// bounds (re-sends per kill, per outage) and its summary line.
type onceReport struct {
	game   int64    // the game's id
	taken  int      // player mails, each recorded in inbound exactly once
	moves  int      // the game's moves
	outbox int      // outbox rows
	resent int      // mails a player received more than once
	failed []string // inbound records set aside as failed: "Message-ID (detail)"
	// byDeadline are the moves pbem made itself (source deadline): at
	// deadlines and for seats on autopilot. Only a run with deadlines
	// that pass (sweeps) may have any.
	byDeadline int
}

// checkExactlyOnce is the end of a fault test whose game g was played by
// players through the daemon d (or daemons) on the database db, with the test's world
// w: it lets d send what is left and stops it gracefully (it must stop,
// not hang), then checks what docs/exactly-once.md promises:
//
//   - the game is finished and its export replays to the stored state and
//     event log (checkReplay), and no mail leaks (checkLeaks);
//   - every mail a player sent is recorded in inbound exactly once, and
//     there is no other inbound record;
//   - the moves, in order, are exactly the commands of the mails recorded
//     as applied, in the order they were recorded, each by its sender's
//     seat: each applied mail made exactly one move, none lost, none
//     applied twice; with sweeps, the moves pbem made itself at deadlines
//     (source deadline) are left out of that comparison and counted, and
//     without, there must be none;
//   - every mail in a player's inbox is an outbox row addressed to him,
//     every row marked sent is there, and nothing is left pending or dead.
//
// How many re-sends are allowed depends on the faults, so it only counts
// them (and the inbound records set aside) for the caller to judge, with
// resendBound.
func checkExactlyOnce(t *testing.T, ctx context.Context, w *World, d stopper, db string, players []string, g Game, sweeps bool) onceReport {
	t.Helper()
	var rep onceReport
	st, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	// Let the last daemon send what is left; two minutes is a guard
	// against a hang, far beyond what draining takes.
	testlib.WaitForNil(t, 2*time.Minute, "the outbox to drain after the game ended", func() error {
		stats, err := st.OutboxStats(ctx, time.Now().Add(time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		if stats.Pending > 0 {
			return fmt.Errorf("%d mails still pending\nthe daemon's log ends:\n%s", stats.Pending, d.logTail())
		}
		return nil
	})
	d.stop()

	res, err := Result(ctx, st, w.Address, players, g.Mails)
	if err != nil {
		t.Fatal(err)
	}
	rep.game = res.ID
	checkReplay(t, ctx, st, res)
	checkLeaks(t, ctx, st, res)

	// Commands: each mail a player sent was taken exactly once.
	sent := w.SentMails()
	inbound, err := st.AllInbound(ctx)
	if err != nil {
		t.Fatal(err)
	}
	byMsgID := map[string]store.Inbound{}
	for _, in := range inbound {
		if _, dup := byMsgID[in.MessageID]; dup {
			t.Errorf("inbound %q recorded twice", in.MessageID)
		}
		byMsgID[in.MessageID] = in
		if in.Outcome == "failed" {
			rep.failed = append(rep.failed, in.MessageID+" ("+in.Detail+")")
		}
	}
	sentText := map[string]string{}
	for _, s := range sent {
		sentText[s.MessageID] = s.Text
		if _, ok := byMsgID[s.MessageID]; !ok {
			t.Errorf("the mail %s sent by %s (%q) was never taken: a lost command", s.MessageID, s.From, firstLine(s.Text))
		}
	}
	if len(inbound) != len(sent) {
		t.Errorf("%d inbound records for %d mails sent", len(inbound), len(sent))
	}
	rep.taken = len(sent)

	// Moves: the daemon records a mail and its moves in one transaction,
	// so the game's moves in order must be exactly the commands of the
	// game's applied mails in the order they were recorded, one each, by
	// the seat of the mail's sender, and each move names its mail.
	moves, err := st.Moves(ctx, res.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	rep.moves = len(moves)
	// The moves the rules left a seat no choice in are pbem's, made at
	// once with a note to the seat (daemon.EventForced), by no mail.
	evs, err := st.Events(ctx, res.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	forced := map[int64]bool{}
	for _, e := range evs {
		if e.Kind == string(daemon.EventForced) {
			forced[e.Seq] = true
		}
	}
	var byMail []store.Move
	for _, m := range moves {
		if m.Source == store.SourceDeadline && forced[m.Seq] {
			continue
		}
		if m.Source == store.SourceDeadline {
			rep.byDeadline++
			continue
		}
		byMail = append(byMail, m)
	}
	if rep.byDeadline > 0 && !sweeps {
		t.Errorf("%d moves made at deadlines in a run whose deadlines never pass", rep.byDeadline)
	}
	moves = byMail
	seats, err := st.Seats(ctx, res.ID)
	if err != nil {
		t.Fatal(err)
	}
	seatOf := map[string]int{}
	for _, s := range seats {
		seatOf[s.Address] = s.Seat
	}
	var applied []store.Inbound
	for _, in := range inbound {
		// Creating the game and joining it change the game but make no move.
		cmd := firstLine(sentText[in.MessageID])
		if in.GameID == res.ID && in.Outcome == "applied" && cmd != "join" && !strings.HasPrefix(cmd, "new ") {
			applied = append(applied, in)
		}
	}
	if len(applied) != len(moves) {
		t.Errorf("%d applied mails but %d moves", len(applied), len(moves))
	}
	for i := range min(len(applied), len(moves)) {
		m, in := moves[i], applied[i]
		cmd := firstLine(sentText[in.MessageID])
		if m.Source != store.SourceMail || m.Seat != seatOf[in.From] || !strings.EqualFold(m.Command, cmd) || m.InboundID != in.ID {
			t.Errorf("move %d is %q by seat %d (%s, mail record %d), but the %d. applied mail is %q from %s (seat %d, record %d)",
				m.Seq, m.Command, m.Seat, m.Source, m.InboundID, i+1, cmd, in.From, seatOf[in.From], in.ID)
		}
	}

	// Mail: at least once, with a stable Message-ID.
	rows, err := st.AllOutgoing(ctx)
	if err != nil {
		t.Fatal(err)
	}
	rep.outbox = len(rows)
	for _, o := range rows {
		if o.State != store.OutSent {
			t.Errorf("outbox row %d to %s is %s (%s)", o.ID, o.To, o.State, o.LastError)
		}
	}
	for _, p := range players {
		mails, err := w.Inbox(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		ir := compareInbox(mails, rows, p)
		rep.resent += ir.duplicates
		for _, id := range ir.unknown {
			t.Errorf("%s received %s, which the outbox never sent him", p, id)
		}
		for _, id := range ir.missing {
			t.Errorf("%s never received %s, which the outbox marked sent", p, id)
		}
	}
	return rep
}

// stopper is the daemon (or the daemons) of a fault test, for
// checkExactlyOnce: a daemonProc, or the nodes of a lease test.
type stopper interface {
	stop()           // stop gracefully, failing the test unless it stops
	logTail() string // the end of the log, for a failure
}

// resendBound is how many mails may arrive twice after kills kills of the
// daemon: the outbox marks a whole batch sent in one transaction after
// sending it, so a kill between the server's acceptance and that commit
// re-sends at most one batch (outbox.batch mails, the default here;
// docs/exactly-once.md).
func resendBound(kills int) int {
	return kills * config.Default().Outbox.Batch
}
