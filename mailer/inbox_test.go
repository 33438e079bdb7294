package mailer

import (
	"bytes"
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pbem/pbem/internal/testlib"
	"github.com/pbem/pbem/mailer/embedded"
)

const testPassword = "secret"

// testServers starts embedded servers on free loopback ports.
func testServers(t *testing.T) *embedded.Servers {
	t.Helper()
	srv, err := embedded.Start(context.Background(), embedded.Config{
		IMAPAddr: "127.0.0.1:0",
		SMTPAddr: "127.0.0.1:0",
		Domain:   "example.test",
		Password: testPassword,
		Logger:   testLogger(),
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

// inboxConfig reads game@example.test; tests adjust the timings.
func inboxConfig(srv *embedded.Servers) InboxConfig {
	return InboxConfig{
		Addr:         srv.IMAPAddr(),
		Username:     "game@example.test",
		Password:     testPassword,
		PollInterval: time.Minute,
		IdleRefresh:  time.Minute,
		RetryDelay:   200 * time.Millisecond,
		ReconnectMin: 100 * time.Millisecond,
		ReconnectMax: time.Second,
		Logger:       testLogger(),
	}
}

// sendTo sends a test message through the embedded SMTP server.
func sendTo(t *testing.T, srv *embedded.Servers, to, subj string) {
	t.Helper()
	s, err := NewSender(SenderConfig{Addr: srv.SMTPAddr(), Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Send(context.Background(), "alice@example.test", []string{to}, testMessage("alice@example.test", to, subj)); err != nil {
		t.Fatalf("send %q: %v", subj, err)
	}
}

func newTestInbox(t *testing.T, cfg InboxConfig, c Cursor) *Inbox {
	t.Helper()
	in, err := NewInbox(cfg, c)
	if err != nil {
		t.Fatal(err)
	}
	return in
}

func TestInboxDeliversEachMessageOnceInOrder(t *testing.T) {
	t.Parallel()
	srv := testServers(t)
	for i := 1; i <= 5; i++ {
		sendTo(t, srv, fmt.Sprintf("game+tok%d@example.test", i), fmt.Sprintf("move %d", i))
	}
	cursor := newMemCursor()
	rec := newRecorder(cursor)
	stop := runInbox(t, newTestInbox(t, inboxConfig(srv), cursor), rec.handle)

	var last uint32
	for i := 1; i <= 5; i++ {
		m := rec.next(t, 10*time.Second)
		if m.UID <= last {
			t.Fatalf("uid %d after %d: not in UID order", m.UID, last)
		}
		last = m.UID
		if got, want := subject(t, m.Raw), fmt.Sprintf("move %d", i); got != want {
			t.Errorf("message %d: subject %q, want %q", i, got, want)
		}
		if got, want := header(t, m.Raw, "Delivered-To"), fmt.Sprintf("game+tok%d@example.test", i); got != want {
			t.Errorf("message %d: Delivered-To %q, want %q", i, got, want)
		}
		if m.UIDValidity == 0 || m.Mailbox != "INBOX" || m.TooLarge || m.Size != int64(len(m.Raw)) {
			t.Errorf("message %d: bad metadata %+v", i, m)
		}
	}

	// Mail arriving while the Inbox runs is picked up too.
	sendTo(t, srv, "game@example.test", "move 6")
	if m := rec.next(t, 10*time.Second); subject(t, m.Raw) != "move 6" {
		t.Errorf("got %q, want move 6", subject(t, m.Raw))
	}
	waitMarked(t, inboxConfig(srv), 6)
	stop()

	// Every message is marked; none is offered twice, even by a new Inbox.
	msgs, err := ReadAll(context.Background(), inboxConfig(srv), "")
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 6 {
		t.Fatalf("INBOX has %d messages, want 6", len(msgs))
	}
	for _, m := range msgs {
		if !m.HasFlag(DefaultProcessed) {
			t.Errorf("uid %d not marked %s: flags %v", m.UID, DefaultProcessed, m.Flags)
		}
		if m.HasFlag(`\Seen`) {
			t.Errorf("uid %d marked \\Seen; the Inbox should only peek", m.UID)
		}
	}
	rec2 := newRecorder(cursor)
	runInbox(t, newTestInbox(t, inboxConfig(srv), cursor), rec2.handle)
	sendTo(t, srv, "game@example.test", "move 7")
	if m := rec2.next(t, 10*time.Second); subject(t, m.Raw) != "move 7" {
		t.Fatalf("restarted inbox got %q first, want move 7", subject(t, m.Raw))
	}
	rec2.none(t, 500*time.Millisecond)
}

func TestInboxKeywordAloneWithoutCursor(t *testing.T) {
	t.Parallel()
	// Without a cursor the keyword is what keeps messages from coming back.
	srv := testServers(t)
	sendTo(t, srv, "game@example.test", "one")
	rec := newRecorder(nil)
	stop := runInbox(t, newTestInbox(t, inboxConfig(srv), nil), rec.handle)
	rec.next(t, 10*time.Second)
	waitMarked(t, inboxConfig(srv), 1)
	stop()
	sendTo(t, srv, "game@example.test", "two")
	rec2 := newRecorder(nil)
	runInbox(t, newTestInbox(t, inboxConfig(srv), nil), rec2.handle)
	if m := rec2.next(t, 10*time.Second); subject(t, m.Raw) != "two" {
		t.Fatalf("got %q, want two", subject(t, m.Raw))
	}
	rec2.none(t, 500*time.Millisecond)
}

func TestInboxRetriesAfterHandlerError(t *testing.T) {
	t.Parallel()
	srv := testServers(t)
	for i := 1; i <= 3; i++ {
		sendTo(t, srv, "game@example.test", fmt.Sprintf("m%d", i))
	}
	cursor := newMemCursor()
	rec := newRecorder(cursor)
	// Refuse the second message twice.
	rec.fail = func(m Message, call int) bool { return m.UID == 2 && (call == 2 || call == 3) }
	runInbox(t, newTestInbox(t, inboxConfig(srv), cursor), rec.handle)

	for i := 1; i <= 3; i++ {
		m := rec.next(t, 10*time.Second)
		if got, want := subject(t, m.Raw), fmt.Sprintf("m%d", i); got != want {
			t.Fatalf("accepted %q, want %q", got, want)
		}
	}
	rec.none(t, 500*time.Millisecond)
	if got, want := fmt.Sprint(rec.callUIDs()), "[1 2 2 2 3]"; got != want {
		t.Errorf("handler calls %s, want %s: a refused message must be retried before later ones", got, want)
	}
	msgs, err := ReadAll(context.Background(), inboxConfig(srv), "")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range msgs {
		if !m.HasFlag(DefaultProcessed) {
			t.Errorf("uid %d not marked", m.UID)
		}
	}
}

func TestInboxUIDValidityChangeStartsOver(t *testing.T) {
	t.Parallel()
	srv := testServers(t)
	sendTo(t, srv, "game@example.test", "old 1")
	sendTo(t, srv, "game@example.test", "old 2")
	cursor := newMemCursor()
	rec := newRecorder(cursor)
	stop := runInbox(t, newTestInbox(t, inboxConfig(srv), cursor), rec.handle)
	first := rec.next(t, 10*time.Second)
	rec.next(t, 10*time.Second)
	stop()

	// The folder is re-created: new UIDVALIDITY, and UIDs start at 1 again,
	// below the cursor's lastUID. Without the reset they would be skipped.
	if err := srv.ResetMailbox("game@example.test", "INBOX"); err != nil {
		t.Fatal(err)
	}
	sendTo(t, srv, "game@example.test", "new 1")
	rec2 := newRecorder(cursor)
	runInbox(t, newTestInbox(t, inboxConfig(srv), cursor), rec2.handle)
	m := rec2.next(t, 10*time.Second)
	if subject(t, m.Raw) != "new 1" || m.UID != 1 {
		t.Fatalf("got %q uid %d, want new 1 with uid 1", subject(t, m.Raw), m.UID)
	}
	if m.UIDValidity == first.UIDValidity {
		t.Fatalf("UIDVALIDITY unchanged (%d) after reset", m.UIDValidity)
	}
}

// TestInboxCursorBeyondUIDNext: a server that lost its mail and hands out
// the same UIDVALIDITY again (the embedded servers of old, after a
// restart) must not make pbem skip mail: a cursor past UIDNEXT is not
// trusted, and the folder is read from the start.
func TestInboxCursorBeyondUIDNext(t *testing.T) {
	t.Parallel()
	srv := testServers(t)
	sendTo(t, srv, "game@example.test", "new 1")
	sendTo(t, srv, "game@example.test", "new 2")
	cursor := newMemCursor()
	// The cursor of an earlier life: same UIDVALIDITY, four mails read.
	cursor.set("INBOX", uidValidityOf(t, srv), 4)
	rec := newRecorder(cursor)
	runInbox(t, newTestInbox(t, inboxConfig(srv), cursor), rec.handle)
	for _, want := range []string{"new 1", "new 2"} {
		if got := subject(t, rec.next(t, 10*time.Second).Raw); got != want {
			t.Fatalf("got %q, want %q", got, want)
		}
	}
}

// TestInboxRereadsAfterRestore: a database restored from a backup has an
// older cursor, and the mail handled since was flagged processed. It is
// read again, so that the handler can apply what it has no record of.
func TestInboxRereadsAfterRestore(t *testing.T) {
	t.Parallel()
	srv := testServers(t)
	for _, s := range []string{"one", "two", "three"} {
		sendTo(t, srv, "game@example.test", s)
	}
	cursor := newMemCursor()
	rec := newRecorder(cursor)
	stop := runInbox(t, newTestInbox(t, inboxConfig(srv), cursor), rec.handle)
	var first Message
	for i := 0; i < 3; i++ {
		m := rec.next(t, 10*time.Second)
		if i == 0 {
			first = m
		}
	}
	waitMarked(t, inboxConfig(srv), 3)
	stop()

	cursor.set("INBOX", first.UIDValidity, first.UID) // the backup's cursor
	rec2 := newRecorder(cursor)
	runInbox(t, newTestInbox(t, inboxConfig(srv), cursor), rec2.handle)
	for _, want := range []string{"two", "three"} {
		if got := subject(t, rec2.next(t, 10*time.Second).Raw); got != want {
			t.Fatalf("after the restore: got %q, want %q", got, want)
		}
	}
}

func TestInboxRepairsCommittedButUnmarked(t *testing.T) {
	t.Parallel()
	// The handler committed UIDs 1 and 2, then the process died before the
	// keyword reached the server. A new Inbox marks them and offers only 3.
	srv := testServers(t)
	for i := 1; i <= 3; i++ {
		sendTo(t, srv, "game@example.test", fmt.Sprintf("m%d", i))
	}
	probe := newRecorder(nil)
	probe.fail = func(Message, int) bool { return true }
	stop := runInbox(t, newTestInbox(t, inboxConfig(srv), nil), probe.handle)
	testlib.WaitWithin(t, 10*time.Second, "a handler call", func() bool { return len(probe.callUIDs()) > 0 })
	stop()

	msgs, err := ReadAll(context.Background(), inboxConfig(srv), "")
	if err != nil || len(msgs) != 3 || msgs[0].HasFlag(DefaultProcessed) {
		t.Fatalf("setup: %v %+v", err, msgs)
	}
	cursor := newMemCursor()
	// Learn the UIDVALIDITY the way the daemon would have.
	validity := uidValidityOf(t, srv)
	cursor.set("INBOX", validity, 2)
	rec := newRecorder(cursor)
	runInbox(t, newTestInbox(t, inboxConfig(srv), cursor), rec.handle)
	if m := rec.next(t, 10*time.Second); m.UID != 3 {
		t.Fatalf("got uid %d, want 3", m.UID)
	}
	rec.none(t, 300*time.Millisecond)
	msgs, err = ReadAll(context.Background(), inboxConfig(srv), "")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range msgs {
		if !m.HasFlag(DefaultProcessed) {
			t.Errorf("uid %d not marked after repair", m.UID)
		}
	}
}

// uidValidityOf reads game's INBOX UIDVALIDITY through an Inbox whose
// handler refuses everything.
func uidValidityOf(t *testing.T, srv *embedded.Servers) uint32 {
	t.Helper()
	got := make(chan uint32, 1)
	in := newTestInbox(t, inboxConfig(srv), nil)
	stop := runInbox(t, in, func(ctx context.Context, m Message) error {
		select {
		case got <- m.UIDValidity:
		default:
		}
		return fmt.Errorf("probe only")
	})
	defer stop()
	select {
	case v := <-got:
		return v
	case <-time.After(10 * time.Second):
		t.Fatal("no message to learn UIDVALIDITY from")
		return 0
	}
}

func TestInboxIdleWakesUp(t *testing.T) {
	srv := testServers(t)
	cfg := inboxConfig(srv)
	// Polling and refresh are a minute away: only IDLE can deliver within
	// the deadline below.
	cfg.PollInterval = time.Minute
	cfg.IdleRefresh = time.Minute
	obs := &searchCounter{}
	cfg.Observer = obs
	rec := newRecorder(newMemCursor())
	var before atomic.Int64 // the searches made when the first mail was handled
	runInbox(t, newTestInbox(t, cfg, rec.cursor), func(ctx context.Context, m Message) error {
		before.CompareAndSwap(0, obs.searches.Load())
		return rec.handle(ctx, m)
	})

	sendTo(t, srv, "game@example.test", "first")
	rec.next(t, 15*time.Second)
	// The search after the first mail's comes once the short IDLE that
	// follows a find has ended; the IDLE after it is the quiet one, a
	// minute long. Mail again once the Inbox is in it.
	testlib.WaitWithin(t, 15*time.Second, "the search after the first mail's", func() bool {
		return obs.searches.Load() > before.Load()
	})
	sent := time.Now()
	sendTo(t, srv, "game+x@example.test", "second")
	m := rec.next(t, 15*time.Second)
	if subject(t, m.Raw) != "second" {
		t.Fatalf("got %q", subject(t, m.Raw))
	}
	t.Logf("IDLE delivered in %v", time.Since(sent))
}

func TestInboxPollsWithoutIdle(t *testing.T) {
	t.Parallel()
	srv := testServers(t)
	cfg := inboxConfig(srv)
	cfg.DisableIdle = true
	cfg.PollInterval = 200 * time.Millisecond
	obs := &searchCounter{}
	cfg.Observer = obs
	rec := newRecorder(newMemCursor())
	runInbox(t, newTestInbox(t, cfg, rec.cursor), rec.handle)
	// Mail after the first search, so that only a poll can find it.
	testlib.WaitWithin(t, 10*time.Second, "the first search", func() bool { return obs.searches.Load() > 0 })
	for i := 1; i <= 3; i++ {
		sendTo(t, srv, "game@example.test", fmt.Sprintf("p%d", i))
	}
	for i := 1; i <= 3; i++ {
		if m := rec.next(t, 10*time.Second); subject(t, m.Raw) != fmt.Sprintf("p%d", i) {
			t.Fatalf("got %q", subject(t, m.Raw))
		}
	}
}

func TestInboxReconnectsAfterServerRestart(t *testing.T) {
	t.Parallel()
	srv := testServers(t)
	cursor := newMemCursor()
	rec := newRecorder(cursor)
	runInbox(t, newTestInbox(t, inboxConfig(srv), cursor), rec.handle)
	sendTo(t, srv, "game@example.test", "before")
	rec.next(t, 10*time.Second)

	for round := 1; round <= 2; round++ {
		if err := srv.RestartIMAP(); err != nil {
			t.Fatal(err)
		}
		subj := fmt.Sprintf("after restart %d", round)
		sendTo(t, srv, "game@example.test", subj)
		if m := rec.next(t, 20*time.Second); subject(t, m.Raw) != subj {
			t.Fatalf("got %q, want %q", subject(t, m.Raw), subj)
		}
	}
	rec.none(t, 300*time.Millisecond)
}

func TestInboxReconnectsWhileServerIsDown(t *testing.T) {
	t.Parallel()
	// The server is away for a while; Run keeps trying and then delivers.
	srv := testServers(t)
	cfg := inboxConfig(srv)
	srv.Close()
	rec := newRecorder(newMemCursor())
	in := newTestInbox(t, cfg, rec.cursor)
	runInbox(t, in, rec.handle)
	time.Sleep(500 * time.Millisecond)

	srv2, err := embedded.Start(context.Background(), embedded.Config{
		IMAPAddr: cfg.Addr, SMTPAddr: "127.0.0.1:0", Domain: "example.test",
		Password: testPassword, Logger: testLogger(),
	})
	if err != nil {
		t.Fatal(err)
	}
	defer srv2.Close()
	sendTo(t, srv2, "game@example.test", "back")
	if m := rec.next(t, 20*time.Second); subject(t, m.Raw) != "back" {
		t.Fatalf("got %q", subject(t, m.Raw))
	}
}

func TestInboxMovesToProcessedFolder(t *testing.T) {
	t.Parallel()
	srv := testServers(t)
	for i := 1; i <= 3; i++ {
		sendTo(t, srv, "game@example.test", fmt.Sprintf("f%d", i))
	}
	cfg := inboxConfig(srv)
	cfg.Processed = "Processed"
	cursor := newMemCursor()
	rec := newRecorder(cursor)
	stop := runInbox(t, newTestInbox(t, cfg, cursor), rec.handle)
	for i := 1; i <= 3; i++ {
		if m := rec.next(t, 10*time.Second); subject(t, m.Raw) != fmt.Sprintf("f%d", i) {
			t.Fatalf("got %q", subject(t, m.Raw))
		}
	}
	// One more after the moves: the server's duplicate EXPUNGE responses
	// must not confuse the session.
	sendTo(t, srv, "game@example.test", "f4")
	if m := rec.next(t, 10*time.Second); subject(t, m.Raw) != "f4" {
		t.Fatalf("got %q", subject(t, m.Raw))
	}
	rec.none(t, 300*time.Millisecond)
	waitEmpty(t, cfg)
	stop()

	cfg.Mailbox = "Processed"
	done, err := ReadAll(context.Background(), cfg, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(done) != 4 {
		t.Fatalf("Processed has %d messages, want 4", len(done))
	}
	for i, m := range done {
		if got, want := subject(t, m.Raw), fmt.Sprintf("f%d", i+1); got != want {
			t.Errorf("Processed[%d] = %q, want %q", i, got, want)
		}
	}
}

func TestInboxTooLargeGetsHeaderOnly(t *testing.T) {
	t.Parallel()
	srv := testServers(t)
	big := bytes.Repeat([]byte("0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcd\r\n"), 100)
	raw := append(testMessage("alice@example.test", "game@example.test", "big"), big...)
	s, err := NewSender(SenderConfig{Addr: srv.SMTPAddr()})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Send(context.Background(), "alice@example.test", []string{"game@example.test"}, raw); err != nil {
		t.Fatal(err)
	}
	sendTo(t, srv, "game@example.test", "small")

	cfg := inboxConfig(srv)
	cfg.MaxSize = 4096
	rec := newRecorder(newMemCursor())
	runInbox(t, newTestInbox(t, cfg, rec.cursor), rec.handle)
	m := rec.next(t, 10*time.Second)
	if !m.TooLarge || m.Size <= 4096 {
		t.Fatalf("big message: TooLarge=%v Size=%d", m.TooLarge, m.Size)
	}
	if subject(t, m.Raw) != "big" || bytes.Contains(m.Raw, []byte("0123456789")) || len(m.Raw) > 1024 {
		t.Fatalf("big message: want the header only, got %d bytes", len(m.Raw))
	}
	m = rec.next(t, 10*time.Second)
	if m.TooLarge || subject(t, m.Raw) != "small" {
		t.Fatalf("small message: TooLarge=%v subject %q", m.TooLarge, subject(t, m.Raw))
	}
}

func TestNewInboxRejectsBadConfig(t *testing.T) {
	t.Parallel()
	for _, cfg := range []InboxConfig{
		{},
		{Addr: "127.0.0.1:1"},
		{Addr: "127.0.0.1:1", Username: "u", Security: "ssl"},
		{Addr: "127.0.0.1:1", Username: "u", Processed: "INBOX"},
		{Addr: "127.0.0.1:1", Username: "u", Processed: "$bad keyword"},
	} {
		if _, err := NewInbox(cfg, nil); err == nil {
			t.Errorf("NewInbox(%+v) succeeded", cfg)
		}
	}
}

// crashAfterCommit returns a handler that commits the first message to the
// cursor and then "crashes": it cancels the Inbox's context before the
// Inbox can mark the message.
func crashAfterCommit(cursor *memCursor, cancel context.CancelFunc, committed chan<- Message) Handler {
	return func(ctx context.Context, m Message) error {
		cursor.commit(m)
		cancel()
		committed <- m
		return nil
	}
}

// testCrashBetweenCommitAndMark runs the crash scenario against cfg: the
// committed message is never offered again and ends up marked.
func testCrashBetweenCommitAndMark(t *testing.T, cfg InboxConfig, send func(subj string)) {
	send("crash 1")
	send("crash 2")
	cursor := newMemCursor()
	ctx, cancel := context.WithCancel(context.Background())
	committed := make(chan Message, 1)
	in := newTestInbox(t, cfg, cursor)
	done := make(chan error, 1)
	go func() { done <- in.Run(ctx, crashAfterCommit(cursor, cancel, committed)) }()
	var first Message
	select {
	case first = <-committed:
	case <-time.After(30 * time.Second):
		t.Fatal("no message handled")
	}
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("Run did not stop")
	}

	// The restarted daemon: same cursor, new Inbox.
	rec := newRecorder(cursor)
	runInbox(t, newTestInbox(t, cfg, cursor), rec.handle)
	m := rec.next(t, 30*time.Second)
	if m.UID == first.UID {
		t.Fatalf("uid %d offered again after it was committed", m.UID)
	}
	if subject(t, m.Raw) == subject(t, first.Raw) {
		t.Fatalf("%q offered twice", subject(t, m.Raw))
	}
	rec.none(t, 500*time.Millisecond)
	waitMarked(t, cfg, 2)
}

func TestInboxCrashBetweenCommitAndMark(t *testing.T) {
	t.Parallel()
	srv := testServers(t)
	testCrashBetweenCommitAndMark(t, inboxConfig(srv), func(subj string) {
		sendTo(t, srv, "game@example.test", subj)
	})
}

// batchRecorder is a BatchHandler that commits to a cursor and reports
// each call's UIDs. commit, if set, says how many of a call to commit.
type batchRecorder struct {
	cursor *memCursor
	calls  chan []uint32
	commit func(call int, msgs []Message) int
	n      int
}

func (r *batchRecorder) handle(ctx context.Context, msgs []Message) (int, error) {
	r.n++
	uids := make([]uint32, len(msgs))
	for i, m := range msgs {
		uids[i] = m.UID
	}
	n := len(msgs)
	if r.commit != nil {
		n = r.commit(r.n, msgs)
	}
	for _, m := range msgs[:n] {
		r.cursor.commit(m)
	}
	r.calls <- uids
	if n < len(msgs) {
		return n, fmt.Errorf("refusing uid %d", msgs[n].UID)
	}
	return n, nil
}

// TestInboxBatches: mail found together is handed over in batches of at
// most BatchSize, in UID order; what a batch does not commit is offered
// again first, after RetryDelay, and nothing after it overtakes it.
// Every committed message is marked.
func TestInboxBatches(t *testing.T) {
	t.Parallel()
	srv := testServers(t)
	for i := 1; i <= 7; i++ {
		sendTo(t, srv, "game@example.test", fmt.Sprintf("move %d", i))
	}
	cfg := inboxConfig(srv)
	cfg.BatchSize = 3
	rec := &batchRecorder{cursor: newMemCursor(), calls: make(chan []uint32, 10)}
	rec.commit = func(call int, msgs []Message) int {
		if call == 1 {
			return 2 // the third fails once
		}
		return len(msgs)
	}
	in := newTestInbox(t, cfg, rec.cursor)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- in.RunBatch(ctx, rec.handle) }()
	var got [][]uint32
	for seen := 0; seen < 7; {
		select {
		case uids := <-rec.calls:
			got = append(got, uids)
			if len(got) == 1 {
				seen += 2
			} else {
				seen += len(uids)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("batches so far %v: no more within 10 s", got)
		}
	}
	waitMarked(t, cfg, 7)
	cancel()
	if err := <-done; err != context.Canceled {
		t.Errorf("RunBatch returned %v", err)
	}
	want := fmt.Sprint([][]uint32{{1, 2, 3}, {3, 4, 5}, {6, 7}})
	if fmt.Sprint(got) != want {
		t.Errorf("batches %v, want %s", got, want)
	}
}

// TestInboxBatchBytes: a batch stops before BatchBytes (counting each
// message at its size), but holds one message however large.
func TestInboxBatchBytes(t *testing.T) {
	t.Parallel()
	srv := testServers(t)
	for i := 1; i <= 3; i++ {
		sendTo(t, srv, "game@example.test", fmt.Sprintf("move %d", i))
	}
	cfg := inboxConfig(srv)
	cfg.BatchBytes = 1 // smaller than any message
	rec := &batchRecorder{cursor: newMemCursor(), calls: make(chan []uint32, 10)}
	in := newTestInbox(t, cfg, rec.cursor)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- in.RunBatch(ctx, rec.handle) }()
	for i := uint32(1); i <= 3; i++ {
		select {
		case uids := <-rec.calls:
			if fmt.Sprint(uids) != fmt.Sprint([]uint32{i}) {
				t.Errorf("batch %d holds %v, want [%d] alone", i, uids, i)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("no batch %d within 10 s", i)
		}
	}
	cancel()
	<-done
}

// searchCounter is an InboxObserver that counts sessions and searches,
// for a test to wait for the Inbox's next step.
type searchCounter struct {
	connected, searches atomic.Int64
}

func (c *searchCounter) Connected()         { c.connected.Add(1) }
func (c *searchCounter) Searched(time.Time) { c.searches.Add(1) }
