//go:build integration

package demo

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pbem/pbem/internal/config"
	"github.com/pbem/pbem/internal/mailbox"
	"github.com/pbem/pbem/store"
)

// The audit's attack on one mailbox (issue 33, finding 1): ten forged
// senders, each a +tag spelling of the victim's address, send five mails
// each, every one inviting five more +tag spellings of it. Then ten
// forged strangers, of mailboxes of their own, invite one +tag spelling
// each beside a bystander: invitations pbem does not refuse for naming
// one mailbox twice, so that its weekly invitation limit is what holds.
const (
	forgedSenders    = 10
	mailsPerSender   = 5
	invitedSpellings = "abcde"
	forgedStrangers  = 10
)

// TestRealMailOneMailboxOneLimit plays issue 33's spam-cannon attack
// through Postfix and Dovecot, black-box: 50 forged mails to pbem's
// address, `new gracias with victim+a@… victim+e@…` from victim+f0@ …
// victim+f9@, every address a +tag spelling of one real Dovecot mailbox
// (Postfix and Dovecot deliver victim+x@ to victim@), then 10 forged
// strangers' `new gracias with victim+gN@… bystanderN@…`. With `pbem
// serve`'s default [limits], the victim's mailbox, read over IMAP once
// pbem has handled all 60 and delivered all it queued, holds at most
// answers_per_day (30) mails, at least one and at most
// invitations_per_week (3) of them invitations, and no Subject carries a
// forged sender. The issue measured 300 mails from the 50 before it: 6
// per forged mail (five invitations and the creator's answer), each
// spelling having budgets of its own.
func TestRealMailOneMailboxOneLimit(t *testing.T) {
	ctx := context.Background()
	begin := time.Now()
	w, err := Start(ctx, Options{Seed: 331, Mail: mailSystem(t), ServeLimits: true})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	limits := config.Default().Limits // what ServeLimits runs with
	victim := w.Player("victim")
	local, domain, _ := strings.Cut(victim, "@")
	spelling := func(tag string) string { return local + "+" + tag + "@" + domain }

	var invited []string
	for _, c := range invitedSpellings {
		invited = append(invited, spelling(string(c)))
	}
	body := "new gracias with " + strings.Join(invited, " ")
	var forgers []string
	for i := range forgedSenders {
		forgers = append(forgers, spelling(fmt.Sprintf("f%d", i)))
	}
	for range mailsPerSender {
		for _, from := range forgers {
			if err := w.Send(ctx, from, w.Address, "new game", "", body); err != nil {
				t.Fatal(err)
			}
		}
	}
	for i := range forgedStrangers {
		stranger := w.Player(fmt.Sprintf("stranger%d", i))
		forgers = append(forgers, stranger)
		text := fmt.Sprintf("new gracias with %s %s", spelling(fmt.Sprintf("g%d", i)), w.Player(fmt.Sprintf("bystander%d", i)))
		if err := w.Send(ctx, stranger, w.Address, "new game", "", text); err != nil {
			t.Fatal(err)
		}
	}
	sent := forgedSenders*mailsPerSender + forgedStrangers
	waitProcessed(t, ctx, w, sent, 3*time.Minute)
	mails := waitVictimDelivered(t, ctx, w, victim, 2*time.Minute)

	invitations := 0
	for _, m := range mails {
		if invitation(m) {
			invitations++
		}
		if f, ok := namedForger(m.Subject, forgers); ok {
			t.Errorf("a mail to the victim names the forged sender %s in its Subject: %q", f, m.Subject)
		}
	}
	t.Logf("%d forged mails to %s: the victim's mailbox got %d mails, %d of them invitations, in %s",
		sent, w.Address, len(mails), invitations, time.Since(begin).Round(time.Second))
	if len(mails) > limits.AnswersPerDay {
		t.Errorf("the victim's mailbox got %d mails from %d forged ones, want at most answers_per_day (%d)", len(mails), sent, limits.AnswersPerDay)
	}
	if invitations == 0 || invitations > limits.InvitationsPerWeek {
		t.Errorf("the victim's mailbox got %d invitations from %d forged mails, want 1 to invitations_per_week (%d)",
			invitations, sent, limits.InvitationsPerWeek)
	}
}

// namedForger is the forged sender whose local part a Subject holds, if
// any: the text a forger chose for his From must not reach a Subject.
func namedForger(subject string, forgers []string) (string, bool) {
	for _, f := range forgers {
		if l, _, _ := strings.Cut(f, "@"); strings.Contains(strings.ToLower(subject), strings.ToLower(l)) {
			return f, true
		}
	}
	return "", false
}

// waitVictimDelivered waits until pbem's outbox has nothing pending or
// dead and the victim's mailbox, read over IMAP, holds every mail pbem
// queued to any spelling of it (Postfix delivers after it accepted, so
// the last ones may still be on their way); it returns the mailbox's
// mails.
func waitVictimDelivered(t *testing.T, ctx context.Context, w *World, victim string, timeout time.Duration) []Mail {
	t.Helper()
	rule := w.limits.Mailbox
	deadline := time.Now().Add(timeout)
	for {
		stats, err := w.Store.OutboxStats(ctx, time.Now().Add(time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		queued, err := queuedToMailbox(ctx, w.Store, rule, victim)
		if err != nil {
			t.Fatal(err)
		}
		mails, err := w.Inbox(ctx, victim)
		if err != nil {
			t.Fatal(err)
		}
		if stats.Pending == 0 && stats.Dead == 0 && len(mails) >= queued {
			return mails
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %s: outbox %d pending, %d dead; the victim's mailbox holds %d of the %d mails queued to it",
				timeout, stats.Pending, stats.Dead, len(mails), queued)
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// queuedToMailbox counts the mails pbem ever queued to an address that
// reaches addr's mailbox.
func queuedToMailbox(ctx context.Context, st *store.Store, rule mailbox.Rule, addr string) (int, error) {
	out, err := st.AllOutgoing(ctx)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, o := range out {
		if rule.Same(o.To, addr) {
			n++
		}
	}
	return n, nil
}
