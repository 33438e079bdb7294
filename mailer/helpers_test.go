package mailer

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/mail"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pbem/pbem/internal/testlib"
)

// testLogger logs to stderr only when PBEM_TEST_VERBOSE is set; the reconnect
// warnings are expected noise otherwise.
func testLogger() *slog.Logger {
	if os.Getenv("PBEM_TEST_VERBOSE") != "" {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}

// memCursor is a Cursor kept in memory, updated by the test's handler the
// way the daemon updates its store in the message's transaction.
type memCursor struct {
	mu       sync.Mutex
	validity map[string]uint32
	last     map[string]uint32
}

func newMemCursor() *memCursor {
	return &memCursor{validity: map[string]uint32{}, last: map[string]uint32{}}
}

func (c *memCursor) ResumeAt(ctx context.Context, mailbox string) (uint32, uint32, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.validity[mailbox], c.last[mailbox], nil
}

func (c *memCursor) commit(m Message) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.validity[m.Mailbox] = m.UIDValidity
	c.last[m.Mailbox] = m.UID
}

func (c *memCursor) set(mailbox string, validity, last uint32) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.validity[mailbox] = validity
	c.last[mailbox] = last
}

// recorder is a Handler that commits to a cursor and reports every message
// it accepted on a channel. fail, if set, decides whether to refuse a call.
type recorder struct {
	cursor *memCursor
	got    chan Message
	mu     sync.Mutex
	calls  []uint32 // UIDs of every call, accepted or not
	fail   func(m Message, call int) bool
}

func newRecorder(c *memCursor) *recorder {
	return &recorder{cursor: c, got: make(chan Message, 100)}
}

func (r *recorder) handle(ctx context.Context, m Message) error {
	r.mu.Lock()
	r.calls = append(r.calls, m.UID)
	n := len(r.calls)
	fail := r.fail
	r.mu.Unlock()
	if fail != nil && fail(m, n) {
		return fmt.Errorf("refusing uid %d on call %d", m.UID, n)
	}
	if r.cursor != nil {
		r.cursor.commit(m)
	}
	r.got <- m
	return nil
}

func (r *recorder) callUIDs() []uint32 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]uint32(nil), r.calls...)
}

// next waits for the next accepted message.
func (r *recorder) next(t *testing.T, within time.Duration) Message {
	t.Helper()
	select {
	case m := <-r.got:
		return m
	case <-time.After(within):
		t.Fatalf("no message handled within %v (calls so far: %v)", within, r.callUIDs())
		return Message{}
	}
}

// none checks that nothing more is accepted for a while.
func (r *recorder) none(t *testing.T, wait time.Duration) {
	t.Helper()
	select {
	case m := <-r.got:
		t.Fatalf("unexpected message uid %d subject %q", m.UID, subject(t, m.Raw))
	case <-time.After(wait):
	}
}

// runInbox runs in until the test ends (or stop is called) and checks that
// Run returned only because its context ended.
func runInbox(t *testing.T, in *Inbox, h Handler) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- in.Run(ctx, h) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			select {
			case err := <-done:
				if err != context.Canceled {
					t.Errorf("Run returned %v, want context.Canceled", err)
				}
			case <-time.After(30 * time.Second):
				t.Errorf("Run did not return within 30s of cancel")
			}
		})
	}
	t.Cleanup(stop)
	return stop
}

// testMessage builds a small message with a deterministic Message-ID.
func testMessage(from, to, subj string) []byte {
	return []byte("From: " + from + "\r\n" +
		"To: " + to + "\r\n" +
		"Subject: " + subj + "\r\n" +
		"Message-ID: <" + strings.ReplaceAll(subj, " ", "-") + "@pbem.test>\r\n" +
		"Date: Mon, 02 Jan 2006 15:04:05 +0000\r\n" +
		"\r\n" +
		"body of " + subj + "\r\n")
}

func subject(t *testing.T, raw []byte) string {
	t.Helper()
	msg, err := mail.ReadMessage(strings.NewReader(string(raw)))
	if err != nil {
		t.Fatalf("parse message: %v\n%s", err, raw)
	}
	return msg.Header.Get("Subject")
}

func header(t *testing.T, raw []byte, key string) string {
	t.Helper()
	msg, err := mail.ReadMessage(strings.NewReader(string(raw)))
	if err != nil {
		t.Fatalf("parse message: %v\n%s", err, raw)
	}
	return msg.Header.Get(key)
}

// waitMarked waits until the first n messages of cfg's mailbox carry the
// processed keyword. The handler sees a message before the Inbox marks it,
// so a test that stops the Inbox right after a handler call may stop it
// before the mark; with a cursor that is repaired later, without one the
// message comes again.
func waitMarked(t *testing.T, cfg InboxConfig, n int) {
	t.Helper()
	testlib.WaitWithin(t, 10*time.Second, fmt.Sprintf("%d marked messages", n), func() bool {
		msgs, err := ReadAll(context.Background(), cfg, "")
		if err != nil || len(msgs) < n {
			return false
		}
		for _, m := range msgs[:n] {
			if !m.HasFlag(DefaultProcessed) {
				return false
			}
		}
		return true
	})
}

// waitEmpty waits until cfg's mailbox is empty (moved messages are gone).
func waitEmpty(t *testing.T, cfg InboxConfig) {
	t.Helper()
	testlib.WaitWithin(t, 10*time.Second, cfg.Mailbox+" empty", func() bool {
		msgs, err := ReadAll(context.Background(), cfg, "")
		return err == nil && len(msgs) == 0
	})
}
