package daemon

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"

	"github.com/emersion/go-smtp"
	"github.com/pbem/pbem/internal/config"
	"github.com/pbem/pbem/internal/testlib"
	"github.com/pbem/pbem/internal/tries"
	"github.com/pbem/pbem/mailer"
	"github.com/pbem/pbem/parser/hostile"
	"github.com/pbem/pbem/store"
)

// lmtpWorld is a world whose mail comes by LMTP: an LMTPServer on a
// loopback port, configured as pbem serve configures it, handing mail
// to the service's HandleBatch.
type lmtpWorld struct {
	*world
	addr string
}

func newLMTPWorld(t *testing.T) *lmtpWorld {
	t.Helper()
	w := newWorld(t)
	c := config.Default()
	c.Service.Address = "pbem@example.test"
	c.LMTP.Addr = "127.0.0.1:0"
	srv, err := mailer.NewLMTPServer(lmtpFrom(c, w.svc))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.RunBatch(ctx, w.svc.HandleBatch) }()
	t.Cleanup(func() {
		cancel()
		if err := testlib.Receive(t, done, "the LMTP server's stop"); err != nil {
			t.Errorf("LMTP server: %v", err)
		}
	})
	return &lmtpWorld{world: w, addr: srv.Addr()}
}

// deliver delivers raw by LMTP from the envelope sender to rcpts, as a
// mail server does, and returns each recipient's answer: nil for 250,
// else the *smtp.SMTPError (a refusal at RCPT, or the answer after
// DATA).
func (w *lmtpWorld) deliver(from string, rcpts []string, raw []byte) map[string]error {
	w.t.Helper()
	conn, err := net.Dial("tcp", w.addr)
	if err != nil {
		w.t.Fatal(err)
	}
	c := smtp.NewClientLMTP(conn)
	defer c.Close()
	if err := c.Hello("mx.example.test"); err != nil {
		w.t.Fatal(err)
	}
	if err := c.Mail(from, nil); err != nil {
		w.t.Fatal(err)
	}
	out := map[string]error{}
	var took []string
	for _, r := range rcpts {
		if err := c.Rcpt(r, nil); err != nil {
			out[r] = err
			continue
		}
		took = append(took, r)
	}
	if len(took) == 0 {
		return out
	}
	wc, err := c.Data()
	if err != nil {
		w.t.Fatal(err)
	}
	if _, err := wc.Write(raw); err != nil {
		w.t.Fatal(err)
	}
	_, err = wc.CloseWithLMTPResponse()
	var per smtp.LMTPDataError
	switch {
	case errors.As(err, &per):
		for _, r := range took {
			if e, ok := per[r]; ok {
				out[r] = e
			} else {
				out[r] = nil
			}
		}
	case err != nil:
		w.t.Fatalf("DATA: %v", err)
	default:
		for _, r := range took {
			out[r] = nil
		}
	}
	return out
}

// code is an answer's reply code: 250 for nil.
func code(err error) int {
	var se *smtp.SMTPError
	if errors.As(err, &se) {
		return se.Code
	}
	if err == nil {
		return 250
	}
	return -1
}

// rawMail is a player's mail; id "" leaves out the Message-ID.
func rawMail(from, to, id, body string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "From: %s\r\nTo: %s\r\nSubject: Re: pbem\r\n", from, to)
	if id != "" {
		fmt.Fprintf(&b, "Message-ID: <%s>\r\n", id)
	}
	fmt.Fprintf(&b, "Date: Sat, 21 Nov 2026 10:00:00 +0000\r\n\r\n%s\r\n", body)
	return []byte(b.String())
}

// padding is at least n bytes of short text lines.
func padding(n int) []byte {
	line := strings.Repeat("x", 98) + "\r\n"
	return []byte(strings.Repeat(line, n/len(line)+1))
}

func (w *lmtpWorld) inboundCount() int {
	w.t.Helper()
	all, err := w.st.AllInbound(context.Background())
	if err != nil {
		w.t.Fatal(err)
	}
	return len(all)
}

// A mail delivered by LMTP is answered 250 once it is committed: its
// record is in the store as soon as the client has the 250, and its
// answer is queued.
func TestLMTPAnswers250AfterCommit(t *testing.T) {
	t.Parallel()
	w := newLMTPWorld(t)
	got := w.deliver("alice@x.test", []string{"pbem@example.test"}, rawMail("alice@x.test", "pbem@example.test", "a1@x.test", "help"))
	if code(got["pbem@example.test"]) != 250 {
		t.Fatalf("answer %v, want 250", got)
	}
	in, err := w.st.InboundByMessageID(context.Background(), "a1@x.test")
	if err != nil {
		t.Fatalf("250 given, but the mail is not recorded: %v", err)
	}
	if in.Mailbox != mailer.LMTPMailbox || in.UID != 0 {
		t.Errorf("recorded as mailbox %q UID %d, want %q and no UID", in.Mailbox, in.UID, mailer.LMTPMailbox)
	}
	w.flush()
	if len(w.inbox["alice@x.test"]) != 1 {
		t.Fatalf("alice has %d answers, want 1", len(w.inbox["alice@x.test"]))
	}
}

// While the store cannot commit, every recipient is answered 4xx and
// nothing is recorded: the mail server keeps the mail. Delivered again
// once the store recovers it is applied, and delivered again after that
// (a crash between the commit and the 250, say) it is answered 250 and
// applied no second time.
func TestLMTPStoreFailsThenRedelivery(t *testing.T) {
	t.Parallel()
	w := newLMTPWorld(t)
	raw := rawMail("alice@x.test", "pbem@example.test", "new1@x.test", "new felix with bob@x.test carol@x.test")
	w.st.FailWrites(store.ErrUnavailable)
	got := w.deliver("alice@x.test", []string{"pbem@example.test"}, raw)
	if c := code(got["pbem@example.test"]); c/100 != 4 {
		t.Fatalf("store failing: answer %d (%v), want 4xx", c, got)
	}
	if n := w.inboundCount(); n != 0 {
		t.Fatalf("store failing: %d mails recorded, want 0", n)
	}
	w.st.FailWrites(nil)
	for try := range 3 {
		got = w.deliver("alice@x.test", []string{"pbem@example.test"}, raw)
		if c := code(got["pbem@example.test"]); c != 250 {
			t.Fatalf("delivery %d after recovery: answer %d (%v), want 250", try+1, c, got)
		}
	}
	if n := w.inboundCount(); n != 1 {
		t.Errorf("%d mails recorded, want 1", n)
	}
	w.flush()
	if n := len(w.inbox["bob@x.test"]); n != 1 {
		t.Errorf("bob was invited %d times, want once", n)
	}
}

// A mail with no Message-ID is known again by its bytes: delivered
// twice it is applied once, while two different such mails are both
// applied, each answered under a Message-ID of its own.
func TestLMTPNoMessageID(t *testing.T) {
	t.Parallel()
	w := newLMTPWorld(t)
	a := rawMail("alice@x.test", "pbem@example.test", "", "help")
	b := rawMail("alice@x.test", "pbem@example.test", "", "games")
	for _, raw := range [][]byte{a, a, b, b} {
		if got := w.deliver("alice@x.test", []string{"pbem@example.test"}, raw); code(got["pbem@example.test"]) != 250 {
			t.Fatalf("answer %v, want 250", got)
		}
	}
	if n := w.inboundCount(); n != 2 {
		t.Errorf("%d mails recorded, want 2 (one per different mail)", n)
	}
	w.flush()
	box := w.inbox["alice@x.test"]
	if len(box) != 2 || box[0].MessageID == box[1].MessageID {
		t.Fatalf("alice has %d answers, want 2 with different Message-IDs: %+v", len(box), box)
	}
}

// One mail to several of pbem's addresses is one mail: it is handed
// over once, for the seat's address when there is one, applied once,
// and every recipient of pbem's gets the same 250. A recipient that is
// not pbem's is refused alone, at RCPT.
func TestLMTPSeveralRecipients(t *testing.T) {
	t.Parallel()
	w := newLMTPWorld(t)
	players := []string{"a@x.test", "b@x.test", "c@x.test"}
	reply, id := w.startGame("felix", players...)
	tb := w.loaded(id)
	waiting := tb.State.Waiting()[0]
	turn := players[waiting]
	before := w.moves(id)
	cmd := tb.State.Options(waiting)[0].Commands[0]
	seat := reply[turn]
	// To: the bare address first, the seat's address after it, and one
	// the server does not take.
	rcpts := []string{"pbem@example.test", seat, "someone@elsewhere.test"}
	raw := rawMail(turn, "pbem@example.test", "multi@x.test", cmd)
	got := w.deliver(turn, rcpts, raw)
	if c := code(got["someone@elsewhere.test"]); c != 550 {
		t.Errorf("a recipient not pbem's: %d, want 550", c)
	}
	for _, r := range rcpts[:2] {
		if c := code(got[r]); c != 250 {
			t.Errorf("%s: %d, want 250", r, c)
		}
	}
	if n := w.moves(id) - before; n != 1 {
		t.Errorf("%d moves made, want 1 (the mail's command, once)", n)
	}
	in, err := w.st.InboundByMessageID(context.Background(), "multi@x.test")
	if err != nil || Outcome(in.Outcome) != OutcomeApplied {
		t.Errorf("record %+v (%v), want applied", in, err)
	}
}

// A mail seen both in the IMAP mailbox and by LMTP (a mail server that
// delivers to both) is applied once, whichever comes first.
func TestLMTPAndIMAPApplyOnce(t *testing.T) {
	t.Parallel()
	w := newLMTPWorld(t)
	raw := rawMail("alice@x.test", "pbem@example.test", "both@x.test", "new felix with bob@x.test carol@x.test")
	if err := w.svc.HandleMail(context.Background(), mailer.Message{Mailbox: "INBOX", UIDValidity: 1, UID: 1, Raw: raw}); err != nil {
		t.Fatal(err)
	}
	if got := w.deliver("alice@x.test", []string{"pbem@example.test"}, raw); code(got["pbem@example.test"]) != 250 {
		t.Fatalf("LMTP copy: %v, want 250", got)
	}
	w.flush()
	if n := w.inboundCount(); n != 1 {
		t.Errorf("%d records, want 1", n)
	}
	if n := len(w.inbox["bob@x.test"]); n != 1 {
		t.Errorf("bob invited %d times, want once", n)
	}
}

// The hostile corpus delivered by LMTP: every mail is answered (250, or
// 552 past the hard limit), nothing crashes, and a person's mail after
// them is handled.
func TestLMTPHostile(t *testing.T) {
	t.Parallel()
	w := newLMTPWorld(t)
	mails := append(hostile.Corpus(), hostile.Big(1_000_000)...)
	// Over max_message_bytes: read for its header and answered, as over
	// IMAP.
	mails = append(mails, hostile.Mail{Name: "over max_message_bytes", Raw: append(rawMail("big@x.test", "pbem@example.test", "big@x.test", "help"), padding(2<<20)...)})
	for i, m := range mails {
		raw := uniqueID(m.Raw, i)
		got := w.deliver("sender@x.test", []string{"pbem@example.test"}, raw)
		if c := code(got["pbem@example.test"]); c != 250 {
			t.Errorf("%s (%d bytes): answer %d (%v), want 250", m.Name, len(raw), c, got)
		}
		// Recorded once, as over IMAP: refused shapes refused, automatic
		// mail ignored.
		if n := w.inboundCount(); n != i+1 {
			t.Fatalf("%s: %d records after %d mails", m.Name, n, i+1)
		}
		in := w.outcome()
		switch {
		case m.Want == hostile.Refused && Outcome(in.Outcome) != OutcomeRefused,
			m.Want == hostile.Automatic && Outcome(in.Outcome) != OutcomeIgnored,
			m.Want == hostile.FromProblem && Outcome(in.Outcome) == OutcomeApplied:
			t.Errorf("%s: outcome %s (%s), want it as over IMAP (%s)", m.Name, in.Outcome, in.Detail, m.Want)
		}
	}
	w.flush()
	if n := len(w.inbox["big@x.test"]); n != 1 || !strings.Contains(w.inbox["big@x.test"][0].Text, "larger than") {
		t.Errorf("the sender of a mail over max_message_bytes got %d answers, want one saying it is too large", n)
	}
	got := w.deliver("alice@x.test", []string{"pbem@example.test"}, rawMail("alice@x.test", "pbem@example.test", "after@x.test", "help"))
	if code(got["pbem@example.test"]) != 250 {
		t.Fatalf("a person's mail after the hostile ones: %v", got)
	}
}

// What one client can make the server do is bounded: recipients a mail,
// bad envelope addresses, and a mail past the hard limit, refused 552
// (its sender's mail server tells him).
func TestLMTPBounds(t *testing.T) {
	t.Parallel()
	w := newLMTPWorld(t)
	var rcpts []string
	for i := range lmtpMaxRecipients + 1 {
		rcpts = append(rcpts, fmt.Sprintf("pbem+t%d@example.test", i))
	}
	got := w.deliver("alice@x.test", rcpts, rawMail("alice@x.test", "pbem@example.test", "many@x.test", "help"))
	if c := code(got[rcpts[lmtpMaxRecipients]]); c/100 != 4 {
		t.Errorf("recipient %d: %d, want 4xx", lmtpMaxRecipients+1, c)
	}
	if c := code(got[rcpts[0]]); c != 250 {
		t.Errorf("first recipient: %d, want 250", c)
	}
	got = w.deliver("alice@x.test", []string{"pbem@other.test", "other@example.test", "pbem+@example.test"}, nil)
	for r, err := range got {
		if code(err) != 550 {
			t.Errorf("%s: %v, want 550", r, err)
		}
	}
	huge := append(rawMail("alice@x.test", "pbem@example.test", "huge@x.test", "help"), padding(lmtpHardLimitTimes<<20+1000)...)
	got = w.deliver("alice@x.test", []string{"pbem@example.test"}, huge)
	if c := code(got["pbem@example.test"]); c != 552 {
		t.Errorf("past the hard limit: %d, want 552", c)
	}
}

// After a stop no mail is taken: a client connected before it can no
// longer start a mail, and nothing is recorded.
func TestLMTPStopping(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	c := config.Default()
	c.Service.Address = "pbem@example.test"
	c.LMTP.Addr = "127.0.0.1:0"
	srv, err := mailer.NewLMTPServer(lmtpFrom(c, w.svc))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.RunBatch(ctx, w.svc.HandleBatch) }()
	conn, err := net.Dial("tcp", srv.Addr())
	if err != nil {
		t.Fatal(err)
	}
	cl := smtp.NewClientLMTP(conn)
	defer cl.Close()
	if err := cl.Hello("mx"); err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := testlib.Receive(t, done, "the LMTP server's stop"); err != nil {
		t.Fatal(err)
	}
	if err := cl.Mail("alice@x.test", nil); err == nil {
		t.Fatal("MAIL accepted after the stop")
	}
	all, _ := w.st.AllInbound(context.Background())
	if len(all) != 0 {
		t.Fatalf("%d mails recorded after a stop", len(all))
	}
}

// A mail that keeps failing (here, with no Message-ID) is answered 451
// until its last try, then set aside and answered 250: its record is
// found by its digest, and the admins are told it came by LMTP, not
// that a mailbox keeps it. Two such mails are counted apart.
func TestLMTPMailSetAside(t *testing.T) {
	t.Parallel()
	w := newLMTPWorld(t)
	w.svc.cfg.Admins = "admin@x.test"
	render := w.svc.render
	w.svc.render = nil // every mail pbem writes now panics
	w.svc.newPost()
	poison := rawMail("alice@x.test", "pbem@example.test", "", "help")
	other := rawMail("bob@x.test", "pbem@example.test", "", "help")
	for i := 1; i < tries.Max; i++ {
		for _, raw := range [][]byte{poison, other} {
			if c := code(w.deliver("x@x.test", []string{"pbem@example.test"}, raw)["pbem@example.test"]); c != 451 {
				t.Fatalf("try %d: %d, want 451", i, c)
			}
		}
	}
	if c := code(w.deliver("x@x.test", []string{"pbem@example.test"}, poison)["pbem@example.test"]); c != 250 {
		t.Fatalf("last try: %d, want 250 (set aside)", c)
	}
	w.svc.render = render
	w.svc.newPost()
	all, err := w.st.AllInbound(context.Background())
	if err != nil || len(all) != 1 || Outcome(all[0].Outcome) != OutcomeFailed || !strings.HasPrefix(all[0].Digest, "lmtp:sha256:") {
		t.Fatalf("records %+v (%v), want the one mail set aside, by its digest", all, err)
	}
	w.flush()
	admin := w.last("admin@x.test")
	if !strings.Contains(admin.Text, "LMTP: delivered to pbem directly") || strings.Contains(admin.Text, "stays in the mailbox") {
		t.Errorf("the admins were told:\n%s", admin.Text)
	}
}
