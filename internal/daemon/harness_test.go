package daemon

// The whole-loop harness: a world is a Service with its own SQLite file,
// a standing clock the test moves, and a fake mail system. Mail a player
// sends goes straight to HandleMail; mail the service sends lands, through
// the outbox (SendDue), in per-address inboxes the test reads. Nothing in
// a world is shared with another, so the tests that build one run in
// parallel.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-message/mail"

	"github.com/pbem/pbem/engine/games"
	"github.com/pbem/pbem/internal/loaded"
	"github.com/pbem/pbem/internal/outbox"
	"github.com/pbem/pbem/mailer"
	"github.com/pbem/pbem/store"
	"github.com/pbem/pbem/store/storetest"
	"github.com/pbem/pbem/templates"
)

// world is a service with a fake mail system: inbound mail goes straight
// to HandleMail, outbound mail into per-address inboxes.
type world struct {
	t     testing.TB
	svc   *Service
	st    *store.Store
	clock time.Time
	uid   uint32
	mu    sync.Mutex
	inbox map[string][]received
	logs  lockedBuffer // everything the service logged, debug included
	// authserv, when set, is the receiving server whose
	// Authentication-Results the service trusts, and send marks every
	// mail authenticated by it (authenticate).
	authserv string
}

// lockedBuffer collects log output from concurrent writers.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

type received struct {
	MessageID, InReplyTo, Subject, ReplyTo, Text string
	Auto                                         string
	HTML                                         string // the HTML part, "" for none
	References                                   []string
	// Headline is what the mail is about: the first paragraph of its
	// text in a game's thread, else its Subject (a mail outside any
	// thread starts with the marker).
	Headline string
	// Unsubscribe is the List-Unsubscribe field, UnsubscribePost the
	// List-Unsubscribe-Post field (one-click unsubscribe, RFC 8058).
	Unsubscribe, UnsubscribePost string
}

func newWorld(t testing.TB) *world {
	// The world's clock stands still while a test plays a whole game:
	// the per-address limits would see one minute of frantic mail. Tests
	// of the limits set their own.
	return newWorldConfig(t, func(c *Config) { c.Limits, c.Invitations = unlimited, unlimitedInvitations })
}

// unlimited are limits no test that plays a whole game reaches.
var unlimited = Limits{AnswersPerDay: 1 << 30, LobbyPerHour: 1 << 30, LoopPerMinute: 1 << 30}

// unlimitedInvitations are invitation limits no test that plays whole
// games reaches.
var unlimitedInvitations = InviteLimits{PerWeek: 1 << 30, PerInviter: 1 << 30, PerDay: 1 << 30}

// sendDue sends one batch of the due mail of svc through deliver, as
// `pbem serve`'s outbox does.
func sendDue(t testing.TB, svc *Service, deliver outbox.CourierFunc) (int, error) {
	t.Helper()
	out, err := svc.Outbox(deliver, testOutbox())
	if err != nil {
		t.Fatal(err)
	}
	return out.SendDue(context.Background())
}

// newWorldConfig is a world whose service runs with the defaults
// (testConfig) changed by override, if not nil.
func newWorldConfig(t testing.TB, override func(*Config)) *world {
	return newWorldAt(t, worldDatabase(t), override)
}

// newWorldAt is newWorldConfig with its database at path (a SQLite file
// or a PostgreSQL URL), for the tests that reach the file by other means
// too. A SQLite file that does not exist yet starts as a copy of the
// migrated one.
func newWorldAt(t testing.TB, path string, override func(*Config)) *world {
	return newWorldWith(t, path, override)
}

// newWorldWith is newWorldAt with its store opened with opts.
func newWorldWith(t testing.TB, path string, override func(*Config), opts ...store.Option) *world {
	cfg := testConfig()
	if override != nil {
		override(&cfg)
	}
	if _, err := os.Stat(path); !store.IsURL(path) && errors.Is(err, fs.ErrNotExist) {
		copyMigrated(t, path)
	}
	st, r := openWithTemplates(t, path, opts...)
	var err error
	w := &world{t: t, st: st, clock: time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC), inbox: map[string][]received{}}
	seeds := rand.New(rand.NewPCG(1, 2))
	w.svc, err = New(cfg, st, r, games.Lookup, games.Names(),
		WithClock(func() time.Time { return w.clock }),
		WithSeeds(seeds.Uint64),
		WithLogger(slog.New(slog.NewTextHandler(&w.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// send delivers a mail from a player to an address of the service, and
// sends what the service mailed.
func (w *world) send(from, to, body string, headers ...string) {
	w.t.Helper()
	w.handle(from, to, body, headers...)
	w.flush()
}

// handle delivers a mail from a player to an address of the service, and
// leaves what it mailed in the outbox.
func (w *world) handle(from, to, body string, headers ...string) {
	w.t.Helper()
	w.uid++
	var b strings.Builder
	subject := "Subject: Re: pbem\r\n"
	for _, h := range headers {
		if strings.HasPrefix(h, "Subject:") {
			subject = "" // the caller's own
		}
	}
	fmt.Fprintf(&b, "From: %s\r\nTo: %s\r\n%sMessage-ID: <m%d.%s>\r\nDate: Sat, 21 Nov 2026 10:00:00 +0000\r\n", from, to, subject, w.uid, from)
	for _, h := range headers {
		b.WriteString(h + "\r\n")
	}
	if w.authserv != "" {
		domain := strings.TrimSuffix(from[strings.LastIndex(from, "@")+1:], ">")
		fmt.Fprintf(&b, "Authentication-Results: %s; dmarc=pass header.from=%s\r\n", w.authserv, domain)
	}
	b.WriteString("\r\n" + body + "\r\n")
	raw := b.String()
	if err := w.svc.HandleMail(context.Background(), mailer.Message{Mailbox: "INBOX", UIDValidity: 1, UID: w.uid, Raw: []byte(raw)}); err != nil {
		w.t.Fatalf("handle mail from %s: %v", from, err)
	}
}

// authenticate makes w a deployment that authenticates senders: the
// service trusts mx.pbem.test's Authentication-Results, and send marks
// every mail as passed by it. pbem's bare address then takes every
// setting (bareSetting), as the tests of the settings themselves send
// them there.
func (w *world) authenticate() *world {
	w.authserv = "mx.pbem.test"
	w.svc.cfg.TrustAuthServID = w.authserv
	return w
}

// flush sends every due mail into the fake inboxes.
func (w *world) flush() {
	w.t.Helper()
	sendAllDue(w.t, w.svc, func(_ context.Context, from string, to []string, raw []byte) error {
		w.mu.Lock()
		defer w.mu.Unlock()
		w.inbox[to[0]] = append(w.inbox[to[0]], readMail(w.t, raw))
		return nil
	})
}

// sendAllDue sends the outbox's due mail through deliver until none is
// left: what the answers of one mail may queue, mail queued by sending
// included.
func sendAllDue(t testing.TB, svc *Service, deliver outbox.CourierFunc) {
	t.Helper()
	for {
		n, err := sendDue(t, svc, deliver)
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			return
		}
	}
}

func readMail(t testing.TB, raw []byte) received {
	r, err := mail.CreateReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	var m received
	m.MessageID, _ = r.Header.MessageID()
	if ids, _ := r.Header.MsgIDList("In-Reply-To"); len(ids) > 0 {
		m.InReplyTo = ids[0]
	}
	m.Subject, _ = r.Header.Subject()
	if rt, _ := r.Header.AddressList("Reply-To"); len(rt) > 0 {
		m.ReplyTo = rt[0].Address
	}
	m.Auto = r.Header.Get("Auto-Submitted")
	m.References, _ = r.Header.MsgIDList("References")
	m.Unsubscribe = r.Header.Get("List-Unsubscribe")
	m.UnsubscribePost = r.Header.Get("List-Unsubscribe-Post")
	p, err := r.NextPart()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(p.Body)
	m.Text = string(b)
	if p, err := r.NextPart(); err == nil {
		b, _ := io.ReadAll(p.Body)
		m.HTML = string(b)
	}
	m.Headline = m.Subject
	if first, rest, _ := strings.Cut(strings.ReplaceAll(m.Text, "\r\n", "\n"), "\n\n"); strings.HasPrefix(rest, "--- pbem") {
		m.Headline = strings.Join(strings.Fields(first), " ")
	}
	return m
}

func (w *world) last(addr string) received {
	w.t.Helper()
	box := w.inbox[addr]
	if len(box) == 0 {
		w.t.Fatalf("%s has no mail", addr)
	}
	return box[len(box)-1]
}

// startGame creates a game by mail and has everyone join; it returns the
// players' reply addresses.
func (w *world) startGame(game string, players ...string) (map[string]string, int64) {
	w.t.Helper()
	w.send(players[0], "pbem@example.test", "new "+game+" with "+strings.Join(players[1:], " "))
	reply := map[string]string{players[0]: w.last(players[0]).ReplyTo}
	for _, p := range players[1:] {
		inv := w.last(p)
		if !strings.Contains(inv.Text, "join") {
			w.t.Fatalf("invitation to %s does not say how to join:\n%s", p, inv.Text)
		}
		reply[p] = inv.ReplyTo
	}
	for _, p := range players[1:] {
		w.send(p, reply[p], "join")
	}
	return reply, w.gameOf(reply[players[0]])
}

// gameOf is the game of a seat's reply address.
func (w *world) gameOf(replyAddr string) int64 {
	w.t.Helper()
	seat, err := w.st.SeatByToken(context.Background(), strings.TrimSuffix(strings.TrimPrefix(replyAddr, "pbem+"), "@example.test"))
	if err != nil {
		w.t.Fatal(err)
	}
	return seat.GameID
}

// table reads a game as the service sees it.
func (w *world) loaded(id int64) *loaded.Game {
	w.t.Helper()
	var tb *loaded.Game
	err := w.st.Tx(context.Background(), func(tx *store.Tx) error {
		var err error
		tb, err = w.svc.workIn(context.Background(), tx).loadGame(id)
		return err
	})
	if err != nil {
		w.t.Fatal(err)
	}
	return tb
}

// playOut has every waiting player mail a random legal command (taken
// from what the engine offers) until the game ends; addrs are the seats'
// players, in seat order.
func (w *world) playOut(id int64, reply map[string]string, addrs []string, rng *rand.Rand) {
	w.t.Helper()
	seats := make(map[int]string, len(addrs))
	for i, a := range addrs {
		seats[i] = a
	}
	w.playPeople(id, reply, seats, rng)
}

// botGame creates a game of people and bots by mail (`new GAME with
// ... and ...`), has the invited people join, and returns their reply
// addresses and the game.
func (w *world) botGame(game, with string, people ...string) (map[string]string, int64) {
	w.t.Helper()
	w.send(people[0], "pbem@example.test", "new "+game+" with "+with)
	reply := map[string]string{people[0]: w.last(people[0]).ReplyTo}
	for _, p := range people[1:] {
		reply[p] = w.last(p).ReplyTo
	}
	for _, p := range people[1:] {
		w.send(p, reply[p], "join")
	}
	return reply, w.gameOf(reply[people[0]])
}

// playPeople has the people the game waits on mail random legal commands
// until it ends; the bots move by themselves. seats maps seat numbers to
// the people's addresses.
func (w *world) playPeople(id int64, reply map[string]string, seats map[int]string, rng *rand.Rand) {
	w.t.Helper()
	for steps := 0; ; steps++ {
		if steps > 500 {
			w.t.Fatal("the game does not end")
		}
		tb := w.loaded(id)
		if tb.State.Result().Finished {
			return
		}
		waiting := tb.State.Waiting()
		addr, ok := seats[waiting[0]]
		if !ok {
			w.t.Fatalf("after %d mails the game waits on seat %d, a bot's: %v", steps, waiting[0], waiting)
		}
		var cmds []string
		for _, o := range tb.State.Options(waiting[0]) {
			cmds = append(cmds, o.Commands...)
		}
		w.send(addr, reply[addr], cmds[rng.IntN(len(cmds))])
	}
}

// migrated is an empty database at the schema store.Open brings a file
// to, made once per test binary: a world starts from a copy of it, as
// migrating a new file for each of hundreds of worlds was about 12% of
// the whole-game tests' CPU under -race, more of the short tests'.
// store.Open still runs on the copy
// (and finds nothing to do); the migrations themselves are the store
// package's to test.
var migrated struct {
	once sync.Once
	path string
	err  error
}

// TestMain removes the migrated database when the tests are over.
func TestMain(m *testing.M) {
	code := m.Run()
	if migrated.path != "" {
		os.RemoveAll(filepath.Dir(migrated.path))
	}
	os.Exit(code)
}

// copyMigrated writes a copy of the migrated database at path.
func copyMigrated(t testing.TB, path string) {
	t.Helper()
	migrated.once.Do(func() {
		dir, err := os.MkdirTemp("", "pbem-daemon-test-")
		if err != nil {
			migrated.err = err
			return
		}
		migrated.path = filepath.Join(dir, "pbem.db")
		st, err := store.Open(context.Background(), migrated.path)
		if err != nil {
			migrated.err = err
			return
		}
		// Closing the last connection checkpoints the write-ahead log
		// into the file and removes it: the file alone is the database.
		if migrated.err = st.Close(); migrated.err != nil {
			return
		}
		if fi, err := os.Stat(migrated.path + "-wal"); err == nil && fi.Size() > 0 {
			migrated.err = fmt.Errorf("%s-wal holds %d bytes after the store closed", migrated.path, fi.Size())
		}
	})
	if migrated.err != nil {
		t.Fatalf("migrating the template database: %v", migrated.err)
	}
	b, err := os.ReadFile(migrated.path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// memDir is where dbDir makes its directories when it can: a file system
// in memory on Linux.
const memDir = "/dev/shm"

// dbDir is a directory of the test's own for a database, removed when
// the test ends; in memDir where the machine has it, else in t.TempDir.
// In memory SQLite's fsync, which the store makes at every commit
// (synchronous=FULL), costs nothing. On disk it took most of the time of
// a test that plays a game by mail, and what it guards against, a power
// cut, is not what these tests test: a process sees its own writes, and
// another process's, through the page cache either way.
func dbDir(t testing.TB) string {
	t.Helper()
	if !roomInMemory() {
		return t.TempDir()
	}
	dir, err := os.MkdirTemp(memDir, "pbem-daemon-test-")
	if err != nil {
		return t.TempDir()
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// memDirNeeds is the room memDir must have free for the tests to keep
// their databases there: the package's worlds, run in parallel, hold a
// few hundred MB at once; a container's /dev/shm is often 64 MB.
const memDirNeeds = 2 << 30

// roomInMemory reports whether memDir has memDirNeeds bytes free.
func roomInMemory() bool {
	var fs syscall.Statfs_t
	if err := syscall.Statfs(memDir, &fs); err != nil {
		return false
	}
	return fs.Bavail*uint64(fs.Bsize) >= memDirNeeds
}

// worldDatabase is where a world keeps its store: a PostgreSQL schema of
// its own when the tests run on PostgreSQL (storetest.Database), else a
// SQLite file in a dbDir.
func worldDatabase(t testing.TB) string {
	t.Helper()
	if storetest.OnPostgres() {
		return storetest.Database(t)
	}
	return filepath.Join(dbDir(t), "pbem.db")
}

// mailMessage is raw as the IMAP inbox hands it over, at uid.
func mailMessage(uid uint32, raw string) mailer.Message {
	return mailer.Message{Mailbox: "INBOX", UIDValidity: 1, UID: uid, Raw: []byte(raw)}
}

// openWithTemplates opens the store at path for the test's time, and
// the templates of every game: what each service of a test is made of.
func openWithTemplates(t testing.TB, path string, opts ...store.Option) (*store.Store, *templates.Renderer) {
	t.Helper()
	st, err := store.Open(context.Background(), path, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	r, err := templates.New(games.All())
	if err != nil {
		t.Fatal(err)
	}
	return st, r
}
