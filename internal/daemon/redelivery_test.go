package daemon

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/pbem/pbem/mailer"
	"github.com/pbem/pbem/store"
)

// Only a true redelivery is skipped (issue 33): a mail counts as seen
// before only when the same mail comes again, by its Message-ID with its
// sender and the address it was sent to, or by its bytes. These tests
// play the attack of the issue, a stranger who mails first with the
// Message-ID a player's next mail will carry, and the redeliveries that
// must still be applied once.

// nextID is the Message-ID world.send gives the mail after the next one
// from addr: the stranger's own mail takes the next UID.
func (w *world) nextID(addr string) string {
	return fmt.Sprintf("m%d.%s", w.uid+2, addr)
}

// forged is a mail from from to to with the Message-ID id, and no
// Authentication-Results: what anyone can write.
func forged(from, to, id, body string) []byte {
	return fmt.Appendf(nil, "From: %s\r\nTo: %s\r\nSubject: hello\r\nMessage-ID: <%s>\r\nDate: Sat, 21 Nov 2026 09:00:00 +0000\r\n\r\n%s\r\n",
		from, to, id, body)
}

// A stranger's mail with the Message-ID of a player's next move shadows
// nothing, wherever he sends it and whatever From he writes: the move is
// applied, recorded and answered.
func TestStrangerCannotPreemptMove(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		auth bool // the service authenticates senders
		// from and to of the stranger's mail: "player" and "seat" stand
		// for the player on turn and his seat's address.
		from, to string
	}{
		{"a stranger at the bare address", false, "mallory@evil.test", "pbem@example.test"},
		{"a stranger at the seat's address", false, "mallory@evil.test", "seat"},
		{"a stranger at the bare address, senders authenticated", true, "mallory@evil.test", "pbem@example.test"},
		{"a forger of the player's From at the bare address, refused", true, "player", "pbem@example.test"},
		{"a forger of the player's From at the seat's address, refused", true, "player", "seat"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := newWorld(t)
			if tt.auth {
				w.authenticate()
			}
			players := []string{"a@x.test", "b@x.test", "c@x.test"}
			reply, id := w.startGame("felix", players...)
			tb := w.loaded(id)
			waiting := tb.State.Waiting()[0]
			player := players[waiting]
			cmd := tb.State.Options(waiting)[0].Commands[0] + "\nstatus" // answered: the status
			from, to := tt.from, tt.to
			if from == "player" {
				from = player
			}
			if to == "seat" {
				to = reply[player]
			}
			w.sendRaw(forged(from, to, w.nextID(player), cmd))
			before, answers := w.moves(id), len(w.inbox[player])

			w.send(player, reply[player], cmd)
			if n := w.moves(id) - before; n != 1 {
				t.Fatalf("%d moves made by the player's mail, want 1", n)
			}
			if len(w.inbox[player]) <= answers {
				t.Errorf("the player got no answer to his move")
			}
			if in := w.outcome(); Outcome(in.Outcome) != OutcomeApplied || in.From != player {
				t.Errorf("the player's mail is recorded %+v, want applied from %s", in, player)
			}
		})
	}
}

// A true redelivery is applied once: the same bytes again (the MTA
// delivered the mail twice, under a new UID), and the same Message-ID
// from the same sender to the same address in other bytes (a copy that
// took another path, a player's client sending it again).
func TestTrueRedeliveryAppliedOnce(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	players := []string{"a@x.test", "b@x.test", "c@x.test"}
	reply, id := w.startGame("felix", players...)
	tb := w.loaded(id)
	waiting := tb.State.Waiting()[0]
	player := players[waiting]
	cmd := tb.State.Options(waiting)[0].Commands[0] + "\nstatus" // answered: the status
	raw := forged(player, reply[player], "move@x.test", cmd)
	before := w.moves(id)
	w.sendRaw(raw)
	if n := w.moves(id) - before; n != 1 {
		t.Fatalf("%d moves made by the player's mail, want 1", n)
	}
	records, answers := len(w.all()), len(w.inbox[player])
	for _, again := range []struct {
		name string
		raw  []byte
	}{
		{"the same bytes", raw},
		{"the same Message-ID, sender and address in other bytes",
			append([]byte("Received: from relay2.x.test by mx.example.test; Sat, 21 Nov 2026 09:05:00 +0000\r\n"), raw...)},
		{"the same bytes, the address's case and From's display name changed",
			[]byte(strings.Replace(strings.Replace(string(raw), "From: "+player, "From: Ann <"+strings.ToUpper(player)+">", 1),
				"To: "+reply[player], "To: "+strings.ToUpper(reply[player]), 1))},
	} {
		w.sendRaw(again.raw)
		if n := w.moves(id) - before; n != 1 {
			t.Errorf("%s: %d moves made in all, want 1", again.name, n)
		}
	}
	if n := len(w.all()); n != records {
		t.Errorf("%d inbound records after the redeliveries, want %d (none new)", n, records)
	}
	if n := len(w.inbox[player]); n != answers {
		t.Errorf("the player got %d more answers, want none", n-answers)
	}
}

// all is every inbound record.
func (w *world) all() []store.Inbound {
	w.t.Helper()
	all, err := w.st.AllInbound(context.Background())
	if err != nil {
		w.t.Fatal(err)
	}
	return all
}

// A mail sent to two seats' addresses (To one, Cc the other) is delivered
// to the mailbox once for each, each copy naming its own address in
// Delivered-To. It is one mail, applied once, as before issue 33.
func TestMailToTwoSeatsAppliedOnce(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	players := []string{"a@x.test", "b@x.test", "c@x.test"}
	reply1, id1 := w.startGame("felix", players...)
	reply2, id2 := w.startGame("felix", players...)
	tb := w.loaded(id1)
	waiting := tb.State.Waiting()[0]
	player := players[waiting]
	cmd := tb.State.Options(waiting)[0].Commands[0] + "\nstatus" // answered: the status
	before := w.moves(id1) + w.moves(id2)
	body := string(forged(player, reply1[player], "two@x.test", cmd))
	body = strings.Replace(body, "Subject:", "Cc: "+reply2[player]+"\r\nSubject:", 1)
	for _, rcpt := range []string{reply1[player], reply2[player]} {
		w.sendRaw([]byte("Delivered-To: " + rcpt + "\r\n" + body))
	}
	if n := w.moves(id1) + w.moves(id2) - before; n > 1 {
		t.Errorf("%d moves made by one mail to two seats, want at most 1", n)
	}
}

// In one batch, a stranger's mail with the Message-ID of the player's
// move that follows it shadows nothing, while a copy of the move in the
// same batch is applied no second time.
func TestBatchStrangerThenMoveThenCopy(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	players := []string{"a@x.test", "b@x.test", "c@x.test"}
	reply, id := w.startGame("felix", players...)
	tb := w.loaded(id)
	waiting := tb.State.Waiting()[0]
	player := players[waiting]
	cmd := tb.State.Options(waiting)[0].Commands[0] + "\nstatus" // answered: the status
	move := forged(player, reply[player], "batch@x.test", cmd)
	var batch []mailer.Message
	for _, raw := range [][]byte{forged("mallory@evil.test", "pbem@example.test", "batch@x.test", "help"), move, move} {
		w.uid++
		batch = append(batch, mailMessage(w.uid, string(raw)))
	}
	before := w.moves(id)
	n, err := w.svc.HandleBatch(context.Background(), batch)
	if err != nil || n != len(batch) {
		t.Fatalf("HandleBatch = %d, %v; want %d, nil", n, err, len(batch))
	}
	w.flush()
	if n := w.moves(id) - before; n != 1 {
		t.Errorf("%d moves made, want 1 (the move, once)", n)
	}
}

// By LMTP: a stranger delivers first, to the bare address, a mail with
// the Message-ID of the player's move; the move is applied and answered.
// The mail server then delivers the move again (its 250 was lost): it is
// answered 250 and applied no second time.
func TestLMTPStrangerCannotPreemptMove(t *testing.T) {
	t.Parallel()
	w := newLMTPWorld(t)
	players := []string{"a@x.test", "b@x.test", "c@x.test"}
	reply, id := w.startGame("felix", players...)
	tb := w.loaded(id)
	waiting := tb.State.Waiting()[0]
	player := players[waiting]
	cmd := tb.State.Options(waiting)[0].Commands[0] + "\nstatus" // answered: the status
	const bare = "pbem@example.test"
	got := w.deliver("mallory@evil.test", []string{bare}, rawMail("mallory@evil.test", bare, "next@x.test", "help"))
	if c := code(got[bare]); c != 250 {
		t.Fatalf("the stranger's mail: %d, want 250", c)
	}
	w.flush()
	before, answers := w.moves(id), len(w.inbox[player])
	move := rawMail(player, reply[player], "next@x.test", cmd)
	for try := range 2 {
		got = w.deliver(player, []string{reply[player]}, move)
		if c := code(got[reply[player]]); c != 250 {
			t.Fatalf("delivery %d of the move: %d, want 250", try+1, c)
		}
		w.flush()
		if n := w.moves(id) - before; n != 1 {
			t.Fatalf("after delivery %d of the move: %d moves made, want 1", try+1, n)
		}
	}
	if n := len(w.inbox[player]) - answers; n != 1 {
		t.Errorf("the player got %d answers to his move, want 1", n)
	}
	var mine int
	for _, in := range w.all() {
		if in.MessageID == "next@x.test" && in.From == player {
			mine++
			if Outcome(in.Outcome) != OutcomeApplied {
				t.Errorf("the move is recorded %+v, want applied", in)
			}
		}
	}
	if mine != 1 {
		t.Errorf("the move is recorded %d times, want once", mine)
	}
}
