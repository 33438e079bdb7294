package daemon

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/pbem/pbem/mailer"
	"github.com/pbem/pbem/store"
)

// bounceAddress is the envelope sender of the last mail addr received:
// the address its bounce goes to.
func (w *world) bounceAddress(addr string) string {
	w.t.Helper()
	ctx := context.Background()
	out, err := w.st.OutgoingByMessageID(ctx, w.last(addr).MessageID)
	if err != nil {
		w.t.Fatal(err)
	}
	key, err := w.svc.bounces.get(ctx, w.st)
	if err != nil {
		w.t.Fatal(err)
	}
	return mailer.BounceAddress("pbem@example.test", "+", key, out.ID, out.To)
}

// dsn is Postfix's own bounce of a mail to rcpt, sent to bounceTo; tag,
// if given, makes its Message-ID another mail's.
func dsn(bounceTo, rcpt, status string, tag ...string) string {
	action := "failed"
	if strings.HasPrefix(status, "4.") {
		action = "delayed"
	}
	return fmt.Sprintf("Return-Path: <>\r\nFrom: MAILER-DAEMON@mx.y.test (Mail Delivery System)\r\nTo: %s\r\n"+
		"Subject: Undelivered Mail Returned to Sender\r\nAuto-Submitted: auto-replied\r\nMessage-ID: <dsn.%s.%s%s@mx.y.test>\r\n"+
		"MIME-Version: 1.0\r\nContent-Type: multipart/report; report-type=delivery-status; boundary=\"B\"\r\n\r\n"+
		"--B\r\nContent-Type: text/plain\r\n\r\nThis is the mail system at host mx.y.test.\r\n\r\n<%s>: user unknown\r\n\r\n"+
		"--B\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx.y.test\r\n\r\n"+
		"Final-Recipient: rfc822; %s\r\nAction: %s\r\nStatus: %s\r\nDiagnostic-Code: X-Postfix; user unknown\r\n\r\n--B--\r\n",
		bounceTo, rcpt, status, strings.Join(tag, "."), rcpt, rcpt, action, status)
}

func (w *world) unreachable(addr string) bool {
	w.t.Helper()
	u, err := w.st.IsUnreachable(context.Background(), addr)
	if err != nil {
		w.t.Fatal(err)
	}
	return u
}

// An invitation that bounces ends the game at once: the creator and the
// others invited are told in one sentence, the bounced address is not
// mailed again, and a new invitation to it is refused until it writes.
func TestBounceOfInvitation(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.send("alice@x.test", "pbem@example.test", "new felix with bob@y.test carol@z.test")
	reply := w.last("alice@x.test").ReplyTo
	id := w.gameOf(reply)
	bobMails := len(w.inbox["bob@y.test"])
	w.sendRaw([]byte(dsn(w.bounceAddress("bob@y.test"), "bob@y.test", "5.1.1")))
	if got := w.outcome(); got.Outcome != string(OutcomeIgnored) || !strings.Contains(got.Detail, "hard bounce 5.1.1") {
		t.Errorf("the DSN's record: %s %q", got.Outcome, got.Detail)
	}
	if !w.unreachable("bob@y.test") {
		t.Fatal("bob is not unreachable after a hard bounce")
	}
	g, err := w.st.Game(context.Background(), id)
	if err != nil || g.Status != store.StatusDeclined {
		t.Fatalf("game %d is %s (%v), want declined", id, g.Status, err)
	}
	// Carol, who has not answered pbem yet, gets no more mail today
	// (the limit of a mailbox that never answered): the creator is told.
	if n := w.mailsWith("alice@x.test", "mail to bob bounced, so that address cannot play. To play with a bot in its place: new felix with ADDRESS... and 1 bot."); n != 1 {
		t.Errorf("alice was told %d times that bob's address bounced, want once:\n%s", n, w.last("alice@x.test").Text)
	}
	if len(w.inbox["bob@y.test"]) != bobMails {
		t.Errorf("bob was mailed after his address bounced")
	}
	w.send("alice@x.test", "pbem@example.test", "new felix with bob@y.test carol@z.test")
	if !strings.Contains(w.lastText("alice@x.test"), "Mail to bob@y.test bounced") {
		t.Errorf("an invitation to a bounced address was not refused:\n%s", w.lastText("alice@x.test"))
	}
	w.send("bob@y.test", "pbem@example.test", "help")
	if w.unreachable("bob@y.test") {
		t.Error("bob wrote and is still unreachable")
	}
	w.send("alice@x.test", "pbem@example.test", "new felix with bob@y.test carol@z.test")
	if !strings.Contains(w.last("bob@y.test").Text, "join") {
		t.Errorf("bob, reachable again, got no invitation:\n%s", w.last("bob@y.test").Text)
	}
}

// In a running game, a bounce puts the seat on autopilot: the others
// and the admin are told once, the stand-in moves for it, pbem stops
// mailing it; when its player writes from his seat he has it back. The
// notice tells nobody anything of the seat's hidden cards.
func TestBounceInRunningGame(t *testing.T) {
	t.Parallel()
	w, players, reply, id := autopilotWorld(t, 2)
	w.playOthers(id, players, []string{players[1]}, 50)
	w.sendRaw([]byte(dsn(w.bounceAddress("bob@y.test"), "bob@y.test", "5.2.1")))
	if !w.seat(id, 1).Autopilot {
		t.Fatal("bob's seat is not on autopilot after his address bounced")
	}
	if n := w.eventsOf(id, EventAutopilot); n != 1 {
		t.Errorf("%d autopilot events, want 1", n)
	}
	for _, p := range []string{"alice@x.test", "carol@z.test"} {
		if n := w.mailsWith(p, "bounces, so"); n != 1 {
			t.Errorf("%s was told %d times that bob's mail bounces, want once", p, n)
		}
	}
	if n := w.mailsWith(autopilotAdmin, "bounces"); n != 1 {
		t.Errorf("the admin was told %d times, want once", n)
	}
	if waiting := w.loaded(id).State.Waiting(); len(waiting) == 1 && waiting[0] == 1 && !w.loaded(id).State.Result().Finished {
		t.Errorf("the game still waits on bob's seat after its stand-in took over")
	}
	bobMails := len(w.inbox["bob@y.test"])
	w.playOthers(id, players, []string{players[1]}, 3)
	if len(w.inbox["bob@y.test"]) != bobMails {
		t.Errorf("bob was mailed %d times after his address bounced", len(w.inbox["bob@y.test"])-bobMails)
	}
	// Hidden information: what the others and the admin read of the
	// bounce says nothing bob's seat alone may see.
	hiddenFrom := map[string][]string{"alice@x.test": w.hidden(id, 0), "carol@z.test": w.hidden(id, 2)}
	for s := range 3 {
		hiddenFrom[autopilotAdmin] = append(hiddenFrom[autopilotAdmin], w.hidden(id, s)...)
	}
	for p, hidden := range hiddenFrom {
		for _, m := range w.inbox[p] {
			if !strings.Contains(m.Text, "bounces") {
				continue
			}
			for _, h := range hidden {
				if strings.Contains(m.Text, h) {
					t.Errorf("%s's bounce mail shows %q, hidden from him", p, h)
				}
			}
		}
	}
	w.send("bob@y.test", reply["bob@y.test"], "back")
	if w.unreachable("bob@y.test") || w.seat(id, 1).Autopilot {
		t.Errorf("bob wrote back and is unreachable %t, on autopilot %t", w.unreachable("bob@y.test"), w.seat(id, 1).Autopilot)
	}
	if len(w.inbox["bob@y.test"]) == bobMails {
		t.Error("bob, back, got no answer")
	}
}

// Only a bounce to a bounce address pbem made counts: a DSN to the bare
// address, to a seat's, or to a bounce address whose token was made up,
// and an auto-reply to a real bounce address, change nothing.
func TestBounceForgedChangesNothing(t *testing.T) {
	t.Parallel()
	w, _, reply, id := autopilotWorld(t, 2)
	real := w.bounceAddress("bob@y.test")
	local, _, _ := strings.Cut(real, "@")
	token := strings.TrimPrefix(local, "pbem+")
	idPart := strings.Split(token, "-")[1]
	vacation := "From: Bob <bob@y.test>\r\nTo: " + real + "\r\nSubject: Out of office\r\nAuto-Submitted: auto-replied\r\nMessage-ID: <away@y.test>\r\n\r\nI am away until Monday.\r\n"
	for _, raw := range []string{
		dsn("pbem@example.test", "bob@y.test", "5.1.1"),
		dsn(reply["bob@y.test"], "bob@y.test", "5.1.1"),
		dsn(reply["alice@x.test"], "bob@y.test", "5.1.1"),
		dsn("pbem+b-"+idPart+"-aaaaaaaaaaaaaaaa@example.test", "bob@y.test", "5.1.1"),
		dsn("pbem+b-zz-aaaaaaaaaaaaaaaa@example.test", "bob@y.test", "5.1.1"),
		vacation,
	} {
		before := w.mailsSent()
		w.sendRaw([]byte(raw))
		if w.unreachable("bob@y.test") || w.seat(id, 1).Autopilot {
			t.Fatalf("a forged bounce made bob unreachable:\n%s", raw)
		}
		if w.mailsSent() != before {
			t.Errorf("a forged bounce was answered:\n%s", raw)
		}
	}
}

// Soft bounces make an address unreachable only on the
// mailer.SoftBounceDays-th distinct day.
func TestSoftBounces(t *testing.T) {
	t.Parallel()
	w, _, _, id := autopilotWorld(t, 2)
	for day := range mailer.SoftBounceDays {
		if w.unreachable("bob@y.test") {
			t.Fatalf("bob unreachable after soft bounces on %d days", day)
		}
		for _, status := range []string{"4.2.2", "4.4.1"} { // twice a day counts once
			w.sendRaw([]byte(dsn(w.bounceAddress("bob@y.test"), "bob@y.test", status, fmt.Sprint(day))))
		}
		w.clock = w.clock.Add(24 * 60 * 60 * 1e9)
	}
	if !w.unreachable("bob@y.test") || !w.seat(id, 1).Autopilot {
		t.Errorf("bob's soft bounces on %d days did not make him unreachable", mailer.SoftBounceDays)
	}
}

// A permanent refusal at SMTP time is a hard bounce: the invitation
// fails at once and the creator is told, with no DSN to wait for.
func TestBounceRefusedAtSMTP(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.uid++
	raw := "From: alice@x.test\r\nTo: pbem@example.test\r\nSubject: new\r\nMessage-ID: <new.alice@x.test>\r\n\r\nnew felix with bob@y.test carol@z.test\r\n"
	if err := w.svc.HandleMail(context.Background(), mailer.Message{Mailbox: "INBOX", UIDValidity: 1, UID: w.uid, Raw: []byte(raw)}); err != nil {
		t.Fatal(err)
	}
	refused := &mailer.SendError{Op: "rcpt", Permanent: true, Err: errors.New("550 5.1.1 user unknown")}
	sendAllDue(t, w.svc, func(_ context.Context, _ string, to []string, raw []byte) error {
		if to[0] == "bob@y.test" {
			return refused
		}
		w.mu.Lock()
		defer w.mu.Unlock()
		w.inbox[to[0]] = append(w.inbox[to[0]], readMail(w.t, raw))
		return nil
	})
	if !w.unreachable("bob@y.test") {
		t.Fatal("a 550 at RCPT did not make bob unreachable")
	}
	if n := w.mailsWith("alice@x.test", "mail to bob bounced"); n != 1 {
		t.Errorf("alice was told %d times that bob's address bounced, want once", n)
	}
}

// An address another node recorded as unreachable without acting on it
// (it stopped first) is acted on by a node that handles mail: not
// looked for after every batch, which would be a statement a command,
// but within unreachableEvery.
func TestUnreachableLeftByAnotherNode(t *testing.T) {
	t.Parallel()
	w, players, reply, id := autopilotWorld(t, 2)
	ctx := context.Background()
	err := w.st.Tx(ctx, func(tx *store.Tx) error {
		_, err := tx.RecordBounce(ctx, "bob@y.test", true, "5.1.1", w.clock, mailer.SoftBounceDays)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	w.clock = w.clock.Add(unreachableEvery)
	w.send(players[0], reply[players[0]], "help")
	if !w.seat(id, 1).Autopilot {
		t.Error("bob's seat is not on autopilot a minute after another node found his address unreachable")
	}
	if n := w.mailsWith(autopilotAdmin, "bounces"); n != 1 {
		t.Errorf("the admin was told %d times, want once", n)
	}
}
