//go:build integration

package demo

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pbem/pbem/mailer"
)

// TestLMTPRealMail has Postfix deliver pbem's mail to it by LMTP
// (scripts/mailstack routes lmtp-PORT.example.test to 127.0.0.1:PORT),
// while the players' mail goes to Dovecot as ever (issue 27, Done when:
// "A new mail delivered over LMTP gets 250 and its answer within a
// second"). It checks that Postfix got 250 for the mail and that the
// answers land; how long they took is logged, not asserted (tests never
// time), and recorded in BENCHMARKS.md. A mail Postfix delivers again
// (same Message-ID) is answered 250 and applied once.
func TestLMTPRealMail(t *testing.T) {
	ctx := context.Background()
	w, err := Start(ctx, Options{Seed: 27, Mail: mailSystem(t), LMTP: true})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	t.Logf("service %s, LMTP on %s", w.Address, w.LMTPAddr)
	alice, bob, carol := w.Player("alice"), w.Player("bob"), w.Player("carol")
	for _, p := range []string{alice, bob, carol} {
		if _, err := w.Inbox(ctx, p); err != nil { // log in before the clock starts
			t.Fatal(err)
		}
	}

	begin := time.Now()
	if err := w.Send(ctx, alice, w.Address, "new", "", fmt.Sprintf("new felix with %s %s", bob, carol)); err != nil {
		t.Fatal(err)
	}
	landed := waitMail(t, ctx, w, []string{alice, bob, carol}, 1)
	line := waitPostfixLog(t, w.Address, w.LMTPAddr)
	t.Logf("Postfix: %s", line)
	slices.SortFunc(landed, time.Time.Compare)
	t.Logf("new: first answer %s, all three %s after the SMTP submission began",
		landed[0].Sub(begin).Round(time.Millisecond), landed[len(landed)-1].Sub(begin).Round(time.Millisecond))

	newMail := w.SentMails()[0]
	in, err := w.Store.InboundByMessageID(ctx, newMail.MessageID)
	if err != nil || in.Mailbox != mailer.LMTPMailbox || in.Outcome != "applied" {
		t.Fatalf("the new mail's record: %+v (%v); want one from LMTP, applied", in, err)
	}

	// Delivered again, as after a crash between the commit and the 250:
	// answered 250, applied no second time.
	if err := w.SendRaw(ctx, alice, w.Address, newMail.Raw); err != nil {
		t.Fatal(err)
	}
	waitLogCount(t, w.Address, w.LMTPAddr, 2)
	all, err := w.Store.AllInbound(ctx)
	if err != nil || len(all) != 1 {
		t.Fatalf("%d inbound records (%v), want 1 after the mail came twice", len(all), err)
	}

	// The latency of a few answers, one at a time (light load).
	var took []time.Duration
	for range 10 {
		have := len(mustInbox(t, ctx, w, alice))
		begin := time.Now()
		if err := w.Send(ctx, alice, w.Address, "help", "", "help"); err != nil {
			t.Fatal(err)
		}
		got := waitMail(t, ctx, w, []string{alice}, have+1)
		took = append(took, got[0].Sub(begin))
	}
	slices.Sort(took)
	t.Logf("help, 10 one at a time: min %s, median %s, max %s (SMTP submission to the answer found in the player's mailbox)",
		took[0].Round(time.Millisecond), took[len(took)/2].Round(time.Millisecond), took[len(took)-1].Round(time.Millisecond))
}

func mustInbox(t *testing.T, ctx context.Context, w *World, p string) []Mail {
	t.Helper()
	got, err := w.Inbox(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// waitMail waits until each of players has at least n mails, looking
// every 5 ms, and returns when each was first seen so.
func waitMail(t *testing.T, ctx context.Context, w *World, players []string, n int) []time.Time {
	t.Helper()
	at := make([]time.Time, len(players))
	deadline := time.Now().Add(time.Minute)
	for {
		done := true
		for i, p := range players {
			if !at[i].IsZero() {
				continue
			}
			if len(mustInbox(t, ctx, w, p)) >= n {
				at[i] = time.Now()
			} else {
				done = false
			}
		}
		if done {
			return at
		}
		if time.Now().After(deadline) {
			t.Fatalf("after a minute, mails landed at %v (zero: none yet) for %v", at, players)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// postfixLog is scripts/mailstack's Postfix log.
func postfixLog() string {
	dir := os.Getenv("PBEM_MAILSTACK_DIR")
	if dir == "" {
		dir = "/tmp/pbem-mailstack"
	}
	return filepath.Join(dir, "postfix.log")
}

// deliveredLines are Postfix's log lines of mail to addr delivered by
// LMTP to lmtpAddr and answered 250.
func deliveredLines(t *testing.T, addr, lmtpAddr string) []string {
	t.Helper()
	b, err := os.ReadFile(postfixLog())
	if err != nil {
		t.Fatal(err)
	}
	host, port, _ := strings.Cut(lmtpAddr, ":")
	re := regexp.MustCompile(`to=<` + regexp.QuoteMeta(addr) + `>, relay=` + regexp.QuoteMeta(host) + `\[` + regexp.QuoteMeta(host) + `\]:` + port + `, .*status=sent \(250 `)
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if re.MatchString(l) {
			out = append(out, l)
		}
	}
	return out
}

func waitPostfixLog(t *testing.T, addr, lmtpAddr string) string {
	t.Helper()
	return waitLogCount(t, addr, lmtpAddr, 1)[0]
}

func waitLogCount(t *testing.T, addr, lmtpAddr string, n int) []string {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		if got := deliveredLines(t, addr, lmtpAddr); len(got) >= n {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("Postfix logged no %d deliveries to %s by LMTP with 250 within a minute (%s)", n, addr, postfixLog())
		}
		time.Sleep(20 * time.Millisecond)
	}
}
