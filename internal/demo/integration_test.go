//go:build integration

// Integration tests against a real Postfix + Dovecot on loopback, started by
// scripts/mailstack (scripts/test does it):
//
//	scripts/mailstack start && eval "$(scripts/mailstack env)"
//	go test -race -tags integration ./internal/demo/...
package demo

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pbem/pbem/mailer"
	"github.com/pbem/pbem/store"
)

func mailSystem(t *testing.T) *MailSystem {
	t.Helper()
	m, ok := mailSystemFromEnv()
	if !ok {
		t.Fatal(`PBEM_TEST_SMTP, PBEM_TEST_IMAP, PBEM_TEST_DOMAIN and PBEM_TEST_PASSWORD must be set: ` +
			`run scripts/mailstack start && eval "$(scripts/mailstack env)" first, or use scripts/test`)
	}
	return m
}

// TestRealMailGames plays a 4-player Felix and a 3-player Gracias game,
// and a Felix game of two players and a strong bot, through Postfix and
// Dovecot: the players mail their commands over SMTP
// and read what pbem sends them over IMAP.
func TestRealMailGames(t *testing.T) {
	ctx := context.Background()
	w, err := Start(ctx, Options{Seed: 11, Mail: mailSystem(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	t.Logf("service %s", w.Address)
	all := []string{w.Player("alice"), w.Player("bob"), w.Player("carol"), w.Player("dave")}
	for _, tc := range []struct {
		kind    string
		players []string
		bots    string // bot seats asked for besides the players
	}{
		{"felix", all, ""},
		{"gracias", all[:3], ""},
		{"felix", all[:2], "a strong bot"}, // two people and a bot (issue 16)
	} {
		begin := time.Now()
		g, err := w.PlayWithBots(ctx, tc.kind, tc.players, tc.bots, 5*time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s #%d played by mail in %s", tc.kind, g.ID, time.Since(begin).Round(time.Millisecond))
		checkReplay(t, ctx, w.Store, g)
		checkLeaks(t, ctx, w.Store, g)
	}
	checkDelivered(t, ctx, w, all)
}

// checkDelivered waits until the outbox is empty and every player's
// inbox holds exactly the mails sent to him, each once: Postfix delivers
// after it accepted, so the last mails may still be on their way.
func checkDelivered(t *testing.T, ctx context.Context, w *World, players []string) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		stats, err := w.Store.OutboxStats(ctx, time.Now().Add(time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		rows, err := w.Store.AllOutgoing(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var problems []string
		if stats.Pending > 0 || stats.Dead > 0 {
			problems = append(problems, fmt.Sprintf("outbox: %d pending, %d dead", stats.Pending, stats.Dead))
		}
		for _, p := range players {
			mails, err := w.Inbox(ctx, p)
			if err != nil {
				t.Fatal(err)
			}
			rep := compareInbox(mails, rows, p)
			if rep.duplicates > 0 || len(rep.unknown) > 0 || len(rep.missing) > 0 {
				problems = append(problems, fmt.Sprintf("%s: %d mails, %d received twice, not sent to him: %v, sent but not received: %v",
					p, rep.mails, rep.duplicates, rep.unknown, rep.missing))
			}
			if rep.mails == 0 {
				problems = append(problems, p+" received nothing")
			}
		}
		if len(problems) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("two minutes after the games:\n%s", strings.Join(problems, "\n"))
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// TestRealMailSecurity sends, through Postfix, mail that must change no
// game: a forged sender on a valid seat address, a player writing to
// another seat's address, a replay of a mail already applied, an
// auto-reply and a bounce. Each carries a command that would be legal.
func TestRealMailSecurity(t *testing.T) {
	ctx := context.Background()
	w, err := Start(ctx, Options{Seed: 5, Mail: mailSystem(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	players := []string{w.Player("xena"), w.Player("yuri"), w.Player("zoe")}
	gameID := joinedGame(t, ctx, w, players)
	mover, turn := waitTurn(t, ctx, w, gameID, players, len(w.SentMails()))

	// A legal move first, so that there is an applied mail to replay.
	legal := Offered(turn.Text)[0]
	if err := w.Send(ctx, mover, turn.ReplyTo, "Re: "+turn.Subject, turn.MessageID, legal); err != nil {
		t.Fatal(err)
	}
	sent := w.SentMails()
	move := sent[len(sent)-1]
	mover, turn = waitTurn(t, ctx, w, gameID, players, len(sent))
	if in, err := w.Store.InboundByMessageID(ctx, move.MessageID); err != nil || in.Outcome != "applied" {
		t.Fatalf("the legal move %q: %+v, %v", legal, in, err)
	}
	other := players[0]
	if other == mover {
		other = players[1]
	}
	legal = Offered(turn.Text)[0]

	before := gameState(t, ctx, w.Store, gameID)
	outBefore, err := w.Store.AllOutgoing(ctx)
	if err != nil {
		t.Fatal(err)
	}
	inBefore, err := w.Store.AllInbound(ctx)
	if err != nil {
		t.Fatal(err)
	}
	mallory := w.Player("mallory")
	daemon := "MAILER-DAEMON@" + w.Mail.Domain
	raw := func(id, from, extra, body string) []byte {
		return []byte(fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: Re: %s\r\nMessage-ID: <%s>\r\nDate: %s\r\nIn-Reply-To: <%s>\r\n%sMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n",
			from, turn.ReplyTo, turn.Subject, id, time.Now().UTC().Format(time.RFC1123Z), turn.MessageID, extra, body))
	}
	attacks := []struct {
		name, envelope, id string
		raw                []byte
		outcome            string // "" for no new inbound record
	}{
		{"forged From on a valid seat address", mallory, "forged" + w.Suffix + "@x", nil, "refused"},
		{"a player on another seat's address", other, "other-seat" + w.Suffix + "@x", nil, "refused"},
		{"an auto-reply", mover, "auto" + w.Suffix + "@x", nil, "ignored"},
		{"a bounce", "", "bounce" + w.Suffix + "@x", nil, "ignored"},
		{"a replay of an applied mail", move.From, move.MessageID, move.Raw, ""},
	}
	attacks[0].raw = raw(attacks[0].id, mallory, "", legal)
	attacks[1].raw = raw(attacks[1].id, other, "", legal)
	attacks[2].raw = raw(attacks[2].id, mover, "Auto-Submitted: auto-replied\r\n", legal+"\r\n\r\nI am away until Monday.")
	attacks[3].raw = raw(attacks[3].id, daemon, "Return-Path: <>\r\n", legal+"\r\n\r\nDelivery to the following recipient failed permanently.")
	for _, a := range attacks {
		if err := w.SendRaw(ctx, a.envelope, turn.ReplyTo, a.raw); err != nil {
			t.Fatalf("%s: %v", a.name, err)
		}
	}
	waitProcessed(t, ctx, w, len(sent)+len(attacks), 2*time.Minute)
	for _, a := range attacks {
		in, err := w.Store.InboundByMessageID(ctx, a.id)
		switch {
		case err != nil:
			t.Errorf("%s: %v", a.name, err)
		case a.outcome == "" && in.Outcome != "applied":
			t.Errorf("%s: the original is recorded as %s", a.name, in.Outcome)
		case a.outcome != "" && in.Outcome != a.outcome:
			t.Errorf("%s: outcome %s (%s), want %s", a.name, in.Outcome, in.Detail, a.outcome)
		}
	}
	inAfter, err := w.Store.AllInbound(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(inAfter) - len(inBefore); got != 4 {
		t.Errorf("%d new inbound records for 4 new mails and a replay", got)
	}
	if after := gameState(t, ctx, w.Store, gameID); after != before {
		t.Errorf("the game changed:\nbefore %s\nafter  %s", before, after)
	}
	// Answers: the forged sender and the player on the wrong seat are told
	// why nothing happened; nobody else hears anything.
	time.Sleep(2 * time.Second) // the outbox sends at once; give it time to misbehave
	outAfter, err := w.Store.AllOutgoing(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var to []string
	for _, o := range outAfter[len(outBefore):] {
		to = append(to, o.To)
	}
	slices.Sort(to)
	want := []string{store.NormalizeAddress(mallory), store.NormalizeAddress(other)}
	slices.Sort(want)
	if !slices.Equal(to, want) {
		t.Errorf("mails queued after the attacks went to %v, want only the refusals to %v", to, want)
	}
	checkDelivered(t, ctx, w, append(players, mallory))
}

// gameState is everything stored about a game that a command changes.
func gameState(t *testing.T, ctx context.Context, st *store.Store, id int64) string {
	t.Helper()
	g, err := st.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	moves, err := st.Moves(ctx, id, 0)
	if err != nil {
		t.Fatal(err)
	}
	events, err := st.Events(ctx, id, 0)
	if err != nil {
		t.Fatal(err)
	}
	seats, err := st.Seats(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("status %s, %d moves, %d events, snapshot at %d: %s, seats %+v", g.Status, len(moves), len(events), g.SnapshotSeq, g.Snapshot, seats)
}

// waitProcessed waits until the service's inbox holds n mails and every
// one has been handled (flagged by the inbox after the daemon committed
// it).
func waitProcessed(t *testing.T, ctx context.Context, w *World, n int, timeout time.Duration) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		// A failed read is tried again until the deadline: mailer's
		// integration tests restart the shared Dovecot while these run.
		msgs, err := mailer.ReadAll(ctx, mailer.InboxConfig{Addr: w.Mail.IMAPAddr, Password: w.Mail.Password, Security: mailer.SecurityNone}, w.Address)
		if err != nil && time.Now().After(deadline) {
			t.Fatal(err)
		}
		done := 0
		for _, m := range msgs {
			if m.HasFlag(mailer.DefaultProcessed) {
				done++
			}
		}
		if err == nil && done == len(msgs) && len(msgs) >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d mails to the service handled after %s; %d expected", done, len(msgs), timeout, n)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// waitTurn waits until the n mails sent to the service are handled and
// their answers delivered, and returns a seat the game waits on with the
// mail that offers it commands.
func waitTurn(t *testing.T, ctx context.Context, w *World, gameID int64, players []string, n int) (string, Mail) {
	t.Helper()
	waitProcessed(t, ctx, w, n, 2*time.Minute)
	checkDelivered(t, ctx, w, players)
	seats, err := w.Store.Seats(ctx, gameID)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range seats {
		if s.Deadline.IsZero() {
			continue
		}
		mails, err := w.Inbox(ctx, s.Address)
		if err != nil {
			t.Fatal(err)
		}
		// Postfix and Dovecot may give a later mail a lower UID: the
		// mail that offers commands is found by the scripted players'
		// rule (follow.go), not as the last one read.
		cur, ok := Current(mails)
		if !ok || len(Offered(cur.Text)) == 0 {
			t.Fatalf("game %d waits on %s, none of whose %d mails offers a command", gameID, s.Address, len(mails))
		}
		return s.Address, cur
	}
	t.Fatalf("game %d waits on nobody", gameID)
	return "", Mail{}
}

// TestRealMailGameAtServeLimits is TestWholeGameAtServeLimits through
// Postfix and Dovecot: four scripted players who answer the moment their
// mail lands finish a Felix game with `pbem serve`'s default limits, and
// every command they sent is applied (issue 23: the loop breaker dropped
// a move after 37 decisions and the game waited for its deadline).
func TestRealMailGameAtServeLimits(t *testing.T) {
	ctx := context.Background()
	w, err := Start(ctx, Options{Seed: 23, Mail: mailSystem(t), ServeLimits: true})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	players := []string{w.Player("alice"), w.Player("bob"), w.Player("carol"), w.Player("dave")}
	playNoneDropped(t, ctx, w, players)
	checkDelivered(t, ctx, w, players)
}
