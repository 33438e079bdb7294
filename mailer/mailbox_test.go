package mailer

import (
	"context"
	"testing"
	"time"
)

func newTestReader(t *testing.T, cfg InboxConfig) *MailboxReader {
	t.Helper()
	r, err := NewMailboxReader(cfg, "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

func subjects(t *testing.T, msgs []StoredMessage) []string {
	t.Helper()
	var out []string
	for _, m := range msgs {
		out = append(out, subject(t, m.Raw))
	}
	return out
}

// TestMailboxReaderKeepsSession: reads share one session, each returns
// only the mail above the UID asked (never the highest UID again, which
// UID n:* matches), and mail that arrives while the reader idles is
// announced on Changed.
func TestMailboxReaderKeepsSession(t *testing.T) {
	t.Parallel()
	srv := testServers(t)
	r := newTestReader(t, inboxConfig(srv))
	ctx := context.Background()

	none, err := r.ReadSince(ctx, 0)
	if err != nil || len(none) != 0 {
		t.Fatalf("empty mailbox: %d messages, %v", len(none), err)
	}
	first := r.c
	if !r.Idling() {
		t.Fatal("the embedded server offers IDLE, but the reader does not idle")
	}
	sendTo(t, srv, "game@example.test", "one")
	sendTo(t, srv, "game@example.test", "two")
	select {
	case <-r.Changed():
	case <-time.After(10 * time.Second):
		t.Fatal("no notice of new mail while idling")
	}
	got, err := r.ReadSince(ctx, 0)
	if err != nil || len(got) != 2 || subjects(t, got)[0] != "one" || subjects(t, got)[1] != "two" {
		t.Fatalf("after two mails: %v, %v", subjects(t, got), err)
	}
	last := got[1].UID
	again, err := r.ReadSince(ctx, last)
	if err != nil || len(again) != 0 {
		t.Fatalf("nothing above the last UID: %v, %v", subjects(t, again), err)
	}
	newer, err := r.ReadSince(ctx, got[0].UID)
	if err != nil || len(newer) != 1 || subjects(t, newer)[0] != "two" {
		t.Fatalf("above the first: %v, %v", subjects(t, newer), err)
	}
	// Mail that arrives between two reads, notice or not, is found by
	// the next read.
	sendTo(t, srv, "game@example.test", "three")
	three, err := r.ReadSince(ctx, last)
	if err != nil || len(three) != 1 || subjects(t, three)[0] != "three" {
		t.Fatalf("the third mail: %v, %v", subjects(t, three), err)
	}
	if r.c != first {
		t.Fatal("the reader dialled again without a failure")
	}
	// Reads change nothing: the mail is not marked \Seen.
	for _, m := range three {
		if m.HasFlag(`\Seen`) {
			t.Fatalf("uid %d was marked seen: %v", m.UID, m.Flags)
		}
	}
}

// TestMailboxReaderRedials: a kept session the server cut is dialled
// again within the read, which finds the mail.
func TestMailboxReaderRedials(t *testing.T) {
	t.Parallel()
	srv := testServers(t)
	r := newTestReader(t, inboxConfig(srv))
	ctx := context.Background()
	sendTo(t, srv, "game@example.test", "one")
	got, err := r.ReadSince(ctx, 0)
	if err != nil || len(got) != 1 {
		t.Fatalf("first read: %d messages, %v", len(got), err)
	}
	first := r.c
	if err := srv.RestartIMAP(); err != nil {
		t.Fatal(err)
	}
	<-first.Closed() // the restart cut the kept session
	sendTo(t, srv, "game@example.test", "two")
	two, err := r.ReadSince(ctx, got[0].UID)
	if err != nil || len(two) != 1 || subjects(t, two)[0] != "two" {
		t.Fatalf("read after the restart: %v, %v", subjects(t, two), err)
	}
	if r.c == first || !r.Idling() {
		t.Fatal("the reader did not dial again and idle")
	}
}

// TestMailboxReaderClose: Close logs out, and a read after it fails
// without dialling.
func TestMailboxReaderClose(t *testing.T) {
	t.Parallel()
	srv := testServers(t)
	r := newTestReader(t, inboxConfig(srv))
	ctx := context.Background()
	if _, err := r.ReadSince(ctx, 0); err != nil {
		t.Fatal(err)
	}
	c := r.c
	if err := r.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}
	<-c.Closed()
	if _, err := r.ReadSince(ctx, 0); err == nil {
		t.Fatal("a read after Close succeeded")
	}
	if r.c != nil {
		t.Fatal("a read after Close dialled")
	}
}

// TestMailboxReaderRefused: a wrong password fails the read, with no
// session kept.
func TestMailboxReaderRefused(t *testing.T) {
	t.Parallel()
	srv := testServers(t)
	cfg := inboxConfig(srv)
	cfg.Password = "wrong"
	r := newTestReader(t, cfg)
	if _, err := r.ReadSince(context.Background(), 0); err == nil {
		t.Fatal("a read with a wrong password succeeded")
	}
	if r.c != nil || r.Idling() {
		t.Fatal("a refused session was kept")
	}
}

// TestMailboxReaderFirstReadSeesMail: the first read of a new session
// finds the mail already there. go-imap v2 (beta.8) ends SELECT's Wait
// before it records the selected mailbox on the client, so a reader that
// asked the client how many messages SELECT found could see none on a
// fresh session, now and then: a test that read an inbox once, at its
// end, found it empty (TestCrashSweeps, one run in ten). Many fresh
// sessions make the window likely to be hit when it is open.
func TestMailboxReaderFirstReadSeesMail(t *testing.T) {
	t.Parallel()
	srv := testServers(t)
	sendTo(t, srv, "game@example.test", "one")
	ctx := context.Background()
	const sessions = 300
	for i := range sessions {
		r, err := NewMailboxReader(inboxConfig(srv), "")
		if err != nil {
			t.Fatal(err)
		}
		got, err := r.ReadSince(ctx, 0)
		r.Close()
		if err != nil || len(got) != 1 {
			t.Fatalf("session %d of %d: the first read found %d messages (%v), want the 1 in the mailbox", i+1, sessions, len(got), err)
		}
	}
}
