package daemon

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pbem/pbem/engine/games"
	"github.com/pbem/pbem/internal/loaded"
	"github.com/pbem/pbem/internal/testlib"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/templates"
)

// keepMail is the default of [retention] mail_bodies.
const keepMail = 30 * 24 * time.Hour

// retentionFigures is what a database costs per finished game before and
// after a retention pass, each measured on the file after a checkpoint.
type retentionFigures struct {
	games         int
	before, after int64 // bytes on disk, the database and its WAL
	// empty is the size of the store before the first game: the schema's
	// own pages, one or more for each table and index, which no game
	// adds to. perGame leaves it out, so that a new table does not count
	// as n games' growth.
	empty int64
	got   store.Retained
}

// perGame is what each game adds to the database of size total.
func (f retentionFigures) perGame(total int64) int64 { return (total - f.empty) / int64(f.games) }

// measureRetention plays n whole 4-player Felix games by mail, each among
// four players of its own, and measures the database before and after a
// retention pass run keepMail after the games ended. It checks that the
// pass kept every record exactly-once needs and every game's transcript.
func measureRetention(t testing.TB, n int) retentionFigures {
	ctx := context.Background()
	// The figures are a SQLite file's: on PostgreSQL giving space back
	// is autovacuum's, not the retention pass's.
	w := newWorldAt(t, filepath.Join(dbDir(t), "pbem.db"), nil)
	f := retentionFigures{games: n}
	if err := w.st.Checkpoint(ctx); err != nil {
		t.Fatal(err)
	}
	var err error
	if f.empty, err = w.st.FileBytes(ctx); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 8))
	var ids []int64
	for g := 0; g < n; g++ {
		var players []string
		for _, name := range []string{"alice", "bob", "carol", "dave"} {
			players = append(players, fmt.Sprintf("%s%d@x%d.test", name, g, g%3))
		}
		reply, id := w.startGame("felix", players...)
		w.playOut(id, reply, players, rng)
		if tb := w.loaded(id); tb.Row.Status != store.StatusFinished {
			t.Fatalf("game %d: status %s", id, tb.Row.Status)
		}
		ids = append(ids, id)
	}
	transcripts := func() []string {
		var out []string
		for _, id := range ids {
			var b bytes.Buffer
			if err := loaded.Export(ctx, w.st, games.Lookup, id, &b); err != nil {
				t.Fatal(err)
			}
			out = append(out, b.String())
		}
		return out
	}
	exported := transcripts()
	inbound, err := w.st.AllInbound(ctx)
	if err != nil {
		t.Fatal(err)
	}
	outbox, err := w.st.AllOutgoing(ctx)
	if err != nil {
		t.Fatal(err)
	}

	if err := w.st.Checkpoint(ctx); err != nil {
		t.Fatal(err)
	}
	if f.before, err = w.st.FileBytes(ctx); err != nil {
		t.Fatal(err)
	}
	w.clock = w.clock.Add(keepMail + time.Minute)
	if f.got, err = w.svc.Sweeper().Retain(ctx, keepMail); err != nil {
		t.Fatal(err)
	}
	if f.after, err = w.st.FileBytes(ctx); err != nil {
		t.Fatal(err)
	}

	if !slices.Equal(transcripts(), exported) {
		t.Error("a game's transcript changed with retention")
	}
	inboundAfter, err := w.st.AllInbound(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(inboundAfter) != len(inbound) {
		t.Fatalf("%d inbound rows after retention, %d before", len(inboundAfter), len(inbound))
	}
	for i, in := range inbound {
		a := inboundAfter[i]
		in.Detail, a.Detail = "", ""
		if a != in {
			t.Fatalf("inbound row changed beyond its detail:\n%+v\n%+v", in, a)
		}
	}
	// Every game is over: its mails' rows go whole. Mails about no game
	// (answers to lobby mail) stay, without their bodies.
	outboxAfter, err := w.st.AllOutgoing(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var lobby []store.Outgoing
	for _, o := range outbox {
		if o.GameID == 0 {
			lobby = append(lobby, o)
		}
	}
	if len(outboxAfter) != len(lobby) || f.got.MailBodies != int64(len(outbox)) || f.got.MailRows != int64(len(outbox)-len(lobby)) {
		t.Fatalf("%d outbox rows after retention, %d before of which %d about no game; %+v", len(outboxAfter), len(outbox), len(lobby), f.got)
	}
	for i, o := range lobby {
		a := outboxAfter[i]
		if len(a.Raw) != 0 {
			t.Fatalf("mail %s kept a body of %d bytes", a.MessageID, len(a.Raw))
		}
		o.Raw, a.Raw = nil, nil
		if fmt.Sprint(a) != fmt.Sprint(o) {
			t.Fatalf("outbox row changed beyond its body:\n%+v\n%+v", o, a)
		}
	}
	return f
}

// Retention brings a finished 4-player game under 100 kB of database. The
// figures for BENCHMARKS.md come from BenchmarkRetention (10 games).
func TestRetentionPerFinishedGame(t *testing.T) {
	t.Parallel()
	f := measureRetention(t, 3)
	t.Logf("%d games on a %d-byte empty store: %d bytes a game before retention, %d after; %+v", f.games, f.empty, f.perGame(f.before), f.perGame(f.after), f.got)
	if per := f.perGame(f.after); per >= 100_000 {
		t.Errorf("%d bytes a finished game after retention, want under 100000", per)
	}
	if f.got.ReclaimedBytes <= 0 || f.after >= f.before {
		t.Errorf("the file did not shrink: %d bytes before, %d after, %d reclaimed", f.before, f.after, f.got.ReclaimedBytes)
	}
}

// BenchmarkRetention reports the database's size per finished 4-player
// Felix game, over 10 games played by mail, before and after a retention
// pass: run it with -benchtime 1x (each iteration plays all 10 games).
func BenchmarkRetention(b *testing.B) {
	for i := 0; i < b.N; i++ {
		f := measureRetention(b, 10)
		b.ReportMetric(float64(f.perGame(f.before)), "bytes-before/game")
		b.ReportMetric(float64(f.perGame(f.after)), "bytes-after/game")
		b.ReportMetric(float64(f.empty), "bytes-empty")
		b.ReportMetric(float64(f.got.MailBodies)/float64(f.games), "mails/game")
		b.ReportMetric(float64(f.got.MailBodyBytes)/float64(f.got.MailBodies), "bytes/mail")
	}
}

// A reply to a mail whose body retention dropped is judged as before: a
// reply to an older decision's mail is still stale, and a reply to the
// current mail is applied.
func TestStaleReplyAfterRetention(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test", "dave@x.test"}
	reply, id := w.startGame("felix", players...)
	for p := range players {
		w.send(players[p], reply[players[p]], w.legal(id, p))
	}
	// The auction, as in TestStaleReply: the first bidder's mail now; he
	// bids, the others answer until he must decide again.
	p := w.loaded(id).State.Waiting()[0]
	old := w.last(players[p])
	w.send(players[p], reply[players[p]], w.legal(id, p))
	for steps := 0; ; steps++ {
		if steps > 100 {
			t.Fatal("the bidder never had to decide again")
		}
		tb := w.loaded(id)
		if slices.Contains(tb.State.Waiting(), p) {
			break
		}
		q := tb.State.Waiting()[0]
		w.send(players[q], reply[players[q]], w.legal(id, q))
	}

	w.clock = w.clock.Add(2 * time.Minute)
	got, err := w.svc.Sweeper().Retain(ctx, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	o, err := w.st.OutgoingByMessageID(ctx, old.MessageID)
	if err != nil || len(o.Raw) != 0 || got.MailBodies == 0 {
		t.Fatalf("the old mail's body was not dropped: %d bytes left, %+v, %v", len(o.Raw), got, err)
	}

	n := w.moves(id)
	cmd := w.legal(id, p)
	w.reply(players[p], reply[players[p]], cmd, old.MessageID)
	if w.moves(id) != n {
		t.Fatalf("a reply to an older decision's mail was applied once its body was dropped")
	}
	answer := w.last(players[p])
	if text := strings.Join(strings.Fields(answer.Text), " "); !strings.Contains(text, "Not applied: "+cmd+": your mail answers an older mail of this game") {
		t.Errorf("the stale reply's answer does not say why:\n%s", answer.Text)
	}
	// The answer's body goes too; a reply to it is still current.
	w.clock = w.clock.Add(2 * time.Minute)
	if _, err := w.svc.Sweeper().Retain(ctx, time.Minute); err != nil {
		t.Fatal(err)
	}
	w.reply(players[p], reply[players[p]], cmd, answer.MessageID)
	if w.moves(id) != n+1 {
		t.Fatalf("a reply to the current mail was not applied once its body was dropped:\n%s", w.last(players[p]).Text)
	}
}

// lineWaiter is a log destination that tells when a line containing a
// given text has been written.
type lineWaiter struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	want  string
	found chan struct{}
	once  sync.Once
}

func (l *lineWaiter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if bytes.Contains(p, []byte(l.want)) {
		l.once.Do(func() { close(l.found) })
	}
	return l.buf.Write(p)
}

func (l *lineWaiter) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// newRetentionService is a service on st whose log goes to log.
func newRetentionService(t *testing.T, st *store.Store, now time.Time, log *lineWaiter) *Service {
	t.Helper()
	r, err := templates.New(games.All())
	if err != nil {
		t.Fatal(err)
	}
	svc, err := New(testConfig(), st, r, games.Lookup, games.Names(),
		WithClock(func() time.Time { return now }),
		WithLogger(slog.New(slog.NewTextHandler(log, nil))))
	if err != nil {
		t.Fatal(err)
	}
	return svc
}

// RunRetention makes a pass at once, logs what it dropped, and stops with
// its context.
func TestRunRetentionLogsAndStops(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.send("alice@x.test", "pbem@example.test", "help")
	if len(w.inbox["alice@x.test"]) == 0 {
		t.Fatal("no answer to help")
	}
	log := &lineWaiter{want: "msg=retention", found: make(chan struct{})}
	svc := newRetentionService(t, w.st, w.clock.Add(time.Hour), log)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- svc.Sweeper().RunRetention(ctx, time.Hour, time.Minute) }()
	testlib.Receive(t, log.found, "the retention pass's log line")
	cancel()
	if err := testlib.Receive(t, done, "RunRetention's return"); !errors.Is(err, context.Canceled) {
		t.Errorf("RunRetention returned %v, want context.Canceled", err)
	}
	if line := log.String(); !strings.Contains(line, "mail_bodies=1") || !strings.Contains(line, "reclaimed_bytes=") {
		t.Errorf("the pass's log line does not say what it dropped:\n%s", line)
	}
}

// A reply to an old mail of a game that is over gets the same answer
// once retention has deleted the mail's row: the game is over.
func TestReplyToForgottenMailOfFinishedGame(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test"}
	reply, id := w.startGame("felix", players...)
	first := w.last("bob@y.test")
	w.playOut(id, reply, players, rand.New(rand.NewPCG(3, 4)))
	if w.loaded(id).Row.Status != store.StatusFinished {
		t.Fatal("the game did not finish")
	}
	cmd := "pass"
	answer := func() string {
		w.reply("bob@y.test", reply["bob@y.test"], cmd, first.MessageID)
		return strings.Join(strings.Fields(w.last("bob@y.test").Text), " ")
	}
	moves := w.moves(id)
	before := answer()
	w.clock = w.clock.Add(keepMail + time.Minute)
	got, err := w.svc.Sweeper().Retain(ctx, keepMail)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.st.OutgoingByMessageID(ctx, first.MessageID); !errors.Is(err, store.ErrNotFound) || got.MailRows == 0 {
		t.Fatalf("the finished game's first mail is still there: %v, %+v", err, got)
	}
	after := answer()
	if w.moves(id) != moves {
		t.Fatal("a reply to a finished game was applied")
	}
	const want = "Not applied: pass: this game is over."
	if !strings.Contains(before, want) || !strings.Contains(after, want) {
		t.Errorf("the answers do not say %q\nbefore retention: %s\nafter: %s", want, before, after)
	}
}
