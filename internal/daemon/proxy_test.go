package daemon

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/pbem/pbem/engine/felix"
	"github.com/pbem/pbem/engine/games"
	"github.com/pbem/pbem/engine/transcript"
	"github.com/pbem/pbem/internal/loaded"
	"github.com/pbem/pbem/store"
)

// TestProxyBidByMail plays Felix's standing orders through the mail loop:
// a limit and a standing pass sent ahead of their turns are applied, told
// to their senders alone (the others get no mail of them), and carried
// out in the transaction of the move that brings the auction to them. The
// limit (13) then appears in no other player's mail or history, in no log
// line and in no inbound detail: only in its owner's mail, and in the
// admin's export, the full transcript (docs/security.md).
func TestProxyBidByMail(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	players := []string{"alice@x.test", "bob@y.test", "carol@z.test", "dave@x.test"}
	reply, id := w.startGame("felix", players...)
	w.confirmOn(players...) // the test reads answers to moves or says

	for {
		tb := w.loaded(id)
		if tb.State.(*felix.Game).S.Phase != felix.Placing {
			break
		}
		p := tb.State.Waiting()[0]
		w.send(players[p], reply[players[p]], tb.State.Options(p)[0].Commands[0])
	}
	turn := int(w.loaded(id).State.(*felix.Game).S.Turn)
	first, proxy, passer, last := players[turn], players[(turn+1)%4], players[(turn+2)%4], players[(turn+3)%4]
	mails := func(addr string) int { return len(w.inbox[addr]) }
	before := map[string]int{}
	for _, p := range players {
		before[p] = mails(p)
	}

	// Ahead of their turns: the senders alone hear of it.
	w.send(proxy, reply[proxy], "bid up to 13")
	ack := unwrapText(w.last(proxy).Text)
	for _, want := range []string{"Applied: bid up to 13.", "pbem will bid for you in this auction up to a total stake of 13"} {
		if !strings.Contains(ack, want) {
			t.Errorf("%s's answer lacks %q:\n%s", proxy, want, ack)
		}
	}
	// Nothing more is asked of him: the answer is short, without the
	// table, which his next game mail shows with his limit.
	if strings.Contains(ack, "The table") {
		t.Errorf("%s's answer to a standing order shows the table:\n%s", proxy, ack)
	}
	w.send(passer, reply[passer], "pass")
	if ack := unwrapText(w.last(passer).Text); !strings.Contains(ack, "pbem will pass for you when the auction comes to you") {
		t.Errorf("%s's answer does not confirm the standing pass:\n%s", passer, ack)
	}
	for _, p := range []string{first, last} {
		if mails(p) != before[p] {
			t.Errorf("%s was mailed about another player's standing order:\n%s", p, w.last(p).Text)
		}
	}

	// first bids 1: pbem bids 2 for proxy and passes for passer, in the
	// same transaction; the game then waits on last, with a deadline.
	w.send(first, reply[first], "bid 1")
	tb := w.loaded(id)
	if got := tb.State.Waiting(); len(got) != 1 || players[got[0]] != last {
		t.Fatalf("the game waits on %v, want %s", got, last)
	}
	if n := w.moves(id); n != 4+3 {
		t.Errorf("%d moves stored, want 7: the orders' moves are made, not stored", n)
	}
	err := w.st.Tx(context.Background(), func(tx *store.Tx) error {
		for i := range players {
			st, err := tx.Seat(context.Background(), id, i)
			if err != nil {
				return err
			}
			if st.Deadline.IsZero() != (players[i] != last) {
				t.Errorf("%s's deadline: %v", players[i], st.Deadline)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	lastMail := unwrapText(w.last(last).Text)
	for _, want := range []string{" bids 1.", " bids 2.", " passes and takes the 2-mouse card"} {
		if !strings.Contains(lastMail, want) {
			t.Errorf("%s's mail lacks %q:\n%s", last, want, lastMail)
		}
	}
	// pbem's bid for proxy decides nothing for him (notify normal): his
	// next mail tells it.
	w.send(proxy, reply[proxy], "status")
	if !strings.Contains(unwrapText(w.last(proxy).Text), "pbem bids 2 for you (your limit: 13).") {
		t.Errorf("%s is not told of pbem's bid:\n%s", proxy, w.last(proxy).Text)
	}

	// Every other player asks for the whole history.
	for _, p := range []string{first, passer, last} {
		w.send(p, reply[p], "history")
	}
	secret := []string{"limit", "up to a total stake of 13", "bid up to 13", "pbem bids 2"}
	for _, p := range []string{first, passer, last} {
		for _, m := range w.inbox[p] {
			text := unwrapText(m.Text)
			for _, s := range secret {
				if strings.Contains(text, s) {
					t.Errorf("a mail to %s says %q:\n%s", p, s, text)
				}
			}
		}
	}
	inbound, err := w.st.AllInbound(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var details strings.Builder
	for _, in := range inbound {
		details.WriteString(in.Detail + "\n")
	}
	for where, text := range map[string]string{"log": w.logs.String(), "inbound details": details.String()} {
		for _, s := range []string{"up to 13", "limit", "bid up to"} {
			if strings.Contains(text, s) {
				t.Errorf("the %s holds %q", where, s)
			}
		}
	}

	// The export is the admin's full transcript: the order is a move of
	// its own, and replaying it makes the same game.
	var buf bytes.Buffer
	if err := loaded.Export(context.Background(), w.st, games.Lookup, id, &buf); err != nil {
		t.Fatal(err)
	}
	name := strings.Split(proxy, "@")[0]
	if !strings.Contains(buf.String(), name+": bid up to 13\n") {
		t.Errorf("the export lacks the order:\n%s", buf.String())
	}
	tr, err := transcript.Read(&buf, games.Lookup)
	if err != nil {
		t.Fatal(err)
	}
	g, _, err := tr.Replay()
	if err != nil {
		t.Fatal(err)
	}
	a, _ := g.MarshalJSON()
	b, _ := w.loaded(id).State.MarshalJSON()
	if !bytes.Equal(a, b) {
		t.Errorf("the export replays to another state:\n%s\n%s", a, b)
	}
}

// unwrapText joins a mail's wrapped lines, for searching sentences.
func unwrapText(s string) string { return strings.Join(strings.Fields(s), " ") }
